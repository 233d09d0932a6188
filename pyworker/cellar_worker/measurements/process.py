"""Upload processing and extension over local files (the storage glue is in activities.py).

Both functions write their outputs into ``out_dir`` and only report success when the
series passed validation; on failure the caller uploads nothing.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from . import columns as col
from . import issues as iss
from .issues import ValidationOptions
from .overview import overview_name, write_overview
from .pipeline import PassResult, SeriesPass
from .reader import DEFAULT_BATCH_ROWS, MeasurementFileError, SeriesSource, open_series, read_table
from .step_labels import merge_step_annotations

# Dictionary encoding only pays off for the count columns; on float measurements it
# makes writing several times slower, and so do statistics on every column (kept for the
# columns readers filter on). Snappy is fast and every Parquet reader has it (the API
# reads these files too).
PARQUET_WRITE_OPTIONS = {
    "compression": "snappy",
    "use_dictionary": sorted(col.COUNTS),
    "write_statistics": [col.TIME, col.STEP, col.CYCLE],
}


class ProcessingCancelled(Exception):
    """The activity was cancelled; processing stopped between two batches."""


class Progress:
    """Rows processed so far, read by the heartbeat loop; also carries cancellation."""

    def __init__(self) -> None:
        self.rows_done = 0
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()

    def advance(self, rows: int) -> None:
        self.rows_done += rows
        if self._cancelled.is_set():
            raise ProcessingCancelled()


@dataclass
class Outcome:
    status: str  # "ready" | "failed"
    issues: list[dict]
    row_count: int = 0
    columns: list[str] = field(default_factory=list)
    first_time: float | None = None
    last_time: float | None = None
    time_series_path: str | None = None
    steps_path: str | None = None
    cycles_path: str | None = None
    overview_path: str | None = None  # only for a long series (see overview.py)
    steps_created: int = 0


def output_names(version: int | None) -> dict[str, str]:
    """File names of the outputs; extensions get versioned names so nothing is overwritten."""
    suffix = f".v{version}" if version else ""
    return {kind: f"{kind}{suffix}.parquet" for kind in ("time_series", "steps", "cycles")}


def _failed(issues: list[dict]) -> Outcome:
    return Outcome(status="failed", issues=issues)


def _dropped_warning(source: SeriesSource) -> list[dict]:
    if not source.dropped:
        return []
    return [
        iss.make_issue(
            iss.UNKNOWN_COLUMNS_DROPPED,
            f"Column(s) {', '.join(repr(name) for name in source.dropped)} of the {source.label} file are not "
            "canonical time-series columns and were not stored.",
            {"columns": source.dropped, "file": source.label},
            iss.WARNING,
        )
    ]


def _run_pass(series_pass: SeriesPass, batches: Iterator[dict[str, np.ndarray]], path: str, progress: Progress) -> None:
    # Decoding, numpy work and encoding each release the GIL, so reading ahead and
    # writing behind on their own threads keeps both cores busy.
    with _Background(_write_batches(path, series_pass.schema)) as writer, _ReadAhead(batches) as prefetched:
        series_pass.sink = writer.send
        for batch in prefetched:
            series_pass.feed(batch)
            progress.advance(len(batch[col.TIME]))


def _write_batches(path: str, schema: pa.Schema):
    """Consumer generator: each batch sent in becomes a row group; closing it ends the file."""
    with pq.ParquetWriter(path, schema, **PARQUET_WRITE_OPTIONS) as writer:
        while True:
            writer.write_batch((yield))


class _Background:
    """Runs a consumer generator on a thread, fed through a small bounded queue."""

    def __init__(self, consumer, depth: int = 2):
        self._queue: queue.Queue = queue.Queue(maxsize=depth)
        self._consumer = consumer
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> _Background:
        next(self._consumer)
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            while (item := self._queue.get()) is not None:
                self._consumer.send(item)
        except BaseException as error:  # handed to the caller's thread by send / __exit__
            self._error = error
            while self._queue.get() is not None:  # keep the producer from blocking
                pass
        try:
            self._consumer.close()
        except BaseException as error:
            self._error = self._error or error

    def send(self, item) -> None:
        if self._error is not None:
            raise self._error
        self._queue.put(item)

    def __exit__(self, *exc_info) -> None:
        self._queue.put(None)
        self._thread.join()
        if self._error is not None and exc_info[0] is None:
            raise self._error


class _ReadAhead:
    """Iterates ``source`` on a thread, at most ``depth`` items ahead of the consumer."""

    def __init__(self, source: Iterator, depth: int = 2):
        self._queue: queue.Queue = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(source,), daemon=True)

    def __enter__(self) -> _ReadAhead:
        self._thread.start()
        return self

    def _run(self, source: Iterator) -> None:
        try:
            for item in source:
                if not self._put(("item", item)):
                    return
            self._put(("end", None))
        except BaseException as error:  # re-raised in the consumer's thread
            self._put(("error", error))

    def _put(self, message) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(message, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def __iter__(self) -> Iterator:
        while True:
            kind, value = self._queue.get()
            if kind == "item":
                yield value
            elif kind == "error":
                raise value
            else:
                return

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()


def _finish(
    series_pass: SeriesPass,
    result: PassResult,
    out_dir: str,
    names: dict[str, str],
    annotations: tuple[pa.Table, str] | None,
) -> Outcome:
    """Write the summaries; ``annotations`` is a client steps table (and its file label) to merge in."""
    if iss.has_errors(result.issues):
        return _failed(result.issues)
    paths = {kind: os.path.join(out_dir, name) for kind, name in names.items()}
    steps = result.steps
    if annotations is not None:
        steps, warnings = merge_step_annotations(steps, *annotations)
        result.issues.extend(warnings)
    pq.write_table(steps, paths["steps"], **PARQUET_WRITE_OPTIONS)
    pq.write_table(result.cycles, paths["cycles"], **PARQUET_WRITE_OPTIONS)
    overview = os.path.join(out_dir, overview_name(names["time_series"]))
    has_overview = write_overview(paths["time_series"], overview, PARQUET_WRITE_OPTIONS)
    return Outcome(
        status="ready",
        issues=result.issues,
        row_count=result.row_count,
        columns=series_pass.columns,
        first_time=result.first_time,
        last_time=result.last_time,
        time_series_path=paths["time_series"],
        steps_path=paths["steps"],
        cycles_path=paths["cycles"],
        overview_path=overview if has_overview else None,
        steps_created=steps.num_rows,
    )


def process_upload(
    source_path: str,
    out_dir: str,
    options: ValidationOptions,
    *,
    steps_path: str | None = None,
    option_issues: list[dict] | None = None,
    progress: Progress | None = None,
    batch_rows: int = DEFAULT_BATCH_ROWS,
) -> Outcome:
    """Read, validate and derive an uploaded time series into canonical Parquet files.

    The steps and cycles summaries are always derived from the time series; an uploaded
    steps file adds its ``Label`` and extra columns to the steps summary (step_labels.py).
    ``batch_rows`` bounds the rows held in memory at once.
    """
    progress = progress or Progress()
    leading = list(option_issues or [])
    names = output_names(None)
    try:
        source = open_series(source_path)
        leading += _dropped_warning(source)
        series_pass = SeriesPass(source.columns, options)
        _run_pass(series_pass, source.iter_batches(batch_rows), os.path.join(out_dir, names["time_series"]), progress)
    except MeasurementFileError as error:
        return _failed(leading + [error.issue])
    result = series_pass.finish(leading)
    annotations = None
    if steps_path is not None:
        try:
            annotations = (read_table(steps_path, "steps"), "steps")
        except MeasurementFileError as error:
            result.issues.append(error.issue)
    return _finish(series_pass, result, out_dir, names, annotations)


# --- extension -----------------------------------------------------------------------


@dataclass
class _StoredTail:
    columns: list[str]
    derived: list[str]
    last_row: dict[str, float]
    last_time: float | None


def _stored_tail(path: str) -> _StoredTail:
    parquet = pq.ParquetFile(path)
    metadata = parquet.schema_arrow.metadata or {}
    derived = [name for name in metadata.get(b"cellar:derived_columns", b"").decode().split(",") if name]
    last_group = parquet.read_row_group(parquet.num_row_groups - 1)
    last_row = {name: last_group.column(name)[-1].as_py() for name in last_group.column_names}
    last_time = None
    for group in reversed(range(parquet.num_row_groups)):
        times = parquet.read_row_group(group, columns=[col.TIME]).column(0).to_numpy(zero_copy_only=False)
        times = times[~np.isnan(times)]
        if len(times):
            last_time = float(times[-1])
            break
    return _StoredTail(col.ordered(parquet.schema_arrow.names), derived, last_row, last_time)


def _delta_head(delta: SeriesSource) -> tuple[dict[str, float], float | None]:
    """The delta's first row and its first non-empty time."""
    first_row: dict[str, float] | None = None
    for batch in delta.iter_batches():
        if first_row is None:
            first_row = {name: float(values[0]) for name, values in batch.items()}
        times = batch[col.TIME][~np.isnan(batch[col.TIME])]
        if len(times):
            return first_row, float(times[0])
    return first_row or {}, None


@dataclass
class _Continuation:
    """How delta rows are renumbered to continue the stored series (see README.md)."""

    step_offset: float
    cycle_offset: float
    continued_step: float | None  # the stored step the delta's first rows continue, if any
    cumulative_offsets: dict[str, float]

    def apply(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        out = dict(batch)
        if col.STEP in out:
            out[col.STEP] = batch[col.STEP] + self.step_offset
        if col.CYCLE in out:
            out[col.CYCLE] = batch[col.CYCLE] + self.cycle_offset
        if self.continued_step is not None and self.cumulative_offsets:
            continuing = out[col.STEP] == self.continued_step
            for name, offset in self.cumulative_offsets.items():
                out[name] = np.where(continuing, batch[name] + offset, batch[name])
        return out


def _continuation(stored: _StoredTail, first: dict[str, float]) -> _Continuation:
    last_step = float(stored.last_row[col.STEP])
    first_step = first.get(col.STEP, last_step)
    continues = first_step == last_step
    step_offset = 0.0 if continues else last_step + 1 - first_step
    last_cycle = float(stored.last_row[col.CYCLE])
    first_cycle = first.get(col.CYCLE, last_cycle)
    cycle_offset = last_cycle - first_cycle if first_cycle < last_cycle else 0.0
    offsets = {}
    if continues:
        for name in col.CUMULATIVE:
            stored_value = stored.last_row.get(name)
            if name in first and stored_value is not None and first[name] < stored_value - 1e-6:
                # The delta restarted its count: add what was stored plus the interval
                # between the last stored row and the delta's first row.
                offsets[name] = float(stored_value) + _boundary_increment(stored, first, name) - first[name]
    return _Continuation(step_offset, cycle_offset, last_step if continues else None, offsets)


def _boundary_increment(stored: _StoredTail, first: dict[str, float], name: str) -> float:
    """Trapezoid of the ``name`` integrand between the last stored row and the delta's first row."""
    t_first = _number(first.get(col.TIME))
    if stored.last_time is None or t_first is None:
        return 0.0

    def integrand(row: dict) -> float:
        current = _number(row.get(col.CURRENT)) or 0.0
        power = _number(row.get(col.POWER))
        if power is None:
            power = (_number(row.get(col.VOLTAGE)) or 0.0) * current
        signal = power if name in (col.DISCHARGE_ENERGY, col.CHARGE_ENERGY) else current
        return max(signal, 0.0) if name in (col.DISCHARGE_CAPACITY, col.DISCHARGE_ENERGY) else max(-signal, 0.0)

    return 0.5 * (integrand(stored.last_row) + integrand(first)) * (t_first - stored.last_time) / 3600.0


def _number(value) -> float | None:
    return None if value is None or value != value else float(value)


def extend_series(
    current_path: str,
    delta_path: str,
    out_dir: str,
    options: ValidationOptions,
    *,
    version: int,
    steps_path: str | None = None,
    option_issues: list[dict] | None = None,
    progress: Progress | None = None,
) -> Outcome:
    """Append a delta to a stored canonical series, writing a new versioned series.

    The stored files are only read. The combined series is validated in full (so the
    boundary is checked like any other pair of rows) and steps and cycles are
    recomputed from it. ``steps_path`` is the stored steps summary of the current
    series: its labels and extra columns carry over to the steps that existed before.
    """
    progress = progress or Progress()
    leading = list(option_issues or [])
    stored = _stored_tail(current_path)
    try:
        # The re-derived summary has no labels; without the previous one they would be lost.
        annotations = (read_table(steps_path, "stored steps"), "stored steps") if steps_path else None
        delta = open_series(delta_path, "extension")
        leading += _dropped_warning(delta)
        mismatch = _columns_mismatch(stored, delta.columns)
        if mismatch:
            return _failed(leading + [mismatch])
        first_row, first_time = _delta_head(delta)
        if first_time is None or (stored.last_time is not None and first_time <= stored.last_time):
            return _failed(leading + [_not_after_issue(stored.last_time, first_time)])
        continuation = _continuation(stored, first_row)
        series_pass = SeriesPass(stored.columns, options, derived=stored.derived)
        names = output_names(version)
        batches = _chain(
            open_series(current_path, "stored time series").iter_batches(),
            (continuation.apply(batch) for batch in delta.iter_batches()),
        )
        _run_pass(series_pass, batches, os.path.join(out_dir, names["time_series"]), progress)
    except MeasurementFileError as error:
        return _failed(leading + [error.issue])
    return _finish(series_pass, series_pass.finish(leading), out_dir, names, annotations)


def _chain(*iterators: Iterator) -> Iterator:
    for iterator in iterators:
        yield from iterator


def _columns_mismatch(stored: _StoredTail, delta_columns: list[str]) -> dict | None:
    required = set(stored.columns) - set(stored.derived)
    missing = sorted(required - set(delta_columns))
    unexpected = sorted(set(delta_columns) - set(stored.columns))
    if not missing and not unexpected:
        return None
    parts = []
    if missing:
        parts.append(f"lacks {', '.join(repr(name) for name in missing)}")
    if unexpected:
        parts.append(f"has {', '.join(repr(name) for name in unexpected)} which the stored series does not")
    return iss.make_issue(
        iss.EXTEND_COLUMNS_MISMATCH,
        f"The extension must have the same columns as the stored series, but it {' and '.join(parts)}.",
        {
            "missing_columns": missing,
            "unexpected_columns": unexpected,
            "stored_columns": stored.columns,
            "optional_columns": stored.derived,
        },
    )


def _not_after_issue(last_time: float | None, first_time: float | None) -> dict:
    if first_time is None:
        message = f"The extension has no '{col.TIME}' values, so it cannot be placed after the stored series."
    else:
        message = (
            f"The extension starts at {first_time:g} s, but it must start after the last stored sample at "
            f"{last_time:g} s; send times that continue the stored series' clock."
        )
    return iss.make_issue(
        iss.EXTEND_NOT_AFTER_LAST_SAMPLE,
        message,
        {"last_stored_time": last_time, "first_extension_time": first_time},
    )

"""Extension: a delta appended to a stored canonical series, renumbered to continue it, and
the whole validated again into a new version (the storage glue is in activities.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pyarrow.parquet as pq

from . import columns as col
from . import issues as iss
from .issues import ValidationOptions
from .pipeline import SeriesPass
from .process import Outcome, dropped_columns_warning, failed_outcome, finish_outcome, output_names
from .reader import MeasurementFileError, SeriesSource, open_series, read_table
from .streaming import Progress, run_pass


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
        leading += dropped_columns_warning(delta)
        mismatch = _columns_mismatch(stored, delta.columns)
        if mismatch:
            return failed_outcome(leading + [mismatch])
        first_row, first_time = _delta_head(delta)
        if first_time is None or (stored.last_time is not None and first_time <= stored.last_time):
            return failed_outcome(leading + [_not_after_issue(stored.last_time, first_time)])
        continuation = _continuation(stored, first_row)
        series_pass = SeriesPass(stored.columns, options, derived=stored.derived)
        names = output_names(version)
        batches = _chain(
            open_series(current_path, "stored time series").iter_batches(),
            (continuation.apply(batch) for batch in delta.iter_batches()),
        )
        run_pass(series_pass, batches, os.path.join(out_dir, names["time_series"]), progress)
    except MeasurementFileError as error:
        return failed_outcome(leading + [error.issue])
    return finish_outcome(series_pass, series_pass.finish(leading), out_dir, names, annotations)


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

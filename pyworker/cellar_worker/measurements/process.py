"""Upload processing over local files (the storage glue is in activities.py; extension is in
extend.py), and the outcome both share.

Both write their outputs into ``out_dir`` and only report success when the
series passed validation; on failure the caller uploads nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.parquet as pq

from . import issues as iss
from .issues import ValidationOptions
from .overview import overview_name, write_overview
from .pipeline import PassResult, SeriesPass
from .reader import DEFAULT_BATCH_ROWS, MeasurementFileError, SeriesSource, open_series, read_table
from .step_labels import merge_step_annotations
from .streaming import PARQUET_WRITE_OPTIONS, Progress, run_pass


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


def failed_outcome(issues: list[dict]) -> Outcome:
    return Outcome(status="failed", issues=issues)


def dropped_columns_warning(source: SeriesSource) -> list[dict]:
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


def finish_outcome(
    series_pass: SeriesPass,
    result: PassResult,
    out_dir: str,
    names: dict[str, str],
    annotations: tuple[pa.Table, str] | None,
) -> Outcome:
    """Write the summaries; ``annotations`` is a client steps table (and its file label) to merge in."""
    if iss.has_errors(result.issues):
        return failed_outcome(result.issues)
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
        leading += dropped_columns_warning(source)
        series_pass = SeriesPass(source.columns, options)
        run_pass(series_pass, source.iter_batches(batch_rows), os.path.join(out_dir, names["time_series"]), progress)
    except MeasurementFileError as error:
        return failed_outcome(leading + [error.issue])
    result = series_pass.finish(leading)
    annotations = None
    if steps_path is not None:
        try:
            annotations = (read_table(steps_path, "steps"), "steps")
        except MeasurementFileError as error:
            result.issues.append(error.issue)
    return finish_outcome(series_pass, result, out_dir, names, annotations)

"""Client step annotations (``Label`` and the client's own columns) joined onto the derived steps summary.

The stored summary is always derived from the series, so it has every documented column
and agrees with the series. A steps table from the client (the upload's steps file, or on
an extend the previous stored summary) contributes only what the series cannot give:
``Label`` and columns the summary does not have, matched by ``Step count``. Rows that
cannot be matched are reported as warnings, never dropped silently.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import columns as col
from . import issues as iss

LABEL = "Label"
MAX_EXAMPLES = 10


def merge_step_annotations(summary: pa.Table, source: pa.Table, label: str) -> tuple[pa.Table, list[dict]]:
    """``summary`` with ``source``'s label and extra columns; warnings for rows that do not fit.

    ``label`` names the source in messages (``"steps"`` for an upload, ``"stored steps"``
    on an extend).
    """
    names = [name.strip() for name in source.column_names]
    if col.STEP not in names:
        return summary, [_step_count_missing(source, label)]
    raw_keys = source.column(names.index(col.STEP))
    keys = _step_numbers(raw_keys)
    steps = summary.column(col.STEP).to_numpy()
    # NaN and fractional keys match no (integer) step count.
    known_rows = np.flatnonzero(np.isin(keys, steps))
    values, first = np.unique(keys[known_rows], return_index=True)
    chosen = known_rows[first]
    issues = []
    unknown_rows = np.setdiff1d(np.arange(len(keys)), known_rows)
    if len(unknown_rows):
        issues.append(_unknown_step_counts(raw_keys, unknown_rows, len(steps), label))
    duplicate_rows = np.setdiff1d(known_rows, chosen)
    if len(duplicate_rows):
        issues.append(_duplicate_step_counts(raw_keys, duplicate_rows, label))

    position = np.minimum(np.searchsorted(values, steps), max(len(values) - 1, 0))
    hit = (values[position] == steps) if len(values) else np.zeros(len(steps), bool)
    take = pa.array(np.where(hit, chosen[position] if len(chosen) else 0, 0), mask=~hit)

    # Derived columns always win: the summary must agree with the series.
    derived = set(summary.column_names) - {LABEL}
    merged, seen = summary, {col.STEP}
    for index, name in enumerate(names):
        if name in seen or name in derived:
            continue
        seen.add(name)
        column = _flat(source.column(index).combine_chunks()).take(take)
        if name == LABEL:
            merged = merged.set_column(merged.schema.get_field_index(LABEL), LABEL, _strings(column))
        else:
            merged = merged.append_column(name, column)
    return merged, issues


def _step_numbers(column: pa.ChunkedArray) -> np.ndarray:
    """``Step count`` as float64, NaN where a value is empty or not a number."""
    if pa.types.is_dictionary(column.type):
        column = column.cast(column.type.value_type)
    kind = column.type
    if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        return pc.fill_null(pc.cast(column, pa.float64()), np.nan).to_numpy()
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return np.array([_number(value) for value in column.to_pylist()], dtype=float)
    return np.full(len(column), np.nan)


def _number(text: str | None) -> float:
    try:
        return float(text.strip())
    except (AttributeError, ValueError):
        return np.nan


def _flat(values: pa.Array) -> pa.Array:
    """Nested values as JSON text: the API reads summaries as flat tables."""
    if not pa.types.is_nested(values.type):
        return values
    return pa.array(
        [None if value is None else json.dumps(value, default=str) for value in values.to_pylist()], pa.string()
    )


def _strings(values: pa.Array) -> pa.Array:
    """``Label`` is always text, whatever type the client's file gave it."""
    try:
        return pc.cast(values, pa.string())
    except (pa.ArrowNotImplementedError, pa.ArrowInvalid):
        return pa.array([None if value is None else str(value) for value in values.to_pylist()], pa.string())


def _examples(raw_keys: pa.ChunkedArray, rows: np.ndarray) -> list:
    examples: list = []
    for value in raw_keys.take(pa.array(rows)).to_pylist():
        if isinstance(value, str) and not value.strip():
            value = None  # an empty CSV cell reads as ""
        elif not isinstance(value, (type(None), bool, int, float, str)):
            value = str(value)  # payloads cross the Temporal boundary as JSON (dates, decimals)
        if value not in examples:
            examples.append(value)
            if len(examples) == MAX_EXAMPLES:
                break
    return examples


def _step_count_missing(source: pa.Table, label: str) -> dict:
    return iss.make_issue(
        iss.STEPS_FILE_STEP_COUNT_MISSING,
        f"The {label} file has no '{col.STEP}' column, so its rows cannot be matched to the steps of the "
        "series and its labels and other columns were not stored.",
        {"file": label, "column": col.STEP, "available_columns": source.column_names},
        iss.WARNING,
    )


def _unknown_step_counts(raw_keys: pa.ChunkedArray, rows: np.ndarray, num_steps: int, label: str) -> dict:
    examples = _examples(raw_keys, rows)
    shown = ", ".join("empty" if value is None else repr(value) for value in examples)
    return iss.make_issue(
        iss.STEPS_FILE_UNKNOWN_STEP_COUNTS,
        f"{len(rows)} row(s) of the {label} file name a '{col.STEP}' the series does not have ({shown}); "
        f"the series has steps 0 to {num_steps - 1}. Their labels and other columns were not stored.",
        {"file": label, "step_counts": examples, "num_rows": len(rows), "num_series_steps": num_steps},
        iss.WARNING,
    )


def _duplicate_step_counts(raw_keys: pa.ChunkedArray, rows: np.ndarray, label: str) -> dict:
    examples = _examples(raw_keys, rows)
    return iss.make_issue(
        iss.STEPS_FILE_DUPLICATE_STEP_COUNTS,
        f"{len(rows)} row(s) of the {label} file repeat a '{col.STEP}' of an earlier row "
        f"({', '.join(repr(value) for value in examples)}); only the first row of each step was used.",
        {"file": label, "step_counts": examples, "num_rows": len(rows)},
        iss.WARNING,
    )

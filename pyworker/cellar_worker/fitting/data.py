"""Measured data a fit or a validation compares the model against.

A data reference is one of:

- ``{"source": "storage", "key": "<object key of a canonical time_series.parquet>"}``
  (the API resolves ``"db:<measurement_id>"`` to this after checking access);
- ``{"source": "inline", "columns": {"Time [s]": [...], "Current [A]": [...],
  "Voltage [V]": [...]}}``, at most ``MAX_INLINE_ROWS`` rows.

Either may add ``"time_range": [start_s, end_s]`` to use only the rows measured in that
window (e.g. one discharge of a longer test). A stored series may have at most
``MAX_ROWS`` rows in use (``FIT_MAX_ROWS``, default 20,000): the measured current becomes
an interpolant the solver evaluates at every step, and a fit re-solves it many times.

Columns follow the measurement conventions: ``Time [s]`` non-decreasing, ``Current [A]``
positive on discharge (as in PyBaMM), the target (``Voltage [V]`` by default). Rows with a
missing value in a used column are dropped; rows that repeat a time keep the last one
(a step change logged twice at the same instant), and time is shifted to start at 0.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np
import pyarrow.parquet as pq

from .. import settings, storage
from ..simulation.errors import configuration_error, finite

MAX_INLINE_ROWS = 1000


MAX_ROWS = settings.current().fit_max_rows
MIN_ROWS = 3
TIME = "Time [s]"
CURRENT = "Current [A]"
VOLTAGE = "Voltage [V]"
_SOURCES = ("storage", "inline")


@dataclass(frozen=True)
class Dataset:
    time: np.ndarray  # [s], strictly increasing, starts at 0
    current: np.ndarray | None  # [A], positive on discharge; None when not needed
    target: np.ndarray
    target_name: str
    time_offset: float  # the first measured time, subtracted from ``time``
    digest: str  # content hash, part of the built-simulation cache key

    @property
    def n_points(self) -> int:
        return len(self.time)

    @property
    def duration(self) -> float:
        return float(self.time[-1])


def load_dataset(reference, target: str, need_current: bool, path: str = "data") -> Dataset:
    """Read and check a data reference; errors are CONFIGURATION_ERRORs naming ``path``."""
    if not isinstance(reference, dict):
        raise configuration_error(
            f"{path}: must be {{'source': 'storage', 'key': ...}} or {{'source': 'inline', 'columns': {{...}}}}"
        )
    source = reference.get("source")
    if source not in _SOURCES:
        raise configuration_error(f"{path}.source: must be one of {', '.join(_SOURCES)}, got {source!r}")
    wanted = [TIME, target] + ([CURRENT] if need_current and target != CURRENT else [])
    fields = {"source", "time_range", "columns" if source == "inline" else "key"}
    unknown = sorted(set(reference) - fields)
    if unknown:
        raise configuration_error(
            f"{path}: unknown field(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(sorted(fields))}"
        )
    window = _time_range(reference.get("time_range"), f"{path}.time_range")
    if source == "inline":
        columns = _inline_columns(reference.get("columns"), wanted, f"{path}.columns")
    else:
        columns = _stored_columns(reference.get("key"), wanted, f"{path}.key")
    if window is not None:
        inside = (columns[TIME] >= window[0]) & (columns[TIME] <= window[1])
        columns = {name: values[inside] for name, values in columns.items()}
    if len(columns[TIME]) > MAX_ROWS:
        raise configuration_error(
            f"{path}: {len(columns[TIME])} rows are more than a fit can use ({MAX_ROWS}); "
            "select the part to fit with 'time_range': [start_s, end_s]"
        )
    return _clean(columns, target, need_current, path)


def _time_range(raw, path: str) -> tuple[float, float] | None:
    if raw is None:
        return None
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise configuration_error(f"{path}: must be [start_s, end_s]")
    start, end = (finite(value, f"{path}[{index}]") for index, value in enumerate(raw))
    if start >= end:
        raise configuration_error(f"{path}: the start ({start:g} s) must be before the end ({end:g} s)")
    return start, end


def _inline_columns(columns, wanted: list[str], path: str) -> dict[str, np.ndarray]:
    if not isinstance(columns, dict):
        raise configuration_error(f"{path}: must map column names to lists of numbers")
    out: dict[str, np.ndarray] = {}
    for name in wanted:
        if name not in columns:
            raise configuration_error(
                f"{path}: missing column {name!r}; given: {', '.join(map(repr, columns)) or 'none'}"
            )
        values = columns[name]
        if not isinstance(values, list):
            raise configuration_error(f"{path}[{name!r}]: must be a list of numbers")
        if len(values) > MAX_INLINE_ROWS:
            raise configuration_error(
                f"{path}[{name!r}]: inline data is limited to {MAX_INLINE_ROWS} rows, got {len(values)}; "
                "upload larger data as a measurement and reference it instead"
            )
        if any(v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))) for v in values):
            raise configuration_error(f"{path}[{name!r}]: must contain only numbers (or null)")
        out[name] = np.array([math.nan if v is None else v for v in values], dtype=float)
    lengths = {len(values) for values in out.values()}
    if len(lengths) > 1:
        raise configuration_error(
            f"{path}: columns differ in length ({', '.join(f'{k!r}: {len(v)}' for k, v in out.items())})"
        )
    return out


def _stored_columns(key, wanted: list[str], path: str) -> dict[str, np.ndarray]:
    if not isinstance(key, str):
        raise configuration_error(f"{path}: must be the storage key of a time_series.parquet object")
    try:
        storage.check_key(key)
    except ValueError as error:
        raise configuration_error(f"{path}: {error}") from None
    try:
        with storage.open_read(key) as handle:
            parquet = pq.ParquetFile(handle)
            available = parquet.schema_arrow.names
            missing = [name for name in wanted if name not in available]
            if missing:
                raise configuration_error(
                    f"{path}: the stored time series has no column {missing[0]!r}; "
                    f"available: {', '.join(map(repr, available))}"
                )
            table = parquet.read(columns=wanted)
    except FileNotFoundError:
        raise configuration_error(f"{path}: no such object in storage (is the measurement processed?)") from None
    return {name: table.column(name).to_numpy(zero_copy_only=False).astype(float) for name in wanted}


def _clean(columns: dict[str, np.ndarray], target: str, need_current: bool, path: str) -> Dataset:
    keep = np.ones(len(columns[TIME]), dtype=bool)
    for values in columns.values():
        keep &= np.isfinite(values)
    columns = {name: values[keep] for name, values in columns.items()}
    time = columns[TIME]
    if len(time) < MIN_ROWS:
        raise configuration_error(
            f"{path}: needs at least {MIN_ROWS} rows with {', '.join(map(repr, columns))} all set, got {len(time)}"
        )
    steps = np.diff(time)
    if np.any(steps < 0):
        row = int(np.argmax(steps < 0)) + 1
        raise configuration_error(f"{path}: {TIME!r} decreases at row {row}; time must be non-decreasing")
    # Of rows sharing a time, keep the last (the value after a step change).
    last = np.append(steps > 0, True)
    columns = {name: values[last] for name, values in columns.items()}
    time = columns[TIME]
    if len(time) < MIN_ROWS:
        raise configuration_error(f"{path}: needs at least {MIN_ROWS} distinct times, got {len(time)}")
    offset = float(time[0])
    time = time - offset
    current = columns.get(CURRENT) if need_current else None
    digest = hashlib.sha256()
    for values in (time, current if current is not None else np.empty(0)):
        digest.update(np.ascontiguousarray(values, dtype=np.float64).tobytes())
    return Dataset(
        time=time,
        current=current,
        target=columns[target],
        target_name=target,
        time_offset=offset,
        digest=digest.hexdigest(),
    )

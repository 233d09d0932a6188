"""Per-step summary of a battery time series (the ``steps.parquet`` table).

Shared by simulations and, if it wants, measurement processing: both produce the same
canonical time-series columns (``Time [s]``, ``Voltage [V]``, ``Current [A]`` with
positive = discharge, ``Step count``, optional ``Cycle count``, ``Power [W]``, the four
per-step cumulative capacity/energy columns and ``Frequency [Hz]``).

- :func:`step_cumulative_throughput` computes the four capacity/energy columns from time,
  current and voltage (trapezoid rule, reset at each step).
- :func:`summarize_steps` turns a table (``pyarrow.Table``, ``pandas.DataFrame`` or a
  mapping of column name to array) into one row per step, with :data:`SUMMARY_COLUMNS`.

Step types follow the measurement pipeline's rule, by calling it
(:func:`cellar_worker.measurements.steps.step_types`): a step carrying ``Frequency [Hz]``
values is EIS; a rest when its mean ``|I|`` is below 1e-3 A; otherwise it is constant
current, else constant voltage, else constant power (checked in that order) when the
population standard deviation of that quantity is below 1e-2 (A, V, W), charge or
discharge by the sign of its mean current; anything else is ``Unknown step type``.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyarrow as pa

from ..measurements import steps as measured_steps

STEP_TYPES = (
    "Rest",
    "Constant current discharge",
    "Constant current charge",
    "Constant voltage discharge",
    "Constant voltage charge",
    "Constant power discharge",
    "Constant power charge",
    "EIS",
    "Unknown step type",
)
CAPACITY_COLUMNS = (
    "Discharge capacity [A.h]",
    "Charge capacity [A.h]",
    "Discharge energy [W.h]",
    "Charge energy [W.h]",
)
_STATISTICS = (("voltage", "V"), ("current", "A"), ("power", "W"))
SUMMARY_COLUMNS = (
    "Step count",
    "Cycle count",
    "Step type",
    "Start time [s]",
    "End time [s]",
    "Duration [s]",
    "Start voltage [V]",
    "End voltage [V]",
    *(f"{stat} {quantity} [{unit}]" for quantity, unit in _STATISTICS for stat in ("Min", "Max", "Mean", "Std")),
    *CAPACITY_COLUMNS,
    "Label",
)

SUMMARY_SCHEMA = pa.schema(
    [
        (
            name,
            pa.int64()
            if name in ("Step count", "Cycle count")
            else pa.string()
            if name in ("Step type", "Label")
            else pa.float64(),
        )
        for name in SUMMARY_COLUMNS
    ]
)


def _columns(table) -> Mapping[str, np.ndarray]:
    """Read-only column access for pyarrow tables, pandas frames and plain mappings."""
    if isinstance(table, pa.Table):
        return {name: table.column(name).to_numpy(zero_copy_only=False) for name in table.column_names}
    if hasattr(table, "columns") and hasattr(table, "__getitem__") and not isinstance(table, Mapping):
        return {name: np.asarray(table[name]) for name in table.columns}  # pandas DataFrame
    return {name: np.asarray(values) for name, values in table.items()}


def _step_starts(step_count: np.ndarray) -> np.ndarray:
    """Row index where each step begins (a step is a run of equal ``Step count``)."""
    if len(step_count) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.r_[True, step_count[1:] != step_count[:-1]])


def step_cumulative_throughput(time, current, voltage, step_count, power=None) -> dict[str, np.ndarray]:
    """Per-step cumulative discharge/charge capacity [A.h] and energy [W.h].

    Each quantity is the trapezoid integral of ``max(I, 0)`` (discharge) or ``max(-I, 0)``
    (charge), or the same for power, since the first row of its step, so it is 0 at
    every step start and never decreases.
    """
    time = np.asarray(time, dtype=float)
    current = np.asarray(current, dtype=float)
    power = np.asarray(voltage, dtype=float) * current if power is None else np.asarray(power, dtype=float)
    step_count = np.asarray(step_count)
    n = len(time)
    starts = _step_starts(step_count)
    dt = np.diff(time, prepend=time[:1]) / 3600.0
    dt[starts] = 0.0  # no area between the last row of a step and the first of the next
    step_of_row = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, n]))
    result = {}
    for name, signal in zip(
        CAPACITY_COLUMNS,
        (np.maximum(current, 0), np.maximum(-current, 0), np.maximum(power, 0), np.maximum(-power, 0)),
    ):
        increments = 0.5 * (signal + np.r_[signal[:1], signal[:-1]]) * dt
        running = np.cumsum(increments)
        result[name] = running - running[starts][step_of_row]  # increments[start] is 0
    return result


def _step_types(starts, time, step_count, cycle_count, voltage, current, power, frequency, throughput) -> list[str]:
    """Step type per step, by the measurement pipeline's own rule and aggregates.

    The summary is "the same as for measurements", so the rule is called rather than
    copied: the whole series is one batch of the pipeline's per-step reduction.
    """
    if len(starts) == 0:
        return []
    values = {"t": time, "step": step_count, "cycle": cycle_count, "V": voltage, "I": current, "P": power}
    valid = {q: (~np.isnan(values[q]) if np.isnan(values[q]).any() else None) for q in measured_steps.QUANTITIES}
    eis = None if frequency is None else ~np.isnan(frequency)
    parts = measured_steps.run_parts(starts, len(time), values, valid, eis, throughput, throughput, {})
    return list(measured_steps.step_types(parts))


def summarize_steps(table, labels: Mapping[int, str] | None = None) -> pa.Table:
    """The step summary as a table; see :func:`summarize_step_columns`."""
    columns = summarize_step_columns(table, labels)
    return pa.table([columns[name] for name in SUMMARY_COLUMNS], schema=SUMMARY_SCHEMA)


def summarize_step_columns(table, labels: Mapping[int, str] | None = None) -> dict[str, np.ndarray | list]:
    """One row per step of a canonical time series, with :data:`SUMMARY_COLUMNS`, as columns
    (arrays, and lists of strings): a sweep joins many simulations' into one table.

    ``labels`` maps a ``Step count`` value to its ``Label`` (default empty). Missing
    ``Cycle count`` counts as 0; missing ``Power [W]`` is ``V * I``; missing capacity
    or energy columns are computed with :func:`step_cumulative_throughput`.
    """
    columns = _columns(table)
    time = np.asarray(columns["Time [s]"], dtype=float)
    voltage = np.asarray(columns["Voltage [V]"], dtype=float)
    current = np.asarray(columns["Current [A]"], dtype=float)
    step_count = np.asarray(columns["Step count"]).astype(np.int64)
    n = len(time)
    cycle_count = np.asarray(columns.get("Cycle count", np.zeros(n))).astype(np.int64)
    power = np.asarray(columns["Power [W]"], dtype=float) if "Power [W]" in columns else voltage * current
    frequency = np.asarray(columns["Frequency [Hz]"], dtype=float) if "Frequency [Hz]" in columns else None
    if all(name in columns for name in CAPACITY_COLUMNS):
        throughput = {name: np.asarray(columns[name], dtype=float) for name in CAPACITY_COLUMNS}
    else:
        throughput = step_cumulative_throughput(time, current, voltage, step_count, power)

    labels = labels or {}
    starts = _step_starts(step_count)
    if len(starts) == 0:
        return {name: [] for name in SUMMARY_COLUMNS}
    lasts = np.r_[starts[1:], n] - 1
    rows = np.diff(np.r_[starts, n])
    # Per-step statistics in one pass over each column (reduceat), not one call per step: a
    # sweep summarises hundreds of simulations a second. A NaN in a step makes its statistics
    # NaN, as np.min / np.mean would.
    stats: dict[str, np.ndarray] = {}
    typing: dict[str, np.ndarray] = {"rows": rows.astype(float)}
    for (quantity, unit), values, q in zip(_STATISTICS, (voltage, current, power), ("V", "I", "P")):
        mean = np.add.reduceat(values, starts) / rows
        deviation = values - np.repeat(mean, rows)
        m2 = np.add.reduceat(deviation * deviation, starts)
        stats[f"Min {quantity} [{unit}]"] = np.minimum.reduceat(values, starts)
        stats[f"Max {quantity} [{unit}]"] = np.maximum.reduceat(values, starts)
        stats[f"Mean {quantity} [{unit}]"] = mean
        stats[f"Std {quantity} [{unit}]"] = np.sqrt(m2 / rows)
        typing.update({f"n_{q}": typing["rows"], f"mean_{q}": mean, f"M2_{q}": m2})
    if np.isnan(voltage).any() or np.isnan(current).any() or np.isnan(power).any() or frequency is not None:
        types = _step_types(starts, time, step_count, cycle_count, voltage, current, power, frequency, throughput)
    else:
        typing["abs_I"] = np.add.reduceat(np.abs(current), starts)
        typing["eis_rows"] = np.zeros(len(starts))
        types = list(measured_steps.step_types(typing))
    step_values = step_count[starts]
    columns = {
        "Step count": step_values,
        "Cycle count": cycle_count[starts],
        "Step type": types,
        "Start time [s]": time[starts],
        "End time [s]": time[lasts],
        "Duration [s]": time[lasts] - time[starts],
        "Start voltage [V]": voltage[starts],
        "End voltage [V]": voltage[lasts],
        **stats,
        **{name: np.asarray(throughput[name], dtype=float)[lasts] for name in CAPACITY_COLUMNS},
        "Label": [labels.get(int(step), "") for step in step_values],
    }
    return columns

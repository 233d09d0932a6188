"""Per-step accumulators, step typing, and the steps and cycles summaries.

A step is a contiguous run of rows with the same ``Step count``. Each batch is reduced
to one partial aggregate per run (``np.*.reduceat``); the last run stays open and is
merged with the first run of the next batch, so the result does not depend on where
batches split. Means and variances are kept as (count, mean, sum of squared
deviations) and merged with Chan's formula, which stays accurate for long steps.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from . import columns as col

REST_CURRENT_A = 1e-3
CONSTANT_STD = 1e-2

REST = "Rest"
EIS = "EIS"
UNKNOWN = "Unknown step type"

QUANTITIES = ("V", "I", "P")
_SUMMED = ("rows", "abs_I", "eis_rows", "Sq", "Sqq", "SqV")
_MINIMA = tuple(f"min_{q}" for q in QUANTITIES)
_MAXIMA = tuple(f"max_{q}" for q in QUANTITIES)
_FIRST = ("step_index", "step_value", "cycle", "t_start", "V_start")


def run_parts(
    starts: np.ndarray,
    n: int,
    values: dict[str, np.ndarray],
    valid: dict[str, np.ndarray | None],
    eis: np.ndarray | None,
    cumulative: dict[str, np.ndarray],
    integrated: dict[str, np.ndarray],
    reported: dict[str, np.ndarray],
) -> dict[str, np.ndarray]:
    """Aggregates of each run of one batch (runs begin at ``starts``).

    ``values`` holds time (forward-filled), step, cycle, V, I and P; ``valid`` the
    non-NaN masks of V, I and P, or None when a quantity has no NaN in the batch.
    """
    lasts = np.append(starts[1:] - 1, n - 1)
    rows = np.diff(np.append(starts, n)).astype(float)
    current = values["I"] if valid["I"] is None else np.where(valid["I"], values["I"], 0.0)
    parts = {
        "step_value": values["step"][starts],
        "cycle": values["cycle"][starts],
        "rows": rows,
        "t_start": values["t"][starts],
        "t_end": values["t"][lasts],
        "V_start": values["V"][starts],
        "V_end": values["V"][lasts],
        "abs_I": np.add.reduceat(np.abs(current), starts),
        "eis_rows": np.zeros(len(starts)) if eis is None else np.add.reduceat(eis, starts, dtype=float),
    }
    for q in QUANTITIES:
        x, mask = values[q], valid[q]
        if mask is not None:
            x = np.where(mask, x, 0.0)
            count = np.add.reduceat(mask, starts, dtype=float)
        else:
            count = rows.copy()  # merged separately from "rows"
        total = np.add.reduceat(x, starts)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total / count
        parts[f"n_{q}"] = count
        parts[f"mean_{q}"] = mean
        # Within one batch run the raw sum of squares is accurate enough (bounded length).
        parts[f"M2_{q}"] = np.maximum(np.add.reduceat(x * x, starts) - total * np.nan_to_num(mean), 0.0)
        parts[f"min_{q}"] = np.fmin.reduceat(values[q], starts)
        parts[f"max_{q}"] = np.fmax.reduceat(values[q], starts)
    # Sums for the sign-convention fit V = a + b·q, q = charge put in since the step start.
    charge_in = integrated[col.CHARGE_CAPACITY] - integrated[col.DISCHARGE_CAPACITY]
    voltage = values["V"]
    if valid["V"] is not None:
        charge_in = np.where(valid["V"], charge_in, 0.0)
        voltage = np.where(valid["V"], voltage, 0.0)
    parts["Sq"] = np.add.reduceat(charge_in, starts)
    parts["Sqq"] = np.add.reduceat(charge_in * charge_in, starts)
    parts["SqV"] = np.add.reduceat(charge_in * voltage, starts)
    nan_runs = np.full(len(starts), np.nan)
    for name in col.CUMULATIVE:
        parts[f"end_{name}"] = cumulative[name][lasts]
        parts[f"int_{name}"] = integrated[name][lasts]
        parts[f"rep_{name}"] = reported[name][lasts] if name in reported else nan_runs
    return parts


class StepAccumulator:
    """Collects per-step aggregates over a stream of batches."""

    def __init__(self) -> None:
        self._closed: list[dict[str, np.ndarray]] = []
        self._open: dict[str, np.ndarray] | None = None  # one-element arrays
        self.steps_started = 0

    def add(self, parts: dict[str, np.ndarray], continues_open: bool) -> None:
        """Add one batch's run aggregates; run 0 continues the open step if flagged."""
        runs = len(parts["rows"])
        first_index = self.steps_started - (1 if continues_open else 0)
        parts["step_index"] = np.arange(first_index, first_index + runs)
        self.steps_started = first_index + runs
        if continues_open:
            _merge_into_first(parts, self._open)
        elif self._open is not None:
            self._closed.append(self._open)
        if runs > 1:
            self._closed.append({key: values[:-1] for key, values in parts.items()})
        self._open = {key: values[-1:] for key, values in parts.items()}

    def table(self) -> dict[str, np.ndarray]:
        chunks = self._closed + ([self._open] if self._open is not None else [])
        if not chunks:
            return {}
        return {key: np.concatenate([chunk[key] for chunk in chunks]) for key in chunks[0]}


def _merge_into_first(parts: dict[str, np.ndarray], opened: dict[str, np.ndarray]) -> None:
    """Fold the open step's aggregates into run 0 of ``parts`` (Chan et al. for moments)."""
    for key in _SUMMED:
        parts[key][0] += opened[key][0]
    for key in _MINIMA:
        parts[key][0] = np.fmin(parts[key][0], opened[key][0])
    for key in _MAXIMA:
        parts[key][0] = np.fmax(parts[key][0], opened[key][0])
    for key in _FIRST:
        parts[key][0] = opened[key][0]
    for q in QUANTITIES:
        n_a, n_b = opened[f"n_{q}"][0], parts[f"n_{q}"][0]
        n = n_a + n_b
        if n_a == 0:
            continue
        if n_b == 0:
            parts[f"mean_{q}"][0] = opened[f"mean_{q}"][0]
            parts[f"M2_{q}"][0] = opened[f"M2_{q}"][0]
        else:
            delta = parts[f"mean_{q}"][0] - opened[f"mean_{q}"][0]
            parts[f"mean_{q}"][0] = opened[f"mean_{q}"][0] + delta * n_b / n
            parts[f"M2_{q}"][0] += opened[f"M2_{q}"][0] + delta * delta * n_a * n_b / n
        parts[f"n_{q}"][0] = n


def moments(table: dict[str, np.ndarray], q: str) -> tuple[np.ndarray, np.ndarray]:
    """Mean and population standard deviation of quantity ``q`` per step (NaN without values)."""
    n = table[f"n_{q}"]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, table[f"mean_{q}"], np.nan), np.sqrt(table[f"M2_{q}"] / n)


def step_types(table: dict[str, np.ndarray]) -> np.ndarray:
    """Step type per step, following docs/spec/measurement-data.md.

    EIS when any row has a frequency; rest when the mean |I| is below 1e-3 A;
    otherwise the direction is the sign of the mean current (positive = discharge) and
    the step is constant current / voltage / power when that quantity's standard
    deviation is below 1e-2, checked in that order.
    """
    mean_i, std_i = moments(table, "I")
    _, std_v = moments(table, "V")
    _, std_p = moments(table, "P")
    mean_abs_i = table["abs_I"] / np.maximum(table["rows"], 1)
    direction = np.where(mean_i > 0, "discharge", "charge")
    kinds = np.select(
        [std_i < CONSTANT_STD, std_v < CONSTANT_STD, std_p < CONSTANT_STD],
        ["Constant current ", "Constant voltage ", "Constant power "],
        default="",
    )
    types = np.char.add(kinds, direction).astype(object)
    types[kinds == ""] = UNKNOWN
    types[mean_abs_i < REST_CURRENT_A] = REST
    types[table["eis_rows"] > 0] = EIS
    return types


def directions(table: dict[str, np.ndarray], types: np.ndarray) -> np.ndarray:
    """'charge' / 'discharge' by the sign of the mean current; None for rest and EIS steps.

    Unknown step types keep a direction so that, say, a long drive-cycle discharge still
    counts in the rated-capacity checks.
    """
    mean_i, _ = moments(table, "I")
    result = np.where(mean_i > 0, "discharge", "charge").astype(object)
    result[(types == REST) | (types == EIS)] = None
    return result


def steps_summary(table: dict[str, np.ndarray], types: np.ndarray) -> pa.Table:
    """The steps.parquet table: one row per step."""
    columns: dict[str, pa.Array] = {
        col.STEP: pa.array(table["step_value"].astype(np.int64)),
        col.CYCLE: pa.array(table["cycle"].astype(np.int64)),
        "Step type": pa.array(types.tolist(), pa.string()),
        "Start time [s]": pa.array(table["t_start"], from_pandas=True),
        "End time [s]": pa.array(table["t_end"], from_pandas=True),
        "Duration [s]": pa.array(table["t_end"] - table["t_start"], from_pandas=True),
        "Start voltage [V]": pa.array(table["V_start"], from_pandas=True),
        "End voltage [V]": pa.array(table["V_end"], from_pandas=True),
    }
    for q, name, unit in (("V", "voltage", "V"), ("I", "current", "A"), ("P", "power", "W")):
        mean, std = moments(table, q)
        columns[f"Min {name} [{unit}]"] = pa.array(table[f"min_{q}"], from_pandas=True)
        columns[f"Max {name} [{unit}]"] = pa.array(table[f"max_{q}"], from_pandas=True)
        columns[f"Mean {name} [{unit}]"] = pa.array(mean, from_pandas=True)
        columns[f"Std {name} [{unit}]"] = pa.array(std, from_pandas=True)
    for name in col.CUMULATIVE:
        columns[name] = pa.array(table[f"end_{name}"], from_pandas=True)
    # Derived steps have no label; step_labels.py fills them from the client's steps file.
    columns["Label"] = pa.nulls(len(types), pa.string())
    return pa.table(columns)


def cycles_summary(table: dict[str, np.ndarray]) -> pa.Table:
    """The cycles table: per Cycle count, charge and discharge capacity and energy summed over its steps."""
    cycles = table["cycle"].astype(np.int64)
    values, first, inverse = np.unique(cycles, return_index=True, return_inverse=True)
    end_times = np.full(len(values), np.nan)
    np.fmax.at(end_times, inverse, table["t_end"])
    columns: dict[str, pa.Array] = {
        col.CYCLE: pa.array(values),
        "Start time [s]": pa.array(table["t_start"][first], from_pandas=True),
        "End time [s]": pa.array(end_times, from_pandas=True),
    }
    for name in (col.CHARGE_CAPACITY, col.DISCHARGE_CAPACITY, col.CHARGE_ENERGY, col.DISCHARGE_ENERGY):
        columns[name] = pa.array(np.bincount(inverse, weights=table[f"end_{name}"], minlength=len(values)))
    return pa.table(columns)

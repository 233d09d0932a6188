"""The checks of docs/spec/measurement-data.md, run in one streaming pass.

``RowChecks`` sees every batch once (vectorised inside the batch) and carries what the
next batch needs: the previous valid time, step, cycle, voltage and cumulative values.
Step-level checks run at the end over the per-step table from ``steps.py``. To keep
reports small, a rule that fails many times yields one issue (per column where the
rule is per column) describing the first failure, plus how many there were.

Row indices in payloads are 0-based data rows of the series being validated; step
indices are 0-based positions of the step (a run of equal ``Step count``), which equal
the ``Step count`` value whenever the step count is valid.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import columns as col
from . import issues as iss
from .issues import ValidationOptions
from .steps import EIS, REST, REST_CURRENT_A, directions

TIME_ZERO_TOLERANCE = 1e-6
TIME_DECREASE_TOLERANCE = 1e-12
CUMULATIVE_TOLERANCE = 1e-6
MAX_GAP_S = 18_000.0
INTEGRAL_TOLERANCE = 0.10
VOLTAGE_JUMP_FRACTION = 0.80
VOLTAGE_MAX_BAD_FRACTION = 0.05
FULL_STEP_RATED_MULTIPLE = 2.0
STEP_RATED_MULTIPLE_WARNING = 5.0
SWAPPED_STEP_FRACTION = 0.75
SIGN_REVERSED_FRACTION = 0.75
SIGN_AMBIGUOUS_FRACTION = 0.25
# A step votes on the sign convention only if its fitted voltage trend moves this much.
SIGN_MIN_VOLTAGE_TREND_V = 1e-3
MAX_EXAMPLES = 5

_MISMATCH_CODES = {
    col.DISCHARGE_CAPACITY: iss.DISCHARGE_CAPACITY_INTEGRAL_MISMATCH,
    col.CHARGE_CAPACITY: iss.CHARGE_CAPACITY_INTEGRAL_MISMATCH,
    col.DISCHARGE_ENERGY: iss.DISCHARGE_ENERGY_INTEGRAL_MISMATCH,
    col.CHARGE_ENERGY: iss.CHARGE_ENERGY_INTEGRAL_MISMATCH,
}
_INTEGRAND = {
    col.DISCHARGE_CAPACITY: "max(I, 0)",
    col.CHARGE_CAPACITY: "max(-I, 0)",
    col.DISCHARGE_ENERGY: "max(P, 0)",
    col.CHARGE_ENERGY: "max(-P, 0)",
}


class _Tally:
    """Counts violations and keeps the payload of the first one."""

    __slots__ = ("count", "first")

    def __init__(self) -> None:
        self.count = 0
        self.first: dict | None = None

    def add(self, mask: np.ndarray, describe, weights: np.ndarray | None = None) -> None:
        """Record ``mask`` hits; ``weights`` gives the rows each hit stands for (default 1)."""
        if not mask.any():
            return
        if self.first is None:
            self.first = describe(int(mask.argmax()))
        self.count += int(np.count_nonzero(mask)) if weights is None else int(weights[mask].sum())


@dataclass
class _Mismatch:
    max_diff: float = -1.0
    worst: dict = field(default_factory=dict)
    max_reported: float = 0.0
    max_integrated: float = 0.0


@dataclass
class BatchView:
    """One batch as the pass prepared it; ``*_ext`` arrays carry the previous row at index 0."""

    row0: int
    n: int
    t: np.ndarray
    t_valid: np.ndarray | None  # None when every time in the batch is present
    time_diffs: np.ndarray  # time minus the previous time (NaN where there is none yet)
    current: np.ndarray
    current_has_nan: bool
    voltage_ext: np.ndarray
    voltage_has_nan: bool
    step_ext: np.ndarray
    boundaries: np.ndarray  # rows that start a new step
    run_starts: np.ndarray  # rows that start a run of one step within the batch
    first_step_index: int  # global index of the step of row 0
    count_ext: dict[str, np.ndarray]  # Cycle count / Step from cycler, when in the input
    new_step: np.ndarray
    eis: np.ndarray | None  # rows with a frequency; None without a frequency column
    reported: dict[str, np.ndarray]  # cumulative columns present in this batch
    reported_prev: dict[str, float]
    integrated: dict[str, np.ndarray]

    @property
    def voltage(self) -> np.ndarray:
        return self.voltage_ext[1:]

    @property
    def step(self) -> np.ndarray:
        return self.step_ext[1:]

    def step_index(self, row: int) -> int:
        """Global step index of batch row ``row``."""
        return self.first_step_index + int(np.searchsorted(self.run_starts, row, side="right")) - 1


class RowChecks:
    """Streaming row-level checks; ``issues()`` turns the tallies into issues.

    Rules that can only fail where a value changes (step and cycle numbering, resets of
    cumulative values) look at those rows only; the others screen a batch with one
    min/max reduction and build a per-row mask only when it fails.
    """

    def __init__(self, options: ValidationOptions, has_steps: bool, available_columns: list[str]):
        self.options = options
        self.has_steps = has_steps
        self.available_columns = available_columns
        self.first_time: float | None = None
        self.last_time: float | None = None
        self._last_time_row = -1
        self.first_step_value: float | None = None
        self.time_missing = _Tally()
        self.time_decrease = _Tally()
        self.time_gap = _Tally()
        self.step_jumps = _Tally()
        self.step_examples: list[dict] = []
        self.cycle_change = _Tally()
        self.missing = {name: _Tally() for name in (col.CURRENT, col.VOLTAGE, col.STEP, col.CYCLE)}
        self.not_integer = {name: _Tally() for name in (col.CYCLE, col.STEP_FROM_CYCLER)}
        self.not_reset = {name: _Tally() for name in col.CUMULATIVE}
        self.decreased = {name: _Tally() for name in col.CUMULATIVE}
        self.mismatch = {name: _Mismatch() for name in col.CUMULATIVE}
        self.voltage_jumps = 0
        self.voltage_pairs = 0
        self.min_current = np.inf

    @property
    def any_negative_current(self) -> bool:
        """Whether any current is below the rest tolerance, i.e. the data is signed."""
        return self.min_current < -REST_CURRENT_A

    def feed(self, b: BatchView) -> None:
        self._time(b)
        self._values(b)
        for name, ext in b.count_ext.items():
            self._counts(b, name, ext)
        if self.has_steps:
            self._steps(b)
            self._cumulative(b)
        if self.options.voltage_window and self.options.runs("voltage_continuity"):
            low, high = self.options.voltage_window
            jumps = np.abs(np.diff(b.voltage_ext))
            self.voltage_jumps += int(np.count_nonzero(jumps > VOLTAGE_JUMP_FRACTION * (high - low)))
            if b.voltage_has_nan or np.isnan(b.voltage_ext[0]):
                self.voltage_pairs += int(np.count_nonzero(~np.isnan(jumps)))
            else:
                self.voltage_pairs += b.n
        lowest = b.current.min()
        if lowest != lowest:  # empty currents (EIS rows) in the batch
            present = b.current[~np.isnan(b.current)]
            lowest = present.min() if len(present) else np.inf
        self.min_current = min(self.min_current, float(lowest))

    def _time(self, b: BatchView) -> None:
        if b.t_valid is None:
            times, rows, diffs = b.t, None, b.time_diffs
        else:
            not_eis = ~b.t_valid if b.eis is None else ~b.t_valid & ~b.eis
            self.time_missing.add(not_eis, lambda k: {"row_index": b.row0 + k})
            rows = np.flatnonzero(b.t_valid)
            times = b.t[rows]
            diffs = np.diff(times, prepend=np.nan if self.last_time is None else self.last_time)
        if len(times) == 0:
            return
        if self.first_time is None:
            self.first_time = float(times[0])
        prev_time, prev_row = self.last_time, self._last_time_row

        def row_of(k: int) -> int:
            return b.row0 + int(k if rows is None else rows[k])

        def before(k: int) -> tuple[float, int]:
            return (prev_time, prev_row) if k == 0 else (float(times[k - 1]), row_of(k - 1))

        start = 1 if np.isnan(diffs[0]) else 0  # the very first time has no predecessor
        body = diffs[start:]
        if len(body) and body.min() < -TIME_DECREASE_TOLERANCE:
            self.time_decrease.add(
                body < -TIME_DECREASE_TOLERANCE,
                lambda k: {
                    "row_index": row_of(k + start),
                    "previous_time": before(k + start)[0],
                    "current_time": float(times[k + start]),
                },
            )
        if len(body) and self.options.runs("time_gaps") and body.max() > MAX_GAP_S:
            self.time_gap.add(
                body > MAX_GAP_S,
                lambda k: {
                    "row_index": row_of(k + start),
                    "previous_row_index": before(k + start)[1],
                    "gap_seconds": float(body[k]),
                },
            )
        self.last_time = float(times[-1])
        self._last_time_row = row_of(len(times) - 1)

    def _values(self, b: BatchView) -> None:
        for name, values, has_nan in (
            (col.CURRENT, b.current, b.current_has_nan),
            (col.VOLTAGE, b.voltage, b.voltage_has_nan),
        ):
            if has_nan:
                mask = np.isnan(values) if b.eis is None else np.isnan(values) & ~b.eis
                self.missing[name].add(mask, lambda k: {"row_index": b.row0 + k})

    def _counts(self, b: BatchView, name: str, ext: np.ndarray) -> None:
        """Checks on a count column, made on the rows where its value changes (and row 0)."""
        values = ext[1:]
        changes = np.flatnonzero(values != ext[:-1])  # NaN never equals: empty values are included
        if len(changes) == 0 or changes[0] != 0:
            changes = np.concatenate(([0], changes))
        at = values[changes]
        run_rows = np.diff(np.append(changes, b.n))
        if name in self.missing:
            self.missing[name].add(np.isnan(at), lambda k: {"row_index": b.row0 + int(changes[k])}, run_rows)
        if name in self.not_integer:
            self.not_integer[name].add(
                (np.floor(at) != at) & ~np.isnan(at),
                lambda k: {"row_index": b.row0 + int(changes[k]), "value": float(at[k])},
                run_rows,
            )
        if name == col.CYCLE and self.has_steps and self.options.runs("cycle_constant_within_step"):
            previous = ext[changes]
            self.cycle_change.add(
                (at != previous) & ~b.new_step[changes],
                lambda k: {
                    "step_index": b.step_index(int(changes[k])),
                    "row_index": b.row0 + int(changes[k]),
                    "previous_cycle": float(previous[k]),
                    "current_cycle": float(at[k]),
                },
            )

    def _steps(self, b: BatchView) -> None:
        """Step numbering only changes on step boundaries, so only those rows are checked."""
        rows = b.boundaries
        if self.first_step_value is None:
            self.first_step_value = float(b.step[0])
            rows = rows[1:]  # the first row has no predecessor
        at = b.step[rows]
        self.missing[col.STEP].add(np.isnan(at), lambda k: {"row_index": b.row0 + int(rows[k])})
        bad = ~(at - b.step_ext[rows] == 1)
        for k in np.flatnonzero(bad)[: MAX_EXAMPLES - len(self.step_examples)]:
            row = int(rows[k])
            self.step_examples.append({"row_index": b.row0 + row, "from": float(b.step_ext[row]), "to": float(at[k])})
        self.step_jumps.count += int(np.count_nonzero(bad))

    def _cumulative(self, b: BatchView) -> None:
        check_integral = self.options.runs("capacity_energy_from_current_power")
        starts = b.boundaries
        for name, reported in b.reported.items():
            at_start = reported[starts]
            self.not_reset[name].add(
                at_start > CUMULATIVE_TOLERANCE,
                lambda k, at_start=at_start: {
                    "step_index": b.step_index(int(starts[k])),
                    "observed": float(at_start[k]),
                },
            )
            change = np.empty(b.n)
            change[0] = reported[0] - b.reported_prev.get(name, np.nan)
            np.subtract(reported[1:], reported[:-1], out=change[1:])
            change[starts] = 0.0  # a new step may start lower
            lowest = change.min()
            if lowest < -CUMULATIVE_TOLERANCE or lowest != lowest:
                previous_at = _previous_values(reported, b.reported_prev.get(name, np.nan))
                self.decreased[name].add(
                    change < -CUMULATIVE_TOLERANCE,
                    lambda k, reported=reported, previous_at=previous_at: {
                        "step_index": b.step_index(k),
                        "row_index": b.row0 + k,
                        "previous_value": float(previous_at(k)),
                        "current_value": float(reported[k]),
                    },
                )
            if check_integral:
                self._integral(name, reported, b.integrated[name], b.row0)

    def _integral(self, name: str, reported: np.ndarray, integrated: np.ndarray, row0: int) -> None:
        stats = self.mismatch[name]
        diff = reported - integrated
        np.abs(diff, out=diff)
        k = int(diff.argmax())  # argmax stops at a NaN: fall back to the NaN-aware search
        if diff[k] != diff[k]:
            k = -1 if np.isnan(diff).all() else int(np.nanargmax(diff))
        if k >= 0 and diff[k] > stats.max_diff:
            stats.max_diff = float(diff[k])
            stats.worst = {
                "worst_row_index": row0 + k,
                "reported_at_worst": float(reported[k]),
                "integrated_at_worst": float(integrated[k]),
            }
        # Cumulative values are meant to be non-negative, so the scale is the larger maximum.
        high = reported.max()
        if high != high:
            high = -np.inf if np.isnan(reported).all() else np.nanmax(reported)
        stats.max_reported = max(stats.max_reported, float(high))
        stats.max_integrated = max(stats.max_integrated, float(integrated.max()))

    # --- issues -----------------------------------------------------------------------

    def issues(self, reported_columns: list[str]) -> list[dict]:
        out: list[dict] = []
        out += self._time_issues()
        for name, tally in self.missing.items():
            if tally.first is not None:
                where = " on a row without 'Frequency [Hz]'" if name in (col.CURRENT, col.VOLTAGE) else ""
                out.append(
                    iss.make_issue(
                        iss.VALUE_MISSING,
                        f"Column '{name}' is empty at row {tally.first['row_index']}{where} "
                        f"({tally.count} empty row(s) in all); fill in every value.",
                        {"column": name, **tally.first, "num_rows": tally.count},
                    )
                )
        for name, tally in self.not_integer.items():
            if tally.first is not None:
                out.append(
                    iss.make_issue(
                        iss.COUNT_NOT_INTEGER,
                        f"Column '{name}' must hold whole numbers, but row {tally.first['row_index']} "
                        f"holds {tally.first['value']} ({tally.count} such row(s)).",
                        {"column": name, **tally.first, "num_rows": tally.count},
                    )
                )
        if not self.has_steps:
            out.append(
                iss.make_issue(
                    iss.STEP_COUNT_MISSING,
                    f"Column '{col.STEP}' is required but missing; number the steps from 0, adding 1 at each new step.",
                    {"column": col.STEP, "available_columns": self.available_columns},
                )
            )
            return out
        out += self._step_issues()
        out += self._cumulative_issues(reported_columns)
        return out

    def _time_issues(self) -> list[dict]:
        out = []
        if self.time_missing.first is not None:
            row = self.time_missing.first["row_index"]
            out.append(
                iss.make_issue(
                    iss.TIME_MISSING_ON_NON_EIS_ROW,
                    f"'{col.TIME}' is empty at row {row}, which is not an impedance (EIS) row "
                    f"({self.time_missing.count} such row(s)); every non-EIS row needs a time.",
                    {"row_index": row, "num_rows": self.time_missing.count},
                )
            )
        if self.first_time is not None and abs(self.first_time) > TIME_ZERO_TOLERANCE:
            out.append(
                iss.make_issue(
                    iss.TIME_DOES_NOT_START_AT_ZERO,
                    f"'{col.TIME}' starts at {self.first_time:g} s but must start at 0; subtract the first "
                    "time and record the absolute start in the measurement's start_time.",
                    {"observed": self.first_time, "tolerance": TIME_ZERO_TOLERANCE},
                )
            )
        if self.time_decrease.first is not None:
            first = self.time_decrease.first
            out.append(
                iss.make_issue(
                    iss.TIME_NOT_MONOTONIC,
                    f"'{col.TIME}' goes backwards at row {first['row_index']} ({first['previous_time']:g} s "
                    f"then {first['current_time']:g} s; {self.time_decrease.count} decrease(s) in all); use "
                    "elapsed time since the start of the test, not time within each step.",
                    {**first, "num_violations": self.time_decrease.count},
                )
            )
        if self.time_gap.first is not None:
            first = self.time_gap.first
            out.append(
                iss.make_issue(
                    iss.TIME_GAP_TOO_LARGE,
                    f"Rows {first['previous_row_index']} and {first['row_index']} are "
                    f"{first['gap_seconds'] / 3600:.2f} h apart, more than the 5 h allowed "
                    f"({self.time_gap.count} such gap(s)); rows are probably missing.",
                    {**first, "max_gap_seconds": MAX_GAP_S, "num_violations": self.time_gap.count},
                )
            )
        return out

    def _step_issues(self) -> list[dict]:
        out = []
        if self.first_step_value is not None and self.first_step_value != 0:
            out.append(
                iss.make_issue(
                    iss.STEP_COUNT_DOES_NOT_START_AT_ZERO,
                    f"'{col.STEP}' must start at 0 but starts at {self.first_step_value:g}.",
                    {"column": col.STEP, "observed_first": self.first_step_value},
                )
            )
        if self.step_jumps.count:
            first = self.step_examples[0]
            out.append(
                iss.make_issue(
                    iss.STEP_COUNT_NON_SEQUENTIAL,
                    f"'{col.STEP}' must stay the same or go up by 1 from row to row, but at row "
                    f"{first['row_index']} it goes from {first['from']:g} to {first['to']:g} "
                    f"({self.step_jumps.count} such change(s)); renumber steps 0, 1, 2, ... in time order.",
                    {"column": col.STEP, "num_violations": self.step_jumps.count, "examples": self.step_examples},
                )
            )
        if self.cycle_change.first is not None:
            first = self.cycle_change.first
            out.append(
                iss.make_issue(
                    iss.CYCLE_CHANGES_WITHIN_STEP,
                    f"'{col.CYCLE}' changes from {first['previous_cycle']:g} to {first['current_cycle']:g} "
                    f"inside step {first['step_index']} (row {first['row_index']}); a step belongs to one cycle.",
                    {**first, "num_violations": self.cycle_change.count},
                )
            )
        return out

    def _cumulative_issues(self, reported_columns: list[str]) -> list[dict]:
        out = []
        for name in reported_columns:
            tally = self.not_reset[name]
            if tally.first is not None:
                out.append(
                    iss.make_issue(
                        iss.CUMULATIVE_VALUE_NOT_RESET,
                        f"'{name}' is {tally.first['observed']:g} at the start of step "
                        f"{tally.first['step_index']} but must restart from 0 at every step "
                        f"({tally.count} step(s) affected).",
                        {
                            "column": name,
                            **tally.first,
                            "tolerance": CUMULATIVE_TOLERANCE,
                            "num_violations": tally.count,
                        },
                    )
                )
            tally = self.decreased[name]
            if tally.first is not None:
                first = tally.first
                out.append(
                    iss.make_issue(
                        iss.CUMULATIVE_VALUE_DECREASED,
                        f"'{name}' drops from {first['previous_value']:g} to {first['current_value']:g} at row "
                        f"{first['row_index']} inside step {first['step_index']}; within a step it may only grow "
                        f"({tally.count} drop(s) in all).",
                        {"column": name, **first, "num_violations": tally.count},
                    )
                )
        if self.options.runs("capacity_energy_from_current_power"):
            for name in reported_columns:
                out += self._mismatch_issue(name)
        return out

    def _mismatch_issue(self, name: str) -> list[dict]:
        stats = self.mismatch[name]
        scale = max(stats.max_reported, stats.max_integrated)
        if scale <= 0 or stats.max_diff < 0:
            return []
        relative = stats.max_diff / scale
        if relative <= INTEGRAL_TOLERANCE:
            return []
        if "energy" not in name:
            source = col.CURRENT
        else:
            source = col.POWER if col.POWER in self.available_columns else f"{col.VOLTAGE} * {col.CURRENT}"
        return [
            iss.make_issue(
                _MISMATCH_CODES[name],
                f"'{name}' differs from the per-step integral of {_INTEGRAND[name]} by up to "
                f"{relative:.0%} of its largest value (allowed {INTEGRAL_TOLERANCE:.0%}); worst at row "
                f"{stats.worst['worst_row_index']}. Check the column's units and sign convention.",
                {
                    "column": name,
                    "source_column": source,
                    **stats.worst,
                    "max_abs_difference": stats.max_diff,
                    "max_scale": scale,
                    "relative_error": relative,
                    "tolerance": INTEGRAL_TOLERANCE,
                },
            )
        ]


def _previous_values(values: np.ndarray, carried: float):
    """Value of the row before ``k`` in a batch, the carried one for ``k == 0``."""
    return lambda k: carried if k == 0 else values[k - 1]


# --- Step-level checks ----------------------------------------------------------------


def current_sign_issue(table: dict[str, np.ndarray], types: np.ndarray, any_negative_current: bool) -> list[dict]:
    """Sign convention from the voltage trend of each non-rest step.

    With positive current = discharge, charge put into the cell q = -∫I dt makes the
    voltage rise. For each non-rest, non-EIS, non-constant-voltage step, the slope of a
    least-squares line V = a + b·q is computed from streamed sums; a step whose fitted
    voltage change |b·q_end| is at least 1 mV votes "charges where it should discharge"
    when b < 0. Votes are weighted by the charge the step moved (∫|I| dt), and
    ``charge_fraction`` is the reversed share of that weight.
    """
    n = table["n_V"]
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_q = table["Sq"] / n
        var_q = table["Sqq"] / n - mean_q * mean_q
        cov = table["SqV"] / n - mean_q * table["mean_V"]
        slope = cov / var_q
    q_end = table[f"int_{col.CHARGE_CAPACITY}"] - table[f"int_{col.DISCHARGE_CAPACITY}"]
    weight = table[f"int_{col.CHARGE_CAPACITY}"] + table[f"int_{col.DISCHARGE_CAPACITY}"]
    constant_voltage = np.array([t.startswith("Constant voltage") for t in types], dtype=bool)
    voting = (
        (types != REST)
        & (types != EIS)
        & ~constant_voltage
        & (n >= 3)
        & (var_q > 0)
        & (np.abs(slope * q_end) >= SIGN_MIN_VOLTAGE_TREND_V)
    )
    total = float(weight[voting].sum())
    if total <= 0:
        return []
    fraction = float(weight[voting & (slope < 0)].sum()) / total
    payload = {"charge_fraction": fraction}
    if fraction >= SIGN_REVERSED_FRACTION:
        return [
            iss.make_issue(
                iss.CURRENT_SIGN_REVERSED,
                f"The current sign looks reversed: in {fraction:.0%} of the charge moved, the voltage rises "
                "while the current is positive. Use positive current for discharge and negative for charge.",
                payload,
            )
        ]
    if fraction < SIGN_AMBIGUOUS_FRACTION:
        return []
    if not any_negative_current:
        return [
            iss.make_issue(
                iss.CURRENT_SIGN_UNSIGNED,
                "All currents are positive, so charge and discharge cannot be told apart; make charge "
                "current negative.",
                payload,
            )
        ]
    return [
        iss.make_issue(
            iss.CURRENT_SIGN_INDETERMINATE,
            f"The current sign convention is unclear: in {fraction:.0%} of the charge moved the voltage "
            "moves the wrong way for its current. Use positive current for discharge and negative for charge.",
            payload,
        )
    ]


def too_few_points_issue(table: dict[str, np.ndarray]) -> list[dict]:
    short = np.flatnonzero(table["rows"] < 2)
    if len(short) == 0:
        return []
    k = int(short[0])
    return [
        iss.make_issue(
            iss.STEP_TOO_FEW_POINTS,
            f"Step {k} has only {int(table['rows'][k])} row(s); every step needs at least 2 "
            f"({len(short)} step(s) affected).",
            {"step_index": k, "num_points": int(table["rows"][k]), "min_points": 2, "num_violations": len(short)},
        )
    ]


def _moved(table: dict[str, np.ndarray], direction: np.ndarray) -> np.ndarray:
    """Capacity a step moved in its own direction (A.h)."""
    moved = np.where(direction == "discharge", table[f"end_{col.DISCHARGE_CAPACITY}"], 0.0)
    moved = np.where(direction == "charge", table[f"end_{col.CHARGE_CAPACITY}"], moved)
    return np.nan_to_num(np.abs(moved))


def consecutive_full_steps_issue(table: dict[str, np.ndarray], types: np.ndarray, rated: float) -> list[dict]:
    """Two consecutive charge (or discharge) steps, each moving more than 2 × rated.

    Consecutive among the steps that move charge: rests and EIS between them are skipped, so
    full charge, rest, full charge counts; any charge or discharge step between them, however
    small, breaks the pair.
    """
    direction = directions(table, types)
    full = _moved(table, direction) > FULL_STEP_RATED_MULTIPLE * rated
    moving = np.flatnonzero(direction != None)  # noqa: E711 (element-wise)
    pairs = [(a, b) for a, b in zip(moving[:-1], moving[1:]) if direction[a] == direction[b] and full[a] and full[b]]
    if not pairs:
        return []
    a, b = pairs[0]
    threshold = FULL_STEP_RATED_MULTIPLE * rated
    return [
        iss.make_issue(
            iss.CONSECUTIVE_SAME_DIRECTION_FULL_STEPS,
            f"Steps {int(table['step_value'][a])} and {int(table['step_value'][b])} are consecutive full "
            f"{direction[a]} steps, each moving more than {threshold:g} A.h (2 × rated); a measurement should "
            "hold one experiment, so split concatenated tests.",
            {
                "direction": direction[a],
                "previous_step": int(table["step_value"][a]),
                "current_step": int(table["step_value"][b]),
                "threshold_capacity": threshold,
                "rated_capacity": rated,
                "num_violations": len(pairs),
            },
        )
    ]


def step_capacity_issue(table: dict[str, np.ndarray], rated: float) -> list[dict]:
    threshold = STEP_RATED_MULTIPLE_WARNING * rated
    discharge = np.nan_to_num(table[f"end_{col.DISCHARGE_CAPACITY}"])
    charge = np.nan_to_num(table[f"end_{col.CHARGE_CAPACITY}"])
    moved = np.maximum(discharge, charge)
    over = np.flatnonzero(moved > threshold)
    if len(over) == 0:
        return []
    k = int(over[0])
    column = col.DISCHARGE_CAPACITY if discharge[k] >= charge[k] else col.CHARGE_CAPACITY
    return [
        iss.make_issue(
            iss.STEP_CAPACITY_EXCEEDS_RATED,
            f"Step {int(table['step_value'][k])} moves {moved[k]:.3g} A.h, more than 5 × the rated "
            f"{rated:g} A.h ({len(over)} step(s)); step boundaries may be wrong or rows missing.",
            {
                "step_index": k,
                "column": column,
                "observed": float(moved[k]),
                "threshold_capacity": threshold,
                "rated_capacity": rated,
                "num_steps": len(over),
            },
            iss.WARNING,
        )
    ]


def swapped_columns_issues(table: dict[str, np.ndarray], types: np.ndarray, reported: list[str]) -> list[dict]:
    """Charge/discharge columns swapped on ≥ 75 % of eligible steps.

    Eligible: non-rest, non-EIS steps that move charge mainly one way (the integrated
    charge and discharge differ by at least half their sum) and for which both reported
    columns of the pair exist. A step counts as swapped when the reported pair is closer
    to the crossed integrals than to the straight ones.
    """
    out = []
    pairs = (
        (col.DISCHARGE_CAPACITY, col.CHARGE_CAPACITY, iss.CHARGE_DISCHARGE_CAPACITY_COLUMNS_SWAPPED, "capacity"),
        (col.DISCHARGE_ENERGY, col.CHARGE_ENERGY, iss.CHARGE_DISCHARGE_ENERGY_COLUMNS_SWAPPED, "energy"),
    )
    for discharge_col, charge_col, code, what in pairs:
        if discharge_col not in reported or charge_col not in reported:
            continue
        rep_d, rep_c = table[f"rep_{discharge_col}"], table[f"rep_{charge_col}"]
        int_d, int_c = table[f"int_{discharge_col}"], table[f"int_{charge_col}"]
        moved = int_d + int_c
        eligible = (
            (types != REST)
            & (types != EIS)
            & (moved > 0)
            & (np.abs(int_d - int_c) >= 0.5 * moved)
            & ~np.isnan(rep_d)
            & ~np.isnan(rep_c)
        )
        straight = np.abs(rep_d - int_d) + np.abs(rep_c - int_c)
        crossed = np.abs(rep_d - int_c) + np.abs(rep_c - int_d)
        swapped = eligible & (crossed < straight)
        num_eligible = int(np.count_nonzero(eligible))
        if num_eligible == 0:
            continue
        fraction = int(np.count_nonzero(swapped)) / num_eligible
        if fraction >= SWAPPED_STEP_FRACTION:
            out.append(
                iss.make_issue(
                    code,
                    f"'{discharge_col}' and '{charge_col}' look swapped: on {fraction:.0%} of the "
                    f"{num_eligible} charge/discharge steps the charge {what} grows during discharge and vice "
                    "versa. Swap the two columns.",
                    {
                        "columns": [discharge_col, charge_col],
                        "swapped_steps": int(np.count_nonzero(swapped)),
                        "eligible_steps": num_eligible,
                        "fraction": fraction,
                    },
                )
            )
    return out


def step_issues(
    table: dict[str, np.ndarray],
    types: np.ndarray,
    options: ValidationOptions,
    reported: list[str],
    any_negative_current: bool,
) -> tuple[list[dict], list[dict]]:
    """(always-checked, strict) issues that need the per-step table."""
    always = current_sign_issue(table, types, any_negative_current)
    strict: list[dict] = []
    if options.runs("minimum_points_per_step"):
        strict += too_few_points_issue(table)
    if options.rated_capacity_ah:
        if options.runs("consecutive_same_direction_full_steps"):
            strict += consecutive_full_steps_issue(table, types, options.rated_capacity_ah)
        if options.runs("step_capacity_within_rated"):
            strict += step_capacity_issue(table, options.rated_capacity_ah)
    if options.runs("charge_discharge_column_direction"):
        strict += swapped_columns_issues(table, types, reported)
    return always, strict


def voltage_continuity_issue(checks: RowChecks) -> list[dict]:
    window = checks.options.voltage_window
    if not window or not checks.options.runs("voltage_continuity") or checks.voltage_pairs == 0:
        return []
    fraction = checks.voltage_jumps / checks.voltage_pairs
    if fraction <= VOLTAGE_MAX_BAD_FRACTION:
        return []
    threshold = VOLTAGE_JUMP_FRACTION * (window[1] - window[0])
    return [
        iss.make_issue(
            iss.VOLTAGE_CONTINUITY,
            f"{fraction:.1%} of consecutive rows jump by more than {threshold:.3g} V (80 % of the "
            f"{window[0]:g}-{window[1]:g} V window); the rows are probably not in time order.",
            {
                "bad_count": checks.voltage_jumps,
                "total_pairs": checks.voltage_pairs,
                "bad_fraction": fraction,
                "threshold_volts": threshold,
                "voltage_window": list(window),
            },
        )
    ]

"""The row rules of docs/spec/measurement-data.md, run in one streaming pass.

``RowChecks`` sees every batch once (vectorised inside the batch) and carries what the
next batch needs: the previous valid time, step, cycle, voltage and cumulative values.
It only counts; ``row_issues.py`` turns the counts into issues, and the step-level rules
run at the end over the per-step table (``step_checks.py``).

Row indices in payloads are 0-based data rows of the series being validated; step
indices are 0-based positions of the step (a run of equal ``Step count``), which equal
the ``Step count`` value whenever the step count is valid.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import columns as col
from .issues import ValidationOptions
from .steps import REST_CURRENT_A

TIME_DECREASE_TOLERANCE = 1e-12
CUMULATIVE_TOLERANCE = 1e-6
MAX_GAP_S = 18_000.0
VOLTAGE_JUMP_FRACTION = 0.80
MAX_EXAMPLES = 5


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
    """Streaming row-level checks; ``row_issues()`` turns the tallies into issues.

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


def _previous_values(values: np.ndarray, carried: float):
    """Value of the row before ``k`` in a batch, the carried one for ``k == 0``."""
    return lambda k: carried if k == 0 else values[k - 1]

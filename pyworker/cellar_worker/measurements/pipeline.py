"""One streaming pass over a time series: derive, validate, summarise steps, emit canonical batches.

Per batch everything is vectorised with numpy; between batches only the previous row
(time, step, cycle, current, power, voltage, cumulative values) and the open step's
aggregates are carried, so memory stays bounded by the batch size plus one record
per step.

Capacity and energy are integrated per step with the trapezoid rule: discharge
capacity from max(I, 0), charge capacity from max(-I, 0), energies likewise from
``Power [W]`` (or V·I when absent). The interval between two rows counts only when
both rows belong to the same step, so each integral is 0 on a step's first row. Rows
without a time (EIS rows) or current contribute nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from . import columns as col
from . import issues as iss
from .issues import ValidationOptions
from .row_checks import BatchView, RowChecks
from .row_issues import row_issues, voltage_continuity_issue
from .step_checks import step_issues
from .steps import QUANTITIES, StepAccumulator, cycles_summary, run_parts, step_types, steps_summary

_NAN = float("nan")


@dataclass
class PassResult:
    issues: list[dict]
    row_count: int
    first_time: float | None
    last_time: float | None
    steps: pa.Table | None
    cycles: pa.Table | None


def output_columns(input_columns: list[str]) -> list[str]:
    """Canonical columns written for an input: cycle and cumulative columns are always present."""
    return col.ordered(set(input_columns) | {col.CYCLE, *col.CUMULATIVE})


def output_schema(columns: list[str], derived: list[str], input_columns: list[str]) -> pa.Schema:
    """Counts, and columns the worker computes itself, are never null (which also writes faster)."""
    never_null = {col.STEP, col.CYCLE} | (set(derived) - set(input_columns))
    fields = [
        pa.field(name, pa.int64() if name in col.COUNTS else pa.float64(), nullable=name not in never_null)
        for name in columns
    ]
    # Extend uses this to accept deltas that omit the columns we derived.
    return pa.schema(fields, metadata={b"cellar:derived_columns": ",".join(derived).encode()})


class SeriesPass:
    """Feed batches of ``{canonical column: float64 array}``; then call ``finish()``.

    ``sink`` receives each canonical output batch while the series can still pass;
    once a row-level error is known the output would be discarded, so writing stops.
    """

    def __init__(
        self,
        input_columns: list[str],
        options: ValidationOptions,
        sink: Callable[[pa.RecordBatch], None] | None = None,
        derived: list[str] | None = None,
    ):
        self.options = options
        self.has_steps = col.STEP in input_columns
        self.reported = [name for name in col.CUMULATIVE if name in input_columns]
        self.columns = output_columns(input_columns)
        self.derived = derived if derived is not None else [name for name in self.columns if name not in input_columns]
        self.schema = output_schema(self.columns, self.derived, input_columns)
        self.sink = sink
        self.checks = RowChecks(options, self.has_steps, list(input_columns))
        self.steps = StepAccumulator()
        self.rows = 0
        # The previous row, carried across batches.
        self._t = _NAN  # last time, forward-filled over empty times
        self._step = _NAN
        self._counts: dict[str, float] = {}
        self._current = 0.0
        self._power = 0.0
        self._voltage = _NAN
        self._integrated = dict.fromkeys(col.CUMULATIVE, 0.0)
        self._reported = {}

    # --- per batch -----------------------------------------------------------------

    def feed(self, values: dict[str, np.ndarray]) -> None:
        t = values[col.TIME]
        n = len(t)
        current = values[col.CURRENT]
        voltage = values[col.VOLTAGE]
        step = values[col.STEP] if self.has_steps else np.zeros(n)
        cycle = values[col.CYCLE] if col.CYCLE in values else np.zeros(n)
        eis = None if col.FREQUENCY not in values else ~np.isnan(values[col.FREQUENCY])
        power = values[col.POWER] if col.POWER in values else voltage * current
        has_nan = {q: _may_have_nan(x) for q, x in (("t", t), ("I", current), ("V", voltage), ("P", power))}

        # Times are forward-filled for integration, so rows without a time add nothing.
        t_valid = ~np.isnan(t) if has_nan["t"] else None
        t_ext = _extend(self._t, t)
        if t_valid is not None or np.isnan(self._t):
            t_ext = _forward_fill(t_ext)
        time_diffs = np.diff(t_ext)
        step_ext = _extend(self._step, step)
        new_step = step_ext[1:] != step_ext[:-1]  # the NaN carry makes the very first row a step start
        boundaries = np.flatnonzero(new_step)
        continues_open = not new_step[0]
        run_starts = np.concatenate(([0], boundaries)) if continues_open else boundaries
        # Half-intervals in hours for the trapezoid; an interval counts only within a step.
        half_hours = time_diffs * (0.5 / 3600.0)
        half_hours[boundaries] = 0.0
        if t_valid is not None or np.isnan(self._t):
            np.nan_to_num(half_hours, copy=False, nan=0.0)

        integrated = self._integrate(current, power, has_nan, half_hours, run_starts, continues_open)
        reported = {name: values[name] for name in self.reported if name in values}
        cumulative = {name: reported.get(name, integrated[name]) for name in col.CUMULATIVE}
        first_step_index = self.steps.steps_started - (1 if continues_open else 0)

        view = BatchView(
            row0=self.rows,
            n=n,
            t=t,
            t_valid=t_valid,
            time_diffs=time_diffs,
            current=current,
            current_has_nan=has_nan["I"],
            voltage_ext=_extend(self._voltage, voltage),
            voltage_has_nan=has_nan["V"],
            step_ext=step_ext,
            boundaries=boundaries,
            run_starts=run_starts,
            first_step_index=first_step_index,
            count_ext={
                name: _extend(self._counts.get(name, _NAN), values[name])
                for name in (col.CYCLE, col.STEP_FROM_CYCLER)
                if name in values
            },
            new_step=new_step,
            eis=eis,
            reported=reported,
            reported_prev=self._reported,
            integrated=integrated,
        )
        self.checks.feed(view)
        quantities = {"t": t_ext[1:], "step": step, "cycle": cycle, "V": voltage, "I": current, "P": power}
        valid = {q: (~np.isnan(quantities[q]) if has_nan[q] else None) for q in QUANTITIES}
        self.steps.add(
            run_parts(run_starts, n, quantities, valid, eis, cumulative, integrated, reported), continues_open
        )
        if self.sink is not None and not self._row_errors():
            self.sink(self._canonical(values, step, cycle, cumulative, has_nan))

        self.rows += n
        self._t = float(t_ext[-1])
        self._step = float(step[-1])
        self._counts = {name: float(values[name][-1]) for name in view.count_ext}
        self._current = float(np.nan_to_num(current[-1]))
        self._power = float(np.nan_to_num(power[-1]))
        self._voltage = float(voltage[-1])
        self._integrated = {name: float(array[-1]) for name, array in integrated.items()}
        self._reported = {name: float(array[-1]) for name, array in reported.items()}

    def _integrate(self, current, power, has_nan, half_hours, run_starts, continues_open) -> dict[str, np.ndarray]:
        out = {}
        for signal, carry, signal_has_nan, positive_name, negative_name in (
            (current, self._current, has_nan["I"], col.DISCHARGE_CAPACITY, col.CHARGE_CAPACITY),
            (power, self._power, has_nan["P"], col.DISCHARGE_ENERGY, col.CHARGE_ENERGY),
        ):
            signal_ext = _extend(carry, signal)
            if signal_has_nan:
                signal_ext = np.where(np.isnan(signal_ext), 0.0, signal_ext)
            positive = np.maximum(signal_ext, 0.0)
            for name, part in ((positive_name, positive), (negative_name, positive - signal_ext)):
                running = part[1:] + part[:-1]
                running *= half_hours
                np.cumsum(running, out=running)
                # Restart the running sum at each run: 0 at a new step, the carry for a continued one.
                offsets = running[run_starts]
                if continues_open:
                    offsets[0] = -self._integrated[name]
                _subtract_per_run(running, run_starts, offsets)
                out[name] = running
        return out

    def _row_errors(self) -> bool:
        checks = self.checks
        return (
            not self.has_steps
            or checks.time_missing.count > 0
            or checks.step_jumps.count > 0
            or any(tally.count for tally in checks.missing.values())
            or any(tally.count for tally in checks.not_integer.values())
        )

    def _canonical(self, values, step, cycle, cumulative, has_nan) -> pa.RecordBatch:
        known = {col.TIME: has_nan["t"], col.CURRENT: has_nan["I"], col.VOLTAGE: has_nan["V"]}
        arrays = []
        for name in self.columns:
            if name == col.STEP:
                arrays.append(pa.array(step.astype(np.int64)))
            elif name == col.CYCLE:
                arrays.append(pa.array(cycle.astype(np.int64)))
            else:
                source = cumulative[name] if name in cumulative else values[name]
                array = _to_arrow(source, known.get(name, _may_have_nan(source)))
                arrays.append(array.cast(pa.int64()) if name in col.COUNTS else array)
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    # --- end of stream ---------------------------------------------------------------

    def finish(self, leading_issues: list[dict] | None = None) -> PassResult:
        checks = self.checks
        issues = list(leading_issues or [])
        found_in_rows = row_issues(checks, self.reported)
        table = self.steps.table() if self.has_steps else {}
        steps = cycles = None
        always: list[dict] = []
        strict: list[dict] = []
        if table:
            types = step_types(table)
            always, strict = step_issues(table, types, self.options, self.reported, checks.any_negative_current)
            steps = steps_summary(table, types)
            cycles = cycles_summary(table)
        # A stable order: the sign convention, the row rules, then the step-level strict rules.
        issues += always + found_in_rows + voltage_continuity_issue(checks) + strict
        if iss.has_errors(issues):
            steps = cycles = None
        return PassResult(
            issues=issues,
            row_count=self.rows,
            first_time=checks.first_time,
            last_time=checks.last_time,
            steps=steps,
            cycles=cycles,
        )


def _extend(first: float, values: np.ndarray) -> np.ndarray:
    """``values`` with the carried previous-row value prepended."""
    out = np.empty(len(values) + 1)
    out[0] = first
    out[1:] = values
    return out


def _may_have_nan(values: np.ndarray) -> bool:
    """One fast reduction; a NaN anywhere makes the sum NaN (opposite infinities give a false positive only)."""
    return bool(np.isnan(values.sum()))


def _to_arrow(values: np.ndarray, has_nan: bool) -> pa.Array:
    """Zero-copy float64 array; NaN becomes null (an explicit mask is much faster than ``from_pandas``)."""
    return pa.array(values, mask=np.isnan(values)) if has_nan else pa.array(values)


def _subtract_per_run(values: np.ndarray, run_starts: np.ndarray, offsets: np.ndarray) -> None:
    """``values[run] -= offsets[j]`` for each run ``j``, in place."""
    if len(run_starts) * 64 < len(values):  # few long runs: slices avoid an index array
        ends = np.append(run_starts[1:], len(values))
        for start, end, offset in zip(run_starts.tolist(), ends.tolist(), offsets.tolist()):
            values[start:end] -= offset
    else:
        values -= np.repeat(offsets, np.diff(np.append(run_starts, len(values))))


def _forward_fill(values: np.ndarray) -> np.ndarray:
    index = np.where(np.isnan(values), 0, np.arange(len(values)))
    np.maximum.accumulate(index, out=index)
    return values[index]

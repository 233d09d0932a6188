"""A solution turned into results: the time-series columns at the protocol's resolution, Parquet, metrics."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pybamm

from .. import storage
from . import experiment as exp
from . import ucp
from .errors import configuration_error
from .job import Job
from .steps_summary import SUMMARY_COLUMNS, SUMMARY_SCHEMA, step_cumulative_throughput


def _thin(columns: dict[str, np.ndarray], resolution: ucp.Resolution) -> np.ndarray:
    """Rows a cycler would log: every ``time`` seconds, or on a voltage/current change."""
    # Plain lists: this loop is sequential by nature and list indexing is much faster.
    time_, voltage, current, step = (
        columns[name].tolist() for name in ("Time [s]", "Voltage [V]", "Current [A]", "Step count")
    )
    period = resolution.time or exp.DEFAULT_PERIOD_S
    dv = resolution.voltage if resolution.voltage is not None else math.inf
    di = resolution.current if resolution.current is not None else math.inf
    n = len(time_)
    keep = np.zeros(n, dtype=bool)
    last = 0
    for row in range(n):
        if (
            row == 0
            or step[row] != step[row - 1]
            or row == n - 1
            or step[row] != step[row + 1]
            or time_[row] - time_[last] >= period - 1e-9
            or abs(voltage[row] - voltage[last]) >= dv
            or abs(current[row] - current[last]) >= di
        ):
            keep[row] = True
            last = row
    return keep


def time_series_columns(job: Job, solution: pybamm.Solution) -> dict[str, np.ndarray]:
    """The time-series columns, thinned to the protocol's resolution."""
    lengths = [len(cycle.t) for cycle in solution.cycles]
    step_count = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    cycle_count = np.repeat(np.array([p.cycle for p in job.plan], dtype=np.int64), lengths)
    columns = {
        # The "Time [s]" variable is the solver's time itself; reading it through PyBaMM
        # would evaluate a compiled expression per point to get the same numbers.
        "Time [s]": solution.t,
        "Voltage [V]": solution["Voltage [V]"].entries,
        "Current [A]": solution["Current [A]"].entries,
        "Step count": step_count,
        "Cycle count": cycle_count,
    }
    columns.update(
        step_cumulative_throughput(columns["Time [s]"], columns["Current [A]"], columns["Voltage [V]"], step_count)
    )
    for index, name in enumerate(job.extra_variables):
        values = np.asarray(solution[name].entries)
        if values.ndim != 1 or len(values) != len(step_count):
            raise configuration_error(
                f"extra_variables[{index}]: {name!r} varies in space, so it has no single value per time"
            )
        columns[name] = values
    resolution = job.protocol.resolution
    if resolution.voltage is not None or resolution.current is not None:
        keep = _thin(columns, resolution)
        columns = {name: values[keep] for name, values in columns.items()}
    return columns


def _table(columns: dict[str, np.ndarray]) -> pa.Table:
    schema = pa.schema(
        [(name, pa.int64() if name in ("Step count", "Cycle count") else pa.float64()) for name in columns]
    )
    return pa.table({name: np.asarray(values) for name, values in columns.items()}, schema=schema)


def _parquet_bytes(table: pa.Table) -> bytes:
    # Written in memory: the files are small, and a temporary file plus a (multipart-capable)
    # upload of it cost more than writing the Parquet itself. Dictionary encoding is left
    # out because it only pays for repeated values, which solver output hardly has.
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, use_dictionary=False)
    return sink.getvalue().to_pybytes()


def put_parquet(key: str, table: pa.Table) -> None:
    storage.put_bytes(key, _parquet_bytes(table))


def solve_metrics(columns: dict[str, np.ndarray], steps: dict, solve_time: float) -> dict:
    def total(name: str) -> float:
        return float(np.sum(steps[name])) if len(steps[name]) else 0.0

    voltage, times = columns["Voltage [V]"], columns["Time [s]"]
    return {
        "discharge_capacity_ah": total("Discharge capacity [A.h]"),
        "charge_capacity_ah": total("Charge capacity [A.h]"),
        "discharge_energy_wh": total("Discharge energy [W.h]"),
        "charge_energy_wh": total("Charge energy [W.h]"),
        "duration_s": float(times[-1] - times[0]),
        "min_voltage_v": float(np.nanmin(voltage)),  # a NaN row does not hide the range
        "max_voltage_v": float(np.nanmax(voltage)),
        "solve_time_s": solve_time,
        "num_steps": len(steps["Step count"]),
    }


@dataclass
class Solved:
    """One design point's results, in memory: the time series, its step summary, its metrics."""

    columns: dict[str, np.ndarray]
    steps: dict  # summary columns (summarize_step_columns)
    metrics: dict
    cache_hit: bool

    def time_series_table(self) -> pa.Table:
        return _table(self.columns)

    def steps_table(self) -> pa.Table:
        return pa.table([self.steps[name] for name in SUMMARY_COLUMNS], schema=SUMMARY_SCHEMA)

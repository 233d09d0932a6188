"""Synthetic cycling data: rest, CC charge, CV charge, rest, CC discharge, repeated.

``write_synthetic_series`` streams rows to Parquet (or CSV for a ``.csv`` path) one row
group at a time, so any row count fits in memory. The cell is a simple OCV + series
resistance model with a little measurement noise; the cumulative capacity and energy
columns are trapezoid integrals that reset at each step, as a cycler reports them.

    python -m cellar_worker.measurements.generate out.parquet 10000000 500
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from . import columns as col

RESISTANCE_OHM = 0.03
C_RATE = 0.5
SOC_LOW, SOC_AFTER_CC = 0.05, 0.85
OCV_SLOPE_NEAR_FULL = 1.2  # V per unit SOC
REST_S, CV_S, RELAX_TIME_CONSTANT_S = 1800.0, 3600.0, 300.0
# Share of a cycle's rows per step: rest, CC charge, CV charge, rest, CC discharge.
ROW_SHARES = (0.08, 0.32, 0.16, 0.08, 0.36)
PIECE_ROWS = 65_536
VOLTAGE_NOISE_V, CURRENT_NOISE_A = 2e-4, 2e-4


def ocv(soc: np.ndarray) -> np.ndarray:
    """Monotonic open-circuit voltage, about 2.75 V empty to 4.2 V full."""
    return 3.0 + 1.2 * soc - 0.25 * np.exp(-12.0 * soc)


@dataclass
class _Cell:
    capacity_ah: float
    soc: float = SOC_LOW
    voltage: float = float(ocv(np.array(SOC_LOW)))


def _cv_time_constant(cell: _Cell) -> float:
    """At constant voltage the current decays as (V - OCV) / R: exponential with this time constant."""
    return RESISTANCE_OHM * cell.capacity_ah * 3600.0 / OCV_SLOPE_NEAR_FULL


def _step_rows(rows_per_cycle: int) -> list[int]:
    rows = [max(2, int(share * rows_per_cycle)) for share in ROW_SHARES]
    rows[-1] += rows_per_cycle - sum(rows)
    return rows


def _step_signal(kind: str, cell: _Cell, tau: np.ndarray, params: dict) -> tuple[np.ndarray, np.ndarray]:
    """Noise-free current and voltage at step-local times ``tau``."""
    q = cell.capacity_ah * 3600.0
    current_a = C_RATE * cell.capacity_ah
    if kind == "rest":
        soc = np.full(len(tau), params["soc0"])
        voltage = ocv(soc) + (params["v0"] - ocv(soc)) * np.exp(-tau / RELAX_TIME_CONSTANT_S)
        return np.zeros(len(tau)), voltage
    if kind == "cc_charge":
        soc = params["soc0"] + current_a * tau / q
        return np.full(len(tau), -current_a), ocv(soc) + current_a * RESISTANCE_OHM
    if kind == "cv_charge":
        current = -current_a * np.exp(-tau / _cv_time_constant(cell))
        return current, np.full(len(tau), params["v_hold"])
    soc = params["soc0"] - current_a * tau / q
    return np.full(len(tau), current_a), ocv(soc) - current_a * RESISTANCE_OHM


def _end_soc(kind: str, cell: _Cell, duration: float, soc0: float) -> float:
    q = cell.capacity_ah * 3600.0
    current_a = C_RATE * cell.capacity_ah
    if kind == "cc_charge":
        return soc0 + current_a * duration / q
    if kind == "cv_charge":
        tc = _cv_time_constant(cell)
        return soc0 + current_a * tc * (1 - np.exp(-duration / tc)) / q
    if kind == "cc_discharge":
        return soc0 - current_a * duration / q
    return soc0


def _pieces(n_rows: int, n_cycles: int, capacity_ah: float, seed: int) -> Iterator[dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    cell = _Cell(capacity_ah)
    current_a = C_RATE * capacity_ah
    base, extra = divmod(n_rows, n_cycles)
    step_count, t_end = 0, None
    for cycle in range(n_cycles):
        kinds = ("rest", "cc_charge", "cv_charge", "rest", "cc_discharge")
        for kind, rows in zip(kinds, _step_rows(base + (cycle < extra))):
            soc0 = cell.soc
            if kind == "cc_charge":
                duration = (SOC_AFTER_CC - soc0) * capacity_ah * 3600.0 / current_a
            elif kind == "cc_discharge":
                duration = (soc0 - SOC_LOW) * capacity_ah * 3600.0 / current_a
            else:
                duration = REST_S if kind == "rest" else CV_S
            params = {"soc0": soc0, "v0": cell.voltage, "v_hold": cell.voltage}
            dt = duration / rows
            start = 0.0 if t_end is None else t_end + dt
            integrals: dict = {}
            for first in range(0, rows, PIECE_ROWS):
                k = np.arange(first, min(rows, first + PIECE_ROWS))
                tau = k * dt
                current, voltage = _step_signal(kind, cell, tau, params)
                if kind != "rest":
                    current = current + rng.normal(0.0, CURRENT_NOISE_A, len(k))
                voltage = voltage + rng.normal(0.0, VOLTAGE_NOISE_V, len(k))
                power = voltage * current
                piece = {
                    col.TIME: start + tau,
                    col.CURRENT: current,
                    col.VOLTAGE: voltage,
                    col.STEP: np.full(len(k), step_count, dtype=np.int64),
                    col.CYCLE: np.full(len(k), cycle, dtype=np.int64),
                    col.TEMPERATURE: 25.0 + 0.3 * np.abs(current) + rng.normal(0.0, 0.05, len(k)),
                }
                piece.update(_cumulative(current, power, dt, integrals))
                yield piece
            t_end = start + (rows - 1) * dt
            cell.soc = _end_soc(kind, cell, duration, soc0)
            cell.voltage = float(voltage[-1])
            step_count += 1


def _cumulative(current, power, dt, state) -> dict[str, np.ndarray]:
    """Per-step running trapezoid integrals; ``state`` carries (previous integrand, total) per column."""
    integrands = {
        col.DISCHARGE_CAPACITY: np.maximum(current, 0.0),
        col.CHARGE_CAPACITY: np.maximum(-current, 0.0),
        col.DISCHARGE_ENERGY: np.maximum(power, 0.0),
        col.CHARGE_ENERGY: np.maximum(-power, 0.0),
    }
    out = {}
    for name, part in integrands.items():
        previous, total = state.get(name, (None, 0.0))
        before = np.concatenate(([part[0] if previous is None else previous], part[:-1]))
        increments = 0.5 * (part + before)
        if previous is None:
            increments[0] = 0.0  # a step's first row starts its integrals at 0
        running = total + np.cumsum(increments) * (dt / 3600.0)
        state[name] = (part[-1], running[-1])
        out[name] = running
    return out


def write_synthetic_series(
    path: str,
    n_rows: int,
    n_cycles: int,
    *,
    capacity_ah: float = 5.0,
    row_group_rows: int = 262_144,
    seed: int = 0,
    include_cumulative: bool = True,
) -> dict:
    """Write ``n_rows`` rows of ``n_cycles`` cycles (5 steps each) to ``path``.

    Returns ``{"rows", "steps", "cycles", "last_time"}``.
    """
    if n_cycles < 1 or n_rows < 10 * n_cycles:
        raise ValueError("need at least one cycle and 10 rows per cycle (2 per step)")
    names = [col.TIME, col.CURRENT, col.VOLTAGE, col.STEP, col.CYCLE, col.TEMPERATURE]
    if include_cumulative:
        names += list(col.CUMULATIVE)
    schema = pa.schema([pa.field(name, pa.int64() if name in col.COUNTS else pa.float64()) for name in names])
    if str(path).endswith(".csv"):
        writer = pacsv.CSVWriter(str(path), schema)
    else:
        # pyarrow's defaults (snappy, dictionary pages), as a client exporting with pandas would write.
        writer = pq.ParquetWriter(str(path), schema)
    buffered: list[dict[str, np.ndarray]] = []
    buffered_rows = 0
    last_time = 0.0

    def flush(rows: int) -> None:
        nonlocal buffered, buffered_rows
        merged = {name: np.concatenate([piece[name] for piece in buffered]) for name in names}
        writer.write_table(pa.table({name: merged[name][:rows] for name in names}, schema=schema))
        rest = {name: merged[name][rows:] for name in names}
        buffered = [rest] if len(rest[col.TIME]) else []
        buffered_rows -= rows

    with writer:
        for piece in _pieces(n_rows, n_cycles, capacity_ah, seed):
            buffered.append(piece)
            buffered_rows += len(piece[col.TIME])
            last_time = float(piece[col.TIME][-1])
            while buffered_rows >= row_group_rows:
                flush(row_group_rows)
        if buffered_rows:
            flush(buffered_rows)
    return {"rows": n_rows, "steps": 5 * n_cycles, "cycles": n_cycles, "last_time": last_time}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path")
    parser.add_argument("rows", type=int)
    parser.add_argument("cycles", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-cumulative", action="store_true", help="omit capacity/energy columns")
    args = parser.parse_args()
    print(
        write_synthetic_series(
            args.path, args.rows, args.cycles, seed=args.seed, include_cumulative=not args.no_cumulative
        )
    )


if __name__ == "__main__":
    main()

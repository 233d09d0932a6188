"""The loops a modeller would write instead of sending a sweep to Cellar (bench/simulation-throughput.ts).

    python bench/sweep_baselines.py plain|expert quick|spme|cycling POINTS

- plain: ``pybamm.Simulation(...).solve()`` built anew for every point;
- expert: one ``Simulation`` with the swept parameter as ``"[input]"``, then
  ``sim.solve(inputs={...})`` per point, every solution kept in memory.

Prints one JSON line: wall and CPU seconds, and the mean discharge capacity [A.h].
"""

from __future__ import annotations

import json
import os
import sys
import time

os.environ.setdefault("PYBAMM_DISABLE_TELEMETRY", "true")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "pyworker"))

import numpy as np  # noqa: E402
import pybamm  # noqa: E402

from cellar_worker.simulation.quick_model import quick_parameter_values  # noqa: E402

ONE_C = ["Discharge at 1C until 2.5 V"]
CYCLE = ["Discharge at 1C until 2.5 V", "Rest for 10 minutes", "Charge at 1C until 4.2 V", "Hold at 4.2 V until C/20"]

# name: (model, parameter values, swept parameter, low, high, experiment)
SWEEPS = {
    "quick": (
        pybamm.equivalent_circuit.Thevenin,
        lambda: quick_parameter_values(5.0, "NMC/Graphite"),
        "R0 [Ohm]",
        0.004,
        0.012,
        ONE_C,
    ),
    "cycling": (
        pybamm.equivalent_circuit.Thevenin,
        lambda: quick_parameter_values(5.0, "NMC/Graphite"),
        "R0 [Ohm]",
        0.004,
        0.012,
        CYCLE,
    ),
    "spme": (
        pybamm.lithium_ion.SPMe,
        lambda: pybamm.ParameterValues("Chen2020"),
        "Negative particle diffusivity [m2.s-1]",
        2e-14,
        6e-14,
        ONE_C,
    ),
}


def capacity(solution) -> float:
    """Charge discharged [A.h]: the time integral of the positive current (as Cellar's metric)."""
    current = np.maximum(solution["Current [A]"].entries, 0)
    return float(np.trapezoid(current, solution.t) / 3600)


def main() -> None:
    kind, sweep, points = sys.argv[1], sys.argv[2], int(sys.argv[3])
    model, values_of, name, low, high, steps = SWEEPS[sweep]
    grid = [low + (high - low) * i / max(points - 1, 1) for i in range(points)]
    t0, c0 = time.perf_counter(), time.process_time()
    solutions = []
    if kind == "plain":
        for value in grid:
            values = values_of()
            values[name] = value
            sim = pybamm.Simulation(model(), parameter_values=values, experiment=pybamm.Experiment(steps))
            solutions.append(sim.solve())
    else:
        values = values_of()
        values[name] = "[input]"
        sim = pybamm.Simulation(model(), parameter_values=values, experiment=pybamm.Experiment(steps))
        for value in grid:
            solutions.append(sim.solve(inputs={name: value}))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    caps = [capacity(s) for s in solutions]
    print(json.dumps({"wall": wall, "cpu": cpu, "points": points, "capacity": sum(caps) / len(caps)}))


if __name__ == "__main__":
    main()

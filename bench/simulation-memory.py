"""Peak memory of a DFN sweep with a long cycling protocol (not a test).

Each point of the grid changes a geometry parameter, so every point is a separate build
(the case that once kept each build's whole solution in the worker's cache). Two runs,
each in its own process so that peak RSS is theirs alone:

- worker: the points through ``run_simulation``, as the Python worker runs them;
- plain: the loop a user would write, one ``pybamm.Simulation`` per point, reading the
  voltage from each solution.

Run from the repository root::

    .tools/venv/bin/python bench/simulation-memory.py --points 6 --cycles 20
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("PYBAMM_DISABLE_TELEMETRY", "true")

PARAMETER = "Negative particle radius [m]"
V_MIN, V_MAX = 3.0, 4.1


def grid(points: int) -> list[float]:
    return [5.0e-6 + 1.0e-6 * index for index in range(points)]


def run_worker(points: int, cycles: int) -> None:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pyworker"))
    from cellar_worker.simulation import run_simulation

    protocol = {
        "global": {"initial_state_type": "soc_percentage", "initial_state_value": 100},
        "steps": [
            {"Discharge": {"mode": "C-rate", "value": 1, "ends": [f"Voltage < {V_MIN}"]}},
            {"Rest": {"duration": 600}},
            {"Charge": {"mode": "C-rate", "value": 1, "ends": [f"Voltage > {V_MAX}"]}},
            {"Hold": {"mode": "voltage", "value": V_MAX, "ends": ["Current < 0.05"]}},
            {"Goto": {"step": 0, "repeat": cycles - 1}},
        ],
    }
    with tempfile.TemporaryDirectory() as folder:
        os.environ["STORAGE_DRIVER"] = "fs"
        os.environ["STORAGE_DIR"] = folder
        for index, value in enumerate(grid(points)):
            run_simulation(
                {
                    "simulation_id": f"bench-{index}",
                    "model": {"kind": "pybamm", "type": "DFN"},
                    "protocol": protocol,
                    "inputs": {PARAMETER: value},
                    "output_prefix": f"bench/{index}/",
                }
            )


def run_plain(points: int, cycles: int) -> None:
    import pybamm

    experiment = pybamm.Experiment(
        [
            (
                f"Discharge at 1C until {V_MIN} V",
                "Rest for 10 minutes",
                f"Charge at 1C until {V_MAX} V",
                f"Hold at {V_MAX} V until 50 mA",
            )
        ]
        * cycles
    )
    for value in grid(points):
        values = pybamm.ParameterValues("Chen2020")
        values[PARAMETER] = value
        simulation = pybamm.Simulation(pybamm.lithium_ion.DFN(), experiment=experiment, parameter_values=values)
        solution = simulation.solve(initial_soc=1.0)
        solution["Voltage [V]"].entries  # what a user reads  # noqa: B018


def measure(mode: str, points: int, cycles: int) -> dict:
    """Runs one mode in a child process: its wall time and peak RSS."""
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--points", str(points), "--cycles", str(cycles)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {"seconds": time.perf_counter() - started, "peak_rss_mb": json.loads(out.splitlines()[-1])["peak_rss_mb"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=6)
    parser.add_argument("--cycles", type=int, default=20)
    parser.add_argument("--child", choices=("worker", "plain"))
    args = parser.parse_args()
    if args.child:
        (run_worker if args.child == "worker" else run_plain)(args.points, args.cycles)
        print(json.dumps({"peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
        return
    worker = measure("worker", args.points, args.cycles)
    plain = measure("plain", args.points, args.cycles)
    steps = 4 * args.cycles
    print(f"DFN, {args.points} points x {steps} steps, each point a separate build")
    print(f"  worker (run_simulation): {worker['seconds']:.1f} s, peak RSS {worker['peak_rss_mb']:.0f} MB")
    print(f"  plain PyBaMM loop:       {plain['seconds']:.1f} s, peak RSS {plain['peak_rss_mb']:.0f} MB")
    print(
        json.dumps(
            {
                "peak_rss_ratio_worker_over_plain": round(worker["peak_rss_mb"] / plain["peak_rss_mb"], 3),
                "time_ratio_plain_over_worker": round(plain["seconds"] / worker["seconds"], 3),
            }
        )
    )


if __name__ == "__main__":
    main()

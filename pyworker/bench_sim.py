"""Measure a design-of-experiments sweep through ``run_simulation`` (not a test).

Each point changes one parameter value, so after the first point every simulation is
re-solved from the cached build. Run from ``pyworker/``::

    python bench_sim.py --points 1000 --model quick
    python bench_sim.py --points 50 --model spm

Results are written to a temporary local storage folder that is removed afterwards.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

os.environ.setdefault("PYBAMM_DISABLE_TELEMETRY", "true")

MODELS = {
    "quick": ({"kind": "quick", "capacity": 5.0, "chemistry": "NMC/Graphite"}, "R0 [Ohm]", (0.005, 0.03), 2.5, 4.2),
    "spm": ({"kind": "pybamm", "type": "SPM"}, "Negative particle diffusivity [m2.s-1]", (1e-14, 1e-13), 3.0, 4.1),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=1000)
    parser.add_argument("--model", choices=sorted(MODELS), default="quick")
    args = parser.parse_args()

    from cellar_worker import settings
    from cellar_worker.simulation import run_simulation

    model, parameter, (low, high), v_min, v_max = MODELS[args.model]
    protocol = {
        "global": {"initial_state_type": "soc_percentage", "initial_state_value": 100},
        "steps": [
            {"Discharge": {"mode": "C-rate", "value": 1, "ends": [f"Voltage < {v_min}"]}},
            {"Rest": {"duration": 600}},
            {"Charge": {"mode": "C-rate", "value": 0.5, "ends": [f"Voltage > {v_max}"]}},
            {"Hold": {"mode": "voltage", "value": v_max, "ends": ["C-rate < 0.05"]}},
        ],
    }
    with tempfile.TemporaryDirectory() as folder:
        os.environ["STORAGE_DRIVER"] = "fs"
        os.environ["STORAGE_DIR"] = folder
        settings.reset()
        durations, hits = [], 0
        for index in range(args.points):
            value = low + (high - low) * index / max(args.points - 1, 1)
            started = time.perf_counter()
            result = run_simulation(
                {
                    "simulation_id": f"bench-{index}",
                    "model": model,
                    "protocol": protocol,
                    "inputs": {parameter: value},
                    "output_prefix": f"bench/{index}/",
                }
            )
            durations.append(time.perf_counter() - started)
            hits += result["cache_hit"]
    rest = durations[1:] or durations
    print(
        f"{args.model}: {args.points} points in {sum(durations):.1f} s; first (build) {durations[0]:.3f} s; "
        f"then median {statistics.median(rest):.3f} s per point; cache hits {hits}/{args.points}"
    )


if __name__ == "__main__":
    main()

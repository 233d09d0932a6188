"""Baseline for the pipeline fit benchmark (issue 6): a one-parameter fit as a plain script.

The benchmark compares a pipeline (entry + calculation + a one-parameter ``data_fit`` on a
1,000-row discharge) against the same fit done the way a user would write it with PyBaMM
and SciPy, with the same optimizer settings. This script provides that baseline half:

1. it makes the "measured" discharge: PyBaMM's SPMe with Chen2020 parameters at 1C until
   3.0 V, ``Negative particle diffusivity [m2.s-1]`` = ``TRUE_VALUE``, resampled to exactly
   ``--rows`` rows with 1 mV of seeded Gaussian noise on the voltage;
2. it times, each in a fresh Python process (imports excluded, data reading included;
   ``--repeat`` runs, interleaved, medians reported):

   - ``script``: the baseline -- a plain script: ``pybamm.Simulation`` built once with the
     fitted parameter as an ``"[input]"`` and the measured current as a drive-cycle
     ``pybamm.Interpolant``, ``sim.solve(inputs=...)`` per evaluation, the RMSE, and
     ``scipy.optimize.minimize`` with the settings below on the parameter scaled to
     [0, 1] across its bounds (Nelder-Mead's first simplex steps 5 % of the range, as
     the worker does), so both make the same sequence of evaluations;
   - ``module``: the worker's own ``fit_parameters`` (what the ``fitParameters`` activity
     runs) on the same inline data, cold, then again warm (a second fit in the same
     process reuses the cached build, as a long-running worker does);
   - ``naive`` (only with ``--naive``): the script building a new ``pybamm.Simulation``
     for every evaluation, as a first attempt often does.

Optimizer settings (the ``data_fit`` element uses the same; see ``FIT_ELEMENT``):
Nelder-Mead, ``max_iterations`` 100, ``tolerance`` 1e-6 (SciPy's ``tol``), RMSE of the
voltage, bounds [1e-15, 1e-13], initial value 1e-14, IDAKLU rtol 1e-4 / atol 1e-6.

Run from ``pyworker/``::

    python bench_fit.py                   # figures, then one JSON line
    python bench_fit.py --out ../bench/out/fit   # also writes the data and the element
                                                 # (fit_element.json: the data_fit element
                                                 # with inline data; time_series.parquet)

The TypeScript benchmark runs the pipeline with ``fit_element.json`` and compares its
time to completion with ``baseline_script_s`` (target: at most 1.2x).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("PYBAMM_DISABLE_TELEMETRY", "true")

PARAMETER = "Negative particle diffusivity [m2.s-1]"
TRUE_VALUE = 3.3e-14
BOUNDS = (1e-15, 1e-13)
INITIAL_VALUE = 1e-14
METHOD = "Nelder-Mead"
MAX_ITERATIONS = 100
TOLERANCE = 1e-6
NOISE_V = 1e-3
SEED = 6
RTOL, ATOL = 1e-4, 1e-6
MODEL = {"type": "SPMe"}  # Chen2020, default mesh and solver (IDAKLU, rtol 1e-4, atol 1e-6)

FIT_ELEMENT = {
    "element_type": "data_fit",
    "model": MODEL,
    "parameters": {PARAMETER: {"bounds": list(BOUNDS), "initial_value": INITIAL_VALUE}},
    "cost": "RMSE",
    "target": "Voltage [V]",
    "optimizer": {"method": METHOD, "max_iterations": MAX_ITERATIONS, "tolerance": TOLERANCE},
}


# ----------------------------------------------------------------------------- data


def make_data(rows: int) -> dict[str, list[float]]:
    import numpy as np
    import pybamm

    values = pybamm.ParameterValues("Chen2020")
    values[PARAMETER] = TRUE_VALUE
    simulation = pybamm.Simulation(
        pybamm.lithium_ion.SPMe(),
        parameter_values=values,
        experiment=pybamm.Experiment(["Discharge at 1C until 3.0 V"], period="1 second"),
        solver=pybamm.IDAKLUSolver(rtol=1e-6, atol=1e-8),
    )
    solution = simulation.solve()
    t = solution["Time [s]"].entries
    time_s = np.linspace(0.0, float(t[-1]), rows)
    current = np.interp(time_s, t, solution["Current [A]"].entries)
    voltage = np.interp(time_s, t, solution["Voltage [V]"].entries)
    voltage = voltage + np.random.default_rng(SEED).normal(0.0, NOISE_V, rows)
    return {"Time [s]": time_s.tolist(), "Current [A]": current.tolist(), "Voltage [V]": voltage.tolist()}


def write_parquet(columns: dict[str, list[float]], path: str) -> None:
    """A canonical single-step time series (one discharge step)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    time_s = np.asarray(columns["Time [s]"])
    current = np.asarray(columns["Current [A]"])
    voltage = np.asarray(columns["Voltage [V]"])
    dt = np.diff(time_s, prepend=time_s[0])
    capacity = np.cumsum(np.concatenate([[0.0], 0.5 * (current[1:] + current[:-1]) * dt[1:]])) / 3600
    power = current * voltage
    energy = np.cumsum(np.concatenate([[0.0], 0.5 * (power[1:] + power[:-1]) * dt[1:]])) / 3600
    zeros = np.zeros(len(time_s))
    table = pa.table(
        {
            "Time [s]": time_s,
            "Current [A]": current,
            "Voltage [V]": voltage,
            "Step count": np.zeros(len(time_s), dtype=np.int64),
            "Cycle count": np.zeros(len(time_s), dtype=np.int64),
            "Discharge capacity [A.h]": capacity,
            "Charge capacity [A.h]": zeros,
            "Discharge energy [W.h]": energy,
            "Charge energy [W.h]": zeros,
        }
    )
    pq.write_table(table, path)


# ----------------------------------------------------------------------------- variants


def run_script(data_path: str, rebuild: bool) -> dict:
    """The baseline: what a user writes with PyBaMM and SciPy (timed from reading the data)."""
    import numpy as np
    import pybamm
    import scipy.optimize

    started = time.perf_counter()
    with open(data_path, encoding="utf-8") as handle:
        columns = json.load(handle)
    t = np.asarray(columns["Time [s]"])
    current = np.asarray(columns["Current [A]"])
    measured = np.asarray(columns["Voltage [V]"])

    values = pybamm.ParameterValues("Chen2020")
    values["Current function [A]"] = pybamm.Interpolant(t, current, pybamm.t, interpolator="linear")
    values[PARAMETER] = "[input]"

    def new_simulation():
        return pybamm.Simulation(
            pybamm.lithium_ion.SPMe(), parameter_values=values, solver=pybamm.IDAKLUSolver(rtol=RTOL, atol=ATOL)
        )

    simulation = new_simulation()
    lower, upper = BOUNDS
    evaluations = 0

    def cost(x):
        nonlocal evaluations, simulation
        evaluations += 1
        value = lower + float(x[0]) * (upper - lower)
        if rebuild:
            simulation = new_simulation()
        try:
            solution = simulation.solve([0, t[-1]], inputs={PARAMETER: value}, t_interp=t)
        except pybamm.SolverError:
            return 1e6
        predicted = np.interp(t, solution.t, solution["Voltage [V]"].entries)
        return float(np.sqrt(np.mean((predicted - measured) ** 2)))

    x0 = (INITIAL_VALUE - lower) / (upper - lower)
    result = scipy.optimize.minimize(
        cost,
        [x0],
        method=METHOD,
        bounds=[(0.0, 1.0)],
        tol=TOLERANCE,
        options={"maxiter": MAX_ITERATIONS, "initial_simplex": [[x0], [x0 + 0.05]]},
    )
    return {
        "seconds": time.perf_counter() - started,
        "value": lower + float(result.x[0]) * (upper - lower),
        "cost": float(result.fun),
        "evaluations": evaluations,
    }


def run_module(data_path: str) -> dict:
    from cellar_worker.fitting import fit_parameters

    figures = {}
    for label in ("cold", "warm"):
        started = time.perf_counter()
        with open(data_path, encoding="utf-8") as handle:
            columns = json.load(handle)
        request = {k: v for k, v in FIT_ELEMENT.items() if k != "element_type"}
        result = fit_parameters({**request, "data": {"source": "inline", "columns": columns}})
        figures[label] = {
            "seconds": time.perf_counter() - started,
            "value": result["parameter_values"][PARAMETER],
            "cost": result["cost"],
            "evaluations": result["evaluations"],
        }
    return figures


def _child(variant: str, data_path: str) -> dict:
    """Run one variant in a fresh interpreter (no warm PyBaMM state from another)."""
    output = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--variant", variant, "--data", data_path],
        check=True,
        capture_output=True,
        text=True,
        cwd=os.path.dirname(os.path.abspath(__file__)),
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def _median(runs: list[dict], key) -> dict:
    ordered = sorted(runs, key=key)
    return ordered[(len(ordered) - 1) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--out", help="folder for fit_element.json, fit_data.json and time_series.parquet")
    parser.add_argument("--naive", action="store_true", help="also time a script that rebuilds per evaluation")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per variant; medians are reported")
    parser.add_argument("--variant", choices=("script", "naive", "module"), help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.variant:
        if args.variant == "module":
            figures = run_module(args.data)
        else:
            figures = run_script(args.data, rebuild=args.variant == "naive")
        print(json.dumps(figures))
        return

    with tempfile.TemporaryDirectory(prefix="cellar-bench-fit-") as folder:
        out = args.out or folder
        os.makedirs(out, exist_ok=True)
        columns = make_data(args.rows)
        data_path = os.path.join(out, "fit_data.json")
        with open(data_path, "w", encoding="utf-8") as handle:
            json.dump(columns, handle)
        with open(os.path.join(out, "fit_element.json"), "w", encoding="utf-8") as handle:
            json.dump({**FIT_ELEMENT, "data": columns}, handle)
        write_parquet(columns, os.path.join(out, "time_series.parquet"))

        scripts, modules = [], []
        for _ in range(max(1, args.repeat)):  # interleaved, so load changes hit both alike
            scripts.append(_child("script", data_path))
            modules.append(_child("module", data_path))
        naive = _child("naive", data_path) if args.naive else None
    script = _median(scripts, lambda run: run["seconds"])
    module = {
        "cold": _median([run["cold"] for run in modules], lambda run: run["seconds"]),
        "warm": _median([run["warm"] for run in modules], lambda run: run["seconds"]),
    }

    print(
        f"data: {args.rows} rows, SPMe 1C discharge, true {PARAMETER} = {TRUE_VALUE:g}; "
        f"medians of {max(1, args.repeat)} fresh processes"
    )
    print(
        f"baseline script (PyBaMM + SciPy {METHOD}): {script['seconds']:.2f} s, "
        f"{script['evaluations']} evaluations, fitted {script['value']:.4g} (RMSE {script['cost'] * 1000:.2f} mV)"
    )
    print(
        f"worker fit_parameters: cold {module['cold']['seconds']:.2f} s, warm {module['warm']['seconds']:.2f} s, "
        f"{module['cold']['evaluations']} evaluations, fitted {module['cold']['value']:.4g} "
        f"(RMSE {module['cold']['cost'] * 1000:.2f} mV)"
    )
    if naive:
        print(f"naive script (rebuild per evaluation): {naive['seconds']:.2f} s, {naive['evaluations']} evaluations")
    figures = {
        "rows": args.rows,
        "repeat": max(1, args.repeat),
        "baseline_script_runs_s": [round(run["seconds"], 3) for run in scripts],
        "true_value": TRUE_VALUE,
        "baseline_script_s": round(script["seconds"], 3),
        "baseline_evaluations": script["evaluations"],
        "baseline_value": script["value"],
        "module_cold_s": round(module["cold"]["seconds"], 3),
        "module_warm_s": round(module["warm"]["seconds"], 3),
        "module_evaluations": module["cold"]["evaluations"],
        "module_value": module["cold"]["value"],
    }
    if naive:
        figures["naive_script_s"] = round(naive["seconds"], 3)
    if args.out:
        figures["fit_element"] = os.path.join(args.out, "fit_element.json")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

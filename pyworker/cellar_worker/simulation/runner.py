"""One simulation, end to end: check the request, solve, store Parquet, report metrics.

Request (JSON, snake_case)::

    {"simulation_id": "...",
     "model": {...model spec, see models.py...},
     "protocol": {...UCP JSON, see ucp.py...},
     "inputs": {"<name>": number},        # design point merged with experiment parameters
     "extra_variables": ["<PyBaMM variable name>", ...],
     "max_backward_jumps": 1000,
     "output_prefix": "simulations/<org>/<sim_id>/"}

``inputs`` names are either PyBaMM parameter names of the model (applied as parameter
values), names used by ``input['...']`` in the protocol, or ``Initial SOC [%]`` (the
initial state when the protocol sets none). A parameter value replaces the parameter
outright (one that is a function of state becomes that constant). Parameters that only
change values become PyBaMM input parameters of a cached, already built simulation (see
cache.py); those PyBaMM cannot take at solve time (geometry, temperatures) are baked
into the build, so each of their values is a separate build.

Deterministic solver failure (for tests): a quick model with
``inputs: {"Cell thermal mass [J/K]": 0}`` divides by zero in the thermal equation at
solve time, so the solver fails, fails again on the tighter retry, and the job ends with
``SOLVER_ERROR``.
"""

from __future__ import annotations

from collections.abc import Callable

import pybamm

from .. import storage
from .job import prepare_request
from .output import put_parquet
from .solving import Progress, SimulationCancelled, solve_point

TIME_SERIES_FILE = "time_series.parquet"
STEPS_FILE = "steps.parquet"


def run_simulation(
    request: dict,
    on_progress: Progress | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> dict:
    """Solve one simulation and store its two files in its own folder (the per-simulation
    activity of batches begun before sweeps ran in chunks; see the module docstring).

    A cancel that arrives while the files are written removes them: a canceled job keeps none.
    """
    job = prepare_request(request)
    solved = solve_point(job, on_progress, should_cancel)
    cancelled = should_cancel or (lambda: False)
    put_parquet(job.output_prefix + TIME_SERIES_FILE, solved.time_series_table())
    put_parquet(job.output_prefix + STEPS_FILE, solved.steps_table())
    if cancelled():
        storage.delete_prefix(job.output_prefix)
        raise SimulationCancelled()
    return {
        "storage_folder": job.output_prefix,
        "files": [TIME_SERIES_FILE, STEPS_FILE],
        "metrics": solved.metrics,
        "simulator_version": pybamm.__version__,
        "cache_hit": solved.cache_hit,
    }

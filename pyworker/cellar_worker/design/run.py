"""One design optimization, end to end (synchronous; the activity runs it in a thread).

``optimize_design(request)``::

    {"model": {...model spec, as runSimulation...},
     "protocol": {...UCP...},
     "parameters": {"<PyBaMM name>": {"initial": v, "bounds": [lo, hi], "scale"?: "linear"|"log"}},
     "fixed_parameters"?: {"<name>": number},
     "objective": {"metric": "discharge capacity [A.h]", "aim": "maximize"|"minimize"},
     "constraints"?: [{"metric", "min"?, "max"?}],
     "optimizer"?: {"method", "max_iterations", "max_evaluations"?, "tolerance"?},
     "checkpoint"?: {"best_parameters", ...}}

Each evaluation simulates the protocol with the candidate values (the simulation package's job
checks and cached builds). A candidate the solver fails on, or one breaking a constraint, is
infeasible: it costs ``optimize.FAILED_COST`` and the search steps away. The optimizer minimizes
the metric, or its negative when maximizing (the trace's costs are those signed values).

→ ``{"parameter_values", "objective_value", "metric", "aim", "metrics" (the best design's solve
metrics), "cost", "cost_name": "design", "iterations", "evaluations", "failed_evaluations",
"converged", "message", "initial_parameters", "resumed", "duration_s", "element_name",
"intermediate_results"}``. Errors: ``CONFIGURATION_ERROR`` for bad input (also a parameter
the model does not have), ``SOLVER_ERROR`` when no evaluated design was feasible.
"""

from __future__ import annotations

import time

import numpy as np

from ..fitting import optimize
from ..fitting.fit_request import ShouldCancel, never_cancel
from ..fitting.optimize import FitCancelled, Progress
from ..fitting.spec import read_checkpoint
from ..simulation import solving
from ..simulation.errors import solver_error
from ..simulation.job import prepare_request
from .spec import METRICS, Design, parse_design


class Infeasible(Exception):
    """This candidate could not be simulated or broke a constraint."""


def _job(design: Design, values: dict[str, float]):
    return prepare_request(
        {
            "simulation_id": "design",
            "model": design.model,
            "protocol": design.protocol,
            "inputs": {**design.fixed, **values},
            "output_prefix": "designs/unused/",
        }
    )


def optimize_design(
    request,
    progress: Progress | None = None,
    should_cancel: ShouldCancel | None = None,
    checkpoint_details=None,
) -> dict:
    started = time.monotonic()
    progress, should_cancel = progress or Progress(), should_cancel or never_cancel
    design = parse_design(request)
    start = {p.name: p.initial for p in design.parameters}
    # Bad names and values are the request's fault: checked once, before any solve.
    _job(design, start)
    checkpoint = None
    for candidate in (*(checkpoint_details or ()), request.get("checkpoint")):
        checkpoint = read_checkpoint(candidate, design.parameters)
        if checkpoint is not None:
            break
    if checkpoint:
        start = checkpoint.best_parameters
        progress.iteration, progress.evaluations = checkpoint.iteration, checkpoint.evaluations
    progress.max_iterations = design.settings.max_iterations
    sign = -1.0 if design.aim == "maximize" else 1.0
    best_metrics: dict = {}

    def evaluate(values: dict[str, float]) -> list[np.ndarray]:
        try:
            metrics = solving.solve_point(_job(design, values), None, should_cancel).metrics
        except solving.SimulationCancelled:
            raise FitCancelled() from None
        except Exception as error:  # noqa: BLE001 -- any failure of this one design makes it infeasible
            raise Infeasible(str(error)) from None
        if not all(c.holds(metrics[METRICS[c.metric]]) for c in design.constraints):
            raise Infeasible("a constraint is broken")
        value = metrics[METRICS[design.metric]]
        if not np.isfinite(value):
            raise Infeasible("the objective is not finite")
        cost = sign * value
        if "cost" not in best_metrics or cost < best_metrics["cost"]:
            best_metrics.update(cost=cost, metrics=metrics)
        return [np.array([cost])]

    problem = optimize.Problem(
        design.parameters,
        evaluate,
        lambda arrays: float(arrays[0][0]),
        lambda arrays: arrays[0],
        n_residuals=1,
        progress=progress,
        should_cancel=should_cancel,
        failure_type=Infeasible,
        max_evaluations=design.settings.max_evaluations,
    )
    try:
        # The start first, so the trace opens with its cost (an infeasible start costs FAILED_COST).
        problem.cost(np.clip(problem.unit(start), 0.0, 1.0))
        outcome = optimize.minimize(problem, start, design.settings)
    except optimize.NoFeasiblePoint:
        raise solver_error(
            f"no feasible design: all {problem.evaluations} evaluated designs failed to solve or broke a constraint"
        ) from None
    snapshot = progress.snapshot()
    return {
        "element_name": request.get("element_name"),
        "parameter_values": {p.name: float(outcome.best_parameters[p.name]) for p in design.parameters},
        "objective_value": sign * outcome.best_cost,
        "metric": design.metric,
        "aim": design.aim,
        "metrics": best_metrics.get("metrics"),
        "cost": outcome.best_cost,
        "cost_name": "design",
        "iterations": snapshot["iteration"],
        "evaluations": snapshot["evaluations"],
        "failed_evaluations": progress.failed_evaluations,
        "converged": outcome.converged,
        "message": outcome.message,
        "initial_parameters": dict(start),
        "resumed": checkpoint is not None,
        "duration_s": optimize.elapsed(started),
        "intermediate_results": list(progress.trace),
    }

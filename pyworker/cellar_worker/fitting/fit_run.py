"""One optimizer run over one or more data sets (cases), from a checkpoint or a start point,
to the common part of a fit's answer."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import optimize
from .data import Dataset
from .drive_cycle_evaluator import DriveCycleEvaluator
from .evaluator import EvaluationCancelled, EvaluationFailed, Evaluator
from .fit_request import ShouldCancel
from .optimize import FitCancelled, Progress
from .protocol_evaluator import ProtocolEvaluator
from .spec import FittedParameter, cost_value, read_checkpoint, residual_stats


class _Residuals(np.ndarray):
    """Model minus data at the measured times, with the simulated fraction of the data."""

    coverage: float = 1.0


@dataclass
class Case:
    """One data set with its evaluator, and its weight in the joint cost."""

    value: float | None
    evaluator: Evaluator
    weight: float = 1.0

    def residuals(self, values: dict[str, float], should_cancel: ShouldCancel) -> _Residuals:
        dataset = self.evaluator.dataset
        residuals = (self.evaluator.predict(values, should_cancel) - dataset.target).view(_Residuals)
        residuals.coverage = self.coverage()
        return residuals

    def coverage(self) -> float:
        simulated = self.evaluator.simulated_until
        duration = self.evaluator.dataset.duration
        if simulated is None or duration <= 0:
            return 1.0
        return float(min(1.0, simulated / duration))


def close_cases(cases: list[Case]) -> None:
    for case in cases:
        case.evaluator.close()


def run_fit(
    request: dict,
    fitted: list[FittedParameter],
    cases: list[Case],
    cost_name: str,
    settings,
    progress: Progress,
    should_cancel: ShouldCancel,
    checkpoints,
    started: float,
    default_start: dict[str, float] | None = None,
    residuals_out: dict | None = None,
) -> dict:
    """The optimizer over ``cases``, from the first usable of ``checkpoints`` (else
    ``default_start``, else the initial values); returns the common part of the answer.
    ``residuals_out`` receives the first case's residuals at the best values (``optimal``) and,
    unless resumed, at the start (``baseline``), for its series."""
    checkpoint = None
    for candidate in checkpoints:
        checkpoint = read_checkpoint(candidate, fitted)
        if checkpoint is not None:
            break
    if checkpoint:
        start = checkpoint.best_parameters
    else:
        start = dict(default_start) if default_start else {p.name: p.initial for p in fitted}
    if checkpoint:
        progress.iteration = checkpoint.iteration
        progress.evaluations = checkpoint.evaluations
    progress.max_iterations = settings.max_iterations

    def residuals(values: dict[str, float]) -> list[np.ndarray]:
        return [case.residuals(values, should_cancel) for case in cases]

    def combine(arrays: list[np.ndarray]) -> float:
        # The weighted sum of the data sets' costs (ionworks-schema's objective_weights).
        return float(sum(case.weight * cost_value(cost_name, array) for case, array in zip(cases, arrays)))

    def stack(arrays: list[np.ndarray]) -> np.ndarray:
        # least_squares minimizes the sum of squares: per data set, its weighted SSE, or its MSE for
        # RMSE (one data set only: minimizing its MSE minimizes its RMSE).
        scale = [math.sqrt(case.weight) for case in cases]
        if cost_name == "SSE":
            return np.concatenate([w * array for w, array in zip(scale, arrays)])
        return np.concatenate([w * array / math.sqrt(len(array)) for w, array in zip(scale, arrays)])

    problem = optimize.Problem(
        fitted,
        residuals,
        combine,
        stack,
        n_residuals=sum(case.evaluator.dataset.n_points for case in cases),
        progress=progress,
        should_cancel=should_cancel,
        failure_type=EvaluationFailed,
        max_evaluations=settings.max_evaluations,
    )
    try:
        # The start point must solve; its failure is the answer (SOLVER_ERROR / CONFIGURATION_ERROR).
        if should_cancel():
            raise FitCancelled()
        try:
            first = residuals(start)
        except EvaluationFailed as failure:
            raise failure.error from None
        problem.evaluations += 1
        problem.remember(start, first)
        outcome = optimize.minimize(problem, start, settings)
    except EvaluationCancelled:
        raise FitCancelled() from None

    best, final = outcome.best_parameters, outcome.best_residuals
    if residuals_out is not None:
        residuals_out["optimal"] = final[0]
        if checkpoint is None:
            residuals_out["baseline"] = first[0]
    per_dataset = [
        {
            "value": case.value,
            "weight": case.weight,
            "cost": cost_value(cost_name, array),
            "summary_stats": residual_stats(array),
            "n_points": int(len(array)),
            "coverage": array.coverage,
        }
        for case, array in zip(cases, final)
    ]
    snapshot = progress.snapshot()
    return {
        "element_name": request.get("element_name"),
        "parameter_values": {p.name: float(best[p.name]) for p in fitted},
        "cost": combine(final),
        "cost_name": cost_name,
        "iterations": snapshot["iteration"],
        "evaluations": snapshot["evaluations"],
        "failed_evaluations": progress.failed_evaluations,
        "duration_s": optimize.elapsed(started),
        "converged": outcome.converged,
        "message": outcome.message,
        "summary_stats": residual_stats(np.concatenate(final)),
        "n_points": int(sum(len(array) for array in final)),
        "initial_parameters": dict(start),
        "resumed": checkpoint is not None,
        # This attempt's optimizer trace (a resumed fit's starts at its checkpoint).
        "intermediate_results": list(progress.trace),
        "_per_dataset": per_dataset,
    }


def make_evaluator(
    spec: dict,
    dataset: Dataset,
    protocol,
    fixed: dict,
    fitted_initial: dict[str, float],
    ignored: list[str],
) -> Evaluator:
    """An evaluator for one data set; ``fixed`` is already filtered by :func:`split_fixed`."""
    if protocol is None:
        return DriveCycleEvaluator(spec, dataset, fixed, fitted_initial, ignored)
    return ProtocolEvaluator(spec, dataset, protocol, fixed, fitted_initial, ignored)

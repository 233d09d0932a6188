"""Fits and validations, end to end (synchronous; the activities run them in a thread).

``fit_parameters(request)``::

    {"element_name": "fit-1",                      # label, optional
     "model": {...model spec, as runSimulation...},
     "parameters": {"<PyBaMM name>": {"bounds": [lo, hi], "initial_value": v, "scale"?: "linear"|"log"}},
     "fixed_parameters": {"<name>": number},        # from earlier pipeline elements; optional
     "data": {"source": "storage", "key": "..."} | {"source": "inline", "columns": {...}},
                                                    # either + "time_range"?: [start_s, end_s] (data.py)
     "protocol": {...UCP...},                       # optional: default is the measured current
     "cost": "RMSE" | "MAE" | "Max" | "SSE",        # default RMSE
     "target": "Voltage [V]",                       # default; any scalar model variable in the data
     "optimizer": {"method": "Nelder-Mead", "max_iterations": 200, "max_evaluations"?, "tolerance"?},
     "checkpoint": {"best_parameters": {...}, ...}} # optional: resume from here (see activities.py)

→ ``{"parameter_values", "cost", "cost_name", "iterations", "evaluations",
"failed_evaluations", "duration_s", "converged", "message", "summary_stats": {"RMSE", "MAE",
"Max"}, "n_points", "coverage", "initial_parameters", "resumed", "ignored_parameters",
"element_name", "intermediate_results"}``; ``intermediate_results`` is the optimizer's trace
(``optimize.Progress.log``). ``iterations`` and ``evaluations`` count every attempt of a resumed fit;
``duration_s`` is this attempt's wall time. ``coverage`` is the fraction of the data's
duration the fitted model simulated (below 1: it stopped at a model limit first).
``ignored_parameters`` are fixed parameters this model does not have.

``fit_parameters_array(request)``: the same fields, but instead of ``data``/``protocol``,
``"independent_variable": "<name>"`` and ``"datasets": [{"value": number, "data": {...},
"protocol"?: {...}, "weight"?: number}]`` (at most ``MAX_DATASETS``). One parameter set is
fitted jointly: the cost is the sum of the data sets' costs, each times its ``weight`` (default
1; ionworks-schema's ``objective_weights`` of a DataFit with several objectives). When
``independent_variable`` is a parameter of the model (``"Ambient temperature [K]"``, ``"Initial
SOC [%]"``, ...), each data set's ``value`` is applied to it (over any fixed value); otherwise
(``"C-rate"``, say) it only labels the data set. The answer adds ``"per_dataset": [{"value",
"cost", "summary_stats", "n_points", "coverage"}]``, ``"independent_variable"``,
``"independent_variable_applied"`` and ``"mode"``; ``summary_stats`` pools every point. With
``"mode": "per_dataset"`` (default ``"joint"``), each data set is then also fitted on its own,
starting from the joint values: its ``per_dataset`` entry becomes ``{"key" (= value),
"parameter_values", "cost", "summary_stats", "n_points", "coverage", "iterations",
"evaluations", "converged", ..., "joint_cost", "joint_summary_stats"}`` -- its own fit, with
the joint fit's figures on it. Everything else in the answer, ``parameter_values`` above all
(what later pipeline elements receive), stays the joint fit's; ``duration_s`` is the attempt's
for all the fits.

``validate_against_data(request)``: ``{"model", "parameter_values"?, "fixed_parameters"?,
"data", "protocol"?, "target"?, "element_name"?}`` → ``{"summary_stats", "n_points",
"n_data_points", "coverage", "duration_s", "ignored_parameters", "element_name"}``: the
model with these values (``parameter_values`` over ``fixed_parameters``) simulated against
the data; statistics of the target's error (V for voltage) over the points the model
reached.

Errors: ``CONFIGURATION_ERROR`` (non-retryable; the message starts with the field) for any
bad input -- no or unknown parameters, bounds with lo >= hi, an initial value outside its
bounds, inline data over 1,000 rows, missing columns, an unknown cost or method -- and
``SOLVER_ERROR`` when the model cannot be solved at the start point (or, for a
validation, at all). During a fit, a candidate that fails costs ``FAILED_COST``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..simulation import models
from ..simulation.errors import configuration_error
from . import optimize
from .data import load_dataset
from .evaluator import (
    EvaluationCancelled,
    EvaluationFailed,
    Evaluator,
    check_fitted_names,
    check_target,
    make_evaluator,
    split_fixed,
)
from .optimize import FitCancelled, Progress
from .series import series_columns
from .spec import (
    FittedParameter,
    cost_value,
    finite,
    parse_cost,
    parse_optimizer,
    parse_parameters,
    read_checkpoint,
    residual_stats,
)

MAX_DATASETS = 50
_INFO_FIELDS = {"element_name", "pipeline_id", "job_id", "series_prefix"}
_COMMON_FIT_FIELDS = _INFO_FIELDS | {
    "model",
    "parameters",
    "fixed_parameters",
    "cost",
    "target",
    "optimizer",
    "checkpoint",
}
FIT_FIELDS = _COMMON_FIT_FIELDS | {"data", "protocol"}
ARRAY_FIT_FIELDS = _COMMON_FIT_FIELDS | {"datasets", "independent_variable", "mode"}
ARRAY_FIT_MODES = ("joint", "per_dataset")
JOINT = "joint"  # the ``fit`` tag of an array fit's joint fit in its heartbeats
VALIDATION_FIELDS = _INFO_FIELDS | {"model", "parameter_values", "fixed_parameters", "data", "protocol", "target"}

ShouldCancel = Callable[[], bool]


def _never() -> bool:
    return False


def _check_request(request, allowed: set[str]) -> dict:
    if not isinstance(request, dict):
        raise configuration_error("request: must be an object")
    unknown = sorted(set(request) - allowed)
    if unknown:
        raise configuration_error(
            f"request: unknown field(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(sorted(allowed))}"
        )
    return request


class _Residuals(np.ndarray):
    """Model minus data at the measured times, with the simulated fraction of the data."""

    coverage: float = 1.0


@dataclass
class _Case:
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


def _model(request: dict):
    spec = models.normalize_model_spec(request.get("model"))
    return spec, models.recipe(spec)


def _cases_close(cases: list[_Case]) -> None:
    for case in cases:
        case.evaluator.close()


def _run(
    request: dict,
    fitted: list[FittedParameter],
    cases: list[_Case],
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


def _parse_fit_request(request, fields):
    """What both fit forms share: the checked request, fitted parameters, cost and optimizer."""
    request = _check_request(request, fields)
    fitted = parse_parameters(request.get("parameters"))
    cost_name = parse_cost(request.get("cost"))
    return request, fitted, cost_name, parse_optimizer(request.get("optimizer"), cost_name)


def fit_parameters(
    request,
    progress: Progress | None = None,
    should_cancel: ShouldCancel | None = None,
    checkpoint_details=None,
) -> dict:
    """One fit; see the module docstring. ``checkpoint_details``: the attempt's heartbeat details."""
    started = time.monotonic()
    progress, should_cancel = progress or Progress(), should_cancel or _never
    request, fitted, cost_name, settings = _parse_fit_request(request, FIT_FIELDS)
    spec, recipe = _model(request)
    names = [p.name for p in fitted]
    check_fitted_names(recipe, names)
    target = check_target(recipe, request.get("target"))
    fixed, ignored = split_fixed(recipe, request.get("fixed_parameters"), names, "fixed_parameters")
    protocol = request.get("protocol")
    dataset = load_dataset(request.get("data"), target, need_current=protocol is None)
    evaluator = make_evaluator(spec, dataset, protocol, fixed, {p.name: p.initial for p in fitted}, ignored)
    cases = [_Case(None, evaluator)]
    kept: dict = {}
    try:
        checkpoints = (*(checkpoint_details or ()), request.get("checkpoint"))
        answer = _run(
            request,
            fitted,
            cases,
            cost_name,
            settings,
            progress,
            should_cancel,
            checkpoints,
            started,
            residuals_out=kept,
        )
    finally:
        _cases_close(cases)
    answer["_series"] = {
        source: series_columns(dataset.time, dataset.target, residuals + dataset.target, target)
        for source, residuals in kept.items()
    }
    per_dataset = answer.pop("_per_dataset")
    answer["coverage"] = per_dataset[0]["coverage"]
    answer["ignored_parameters"] = evaluator.ignored_parameters
    return answer


def fit_parameters_array(
    request,
    progress: Progress | None = None,
    should_cancel: ShouldCancel | None = None,
    checkpoint_details=None,
) -> dict:
    """A joint fit over several data sets; see the module docstring."""
    started = time.monotonic()
    progress, should_cancel = progress or Progress(), should_cancel or _never
    request, fitted, cost_name, settings = _parse_fit_request(request, ARRAY_FIT_FIELDS)
    mode = request.get("mode", JOINT)
    if mode not in ARRAY_FIT_MODES:
        raise configuration_error(f"mode: must be one of {', '.join(ARRAY_FIT_MODES)}, got {mode!r}")
    variable = request.get("independent_variable")
    if not isinstance(variable, str) or not variable:
        raise configuration_error(
            "independent_variable: must be a non-empty name (a parameter, or a label such as 'C-rate')"
        )
    datasets = request.get("datasets")
    if not isinstance(datasets, list) or not datasets:
        raise configuration_error("datasets: must be a non-empty list of {'value', 'data', 'protocol'?}")
    if len(datasets) > MAX_DATASETS:
        raise configuration_error(f"datasets: at most {MAX_DATASETS} data sets, got {len(datasets)}")
    if settings.method == "least_squares" and cost_name == "RMSE" and len(datasets) > 1:
        # The joint cost is the sum of the data sets' RMSEs, not a sum of squares: least_squares
        # would minimize another objective than the one reported.
        raise configuration_error(
            "optimizer.method: least_squares over several data sets needs cost SSE "
            "(a sum of RMSEs is not a sum of squares); or choose another method"
        )
    spec, recipe = _model(request)
    names = [p.name for p in fitted]
    check_fitted_names(recipe, names)
    if variable in names:
        raise configuration_error(f"independent_variable: {variable!r} is also a fitted parameter")
    applied = variable in recipe.parameter_names or variable == models.INITIAL_SOC_PERCENT
    if variable in models.PROTOCOL_CONTROLLED:
        raise configuration_error(f"independent_variable: {variable!r} is set by the data or protocol")
    target = check_target(recipe, request.get("target"))
    fixed, ignored = split_fixed(recipe, request.get("fixed_parameters"), names, "fixed_parameters")
    cases: list[_Case] = []
    try:
        for index, entry in enumerate(datasets):
            path = f"datasets[{index}]"
            if not isinstance(entry, dict):
                raise configuration_error(f"{path}: must be an object {{'value', 'data', 'protocol'?}}")
            unknown = sorted(set(entry) - {"value", "data", "protocol", "weight"})
            if unknown:
                raise configuration_error(f"{path}: unknown field(s) {', '.join(map(repr, unknown))}")
            value = finite(entry.get("value"), f"{path}.value")
            weight = finite(entry.get("weight", 1.0), f"{path}.weight")
            if weight <= 0:
                raise configuration_error(f"{path}.weight: must be greater than 0")
            protocol = entry.get("protocol")
            dataset = load_dataset(entry.get("data"), target, need_current=protocol is None, path=f"{path}.data")
            case_fixed = {**fixed, variable: value} if applied else fixed
            evaluator = make_evaluator(
                spec, dataset, protocol, case_fixed, {p.name: p.initial for p in fitted}, ignored
            )
            cases.append(_Case(value, evaluator, weight))
        saved = [c for c in (*(checkpoint_details or ()), request.get("checkpoint")) if isinstance(c, dict)]
        if mode == JOINT:
            progress.begin(JOINT, None)
            answer = _run(
                request, fitted, cases, cost_name, settings, progress, should_cancel, _tagged(saved, JOINT), started
            )
            answer["per_dataset"] = answer.pop("_per_dataset")
        else:
            answer = _fit_each(request, fitted, cases, cost_name, settings, progress, should_cancel, saved)
            answer["duration_s"] = optimize.elapsed(started)
    finally:
        _cases_close(cases)
    answer["mode"] = mode
    answer["coverage"] = min(entry["coverage"] for entry in answer["per_dataset"])
    answer["independent_variable"] = variable
    answer["independent_variable_applied"] = applied
    answer["ignored_parameters"] = ignored
    return answer


def _tagged(saved: list[dict], fit) -> list[dict]:
    """The saved progress of fit ``fit``; untagged progress is a joint fit's (the request's own
    ``checkpoint``, or a heartbeat of a worker from before per-data-set fits)."""
    return [c for c in saved if c.get("fit", JOINT) == fit]


def _restore(saved: list[dict], fitted: list[FittedParameter], cases: list[_Case]) -> tuple[dict | None, list[dict]]:
    """The fits a dead attempt finished: its joint answer and its first per-data-set entries.

    Taken from the latest saved progress that has ``completed``; anything that does not match
    this request (other parameters, values out of bounds, other data sets) is not trusted.
    """
    completed = next((c["completed"] for c in saved if isinstance(c.get("completed"), dict)), None)
    if completed is None:
        return None, []

    def matches(values) -> bool:
        return (
            isinstance(values, dict)
            and set(values) == {p.name for p in fitted}
            and all(p.contains(values[p.name]) for p in fitted)
        )

    joint = completed.get("joint")
    if not (
        isinstance(joint, dict)
        and matches(joint.get("parameter_values"))
        and isinstance(joint.get("_per_dataset"), list)
        and len(joint["_per_dataset"]) == len(cases)
    ):
        return None, []
    done = []
    entries = completed.get("per_dataset")
    for case, entry in zip(cases, entries if isinstance(entries, list) else []):
        if not (isinstance(entry, dict) and entry.get("key") == case.value and matches(entry.get("parameter_values"))):
            break
        done.append(entry)
    return joint, done


def _fit_each(request, fitted, cases, cost_name, settings, progress, should_cancel, saved) -> dict:
    """``per_dataset`` mode: the joint fit, then each data set on its own from the joint values.

    The answer is the joint fit's (its ``parameter_values`` go on to later elements); each
    ``per_dataset`` entry adds ``key`` (the data set's value) and that data set's own fit,
    with the joint fit's ``joint_cost`` and ``joint_summary_stats`` on it. Each heartbeat
    tags the fit under way (``"fit": "joint"`` or ``{"index", "key"}``) and carries the
    finished ones in ``completed``: a retried attempt skips those and resumes the tagged one.
    """
    joint, done = _restore(saved, fitted, cases)
    resumed = joint is not None
    if joint is None:
        progress.begin(JOINT, {})
        joint = _run(
            request,
            fitted,
            cases,
            cost_name,
            settings,
            progress,
            should_cancel,
            _tagged(saved, JOINT),
            time.monotonic(),
        )
    for index, case in enumerate(cases):
        if index < len(done):
            continue
        fit = {"index": index, "key": case.value}
        # The heartbeats carry the finished joint fit, but not its trace (it only grows them).
        finished = {k: v for k, v in joint.items() if k != "intermediate_results"}
        progress.begin(fit, {"joint": finished, "per_dataset": list(done)})
        own = _run(
            request,
            fitted,
            [case],
            cost_name,
            settings,
            progress,
            should_cancel,
            _tagged(saved, fit),
            time.monotonic(),
            default_start=joint["parameter_values"],
        )
        stats = own.pop("_per_dataset")[0]
        done.append(
            {
                "key": case.value,
                **stats,
                **{
                    name: own[name]
                    for name in (
                        "parameter_values",
                        "iterations",
                        "evaluations",
                        "failed_evaluations",
                        "converged",
                        "message",
                        "initial_parameters",
                        "resumed",
                    )
                },
            }
        )
    answer = dict(joint)
    answer["per_dataset"] = [
        {**entry, "joint_cost": stats["cost"], "joint_summary_stats": stats["summary_stats"]}
        for entry, stats in zip(done, answer.pop("_per_dataset"))
    ]
    answer["resumed"] = resumed or joint["resumed"] or any(entry["resumed"] for entry in done)
    return answer


def validate_against_data(request, should_cancel: ShouldCancel | None = None) -> dict:
    """Simulate with the given values against the data; see the module docstring."""
    started = time.monotonic()
    request = _check_request(request, VALIDATION_FIELDS)
    spec, recipe = _model(request)
    target = check_target(recipe, request.get("target"))
    values = {}
    for field in ("fixed_parameters", "parameter_values"):
        raw = request.get(field)
        if raw is not None and not isinstance(raw, dict):
            raise configuration_error(f"{field}: must be an object of PyBaMM parameter names to numbers")
        values.update(raw or {})
    fixed, ignored = split_fixed(recipe, values, [], "parameter_values")
    protocol = request.get("protocol")
    dataset = load_dataset(request.get("data"), target, need_current=protocol is None)
    evaluator = make_evaluator(spec, dataset, protocol, fixed, {}, ignored)
    try:
        try:
            predicted = evaluator.predict({}, should_cancel)
        except EvaluationFailed as failure:
            raise failure.error from None
        except EvaluationCancelled:
            raise FitCancelled() from None
    finally:
        evaluator.close()
    case = _Case(None, evaluator)
    coverage = case.coverage()
    simulated_until = evaluator.simulated_until
    reached = dataset.time <= simulated_until + 1e-9 if simulated_until is not None else np.ones(dataset.n_points, bool)
    residuals = (predicted - dataset.target)[reached]
    model = np.where(reached, predicted, np.nan)
    return {
        "_series": {"optimal": series_columns(dataset.time, dataset.target, model, target)},
        "element_name": request.get("element_name"),
        "summary_stats": residual_stats(residuals),
        "n_points": int(reached.sum()),
        "n_data_points": dataset.n_points,
        "coverage": coverage,
        "duration_s": optimize.elapsed(started),
        "ignored_parameters": evaluator.ignored_parameters,
    }

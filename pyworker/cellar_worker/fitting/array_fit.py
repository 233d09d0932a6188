"""A joint fit of one parameter set to several data sets.

``fit_parameters_array(request)``: the fields of ``fit_parameters`` (service.py), but instead of
``data``/``protocol``, ``"independent_variable": "<name>"`` and ``"datasets": [{"value": number,
"data": {...}, "protocol"?: {...}, "weight"?: number}]`` (at most ``MAX_DATASETS``). One
parameter set is fitted jointly: the cost is the sum of the data sets' costs, each times its
``weight`` (default 1; ionworks-schema's ``objective_weights`` of a DataFit with several
objectives). When ``independent_variable`` is a parameter of the model (``"Ambient temperature
[K]"``, ``"Initial SOC [%]"``, ...), each data set's ``value`` is applied to it (over any fixed
value); otherwise (``"C-rate"``, say) it only labels the data set. The answer adds
``"per_dataset": [{"value", "cost", "summary_stats", "n_points", "coverage"}]``,
``"independent_variable"``, ``"independent_variable_applied"`` and ``"mode"``; ``summary_stats``
pools every point. With ``"mode": "per_dataset"`` (default ``"joint"``), each data set is then
also fitted on its own, starting from the joint values: its ``per_dataset`` entry becomes
``{"key" (= value), "parameter_values", "cost", "summary_stats", "n_points", "coverage",
"iterations", "evaluations", "converged", ..., "joint_cost", "joint_summary_stats"}`` -- its own
fit, with the joint fit's figures on it. Everything else in the answer, ``parameter_values``
above all (what later pipeline elements receive), stays the joint fit's; ``duration_s`` is the
attempt's for all the fits.
"""

from __future__ import annotations

import time

from ..simulation import models
from ..simulation.errors import configuration_error, finite
from . import optimize
from .data import load_dataset
from .evaluator import check_fitted_names, check_target, split_fixed
from .fit_request import COMMON_FIT_FIELDS, ShouldCancel, never_cancel, parse_fit_request, request_model
from .fit_run import Case, close_cases, make_evaluator, run_fit
from .optimize import Progress
from .spec import FittedParameter

MAX_DATASETS = 50
ARRAY_FIT_FIELDS = COMMON_FIT_FIELDS | {"datasets", "independent_variable", "mode"}
ARRAY_FIT_MODES = ("joint", "per_dataset")
JOINT = "joint"  # the ``fit`` tag of an array fit's joint fit in its heartbeats


def fit_parameters_array(
    request,
    progress: Progress | None = None,
    should_cancel: ShouldCancel | None = None,
    checkpoint_details=None,
) -> dict:
    """A joint fit over several data sets; see the module docstring."""
    started = time.monotonic()
    progress, should_cancel = progress or Progress(), should_cancel or never_cancel
    request, fitted, cost_name, settings = parse_fit_request(request, ARRAY_FIT_FIELDS)
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
    spec, recipe = request_model(request)
    names = [p.name for p in fitted]
    check_fitted_names(recipe, names)
    if variable in names:
        raise configuration_error(f"independent_variable: {variable!r} is also a fitted parameter")
    applied = variable in recipe.parameter_names or variable == models.INITIAL_SOC_PERCENT
    if variable in models.PROTOCOL_CONTROLLED:
        raise configuration_error(f"independent_variable: {variable!r} is set by the data or protocol")
    target = check_target(recipe, request.get("target"))
    fixed, ignored = split_fixed(recipe, request.get("fixed_parameters"), names, "fixed_parameters")
    cases: list[Case] = []
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
            cases.append(Case(value, evaluator, weight))
        saved = [c for c in (*(checkpoint_details or ()), request.get("checkpoint")) if isinstance(c, dict)]
        if mode == JOINT:
            progress.begin(JOINT, None)
            answer = run_fit(
                request, fitted, cases, cost_name, settings, progress, should_cancel, _tagged(saved, JOINT), started
            )
            answer["per_dataset"] = answer.pop("_per_dataset")
        else:
            answer = _fit_each(request, fitted, cases, cost_name, settings, progress, should_cancel, saved)
            answer["duration_s"] = optimize.elapsed(started)
    finally:
        close_cases(cases)
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


def _restore(saved: list[dict], fitted: list[FittedParameter], cases: list[Case]) -> tuple[dict | None, list[dict]]:
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
        joint = run_fit(
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
        own = run_fit(
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

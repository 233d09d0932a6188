"""A fit to one data set and a validation against one, end to end (synchronous; the
activities run them in a thread). ``array_fit.py`` fits several data sets jointly.

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

import time

import numpy as np

from ..simulation.errors import configuration_error
from . import optimize
from .data import load_dataset
from .evaluator import EvaluationCancelled, EvaluationFailed, check_fitted_names, check_target, split_fixed
from .fit_request import (
    FIT_FIELDS,
    VALIDATION_FIELDS,
    ShouldCancel,
    check_request,
    never_cancel,
    parse_fit_request,
    request_model,
)
from .fit_run import Case, close_cases, make_evaluator, run_fit
from .optimize import FitCancelled, Progress
from .series import series_columns
from .spec import residual_stats


def fit_parameters(
    request,
    progress: Progress | None = None,
    should_cancel: ShouldCancel | None = None,
    checkpoint_details=None,
) -> dict:
    """One fit; see the module docstring. ``checkpoint_details``: the attempt's heartbeat details."""
    started = time.monotonic()
    progress, should_cancel = progress or Progress(), should_cancel or never_cancel
    request, fitted, cost_name, settings = parse_fit_request(request, FIT_FIELDS)
    spec, recipe = request_model(request)
    names = [p.name for p in fitted]
    check_fitted_names(recipe, names)
    target = check_target(recipe, request.get("target"))
    fixed, ignored = split_fixed(recipe, request.get("fixed_parameters"), names, "fixed_parameters")
    protocol = request.get("protocol")
    dataset = load_dataset(request.get("data"), target, need_current=protocol is None)
    evaluator = make_evaluator(spec, dataset, protocol, fixed, {p.name: p.initial for p in fitted}, ignored)
    cases = [Case(None, evaluator)]
    kept: dict = {}
    try:
        checkpoints = (*(checkpoint_details or ()), request.get("checkpoint"))
        answer = run_fit(
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
        close_cases(cases)
    answer["_series"] = {
        source: series_columns(dataset.time, dataset.target, residuals + dataset.target, target)
        for source, residuals in kept.items()
    }
    per_dataset = answer.pop("_per_dataset")
    answer["coverage"] = per_dataset[0]["coverage"]
    answer["ignored_parameters"] = evaluator.ignored_parameters
    return answer


def validate_against_data(request, should_cancel: ShouldCancel | None = None) -> dict:
    """Simulate with the given values against the data; see the module docstring."""
    started = time.monotonic()
    request = check_request(request, VALIDATION_FIELDS)
    spec, recipe = request_model(request)
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
    case = Case(None, evaluator)
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

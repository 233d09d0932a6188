"""Model predictions for one data set, for many parameter values, from one build: what both
kinds of evaluator share (the interface, the checks of parameter names, how failures are told).

Two ways to drive the model:

- **measured current** (no ``protocol``, the usual way to fit to data): the model's
  ``Current function [A]`` becomes a linear ``pybamm.Interpolant`` over the measured
  ``Time [s]`` / ``Current [A]``; the model is solved from 0 to the last measured time and
  its output read at the measured times (IDAKLU ``t_interp``, only the target variable is
  computed; drive_cycle_evaluator.py);
- **a UCP protocol** (protocol_evaluator.py): the simulation package's experiment path
  (``job`` and ``solving``), with the target interpolated onto the measured times.

Parameters are split as in the simulation package: every fitted or fixed numeric
parameter that PyBaMM accepts at solve time is a PyBaMM *input parameter* of a build that
is made once (and kept in a per-process cache keyed by model, data and parameter names,
so a second fit or a validation on the same data skips the build). Parameters baked into
the mesh (geometry) cannot be inputs: fixed ones are part of the build, and a fitted one
makes every evaluation a fresh build -- correct but much slower.

Initial state: ``Initial SOC [%]`` (fixed or fitted) sets the model's initial state as in
the simulation service; without it (and without a protocol that sets one) the model's
default initial state is used. When it is fixed, the initial concentrations are computed
once, from the fixed values and the fitted parameters' *initial* values (PyBaMM's
``set_initial_state`` takes about half a second for an electrochemical model).

Temperature: as with a protocol's ``initial_temperature`` in the simulation service, an
``Ambient temperature [K]`` (fixed, fitted, or an array fit's independent variable)
without an ``Initial temperature [K]`` also sets the initial temperature: a cell tested
at 10 degC starts at 10 degC.

A prediction past a model limit (a voltage cut-off reached before the data ends) holds
the last simulated value, so the cost of such a candidate grows with the shortfall
instead of being undefined.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..simulation import model_spec, models
from ..simulation.errors import SimulationError, configuration_error, describe, finite, solver_error
from .data import CURRENT, Dataset

INITIAL_SOC = models.INITIAL_SOC_PERCENT
CURRENT_FUNCTION = "Current function [A]"
AMBIENT_TEMPERATURE = "Ambient temperature [K]"
INITIAL_TEMPERATURE = "Initial temperature [K]"


class EvaluationFailed(Exception):
    """The model could not be solved for these values; ``error`` says how to report it."""

    def __init__(self, error: SimulationError):
        super().__init__(error.message)
        self.error = error


class EvaluationCancelled(Exception):
    """The caller asked to stop while a protocol was being solved."""


def split_fixed(recipe: models.ModelRecipe, fixed, fitted_names: list[str], path: str) -> tuple[dict, list[str]]:
    """Fixed parameter values this model uses, and the names it ignores.

    Fixed values come from earlier pipeline elements, which may know parameters this
    model does not have: those are ignored (and reported), not an error. A fitted
    parameter's own fixed value is replaced by the fit.
    """
    if fixed is None:
        fixed = {}
    if not isinstance(fixed, dict):
        raise configuration_error(f"{path}: must be an object of PyBaMM parameter names to numbers")
    allowed = recipe.parameter_names | {INITIAL_SOC}
    used: dict[str, float] = {}
    ignored: list[str] = []
    for name, value in fixed.items():
        if name in fitted_names:
            continue
        if name not in allowed or name in models.PROTOCOL_CONTROLLED:
            ignored.append(name)
            continue
        used[name] = finite(value, f"{path}[{name!r}]")
        model_spec.check_parameter_value(name, used[name], f"{path}[{name!r}]")
    return used, sorted(ignored)


def check_fitted_names(recipe: models.ModelRecipe, names: list[str], path: str = "parameters") -> None:
    allowed = recipe.parameter_names | {INITIAL_SOC}
    for name in names:
        models.check_parameter_name(name, allowed, f"{path}[{name!r}]")


def check_target(recipe: models.ModelRecipe, target) -> str:
    if target is None:
        return "Voltage [V]"
    models.check_time_variable(recipe, target, "target")
    if target == CURRENT:
        raise configuration_error("target: the current drives the model, so it cannot be the fitted quantity")
    return target


def classify_failure(error: BaseException) -> SimulationError:
    if isinstance(error, SimulationError):
        return error
    detail = describe(error)
    if "non-positive at initial conditions" in detail:
        return configuration_error(f"model: the initial state is already beyond a model limit ({detail})")
    return solver_error(f"the solver failed: {detail}")


class Evaluator:
    """Predict ``dataset.target`` at ``dataset.time`` for values of the fitted parameters."""

    dataset: Dataset
    ignored_parameters: list[str]
    simulated_until: float | None = None  # last simulated time of the latest prediction [s]

    def predict(self, values: dict[str, float], should_cancel: Callable[[], bool] | None = None) -> np.ndarray:
        raise NotImplementedError

    def close(self) -> None:
        """Give cached builds back (they are sound even when a candidate failed)."""

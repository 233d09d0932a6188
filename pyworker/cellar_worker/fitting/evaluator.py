"""Model predictions for one data set, for many parameter values, from one build.

Two ways to drive the model:

- **measured current** (no ``protocol``, the usual way to fit to data): the model's
  ``Current function [A]`` becomes a linear ``pybamm.Interpolant`` over the measured
  ``Time [s]`` / ``Current [A]``; the model is solved from 0 to the last measured time and
  its output read at the measured times (IDAKLU ``t_interp``, only the target variable is
  computed);
- **a UCP protocol**: the simulation package's experiment path (``job`` and ``solving``), with the
  target interpolated onto the measured times.

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

import dataclasses
import json
from collections.abc import Callable

import numpy as np
import pybamm

from .. import settings
from ..simulation import model_spec, models, solving
from ..simulation.cache import BuiltSimulationCache
from ..simulation.errors import SimulationError, configuration_error, describe, solver_error
from ..simulation.job import prepare_request
from ..simulation.quick_model import SOC_MARGIN
from .data import CURRENT, Dataset
from .spec import finite

INITIAL_SOC = models.INITIAL_SOC_PERCENT
CURRENT_FUNCTION = "Current function [A]"
AMBIENT_TEMPERATURE = "Ambient temperature [K]"
INITIAL_TEMPERATURE = "Initial temperature [K]"

FIT_CACHE: BuiltSimulationCache[tuple] = BuiltSimulationCache(settings.current().fit_cache_size)


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


def _classify(error: BaseException) -> SimulationError:
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


# ----------------------------------------------------------------------------- measured current


class DriveCycleEvaluator(Evaluator):
    def __init__(self, spec: dict, dataset: Dataset, fixed: dict, fitted_initial: dict[str, float], ignored):
        self.recipe = recipe = models.recipe(spec)
        self.dataset = dataset
        self.ignored_parameters = list(ignored)
        self.fitted_names = list(fitted_initial)
        self.soc_fitted = INITIAL_SOC in fitted_initial
        soc_given = self.soc_fitted or INITIAL_SOC in fixed
        fixed = dict(fixed)
        self.state_names: tuple[str, ...] = ()
        if soc_given:
            if not recipe.state_parameters:
                raise configuration_error(f"{INITIAL_SOC!r}: this model has no settable initial state")
            clash = sorted(set(self.fitted_names) & set(recipe.state_parameters))
            if clash:
                raise configuration_error(
                    f"parameters[{clash[0]!r}]: conflicts with the initial state set by {INITIAL_SOC!r}"
                )
            # The initial SOC decides these, whatever earlier elements said.
            for name in recipe.state_parameters:
                if name in fixed:
                    fixed.pop(name)
                    self.ignored_parameters.append(name)
            self.state_names = recipe.state_parameters
        self.soc = fixed.pop(INITIAL_SOC, None)
        # The initial temperature follows the ambient one unless it is given itself.
        self.initial_follows_ambient = (
            INITIAL_TEMPERATURE in recipe.parameter_names
            and INITIAL_TEMPERATURE not in fixed
            and INITIAL_TEMPERATURE not in fitted_initial
            and (AMBIENT_TEMPERATURE in fixed or AMBIENT_TEMPERATURE in fitted_initial)
        )
        if self.initial_follows_ambient and AMBIENT_TEMPERATURE in fixed:
            fixed[INITIAL_TEMPERATURE] = fixed[AMBIENT_TEMPERATURE]
            self.initial_follows_ambient = False
        geometry = recipe.geometry_parameters
        self.baked_fixed = {name: value for name, value in fixed.items() if name in geometry}
        self.fixed_inputs = {name: value for name, value in fixed.items() if name not in geometry}
        self.baked_fitted = [name for name in self.fitted_names if name in geometry]
        self.fitted_inputs = [name for name in self.fitted_names if name not in geometry and name != INITIAL_SOC]
        self.input_names = sorted(
            set(self.fixed_inputs)
            | set(self.fitted_inputs)
            | set(self.state_names)
            | ({INITIAL_TEMPERATURE} if self.initial_follows_ambient else set())
        )
        self._state_cache: dict[float, dict[str, float]] = {}
        self._fixed_state = None
        if soc_given and not self.soc_fitted:
            self._fixed_state = self._state(self.soc, fitted_initial)
        # The main build (geometry at the initial values when a geometric parameter is fitted).
        self._main: tuple[str, tuple] | None = self._take({name: fitted_initial[name] for name in self.baked_fitted})

    # -- building

    def _key(self, baked: dict[str, float]) -> str:
        return json.dumps(
            {
                "mode": "measured-current",
                "model": model_spec.spec_key(self.recipe.spec),
                "data": self.dataset.digest,
                "target": self.dataset.target_name,
                "baked": sorted({**self.baked_fixed, **baked}.items()),
                "inputs": self.input_names,
            }
        )

    def build_simulation(self, baked: dict[str, float]) -> tuple:
        recipe = self.recipe
        values = recipe.base_parameters.copy()
        values.update({**self.baked_fixed, **baked}, check_already_exists=False)
        values.update(dict.fromkeys(self.input_names, "[input]"), check_already_exists=False)
        values.update(
            {
                CURRENT_FUNCTION: pybamm.Interpolant(
                    self.dataset.time,
                    self.dataset.current,
                    pybamm.t,
                    name="Measured current [A]",
                    interpolator="linear",
                )
            },
            check_already_exists=False,
        )
        solver = _solver(recipe, self.dataset.target_name)
        simulation = pybamm.Simulation(
            recipe.new_model(), parameter_values=values, solver=solver, **recipe.mesh_settings()
        )
        try:
            with solving.BUILD_LOCK:
                simulation.build()
        except SimulationError:
            raise
        except Exception as error:  # noqa: BLE001 - a build failure comes from the configuration
            raise configuration_error(f"model: cannot be built with these parameters: {describe(error)}") from None
        return simulation.built_model, solver

    def _take(self, baked: dict[str, float]) -> tuple[str, tuple]:
        key = self._key(baked)
        built, _ = FIT_CACHE.take(key, lambda: self.build_simulation(baked))
        return key, built

    def close(self) -> None:
        main, self._main = self._main, None
        if main is not None:
            FIT_CACHE.give_back(*main)

    # -- solving

    def _state(self, soc: float, values: dict[str, float]) -> dict[str, float]:
        if soc in self._state_cache:
            return self._state_cache[soc]
        if not 0 <= soc <= 100:
            raise configuration_error(f"{INITIAL_SOC!r}: a state of charge must be between 0 and 100 %, got {soc:g}")
        parameter_values = self.recipe.base_parameters.copy()
        parameter_values.update(
            {**self.baked_fixed, **self.fixed_inputs, **{n: v for n, v in values.items() if n != INITIAL_SOC}},
            check_already_exists=False,
        )
        try:
            parameter_values.set_initial_state(soc / 100.0, options=self.recipe.model_options)
        except ValueError as error:
            raise configuration_error(f"{INITIAL_SOC!r}: {error}") from None
        state = {name: float(parameter_values[name]) for name in self.state_names}
        if "Initial SoC" in state:
            # Equivalent-circuit SoC events fire at exactly 0 and 1.
            state["Initial SoC"] = min(max(state["Initial SoC"], SOC_MARGIN), 1 - SOC_MARGIN)
        if len(self._state_cache) < 256:
            self._state_cache[soc] = state
        return state

    def predict(self, values: dict[str, float], should_cancel=None) -> np.ndarray:
        try:
            if self.soc_fitted:
                state = self._state(values[INITIAL_SOC], values)
            else:
                state = self._fixed_state or {}
            inputs = {**self.fixed_inputs, **{name: values[name] for name in self.fitted_inputs}, **state}
            if self.initial_follows_ambient:
                inputs[INITIAL_TEMPERATURE] = values[AMBIENT_TEMPERATURE]
            if self.baked_fitted:
                # A fitted geometric parameter: a build of its own for this candidate.
                key, built = self._take({name: values[name] for name in self.baked_fitted})
                try:
                    predicted = self.solve_built(built, inputs)
                finally:
                    FIT_CACHE.give_back(key, built)
            else:
                predicted = self.solve_built(self._main[1], inputs)
        except SimulationError as error:
            raise EvaluationFailed(error) from None
        except Exception as error:  # noqa: BLE001 - any solve failure is this candidate's
            raise EvaluationFailed(_classify(error)) from None
        if not np.all(np.isfinite(predicted)):
            raise EvaluationFailed(solver_error("the solver failed: the model output is not finite"))
        return predicted

    def solve_built(self, built: tuple, inputs: dict[str, float]) -> np.ndarray:
        model, solver = built
        time = self.dataset.time
        solution = solver.solve(model, [0.0, float(time[-1])], inputs=inputs, t_interp=time)
        self.simulated_until = float(solution.t[-1])
        return np.interp(time, solution.t, np.asarray(solution[self.dataset.target_name].entries).ravel())


def _solver(recipe: models.ModelRecipe, target: str) -> pybamm.BaseSolver:
    settings = recipe.spec["simulation_settings"]["solver"]
    if settings["name"] == "CasadiSolver":
        return pybamm.CasadiSolver(mode="safe", rtol=settings["rtol"], atol=settings["atol"])
    return pybamm.IDAKLUSolver(
        rtol=settings["rtol"],
        atol=settings["atol"],
        options={"silence_sundials_errors": True},
        output_variables=[target],
    )


# ----------------------------------------------------------------------------- protocol


class ProtocolEvaluator(Evaluator):
    """Simulates a UCP protocol through the simulation package's job checks and solver."""

    def __init__(self, spec: dict, dataset: Dataset, protocol, fixed: dict, fitted_initial: dict[str, float], ignored):
        self.spec = spec
        self.dataset = dataset
        self.protocol = protocol
        self.ignored_parameters = list(ignored)
        self.fixed = dict(fixed)
        self.fitted_names = list(fitted_initial)
        self.soc_fitted = INITIAL_SOC in fitted_initial
        self.job = self._job(fitted_initial)
        self.baked_fitted = [name for name in self.fitted_names if name in self.job.baked]
        # Computed once unless the initial SOC is itself fitted (see the module docstring).
        state = solving.state_inputs(self.job)
        self._fixed_state = state
        self._main: tuple[str, pybamm.Simulation] | None = self._take(self.job, state)

    def _job(self, values: dict[str, float]):
        job = prepare_request(
            {
                "simulation_id": "fit",
                "model": self.spec,
                "protocol": self.protocol,
                "inputs": {**self.fixed, **values},
                "output_prefix": "fits/unused/",
            }
        )
        # The solver keeps only the variables the job reads (voltage and current): the
        # target must be one of them.
        target = self.dataset.target_name
        return job if target in job.output_variables else dataclasses.replace(job, extra_variables=[target])

    def _take(self, job, state: dict[str, float]) -> tuple[str, pybamm.Simulation]:
        inputs = {**job.input_parameters, **job.protocol_inputs, **state}
        key = job.cache_key()
        simulation, _ = solving.CACHE.take(key, lambda: solving.build_simulation(job, tighten=False, inputs=inputs))
        return key, simulation

    def close(self) -> None:
        main, self._main = self._main, None
        if main is not None:
            solving.give_back(*main)

    def predict(self, values: dict[str, float], should_cancel=None) -> np.ndarray:
        try:
            job = self._job(values) if self.baked_fitted or self.soc_fitted else self.job
            state = solving.state_inputs(job) if self.soc_fitted else self._fixed_state
            inputs = {
                **job.input_parameters,
                **{name: values[name] for name in self.fitted_names if name in job.input_parameters},
                **job.protocol_inputs,
                **state,
            }
            if self.baked_fitted:
                key, simulation = self._take(job, state)
                try:
                    solution = solving.solve_built(job, simulation, inputs, None, should_cancel)
                finally:
                    solving.give_back(key, simulation)
            else:
                solution = solving.solve_built(job, self._main[1], inputs, None, should_cancel)
            times = np.asarray(solution["Time [s]"].entries).ravel()
            self.simulated_until = float(times[-1])
            predicted = np.interp(
                self.dataset.time,
                times,
                np.asarray(solution[self.dataset.target_name].entries).ravel(),
            )
        except solving.SimulationCancelled:
            raise EvaluationCancelled() from None
        except solving.SolverFailure as failure:
            raise EvaluationFailed(
                solver_error(f"{solving.where_in_protocol(failure.step)}: the solver failed: {failure.detail}")
            ) from None
        except SimulationError as error:
            raise EvaluationFailed(error) from None
        except Exception as error:  # noqa: BLE001
            raise EvaluationFailed(_classify(error)) from None
        if not np.all(np.isfinite(predicted)):
            raise EvaluationFailed(solver_error("the solver failed: the model output is not finite"))
        return predicted

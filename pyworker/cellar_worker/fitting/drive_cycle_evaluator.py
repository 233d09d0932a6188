"""Predictions driven by the measured current: the model's current is an interpolant of the
data, and each candidate is solved on a cached build."""

from __future__ import annotations

import json

import numpy as np
import pybamm

from .. import settings
from ..simulation import model_spec, models, solving
from ..simulation.cache import BuiltSimulationCache
from ..simulation.errors import SimulationError, configuration_error, describe, solver_error
from ..simulation.quick_model import SOC_MARGIN
from .data import Dataset
from .evaluator import (
    AMBIENT_TEMPERATURE,
    CURRENT_FUNCTION,
    INITIAL_SOC,
    INITIAL_TEMPERATURE,
    EvaluationFailed,
    Evaluator,
    classify_failure,
)

FIT_CACHE: BuiltSimulationCache[tuple] = BuiltSimulationCache(settings.current().fit_cache_size)


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
            raise EvaluationFailed(classify_failure(error)) from None
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

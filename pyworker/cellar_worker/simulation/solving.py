"""One checked design point solved on a cached build, retried once with tighter tolerances when the solver fails."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pybamm

from . import experiment as exp
from . import ucp
from .cache import BuiltSimulationCache, cache_size_from_env
from .errors import SimulationError, configuration_error, describe, solver_error
from .job import Job
from .output import Solved, solve_metrics, time_series_columns
from .quick_model import SOC_MARGIN
from .steps_summary import summarize_step_columns

CACHE: BuiltSimulationCache[pybamm.Simulation] = BuiltSimulationCache(cache_size_from_env())
# Model processing touches PyBaMM-wide state (symbol caches, citations); solves do not.
BUILD_LOCK = threading.Lock()
Progress = Callable[[int, int], None]


class SimulationCancelled(Exception):
    """Raised between two steps when the caller asked to stop."""


def state_inputs(job: Job) -> dict[str, float]:
    """Initial-state parameter values for this design point (empty: model default)."""
    if job.initial_state is None:
        return {}
    spec = job.recipe.spec
    if isinstance(job.initial_state, float) and (spec["kind"] == "quick" or spec["type"] == "ECM"):
        # PyBaMM's equivalent-circuit rule for a state of charge is the identity; asking
        # it would cost a parameter-set copy and a parameter tree per design point.
        state = {"Initial SoC": job.initial_state}
    else:
        values = job.recipe.base_parameters.copy()
        values.update(job.parameter_values, check_already_exists=False)
        try:
            values.set_initial_state(job.initial_state, options=job.recipe.model_options)
        except ValueError as error:
            raise configuration_error(f"protocol.global.initial_state_value: {error}") from None
        state = {name: float(values[name]) for name in job.recipe.state_parameters}
    if "Initial SoC" in state:
        # Equivalent-circuit SoC events fire at exactly 0 and 1, even at the initial state.
        state["Initial SoC"] = min(max(state["Initial SoC"], SOC_MARGIN), 1 - SOC_MARGIN)
    return state


def build_simulation(job: Job, tighten: bool, inputs: dict[str, float]) -> pybamm.Simulation:
    recipe = job.recipe
    values = recipe.base_parameters.copy()
    values.update(job.baked, check_already_exists=False)
    as_inputs = list(job.input_parameters) + (list(recipe.state_parameters) if job.initial_state is not None else [])
    values.update(dict.fromkeys(as_inputs, "[input]"), check_already_exists=False)
    simulation = pybamm.Simulation(
        recipe.new_model(),
        experiment=exp.build_experiment(job.plan, job.period, job.temperature_k, job.nominal_capacity_ah),
        parameter_values=values,
        solver=recipe.make_solver(tighten=tighten, output_variables=job.output_variables),
        **recipe.mesh_settings(),
    )
    try:
        with BUILD_LOCK:
            simulation.build_for_experiment(inputs=inputs)
    except SimulationError:
        raise
    except Exception as error:  # noqa: BLE001 - any failure here comes from the configuration
        raise configuration_error(
            f"model: cannot be built with these parameters and protocol: {describe(error)}"
        ) from None
    return simulation


class _Monitor(pybamm.callbacks.Callback):
    """Progress, cancellation and the reasons PyBaMM stops an experiment early."""

    def __init__(self, total: int, on_progress: Progress | None, should_cancel: Callable[[], bool] | None):
        self.total = total
        self.on_progress = on_progress
        self.should_cancel = should_cancel
        self.started = 0
        self.finished = 0
        self.error: Exception | None = None
        self.infeasible: str | None = None

    @property
    def step_index(self) -> int:
        return max(self.started - 1, 0)

    def on_step_start(self, logs):
        if self.should_cancel is not None and self.should_cancel():
            raise SimulationCancelled()
        self.started += 1

    def on_step_end(self, logs):
        self.finished += 1
        if self.on_progress is not None:
            self.on_progress(self.finished, self.total)

    def on_experiment_error(self, logs):
        self.error = logs.get("error")

    def on_experiment_infeasible_event(self, logs):
        self.infeasible = str(logs.get("termination"))


class SolverFailure(Exception):
    def __init__(self, step: ucp.PlannedStep, detail: str):
        super().__init__(detail)
        self.step = step
        self.detail = detail


def where_in_protocol(planned: ucp.PlannedStep) -> str:
    return f"{planned.step.path} (cycle {planned.cycle})"


def solve_built(job: Job, simulation: pybamm.Simulation, inputs, on_progress, should_cancel) -> pybamm.Solution:
    monitor = _Monitor(len(job.plan), on_progress, should_cancel)
    try:
        solution = simulation.solve(inputs=inputs, calc_esoh=False, callbacks=[monitor])
        failure = monitor.error
    except (SimulationCancelled, SimulationError):
        raise
    except Exception as error:  # noqa: BLE001 - classified below
        failure = error
    planned = job.plan[min(monitor.step_index, len(job.plan) - 1)]
    if failure is not None:
        detail = str(failure)
        if "infeasible due to exceeded bounds at initial conditions" in detail:
            ends = " or ".join(map(str, planned.step.ends))
            raise configuration_error(
                f"{where_in_protocol(planned)}: its end condition ({ends}) already holds when the step starts, "
                "so the step cannot run"
            )
        if "non-positive at initial conditions" in detail:
            raise configuration_error(
                f"{where_in_protocol(planned)}: cannot start, the state at its start is beyond a model limit ({detail})"
            )
        raise SolverFailure(planned, describe(failure))
    if monitor.infeasible is not None:
        raise configuration_error(
            f"{where_in_protocol(planned)}: stopped by a model limit ({monitor.infeasible}) before its end condition"
        )
    for planned, cycle in zip(job.plan, solution.cycles):
        step = planned.step
        # Only an open-ended step has a time limit to run into (a drive cycle's data ending is its normal end).
        if step.ends and exp.is_open_ended(step) and cycle.termination == "final time":
            limit_h = exp.open_ended_limit(step, job.nominal_capacity_ah) / 3600
            raise configuration_error(
                f"{where_in_protocol(planned)}: no end condition was reached within {limit_h:g} h; "
                "give the step a duration if it really takes that long"
            )
    return solution


def give_back(key: str, simulation: pybamm.Simulation) -> None:
    # A cached build would otherwise keep its last solution alive until its next solve. Cleared
    # before it is given back: another thread may take it at once, and PyBaMM's solve reads it.
    simulation._solution = None
    CACHE.give_back(key, simulation)


def solve_point(
    job: Job,
    on_progress: Progress | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> Solved:
    """Solve one checked design point on a cached build (or a new one) and summarise it.

    ``on_progress(steps_done, steps_total)`` is called after every solved step;
    ``should_cancel()`` is polled before every step and raises :class:`SimulationCancelled`.
    Raises ``SimulationError`` with type ``CONFIGURATION_ERROR`` or ``SOLVER_ERROR``.
    """
    inputs = {**job.input_parameters, **job.protocol_inputs, **state_inputs(job)}
    key = job.cache_key()
    started = time.monotonic()
    simulation, cache_hit = CACHE.take(key, lambda: build_simulation(job, tighten=False, inputs=inputs))
    try:
        solution = solve_built(job, simulation, inputs, on_progress, should_cancel)
    except (SimulationError, SimulationCancelled):
        give_back(key, simulation)  # the build is sound; only this design point failed
        raise
    except SolverFailure:
        # Retry once, on a fresh build with tighter tolerances; it is not cached.
        try:
            solution = solve_built(
                job, build_simulation(job, tighten=True, inputs=inputs), inputs, on_progress, should_cancel
            )
        except SolverFailure as failure:
            raise solver_error(
                f"{where_in_protocol(failure.step)}: the solver failed, also after a retry with tighter tolerances: "
                f"{failure.detail}"
            ) from None
    else:
        give_back(key, simulation)
    solve_time = time.monotonic() - started
    # PyBaMM assembles a long run's solution after its last step, where no cancel is polled.
    if should_cancel is not None and should_cancel():
        raise SimulationCancelled()
    columns = time_series_columns(job, solution)
    labels = {index: planned.step.describe(job.inputs) for index, planned in enumerate(job.plan)}
    steps = summarize_step_columns(columns, labels=labels)
    return Solved(columns=columns, steps=steps, metrics=solve_metrics(columns, steps, solve_time), cache_hit=cache_hit)

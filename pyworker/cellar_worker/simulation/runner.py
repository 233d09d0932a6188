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

import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pybamm

from .. import storage
from . import experiment as exp
from . import models, ucp
from .cache import BuiltSimulationCache, cache_size_from_env
from .errors import SimulationError, configuration_error, describe, solver_error
from .quick_model import SOC_MARGIN
from .steps_summary import (
    CAPACITY_COLUMNS,
    SUMMARY_COLUMNS,
    SUMMARY_SCHEMA,
    step_cumulative_throughput,
    summarize_step_columns,
)

NOMINAL_CAPACITY = "Nominal cell capacity [A.h]"
TIME_SERIES_FILE = "time_series.parquet"
STEPS_FILE = "steps.parquet"
BASE_COLUMNS = (
    "Time [s]",
    "Voltage [V]",
    "Current [A]",
    "Step count",
    "Cycle count",
    *CAPACITY_COLUMNS,
)
_REQUEST_FIELDS = {
    "simulation_id",
    "model",
    "protocol",
    "inputs",
    "extra_variables",
    "max_backward_jumps",
    "output_prefix",
}

CACHE: BuiltSimulationCache[pybamm.Simulation] = BuiltSimulationCache(cache_size_from_env())
# Model processing touches PyBaMM-wide state (symbol caches, citations); solves do not.
_BUILD_LOCK = threading.Lock()

Progress = Callable[[int, int], None]


class SimulationCancelled(Exception):
    """Raised between two steps when the caller asked to stop."""


@dataclass
class _Job:
    """A checked request, ready to build and solve."""

    recipe: models.ModelRecipe
    protocol: ucp.Protocol
    plan: list[ucp.PlannedStep]
    output_prefix: str
    extra_variables: list[str]
    inputs: dict[str, float]  # the request's inputs, as given
    parameter_values: dict[str, float]  # every model parameter the design point sets
    baked: dict[str, float]  # of which: built into the model
    input_parameters: dict[str, float]  # of which: PyBaMM input parameters, set at solve time
    protocol_inputs: dict[str, float]  # input['...'] values of step values, by PyBaMM input name
    initial_state: float | str | None  # SoC fraction, "<v> V", or None for the model default
    temperature_k: float | None
    period: float

    @property
    def output_variables(self) -> list[str]:
        """The variables the solver keeps: the ones the time series reads."""
        return ["Voltage [V]", "Current [A]", *self.extra_variables]

    @property
    def nominal_capacity_ah(self) -> float:
        """The model's own value: it only sizes step time limits, which belong to the build."""
        return float(self.recipe.base_parameters[NOMINAL_CAPACITY])

    def cache_key(self) -> str:
        return json.dumps(
            {
                "model": models.spec_key(self.recipe.spec),
                "steps": repr(self.protocol.steps),
                "period": self.period,
                "temperature_k": self.temperature_k,
                "baked": sorted(self.baked.items()),
                "inputs": sorted(self.input_parameters),
                "outputs": self.output_variables,
                "initial_state_as_input": self.initial_state is not None,
            }
        )


# ----------------------------------------------------------------------------- request


def _finite(value, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise configuration_error(f"{path}: must be a finite number")
    return float(value)


def _resolve(value: ucp.Value, inputs: dict[str, float]) -> float:
    return inputs[value.name] if isinstance(value, ucp.InputRef) else value


@dataclass
class Setup:
    """What every design point of a batch shares: checked once, reused for each point."""

    recipe: models.ModelRecipe
    protocol: ucp.Protocol
    plan: list[ucp.PlannedStep]
    extra_variables: list[str]
    referenced: list[str]  # input['...'] names the protocol uses
    period: float


def prepare_setup(model, protocol, max_backward_jumps, extra_variables) -> Setup:
    """Check and parse the parts of a request that a batch's points share."""
    spec = models.normalize_model_spec(model)
    recipe = models.recipe(spec)
    parsed = ucp.parse_protocol(protocol)
    plan = ucp.expand(parsed, ucp.DEFAULT_MAX_BACKWARD_JUMPS if max_backward_jumps is None else max_backward_jumps)
    extra_variables = extra_variables or []
    if not isinstance(extra_variables, list):
        raise configuration_error("extra_variables: must be a list of variable names")
    for index, name in enumerate(extra_variables):
        if name in BASE_COLUMNS or extra_variables.index(name) != index:
            raise configuration_error(f"extra_variables[{index}]: {name!r} is already a column")
        models.check_time_variable(recipe, name, f"extra_variables[{index}]")
    return Setup(
        recipe=recipe,
        protocol=parsed,
        plan=plan,
        extra_variables=list(extra_variables),
        referenced=parsed.input_references(),
        period=exp.output_period(parsed),
    )


def _prepare(request) -> _Job:
    if not isinstance(request, dict):
        raise configuration_error("request: must be an object")
    unknown = sorted(set(request) - _REQUEST_FIELDS)
    if unknown:
        raise configuration_error(f"request: unknown field(s) {', '.join(unknown)}")
    simulation_id = request.get("simulation_id")
    if not isinstance(simulation_id, str) or not simulation_id:
        raise configuration_error("simulation_id: must be a non-empty string")
    output_prefix = request.get("output_prefix")
    if not isinstance(output_prefix, str):
        raise configuration_error("output_prefix: must be a storage prefix such as 'simulations/<org>/<id>/'")
    output_prefix = output_prefix if output_prefix.endswith("/") else output_prefix + "/"
    try:
        storage.check_key(output_prefix)
    except ValueError as error:
        raise configuration_error(f"output_prefix: {error}") from None
    setup = prepare_setup(
        request.get("model"), request.get("protocol"), request.get("max_backward_jumps"), request.get("extra_variables")
    )
    return prepare_point(setup, request.get("inputs") or {}, output_prefix)


def prepare_point(setup: Setup, raw_inputs, output_prefix: str = "") -> _Job:
    """Check one design point's inputs against the batch's setup."""
    recipe, protocol, plan, referenced = setup.recipe, setup.protocol, setup.plan, setup.referenced
    if not isinstance(raw_inputs, dict):
        raise configuration_error("inputs: must be an object of names to numbers")
    inputs = {name: _finite(value, f"inputs[{name!r}]") for name, value in raw_inputs.items()}
    missing = [name for name in referenced if name not in inputs]
    if missing:
        raise configuration_error(
            "inputs: no value for " + ", ".join(f"input['{name}']" for name in missing) + " used by the protocol"
        )
    for planned in plan:
        value = planned.step.value
        if isinstance(value, ucp.InputRef) and inputs[value.name] <= 0:
            raise configuration_error(
                f"{planned.step.path}.value: input['{value.name}'] = {inputs[value.name]:g} must be greater than 0"
            )

    parameter_values: dict[str, float] = {}
    for name, value in inputs.items():
        if name == models.INITIAL_SOC_PERCENT:
            continue
        if name in referenced and name not in recipe.parameter_names:
            continue
        models.check_parameter_name(name, recipe.parameter_names, f"inputs[{name!r}]")
        models.check_parameter_value(name, value, f"inputs[{name!r}]")
        parameter_values[name] = value

    initial_state = _initial_state(protocol, inputs, referenced)
    if initial_state is not None:
        if not recipe.state_parameters:
            raise configuration_error("protocol.global.initial_state_type: this model has no settable initial state")
        clash = sorted(set(parameter_values) & set(recipe.state_parameters))
        if clash:
            raise configuration_error(
                f"inputs[{clash[0]!r}]: conflicts with the initial state set by the protocol or 'Initial SOC [%]'"
            )

    temperature_k = None
    if protocol.initial_temperature is not None:
        celsius = _resolve(protocol.initial_temperature, inputs)
        if celsius <= -273.15:
            raise configuration_error("protocol.global.initial_temperature: must be above absolute zero [degC]")
        temperature_k = celsius + 273.15
        clash = sorted(set(parameter_values) & set(models.TEMPERATURE_PARAMETERS))
        if clash:
            raise configuration_error(f"inputs[{clash[0]!r}]: conflicts with protocol.global.initial_temperature")

    cannot_be_inputs = recipe.geometry_parameters | set(models.TEMPERATURE_PARAMETERS)
    baked = {name: value for name, value in parameter_values.items() if name in cannot_be_inputs}
    return _Job(
        recipe=recipe,
        protocol=protocol,
        plan=plan,
        output_prefix=output_prefix,
        extra_variables=setup.extra_variables,
        inputs=inputs,
        parameter_values=parameter_values,
        baked=baked,
        input_parameters={name: value for name, value in parameter_values.items() if name not in baked},
        protocol_inputs={exp.protocol_input_name(name): inputs[name] for name in exp.experiment_input_names(plan)},
        initial_state=initial_state,
        temperature_k=temperature_k,
        period=setup.period,
    )


def _initial_state(protocol: ucp.Protocol, inputs: dict[str, float], referenced: list[str]):
    """SoC fraction, ``"<v> V"``, or None to keep the model's own initial state."""
    soc_input = models.INITIAL_SOC_PERCENT
    if protocol.initial_state_type is None:
        if soc_input not in inputs:
            return None
        kind, value, path = "soc_percentage", inputs[soc_input], f"inputs[{soc_input!r}]"
    else:
        if soc_input in inputs and soc_input not in referenced:
            raise configuration_error(f"inputs[{soc_input!r}]: conflicts with protocol.global.initial_state_value")
        kind = protocol.initial_state_type
        value = _resolve(protocol.initial_state_value, inputs)
        path = "protocol.global.initial_state_value"
    if kind == "soc_percentage":
        if not 0 <= value <= 100:
            raise configuration_error(f"{path}: a state of charge must be between 0 and 100 %, got {value:g}")
        return value / 100.0
    if value <= 0:
        raise configuration_error(f"{path}: an initial voltage must be positive, got {value:g}")
    return f"{value!r} V"


# ----------------------------------------------------------------------------- build


def _state_inputs(job: _Job) -> dict[str, float]:
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


def _build(job: _Job, tighten: bool, inputs: dict[str, float]) -> pybamm.Simulation:
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
        with _BUILD_LOCK:
            simulation.build_for_experiment(inputs=inputs)
    except SimulationError:
        raise
    except Exception as error:  # noqa: BLE001 - any failure here comes from the configuration
        raise configuration_error(
            f"model: cannot be built with these parameters and protocol: {describe(error)}"
        ) from None
    return simulation


# ----------------------------------------------------------------------------- solve


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


class _SolverFailure(Exception):
    def __init__(self, step: ucp.PlannedStep, detail: str):
        super().__init__(detail)
        self.step = step
        self.detail = detail


def _where(planned: ucp.PlannedStep) -> str:
    return f"{planned.step.path} (cycle {planned.cycle})"


def _solve(job: _Job, simulation: pybamm.Simulation, inputs, on_progress, should_cancel) -> pybamm.Solution:
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
                f"{_where(planned)}: its end condition ({ends}) already holds when the step starts, "
                "so the step cannot run"
            )
        if "non-positive at initial conditions" in detail:
            raise configuration_error(
                f"{_where(planned)}: cannot start, the state at its start is beyond a model limit ({detail})"
            )
        raise _SolverFailure(planned, describe(failure))
    if monitor.infeasible is not None:
        raise configuration_error(
            f"{_where(planned)}: stopped by a model limit ({monitor.infeasible}) before its end condition"
        )
    for planned, cycle in zip(job.plan, solution.cycles):
        step = planned.step
        # Only an open-ended step has a time limit to run into (a drive cycle's data ending is its normal end).
        if step.ends and exp.is_open_ended(step) and cycle.termination == "final time":
            limit_h = exp.open_ended_limit(step, job.nominal_capacity_ah) / 3600
            raise configuration_error(
                f"{_where(planned)}: no end condition was reached within {limit_h:g} h; "
                "give the step a duration if it really takes that long"
            )
    return solution


# ----------------------------------------------------------------------------- output


def _thin(columns: dict[str, np.ndarray], resolution: ucp.Resolution) -> np.ndarray:
    """Rows a cycler would log: every ``time`` seconds, or on a voltage/current change."""
    # Plain lists: this loop is sequential by nature and list indexing is much faster.
    time_, voltage, current, step = (
        columns[name].tolist() for name in ("Time [s]", "Voltage [V]", "Current [A]", "Step count")
    )
    period = resolution.time or exp.DEFAULT_PERIOD_S
    dv = resolution.voltage if resolution.voltage is not None else math.inf
    di = resolution.current if resolution.current is not None else math.inf
    n = len(time_)
    keep = np.zeros(n, dtype=bool)
    last = 0
    for row in range(n):
        if (
            row == 0
            or step[row] != step[row - 1]
            or row == n - 1
            or step[row] != step[row + 1]
            or time_[row] - time_[last] >= period - 1e-9
            or abs(voltage[row] - voltage[last]) >= dv
            or abs(current[row] - current[last]) >= di
        ):
            keep[row] = True
            last = row
    return keep


def _columns(job: _Job, solution: pybamm.Solution) -> dict[str, np.ndarray]:
    """The time-series columns, thinned to the protocol's resolution."""
    lengths = [len(cycle.t) for cycle in solution.cycles]
    step_count = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
    cycle_count = np.repeat(np.array([p.cycle for p in job.plan], dtype=np.int64), lengths)
    columns = {
        # The "Time [s]" variable is the solver's time itself; reading it through PyBaMM
        # would evaluate a compiled expression per point to get the same numbers.
        "Time [s]": solution.t,
        "Voltage [V]": solution["Voltage [V]"].entries,
        "Current [A]": solution["Current [A]"].entries,
        "Step count": step_count,
        "Cycle count": cycle_count,
    }
    columns.update(
        step_cumulative_throughput(columns["Time [s]"], columns["Current [A]"], columns["Voltage [V]"], step_count)
    )
    for index, name in enumerate(job.extra_variables):
        values = np.asarray(solution[name].entries)
        if values.ndim != 1 or len(values) != len(step_count):
            raise configuration_error(
                f"extra_variables[{index}]: {name!r} varies in space, so it has no single value per time"
            )
        columns[name] = values
    resolution = job.protocol.resolution
    if resolution.voltage is not None or resolution.current is not None:
        keep = _thin(columns, resolution)
        columns = {name: values[keep] for name, values in columns.items()}
    return columns


def _table(columns: dict[str, np.ndarray]) -> pa.Table:
    schema = pa.schema(
        [(name, pa.int64() if name in ("Step count", "Cycle count") else pa.float64()) for name in columns]
    )
    return pa.table({name: np.asarray(values) for name, values in columns.items()}, schema=schema)


def _parquet_bytes(table: pa.Table) -> bytes:
    # Written in memory: the files are small, and a temporary file plus a (multipart-capable)
    # upload of it cost more than writing the Parquet itself. Dictionary encoding is left
    # out because it only pays for repeated values, which solver output hardly has.
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, use_dictionary=False)
    return sink.getvalue().to_pybytes()


def _put(key: str, table: pa.Table) -> None:
    storage.put_bytes(key, _parquet_bytes(table))


def _metrics(columns: dict[str, np.ndarray], steps: dict, solve_time: float) -> dict:
    def total(name: str) -> float:
        return float(np.sum(steps[name])) if len(steps[name]) else 0.0

    voltage, times = columns["Voltage [V]"], columns["Time [s]"]
    return {
        "discharge_capacity_ah": total("Discharge capacity [A.h]"),
        "charge_capacity_ah": total("Charge capacity [A.h]"),
        "discharge_energy_wh": total("Discharge energy [W.h]"),
        "charge_energy_wh": total("Charge energy [W.h]"),
        "duration_s": float(times[-1] - times[0]),
        "min_voltage_v": float(np.nanmin(voltage)),  # a NaN row does not hide the range
        "max_voltage_v": float(np.nanmax(voltage)),
        "solve_time_s": solve_time,
        "num_steps": len(steps["Step count"]),
    }


# ----------------------------------------------------------------------------- entry point


def _give_back(key: str, simulation: pybamm.Simulation) -> None:
    # A cached build would otherwise keep its last solution alive until its next solve. Cleared
    # before it is given back: another thread may take it at once, and PyBaMM's solve reads it.
    simulation._solution = None
    CACHE.give_back(key, simulation)


@dataclass
class Solved:
    """One design point's results, in memory: the time series, its step summary, its metrics."""

    columns: dict[str, np.ndarray]
    steps: dict  # summary columns (summarize_step_columns)
    metrics: dict
    cache_hit: bool

    def time_series_table(self) -> pa.Table:
        return _table(self.columns)

    def steps_table(self) -> pa.Table:
        return pa.table([self.steps[name] for name in SUMMARY_COLUMNS], schema=SUMMARY_SCHEMA)


def solve_point(
    job: _Job,
    on_progress: Progress | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> Solved:
    """Solve one checked design point on a cached build (or a new one) and summarise it.

    ``on_progress(steps_done, steps_total)`` is called after every solved step;
    ``should_cancel()`` is polled before every step and raises :class:`SimulationCancelled`.
    Raises ``SimulationError`` with type ``CONFIGURATION_ERROR`` or ``SOLVER_ERROR``.
    """
    inputs = {**job.input_parameters, **job.protocol_inputs, **_state_inputs(job)}
    key = job.cache_key()
    started = time.monotonic()
    simulation, cache_hit = CACHE.take(key, lambda: _build(job, tighten=False, inputs=inputs))
    try:
        solution = _solve(job, simulation, inputs, on_progress, should_cancel)
    except (SimulationError, SimulationCancelled):
        _give_back(key, simulation)  # the build is sound; only this design point failed
        raise
    except _SolverFailure:
        # Retry once, on a fresh build with tighter tolerances; it is not cached.
        try:
            solution = _solve(job, _build(job, tighten=True, inputs=inputs), inputs, on_progress, should_cancel)
        except _SolverFailure as failure:
            raise solver_error(
                f"{_where(failure.step)}: the solver failed, also after a retry with tighter tolerances: "
                f"{failure.detail}"
            ) from None
    else:
        _give_back(key, simulation)
    solve_time = time.monotonic() - started
    # PyBaMM assembles a long run's solution after its last step, where no cancel is polled.
    if should_cancel is not None and should_cancel():
        raise SimulationCancelled()
    columns = _columns(job, solution)
    labels = {index: planned.step.describe(job.inputs) for index, planned in enumerate(job.plan)}
    steps = summarize_step_columns(columns, labels=labels)
    return Solved(columns=columns, steps=steps, metrics=_metrics(columns, steps, solve_time), cache_hit=cache_hit)


def run_simulation(
    request: dict,
    on_progress: Progress | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> dict:
    """Solve one simulation and store its two files in its own folder (the per-simulation
    activity of batches begun before sweeps ran in chunks; see the module docstring).

    A cancel that arrives while the files are written removes them: a canceled job keeps none.
    """
    job = _prepare(request)
    solved = solve_point(job, on_progress, should_cancel)
    cancelled = should_cancel or (lambda: False)
    _put(job.output_prefix + TIME_SERIES_FILE, solved.time_series_table())
    _put(job.output_prefix + STEPS_FILE, solved.steps_table())
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

"""A simulation request checked into a job: the model, the protocol and one design point's inputs."""

from __future__ import annotations

import json
from dataclasses import dataclass

from .. import storage
from . import experiment as exp
from . import model_spec, models, ucp, ucp_expand, ucp_parse
from .errors import configuration_error, finite
from .steps_summary import CAPACITY_COLUMNS

NOMINAL_CAPACITY = "Nominal cell capacity [A.h]"
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


@dataclass
class Job:
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
                "model": model_spec.spec_key(self.recipe.spec),
                "steps": repr(self.protocol.steps),
                "period": self.period,
                "temperature_k": self.temperature_k,
                "baked": sorted(self.baked.items()),
                "inputs": sorted(self.input_parameters),
                "outputs": self.output_variables,
                "initial_state_as_input": self.initial_state is not None,
            }
        )


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
    spec = model_spec.normalize_model_spec(model)
    recipe = models.recipe(spec)
    parsed = ucp_parse.parse_protocol(protocol)
    plan = ucp_expand.expand(
        parsed, ucp_expand.DEFAULT_MAX_BACKWARD_JUMPS if max_backward_jumps is None else max_backward_jumps
    )
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


def prepare_request(request) -> Job:
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


def prepare_point(setup: Setup, raw_inputs, output_prefix: str = "") -> Job:
    """Check one design point's inputs against the batch's setup."""
    recipe, protocol, plan, referenced = setup.recipe, setup.protocol, setup.plan, setup.referenced
    if not isinstance(raw_inputs, dict):
        raise configuration_error("inputs: must be an object of names to numbers")
    inputs = {name: finite(value, f"inputs[{name!r}]") for name, value in raw_inputs.items()}
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
        model_spec.check_parameter_value(name, value, f"inputs[{name!r}]")
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
    return Job(
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

"""Checking a design-optimization request; every error is a ``CONFIGURATION_ERROR`` whose message
starts with the field at fault."""

from __future__ import annotations

from dataclasses import dataclass

from ..fitting.spec import SCALES, FittedParameter, OptimizerSettings, parse_optimizer
from ..simulation import model_spec
from ..simulation.errors import configuration_error, finite

# Metric name -> the key of the simulation's solve metrics (simulation/output.py solve_metrics).
METRICS = {
    "discharge capacity [A.h]": "discharge_capacity_ah",
    "charge capacity [A.h]": "charge_capacity_ah",
    "energy [W.h]": "discharge_energy_wh",
    "discharge energy [W.h]": "discharge_energy_wh",
    "charge energy [W.h]": "charge_energy_wh",
    "duration [s]": "duration_s",
    "minimum voltage [V]": "min_voltage_v",
    "maximum voltage [V]": "max_voltage_v",
}
AIMS = ("maximize", "minimize")
FIELDS = {
    "element_name",
    "pipeline_id",
    "job_id",
    "model",
    "protocol",
    "parameters",
    "fixed_parameters",
    "objective",
    "constraints",
    "optimizer",
    "checkpoint",
}
_PARAMETER_FIELDS = {"initial", "bounds", "scale"}


@dataclass(frozen=True)
class Constraint:
    metric: str
    min: float | None
    max: float | None

    def holds(self, value: float) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)


@dataclass(frozen=True)
class Design:
    model: dict
    protocol: object
    parameters: list[FittedParameter]
    fixed: dict[str, float]
    metric: str
    aim: str
    constraints: list[Constraint]
    settings: OptimizerSettings


def parse_design(request) -> Design:
    if not isinstance(request, dict):
        raise configuration_error("request: must be an object")
    unknown = sorted(set(request) - FIELDS)
    if unknown:
        raise configuration_error(f"request: unknown field(s) {', '.join(map(repr, unknown))}")
    if not isinstance(request.get("protocol"), (dict, str)):
        raise configuration_error("protocol: required, a UCP protocol as a simulation takes")
    fixed = request.get("fixed_parameters") or {}
    if not isinstance(fixed, dict):
        raise configuration_error("fixed_parameters: must be an object of parameter names to numbers")
    fixed = {name: finite(value, f"fixed_parameters[{name!r}]") for name, value in fixed.items()}
    objective = request.get("objective")
    if not isinstance(objective, dict):
        raise configuration_error("objective: must be an object {'metric', 'aim'}")
    metric = _metric(objective.get("metric"), "objective.metric")
    aim = objective.get("aim", "maximize")
    if aim not in AIMS:
        raise configuration_error(f"objective.aim: must be one of {', '.join(AIMS)}, got {aim!r}")
    settings = parse_optimizer(request.get("optimizer"), "RMSE")
    if settings.method == "least_squares":
        raise configuration_error("optimizer.method: least_squares fits residuals; a design has one objective value")
    return Design(
        model=request.get("model"),
        protocol=request["protocol"],
        parameters=_parameters(request.get("parameters")),
        fixed=fixed,
        metric=metric,
        aim=aim,
        constraints=_constraints(request.get("constraints")),
        settings=settings,
    )


def _metric(raw, path: str) -> str:
    if raw not in METRICS:
        raise configuration_error(f"{path}: must be one of {', '.join(METRICS)}, got {raw!r}")
    return raw


def _parameters(raw) -> list[FittedParameter]:
    if not isinstance(raw, dict) or not raw:
        raise configuration_error("parameters: must name at least one parameter: {'<name>': {'initial', 'bounds'}}")
    out = []
    for name, entry in raw.items():
        where = f"parameters[{name!r}]"
        if not isinstance(entry, dict) or set(entry) - _PARAMETER_FIELDS:
            raise configuration_error(f"{where}: must be an object with 'initial', 'bounds' and optionally 'scale'")
        bounds = entry.get("bounds")
        if not isinstance(bounds, (list, tuple)) or len(bounds) != 2:
            raise configuration_error(f"{where}.bounds: must be [lower, upper]")
        lower, upper = finite(bounds[0], f"{where}.bounds[0]"), finite(bounds[1], f"{where}.bounds[1]")
        model_spec.check_parameter_value(name, lower, f"{where}.bounds[0]")
        if lower >= upper:
            raise configuration_error(
                f"{where}.bounds: the lower bound ({lower:g}) must be below the upper ({upper:g})"
            )
        initial = finite(entry.get("initial"), f"{where}.initial")
        if not lower <= initial <= upper:
            raise configuration_error(f"{where}.initial: {initial:g} is outside the bounds [{lower:g}, {upper:g}]")
        scale = entry.get("scale", "linear")
        if scale not in SCALES or (scale == "log" and lower <= 0):
            raise configuration_error(f"{where}.scale: must be linear, or log with a positive lower bound")
        out.append(FittedParameter(name, lower, upper, initial, scale))
    return out


def _constraints(raw) -> list[Constraint]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise configuration_error("constraints: must be a list of {'metric', 'min'?, 'max'?}")
    out = []
    for i, entry in enumerate(raw):
        where = f"constraints[{i}]"
        if not isinstance(entry, dict) or set(entry) - {"metric", "min", "max"}:
            raise configuration_error(f"{where}: must be an object {{'metric', 'min'?, 'max'?}}")
        low = finite(entry["min"], f"{where}.min") if entry.get("min") is not None else None
        high = finite(entry["max"], f"{where}.max") if entry.get("max") is not None else None
        if low is None and high is None:
            raise configuration_error(f"{where}: give min, max or both")
        out.append(Constraint(_metric(entry.get("metric"), f"{where}.metric"), low, high))
    return out

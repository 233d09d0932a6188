"""What every fit and validation request shares: its fields, its model, its fitted parameters, cost and optimizer."""

from __future__ import annotations

from collections.abc import Callable

from ..simulation import model_spec, models
from ..simulation.errors import configuration_error
from .spec import parse_cost, parse_optimizer, parse_parameters

_INFO_FIELDS = {"element_name", "pipeline_id", "job_id", "series_prefix"}
COMMON_FIT_FIELDS = _INFO_FIELDS | {
    "model",
    "parameters",
    "fixed_parameters",
    "cost",
    "target",
    "optimizer",
    "checkpoint",
}
FIT_FIELDS = COMMON_FIT_FIELDS | {"data", "protocol"}
VALIDATION_FIELDS = _INFO_FIELDS | {"model", "parameter_values", "fixed_parameters", "data", "protocol", "target"}
ShouldCancel = Callable[[], bool]


def never_cancel() -> bool:
    return False


def check_request(request, allowed: set[str]) -> dict:
    if not isinstance(request, dict):
        raise configuration_error("request: must be an object")
    unknown = sorted(set(request) - allowed)
    if unknown:
        raise configuration_error(
            f"request: unknown field(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(sorted(allowed))}"
        )
    return request


def request_model(request: dict):
    spec = model_spec.normalize_model_spec(request.get("model"))
    return spec, models.recipe(spec)


def parse_fit_request(request, fields):
    """What both fit forms share: the checked request, fitted parameters, cost and optimizer."""
    request = check_request(request, fields)
    fitted = parse_parameters(request.get("parameters"))
    cost_name = parse_cost(request.get("cost"))
    return request, fitted, cost_name, parse_optimizer(request.get("optimizer"), cost_name)

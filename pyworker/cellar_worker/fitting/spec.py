"""Checking the parts of a fit request: fitted parameters, cost, optimizer, checkpoint.

Every error is a non-retryable ``CONFIGURATION_ERROR`` whose message starts with the
field at fault (``parameters['R0 [Ohm]'].bounds: ...``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import tables
from ..simulation import model_spec
from ..simulation.errors import configuration_error, finite

# From tables/costs.json and tables/optimizers.json: scipy.optimize.minimize methods that
# accept bounds, plus two others (see optimize.py).
COSTS = tables.COSTS
DEFAULT_COST = tables.DEFAULT_COST
MINIMIZE_METHODS = tables.MINIMIZE_METHODS
METHODS = tables.OPTIMIZER_METHODS
DEFAULT_METHOD = tables.DEFAULT_OPTIMIZER_METHOD
DEFAULT_MAX_ITERATIONS = 200
MAX_ITERATIONS_LIMIT = 100_000
_PARAMETER_FIELDS = {"bounds", "initial_value", "scale"}
_OPTIMIZER_FIELDS = {"method", "max_iterations", "max_evaluations", "tolerance"}
SCALES = ("linear", "log")


@dataclass(frozen=True)
class FittedParameter:
    """One fitted parameter; the optimizer works on ``x`` in [0, 1] across its bounds."""

    name: str
    lower: float
    upper: float
    initial: float
    scale: str  # "linear" or "log" (log-uniform between the bounds, for values spanning decades)

    def to_unit(self, value: float) -> float:
        if self.scale == "log":
            return (math.log(value) - math.log(self.lower)) / (math.log(self.upper) - math.log(self.lower))
        return (value - self.lower) / (self.upper - self.lower)

    def from_unit(self, x: float) -> float:
        x = min(max(float(x), 0.0), 1.0)
        if self.scale == "log":
            return math.exp(math.log(self.lower) + x * (math.log(self.upper) - math.log(self.lower)))
        return self.lower + x * (self.upper - self.lower)

    def contains(self, value) -> bool:
        return (
            not isinstance(value, bool)
            and isinstance(value, (int, float))
            and math.isfinite(value)
            and self.lower <= value <= self.upper
        )


def parse_parameters(raw, path: str = "parameters") -> list[FittedParameter]:
    """``{"<name>": {"bounds": [lo, hi], "initial_value": v, "scale"?: "linear"|"log"}}``.

    Names are checked against the model later (``evaluator.check_fitted_names``).
    """
    if not isinstance(raw, dict):
        raise configuration_error(
            f"{path}: must be an object {{'<PyBaMM parameter name>': {{'bounds': [lo, hi], 'initial_value': v}}}}"
        )
    if not raw:
        raise configuration_error(f"{path}: a fit needs at least one parameter to fit")
    fitted: list[FittedParameter] = []
    for name, entry in raw.items():
        where = f"{path}[{name!r}]"
        if not isinstance(entry, dict):
            raise configuration_error(f"{where}: must be an object with 'bounds' and 'initial_value'")
        unknown = sorted(set(entry) - _PARAMETER_FIELDS)
        if unknown:
            raise configuration_error(
                f"{where}: unknown field(s) {', '.join(map(repr, unknown))}; "
                f"allowed: {', '.join(sorted(_PARAMETER_FIELDS))}"
            )
        bounds = entry.get("bounds")
        if not isinstance(bounds, (list, tuple)) or len(bounds) != 2:
            raise configuration_error(f"{where}.bounds: must be [lower, upper]")
        lower = finite(bounds[0], f"{where}.bounds[0]")
        upper = finite(bounds[1], f"{where}.bounds[1]")
        model_spec.check_parameter_value(name, lower, f"{where}.bounds[0]")
        if lower >= upper:
            raise configuration_error(
                f"{where}.bounds: the lower bound ({lower:g}) must be below the upper ({upper:g})"
            )
        if "initial_value" not in entry:
            raise configuration_error(f"{where}.initial_value: required")
        initial = finite(entry["initial_value"], f"{where}.initial_value")
        if not lower <= initial <= upper:
            raise configuration_error(
                f"{where}.initial_value: {initial:g} is outside the bounds [{lower:g}, {upper:g}]"
            )
        scale = entry.get("scale", "linear")
        if scale not in SCALES:
            raise configuration_error(f"{where}.scale: must be one of {', '.join(SCALES)}")
        if scale == "log" and lower <= 0:
            raise configuration_error(f"{where}.scale: 'log' needs a positive lower bound")
        fitted.append(FittedParameter(name, lower, upper, initial, scale))
    return fitted


def parse_cost(raw) -> str:
    if raw is None:
        return DEFAULT_COST
    if raw not in COSTS:
        raise configuration_error(f"cost: must be one of {', '.join(COSTS)}, got {raw!r}")
    return raw


@dataclass(frozen=True)
class OptimizerSettings:
    method: str
    max_iterations: int
    max_evaluations: int | None
    tolerance: float | None


def parse_optimizer(raw, cost: str) -> OptimizerSettings:
    """``{"method", "max_iterations", "max_evaluations"?, "tolerance"?}`` (all optional)."""
    if raw is None:
        raw = {}
    if isinstance(raw, str):
        raw = {"method": raw}
    if not isinstance(raw, dict):
        raise configuration_error(
            "optimizer: must be an object such as {'method': 'Nelder-Mead', 'max_iterations': 100}"
        )
    unknown = sorted(set(raw) - _OPTIMIZER_FIELDS)
    if unknown:
        raise configuration_error(
            f"optimizer: unknown field(s) {', '.join(map(repr, unknown))}; "
            f"allowed: {', '.join(sorted(_OPTIMIZER_FIELDS))}"
        )
    method = raw.get("method") or DEFAULT_METHOD
    if method not in METHODS:
        raise configuration_error(f"optimizer.method: must be one of {', '.join(METHODS)}, got {method!r}")
    if method == "least_squares" and cost not in tables.LEAST_SQUARES_COSTS:
        raise configuration_error(
            "optimizer.method: 'least_squares' minimizes squared residuals, "
            f"so the cost must be {' or '.join(tables.LEAST_SQUARES_COSTS)}, not {cost}"
        )
    max_iterations = _count(raw.get("max_iterations", DEFAULT_MAX_ITERATIONS), "optimizer.max_iterations")
    max_evaluations = raw.get("max_evaluations")
    if max_evaluations is not None:
        max_evaluations = _count(max_evaluations, "optimizer.max_evaluations")
    tolerance = raw.get("tolerance")
    if tolerance is not None:
        tolerance = finite(tolerance, "optimizer.tolerance")
        if tolerance <= 0:
            raise configuration_error("optimizer.tolerance: must be greater than 0")
    return OptimizerSettings(method, max_iterations, max_evaluations, tolerance)


def _count(value, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ITERATIONS_LIMIT:
        raise configuration_error(f"{path}: must be an integer between 1 and {MAX_ITERATIONS_LIMIT}")
    return value


@dataclass(frozen=True)
class Checkpoint:
    """Where an interrupted fit had got to (heartbeat details or the request's ``checkpoint``)."""

    best_parameters: dict[str, float]
    best_cost: float | None
    iteration: int
    evaluations: int


def read_checkpoint(raw, fitted: list[FittedParameter]) -> Checkpoint | None:
    """A usable checkpoint for these parameters, or None.

    Shape: ``{"best_parameters": {name: value}, "best_cost"?, "iteration"?, "evaluations"?}``
    -- what the fit heartbeats. One that names other parameters or values outside the
    bounds belongs to another fit and is ignored rather than trusted.
    """
    if not isinstance(raw, dict):
        return None
    best = raw.get("best_parameters")
    if not isinstance(best, dict) or set(best) != {p.name for p in fitted}:
        return None
    if not all(p.contains(best[p.name]) for p in fitted):
        return None
    cost = raw.get("best_cost")
    cost = (
        float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) and math.isfinite(cost) else None
    )

    def count(name: str) -> int:
        value = raw.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

    return Checkpoint(
        best_parameters={p.name: float(best[p.name]) for p in fitted},
        best_cost=cost,
        iteration=count("iteration"),
        evaluations=count("evaluations"),
    )


# ----------------------------------------------------------------------------- costs


def residual_stats(residuals: np.ndarray) -> dict[str, float | None]:
    """RMSE, MAE and Max of the absolute error, in the target's unit (None without points)."""
    residuals = np.asarray(residuals, dtype=float)
    if residuals.size == 0:
        return {"RMSE": None, "MAE": None, "Max": None}
    absolute = np.abs(residuals)
    return {
        "RMSE": float(np.sqrt(np.mean(residuals**2))),
        "MAE": float(np.mean(absolute)),
        "Max": float(np.max(absolute)),
    }


def cost_value(name: str, residuals: np.ndarray) -> float:
    residuals = np.asarray(residuals, dtype=float)
    if name == "SSE":
        return float(np.sum(residuals**2))
    return residual_stats(residuals)[name]

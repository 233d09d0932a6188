"""A model described for the API (its variables and parameters) and an uploaded custom model checked by building it."""

from __future__ import annotations

import json

import pybamm

from .errors import SimulationError, configuration_error, describe
from .model_spec import MODEL_TYPES, normalize_model_spec
from .models import INITIAL_SOC_PERCENT, ModelRecipe, recipe


def _check_builds(spec: dict, model_recipe: ModelRecipe) -> None:
    """Build a PyBaMM model once with its parameter set, e.g. for options that need parameters the set lacks."""
    try:
        pybamm.Simulation(
            model_recipe.new_model(),
            parameter_values=model_recipe.base_parameters.copy(),
            solver=model_recipe.make_solver(),
            **model_recipe.mesh_settings(),
        ).build()
    except Exception as error:  # any PyBaMM build failure means the model is unusable
        raise configuration_error(
            f"model: cannot be built with parameter set {spec['parameter_set']!r}: {describe(error)}"
        ) from None


def describe_model(spec) -> dict:
    """Variable and parameter names of a model, so the API can reject unknown ones early.

    ``variable_names`` are those of time alone (usable as result columns and fit targets);
    ``spatial_variable_names`` the others.
    """
    normalized = normalize_model_spec(spec)
    model_recipe = recipe(normalized)
    if normalized["kind"] == "pybamm":
        # Checked here, at submission, rather than by every simulation's job.
        _check_builds(normalized, model_recipe)
    return {
        "model": normalized,
        "variable_names": sorted(set(model_recipe.variable_names) - model_recipe.spatial_variable_names),
        "spatial_variable_names": sorted(model_recipe.spatial_variable_names),
        "parameter_names": sorted(model_recipe.parameter_names | {INITIAL_SOC_PERCENT}),
        "simulator_version": pybamm.__version__,
    }


def validate_custom_model(model_json) -> dict:
    """Check an uploaded custom model by building it.

    The format is the pybamm model spec (``{"type": "SPMe", "options": {...},
    "parameter_set": "Chen2020", "parameters": {...}, "simulation_settings": {...}}``),
    as an object or a JSON string. Answers ``{"valid": true, "model": <normalized>,
    "simulator_version"}`` or ``{"valid": false, "error": "..."}``.
    """
    try:
        if isinstance(model_json, (str, bytes)):
            try:
                model_json = json.loads(model_json)
            except ValueError as error:
                raise configuration_error(f"model: not valid JSON ({error})") from None
        if not isinstance(model_json, dict):
            raise configuration_error("model: must be a JSON object")
        if model_json.get("kind", "pybamm") != "pybamm" or "type" not in model_json:
            raise configuration_error(
                f"model.type: a custom model names a PyBaMM model type, one of {', '.join(MODEL_TYPES)}"
            )
        normalized = normalize_model_spec({**model_json, "kind": "pybamm"})
        _check_builds(normalized, recipe(normalized))
    except SimulationError as error:
        return {"valid": False, "error": error.message}
    return {"valid": True, "model": normalized, "simulator_version": pybamm.__version__}

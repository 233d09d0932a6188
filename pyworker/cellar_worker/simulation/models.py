"""Model recipes: a normalized model spec (``model_spec.py``) made into what every build of it
needs (cached per spec), and the checks of parameter and variable names against a recipe."""

from __future__ import annotations

import copy
import functools
import json
from dataclasses import dataclass

import pybamm

from . import custom_variables, quick_model
from .errors import configuration_error, describe, message_of
from .model_spec import MODEL_TYPES, spec_key
from .model_structure import (
    NON_PARAMETER_KEYS,
    initial_state_parameters,
    spatial_variable_names,
    symbol_parameter_names,
)

# Pseudo-parameter: the initial state of charge in percent, accepted in ``inputs`` when the
# protocol does not set the initial state itself.
INITIAL_SOC_PERCENT = "Initial SOC [%]"
# The protocol drives the current, so these are not parameters a user may set.
PROTOCOL_CONTROLLED = frozenset({"Current function [A]"})
# PyBaMM experiments own the temperatures and refuse them as solve-time inputs.
TEMPERATURE_PARAMETERS = ("Ambient temperature [K]", "Initial temperature [K]")


@dataclass(frozen=True)
class ModelRecipe:
    """Everything needed to build simulations of one model spec."""

    spec: dict
    base_parameters: pybamm.ParameterValues  # concrete values, spec parameters applied
    parameter_names: frozenset[str]  # names a design point may set
    geometry_parameters: frozenset[str]  # baked into the mesh: cannot be solve-time inputs
    model_options: object
    variable_names: tuple[str, ...]
    # Those of them that vary in space as well as in time: they cannot be a time-series column.
    spatial_variable_names: frozenset[str]
    var_pts: dict | None  # mesh points: the model's defaults with the spec's overrides
    # Likewise by domain (None: the model's defaults); use mesh_settings() to pass them.
    submesh_types: dict | None = None
    spatial_methods: dict | None = None

    @functools.cached_property
    def state_parameters(self) -> tuple[str, ...]:
        """What set_initial_state writes (initial SoC, concentrations).

        Worked out on first use: it runs set_initial_state twice, about a second for an
        electrochemical model, which simulations and fits without an initial state skip.
        """
        return initial_state_parameters(self.base_parameters, self.model_options)

    def new_model(self) -> pybamm.BaseModel:
        return _construct(self.spec)

    def mesh_settings(self) -> dict:
        """``var_pts``, ``submesh_types`` and ``spatial_methods`` for ``pybamm.Simulation``.

        Fresh containers on every call: PyBaMM's mesh rewrites the submesh map in place
        and its discretisation attaches the mesh to each spatial method.
        """
        return {
            "var_pts": self.var_pts,
            "submesh_types": None if self.submesh_types is None else dict(self.submesh_types),
            "spatial_methods": None if self.spatial_methods is None else copy.deepcopy(self.spatial_methods),
        }

    def make_solver(self, tighten: bool = False, output_variables: list[str] | None = None) -> pybamm.BaseSolver:
        """The solver from the spec; ``tighten`` is the single retry after a failure.

        With ``output_variables``, an IDAKLU solve keeps only those variables at each time
        point instead of the whole state vector and its derivative: a DFN keeps about a
        thousand states, and a long protocol's solution held gigabytes of them.
        """
        settings = self.spec["simulation_settings"]["solver"]
        scale = 0.01 if tighten else 1.0
        rtol, atol = settings["rtol"] * scale, settings["atol"] * scale
        if settings["name"] == "CasadiSolver":
            return _CasadiSolver(mode="safe", rtol=rtol, atol=atol)
        # Sundials would print failures straight to stderr; PyBaMM raises them anyway.
        options = {"silence_sundials_errors": True}
        if tighten:
            options["max_num_steps"] = 1_000_000
        return _IDAKLUSolver(rtol=rtol, atol=atol, options=options, output_variables=output_variables)


class _ReusedInitialConditions:
    """Keeps a built model's processed initial conditions across solves.

    Every solve of an already set-up model from its start makes PyBaMM convert the
    initial-condition expression to a new CasADi function again (about a millisecond,
    more than the rest of a small model's set-up). The expression only changes when the
    model is rebuilt, and its inputs are symbolic, so the function made the first time is
    evaluated with the new inputs instead.
    """

    def set_up(self, model, inputs=None, t_eval=None, ics_only=False):
        if ics_only and getattr(model, "_cellar_processed_ics", None) is model.concatenated_initial_conditions:
            self._set_initial_conditions(model, 0.0, inputs if isinstance(inputs, list) else [inputs or {}])
            return None
        result = super().set_up(model, inputs, t_eval, ics_only)
        model._cellar_processed_ics = model.concatenated_initial_conditions
        return result


class _IDAKLUSolver(_ReusedInitialConditions, pybamm.IDAKLUSolver):
    pass


class _CasadiSolver(_ReusedInitialConditions, pybamm.CasadiSolver):
    pass


def _construct(spec: dict) -> pybamm.BaseModel:
    if spec["kind"] == "quick":
        return pybamm.equivalent_circuit.Thevenin()
    model_class = MODEL_TYPES[spec["type"]][0]
    try:
        model = model_class(options=spec["options"] or None)
    except (pybamm.OptionError, pybamm.ModelError, KeyError, TypeError, ValueError) as error:
        raise configuration_error(f"model.options: {message_of(error)}") from None
    custom_variables.add_to_model(model, spec.get("custom_variables", []))
    return model


@functools.lru_cache(maxsize=16)
def _recipe_for_key(key: str) -> ModelRecipe:
    spec = json.loads(key)
    model = _construct(spec)
    if spec["kind"] == "quick":
        values = quick_model.quick_parameter_values(spec["capacity"], spec["chemistry"], spec["resistance_pct"])
    else:
        values = pybamm.ParameterValues(spec["parameter_set"])
    names = (set(values.keys()) | set(model.get_parameter_info())) - NON_PARAMETER_KEYS - PROTOCOL_CONTROLLED
    var_pts = None
    if spec["kind"] == "pybamm":
        for name in spec["parameters"]:
            check_parameter_name(name, names, f"model.parameters[{name!r}]")
        # Some names are required by model options without being in the set itself.
        values.update(spec["parameters"], check_already_exists=False)
        overrides = spec["simulation_settings"].get("var_pts")
        if overrides:
            var_pts = {getattr(variable, "name", variable): count for variable, count in model.default_var_pts.items()}
            for name in overrides:
                if name not in var_pts:
                    raise configuration_error(
                        f"model.simulation_settings.var_pts[{name!r}]: unknown spatial variable; "
                        f"allowed: {', '.join(sorted(var_pts))}"
                    )
            var_pts.update(overrides)
    submesh_types = spatial_methods = None
    if spec["kind"] == "pybamm":
        submesh_types = _by_domain(spec, "submesh_types", model.default_submesh_types, lambda cls: cls)
        spatial_methods = _by_domain(spec, "spatial_methods", model.default_spatial_methods, lambda cls: cls())
        if submesh_types is not None or spatial_methods is not None:
            _check_mesh(model, values, var_pts, submesh_types, spatial_methods)
    return ModelRecipe(
        spec=spec,
        base_parameters=values,
        parameter_names=frozenset(names),
        geometry_parameters=frozenset(symbol_parameter_names(model.default_geometry)),
        model_options=model.options,
        variable_names=tuple(model.variables.keys()),
        spatial_variable_names=spatial_variable_names(model),
        var_pts=var_pts,
        submesh_types=submesh_types,
        spatial_methods=spatial_methods,
    )


def _by_domain(spec: dict, field: str, defaults: dict, make) -> dict | None:
    """The model's default ``field`` map with the spec's overrides, or None without any."""
    overrides = spec["simulation_settings"].get(field)
    if not overrides:
        return None
    merged = dict(defaults)
    for domain, name in overrides.items():
        if domain not in merged:
            raise configuration_error(
                f"model.simulation_settings.{field}[{domain!r}]: unknown domain for this model; "
                f"allowed: {', '.join(sorted(merged))}"
            )
        merged[domain] = make(getattr(pybamm, name))
    return merged


def _check_mesh(model, values: pybamm.ParameterValues, var_pts, submesh_types, spatial_methods) -> None:
    """Mesh the model's geometry and set up the spatial methods on it, so that a class that
    does not fit its domain is refused here, naming the setting, rather than at build time."""
    submesh_types = dict(submesh_types or model.default_submesh_types)
    spatial_methods = copy.deepcopy(spatial_methods) if spatial_methods else model.default_spatial_methods
    try:
        geometry = model.default_geometry
        values.process_geometry(geometry)
        mesh = pybamm.Mesh(geometry, submesh_types, var_pts or model.default_var_pts)
    except Exception as error:  # noqa: BLE001 - PyBaMM raises many types for a misfit mesh
        raise configuration_error(
            f"model.simulation_settings.submesh_types: PyBaMM cannot mesh this model with them: {describe(error)}"
        ) from None
    try:
        pybamm.Discretisation(mesh, spatial_methods)
    except Exception as error:  # noqa: BLE001
        raise configuration_error(
            f"model.simulation_settings.spatial_methods: PyBaMM cannot use them on this model's mesh: {describe(error)}"
        ) from None


def recipe(spec: dict) -> ModelRecipe:
    """The (cached) recipe of a normalized spec."""
    return _recipe_for_key(spec_key(spec))


def check_parameter_name(name, allowed, path: str) -> None:
    if name in PROTOCOL_CONTROLLED:
        raise configuration_error(f"{path}: {name!r} is set by the protocol, not by parameters")
    if name not in allowed:
        raise configuration_error(f"{path}: unknown parameter {name!r} for this model")


def check_time_variable(recipe: ModelRecipe, name, path: str) -> None:
    """``name`` must be a variable of the model that varies in time alone (one value per time)."""
    if not isinstance(name, str) or name not in recipe.variable_names:
        raise configuration_error(f"{path}: unknown variable {name!r} for this model")
    if name in recipe.spatial_variable_names:
        raise configuration_error(f"{path}: {name!r} varies in space, so it has no single value per time")

"""Model specifications: what the API sends, how it becomes a PyBaMM model.

Two kinds of model spec are accepted (``kind`` may be left out when the shape is clear):

- quick: ``{"kind": "quick", "capacity": 5.0, "chemistry": "NMC/Graphite",
  "resistance_pct": 100}`` (also ``{"quick_model": {...}}``) -- a Thevenin equivalent
  circuit, see ``quick_model.py`` and ``tables/chemistries.json``;
- pybamm: ``{"kind": "pybamm", "type": "SPM" | "SPMe" | "DFN" | "ECM", "options": {...},
  "parameter_set": "Chen2020", "parameters": {"<PyBaMM name>": number},
  "simulation_settings": {"var_pts": {"x_n": 20, ...},
  "submesh_types": {"negative particle": "Chebyshev1DSubMesh", ...},
  "spatial_methods": {"macroscale": "FiniteVolume", ...}, "solver": {"name": "IDAKLUSolver",
  "rtol": 1e-4, "atol": 1e-6}}}`` -- a built-in PyBaMM model. The custom-model upload
  format is this same object (``kind`` optional).

Both kinds accept ``simulation_settings.solver``. The mesh settings (pybamm kind only)
override the model's defaults entry by entry, as PyBaMM's own arguments of the same
names do when given in full: ``var_pts`` by spatial variable name, ``submesh_types`` and
``spatial_methods`` by domain, naming a PyBaMM class (:data:`SUBMESH_TYPES`,
:data:`SPATIAL_METHODS`).
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import json
import math
from dataclasses import dataclass

import pybamm

from .. import tables
from . import custom_variables, quick_model
from .errors import SimulationError, configuration_error, describe, message_of

# Model type -> (PyBaMM class, default parameter set), from tables/models.json.
MODEL_TYPES = {
    model["type"]: (getattr(getattr(pybamm, model["family"]), model["pybamm_class"]), model["default_parameter_set"])
    for model in tables.MODELS
}
SOLVERS = tables.SOLVERS
# PyBaMM classes a setting may name: those that can be made from their name alone (the
# user-supplied and 3D/unstructured meshes need edges or a mesh generator, so are left
# out), and the scikit-fem ones only where scikit-fem is installed.
_SCIKIT_FEM = importlib.util.find_spec("skfem") is not None
SUBMESH_TYPES = tuple(
    name
    for name in (
        "Uniform1DSubMesh",
        "Exponential1DSubMesh",
        "Chebyshev1DSubMesh",
        "SpectralVolume1DSubMesh",
        "SymbolicUniform1DSubMesh",
        "SubMesh0D",
        "Uniform2DSubMesh",
        *(("ScikitUniform2DSubMesh", "ScikitExponential2DSubMesh", "ScikitChebyshev2DSubMesh") if _SCIKIT_FEM else ()),
    )
    if hasattr(pybamm, name)
)
SPATIAL_METHODS = tuple(
    name
    for name in (
        "FiniteVolume",
        "SpectralVolume",
        "ZeroDimensionalSpatialMethod",
        "FiniteVolume2D",
        *(("ScikitFiniteElement",) if _SCIKIT_FEM else ()),
    )
    if hasattr(pybamm, name)
)
DEFAULT_RTOL = 1e-4
DEFAULT_ATOL = 1e-6

# Pseudo-parameter: the initial state of charge in percent, accepted in ``inputs`` when the
# protocol does not set the initial state itself.
INITIAL_SOC_PERCENT = "Initial SOC [%]"
# The protocol drives the current, so these are not parameters a user may set.
PROTOCOL_CONTROLLED = frozenset({"Current function [A]"})
# PyBaMM experiments own the temperatures and refuse them as solve-time inputs.
TEMPERATURE_PARAMETERS = ("Ambient temperature [K]", "Initial temperature [K]")
_NON_PARAMETER_KEYS = frozenset({"citations", "chemistry"})

_QUICK_FIELDS = {"kind", "capacity", "chemistry", "resistance_pct", "cell_spec_id", "simulation_settings"}
_PYBAMM_FIELDS = {"kind", "type", "options", "parameter_set", "parameters", "simulation_settings", "custom_variables"}
_SETTINGS_FIELDS = {"var_pts", "submesh_types", "spatial_methods", "solver"}
_CLASS_SETTINGS = {"submesh_types": SUBMESH_TYPES, "spatial_methods": SPATIAL_METHODS}
_SOLVER_FIELDS = {"name", "rtol", "atol"}


# ----------------------------------------------------------------------------- spec


def normalize_model_spec(spec) -> dict:
    """Check a model spec and return its canonical form (defaults filled in)."""
    if isinstance(spec, dict) and set(spec) == {"quick_model"}:
        spec = {"kind": "quick", **(spec["quick_model"] or {})}
    if not isinstance(spec, dict):
        raise configuration_error("model: must be an object")
    kind = spec.get("kind")
    if kind is None:
        kind = "pybamm" if "type" in spec else "quick" if "chemistry" in spec else None
    if kind == "quick":
        return _normalize_quick(spec)
    if kind == "pybamm":
        return _normalize_pybamm(spec)
    raise configuration_error("model.kind: must be 'quick' or 'pybamm'")


def _reject_unknown(mapping: dict, allowed: set[str], path: str) -> None:
    unknown = sorted(set(mapping) - allowed)
    if unknown:
        raise configuration_error(
            f"{path}: unknown field(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(sorted(allowed))}"
        )


def _finite(value, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise configuration_error(f"{path}: must be a finite number")
    return float(value)


def _normalize_quick(spec: dict) -> dict:
    _reject_unknown(spec, _QUICK_FIELDS, "model")
    chem = quick_model.chemistry(spec.get("chemistry"))
    capacity = _finite(spec.get("capacity"), "model.capacity")
    if capacity <= 0:
        raise configuration_error("model.capacity: must be greater than 0 [A.h]")
    resistance_pct = _finite(spec.get("resistance_pct", 100), "model.resistance_pct")
    if resistance_pct <= 0:
        raise configuration_error("model.resistance_pct: must be greater than 0")
    settings = _normalize_settings(spec.get("simulation_settings"), allow_mesh=False)
    return {
        "kind": "quick",
        "capacity": capacity,
        "chemistry": chem["name"],
        "resistance_pct": resistance_pct,
        "simulation_settings": settings,
    }


def _normalize_pybamm(spec: dict) -> dict:
    _reject_unknown(spec, _PYBAMM_FIELDS, "model")
    model_type = spec.get("type")
    if model_type not in MODEL_TYPES:
        raise configuration_error(f"model.type: must be one of {', '.join(MODEL_TYPES)}, got {model_type!r}")
    options = spec.get("options") or {}
    if not isinstance(options, dict):
        raise configuration_error("model.options: must be an object of PyBaMM model options")
    parameter_set = spec.get("parameter_set") or MODEL_TYPES[model_type][1]
    if parameter_set not in pybamm.parameter_sets:
        raise configuration_error(
            f"model.parameter_set: unknown parameter set {parameter_set!r}; "
            f"bundled sets: {', '.join(sorted(pybamm.parameter_sets))}"
        )
    parameters = spec.get("parameters") or {}
    if not isinstance(parameters, dict):
        raise configuration_error("model.parameters: must be an object of PyBaMM parameter names to numbers")
    parameters = {name: _finite(value, f"model.parameters[{name!r}]") for name, value in parameters.items()}
    for name, value in parameters.items():
        check_parameter_value(name, value, f"model.parameters[{name!r}]")
    return {
        "kind": "pybamm",
        "type": model_type,
        "options": options,
        "parameter_set": parameter_set,
        "parameters": parameters,
        "simulation_settings": _normalize_settings(spec.get("simulation_settings"), allow_mesh=True),
        # Only when there are some: the specs (and result hashes) of models without stay as they were.
        **(
            {"custom_variables": custom} if (custom := custom_variables.normalize(spec.get("custom_variables"))) else {}
        ),
    }


def _normalize_settings(settings, allow_mesh: bool) -> dict:
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        raise configuration_error("model.simulation_settings: must be an object")
    # The quick model has no spatial dimension to mesh.
    allowed = _SETTINGS_FIELDS if allow_mesh else {"solver"}
    _reject_unknown(settings, allowed, "model.simulation_settings")
    normalized: dict = {}
    var_pts = settings.get("var_pts")
    if var_pts is not None:
        if not isinstance(var_pts, dict):
            raise configuration_error("model.simulation_settings.var_pts: must map spatial variables to point counts")
        for name, count in var_pts.items():
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise configuration_error(f"model.simulation_settings.var_pts[{name!r}]: must be a positive integer")
        normalized["var_pts"] = dict(var_pts)
    for field, classes in _CLASS_SETTINGS.items():
        chosen = settings.get(field)
        if chosen is None:
            continue
        path = f"model.simulation_settings.{field}"
        if not isinstance(chosen, dict):
            raise configuration_error(f"{path}: must map domains to PyBaMM class names")
        for domain, name in chosen.items():
            if name not in classes:
                raise configuration_error(f"{path}[{domain!r}]: unknown class {name!r}; allowed: {', '.join(classes)}")
        normalized[field] = dict(chosen)
    solver = settings.get("solver") or {}
    if isinstance(solver, str):
        solver = {"name": solver}
    if not isinstance(solver, dict):
        raise configuration_error("model.simulation_settings.solver: must be an object or a solver name")
    _reject_unknown(solver, _SOLVER_FIELDS, "model.simulation_settings.solver")
    name = solver.get("name", SOLVERS[0])
    if name not in SOLVERS:
        raise configuration_error(f"model.simulation_settings.solver.name: must be one of {', '.join(SOLVERS)}")
    tolerances = {}
    for field, default in (("rtol", DEFAULT_RTOL), ("atol", DEFAULT_ATOL)):
        value = _finite(solver.get(field, default), f"model.simulation_settings.solver.{field}")
        if value <= 0:
            raise configuration_error(f"model.simulation_settings.solver.{field}: must be greater than 0")
        tolerances[field] = value
    normalized["solver"] = {"name": name, **tolerances}
    return normalized


def spec_key(spec: dict) -> str:
    """Canonical JSON of a normalized spec, for cache keys."""
    return json.dumps(spec, sort_keys=True, separators=(",", ":"))


# ----------------------------------------------------------------------------- recipe


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
        return _initial_state_parameters(self.base_parameters, self.model_options)

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


def _symbol_parameter_names(tree) -> set[str]:
    names: set[str] = set()
    if isinstance(tree, dict):
        for value in tree.values():
            names |= _symbol_parameter_names(value)
    elif isinstance(tree, pybamm.Symbol):
        for node in tree.pre_order():
            if isinstance(node, (pybamm.Parameter, pybamm.FunctionParameter)):
                names.add(node.name)
    return names


# Nodes whose values span the same points as their children's (PyBaMM gives them their
# children's domains).
_ELEMENTWISE = (
    pybamm.BinaryOperator,
    pybamm.Function,
    pybamm.Negate,
    pybamm.AbsoluteValue,
    pybamm.Sign,
    pybamm.Floor,
    pybamm.Ceiling,
)


def _spatial_variable_names(model: pybamm.BaseModel) -> frozenset[str]:
    """The model's variables that vary in space, read from their expressions' domains.

    Two corrections to the domains PyBaMM states: ``Min``/``Max`` reduce over space, yet keep
    their argument's domains (and pass them on, e.g. to "Minimum negative particle
    concentration", a ``Min`` divided by a parameter); and the current collector is a single
    point unless the model is a pouch cell (``dimensionality`` 1 or 2).
    """
    single_point_collector = model.options["dimensionality"] == 0 if "dimensionality" in model.options else True
    memo: dict[int, tuple[str, ...]] = {}

    def domains(symbol: pybamm.Symbol) -> tuple[str, ...]:
        key = id(symbol)
        if key not in memo:
            if isinstance(symbol, (pybamm.Min, pybamm.Max)):
                found: tuple[str, ...] = ()
            elif isinstance(symbol, _ELEMENTWISE):
                found = next((d for d in map(domains, symbol.children) if d), ())
            else:
                found = tuple(domain for level in symbol.domains.values() for domain in level)
            memo[key] = found
        return memo[key]

    return frozenset(
        name
        for name, symbol in model.variables.items()
        if any(not (domain == "current collector" and single_point_collector) for domain in domains(symbol))
    )


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _initial_state_parameters(values: pybamm.ParameterValues, options) -> tuple[str, ...]:
    """The parameters ``ParameterValues.set_initial_state`` writes for a model with these options."""
    try:
        low = values.set_initial_state(0.3, inplace=False, options=options)
        high = values.set_initial_state(0.7, inplace=False, options=options)
    except Exception:  # noqa: BLE001 - a model without an initial-state rule has none
        return ()
    return tuple(
        sorted(
            name
            for name in high.keys()
            if name not in _NON_PARAMETER_KEYS
            and name in low.keys()
            and _is_number(high[name])
            and _is_number(low[name])
            and float(high[name]) != float(low[name])
        )
    )


@functools.lru_cache(maxsize=16)
def _recipe_for_key(key: str) -> ModelRecipe:
    spec = json.loads(key)
    model = _construct(spec)
    if spec["kind"] == "quick":
        values = quick_model.quick_parameter_values(spec["capacity"], spec["chemistry"], spec["resistance_pct"])
    else:
        values = pybamm.ParameterValues(spec["parameter_set"])
    names = (set(values.keys()) | set(model.get_parameter_info())) - _NON_PARAMETER_KEYS - PROTOCOL_CONTROLLED
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
        geometry_parameters=frozenset(_symbol_parameter_names(model.default_geometry)),
        model_options=model.options,
        variable_names=tuple(model.variables.keys()),
        spatial_variable_names=_spatial_variable_names(model),
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


NON_NEGATIVE_UNITS = frozenset(tables.PARAMETER_UNITS["non_negative"])
POSITIVE_UNITS = frozenset(tables.PARAMETER_UNITS["positive"])


def check_parameter_value(name: str, value: float, path: str) -> None:
    """A parameter measured in a unit of a quantity that cannot be negative (or zero) must not be
    (tables/parameter_units.json)."""
    unit = name[name.rfind("[") + 1 : -1] if name.endswith("]") and "[" in name else None
    if unit in NON_NEGATIVE_UNITS and value < 0:
        raise configuration_error(f"{path}: {value:g} is negative, and a quantity in [{unit}] cannot be")
    if unit in POSITIVE_UNITS and value <= 0:
        raise configuration_error(f"{path}: {value:g} is not greater than 0, and a quantity in [{unit}] must be")


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


# ----------------------------------------------------------------------------- describe


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

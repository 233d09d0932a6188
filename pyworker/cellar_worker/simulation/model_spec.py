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

import importlib.util
import json

import pybamm

from .. import tables
from . import custom_variables, quick_model
from .errors import configuration_error, finite

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
_QUICK_FIELDS = {"kind", "capacity", "chemistry", "resistance_pct", "cell_spec_id", "simulation_settings"}
_PYBAMM_FIELDS = {"kind", "type", "options", "parameter_set", "parameters", "simulation_settings", "custom_variables"}
_SETTINGS_FIELDS = {"var_pts", "submesh_types", "spatial_methods", "solver"}
_CLASS_SETTINGS = {"submesh_types": SUBMESH_TYPES, "spatial_methods": SPATIAL_METHODS}
_SOLVER_FIELDS = {"name", "rtol", "atol"}


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


def _normalize_quick(spec: dict) -> dict:
    _reject_unknown(spec, _QUICK_FIELDS, "model")
    chem = quick_model.chemistry(spec.get("chemistry"))
    capacity = finite(spec.get("capacity"), "model.capacity")
    if capacity <= 0:
        raise configuration_error("model.capacity: must be greater than 0 [A.h]")
    resistance_pct = finite(spec.get("resistance_pct", 100), "model.resistance_pct")
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
    parameters = {name: finite(value, f"model.parameters[{name!r}]") for name, value in parameters.items()}
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
        value = finite(solver.get(field, default), f"model.simulation_settings.solver.{field}")
        if value <= 0:
            raise configuration_error(f"model.simulation_settings.solver.{field}: must be greater than 0")
        tolerances[field] = value
    normalized["solver"] = {"name": name, **tolerances}
    return normalized


def spec_key(spec: dict) -> str:
    """Canonical JSON of a normalized spec, for cache keys."""
    return json.dumps(spec, sort_keys=True, separators=(",", ":"))


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

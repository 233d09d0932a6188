"""The tables the worker shares with the API: one JSON file each in the repository's ``tables/``.

The worker runs from a checkout (``npm start``'s supervisor, the tests and the Docker image
all start it in ``pyworker/``, the image holding the whole repository), so the folder is found
beside ``pyworker/``. The API loads the same files through ``tables/index.ts``. Read once, at import.
"""

from __future__ import annotations

import json
from pathlib import Path

TABLES_DIR = Path(__file__).resolve().parents[2] / "tables"


def table_path(name: str) -> Path:
    return TABLES_DIR / name


def _read(name: str):
    path = table_path(name)
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except FileNotFoundError:
        raise RuntimeError(
            f"{path} is missing: the worker reads the shared tables from the repository's tables/ folder, "
            "so it runs from a checkout (pyworker/ beside tables/)"
        ) from None


# The canonical protocol form's JSON Schema, and its step table: each step type (in order),
# its fields and its control modes.
UCP_SCHEMA_PATH = table_path("ucp.schema.json")
UCP_SCHEMA = _read("ucp.schema.json")
_DEFS = UCP_SCHEMA["$defs"]
UCP_STEP_FIELDS: dict[str, tuple[str, ...]] = {}
UCP_STEP_MODES: dict[str, tuple[str, ...]] = {}
for _option in _DEFS["step"]["oneOf"]:
    _type = _option["required"][0]
    _fields = _option["properties"][_type]["properties"]
    UCP_STEP_FIELDS[_type] = tuple(_fields)
    if "mode" in _fields:
        UCP_STEP_MODES[_type] = tuple(_fields["mode"]["enum"])
UCP_ENDS_VARIABLES = tuple(option["const"] for option in _DEFS["ends_variable"]["oneOf"])
UCP_GLOBAL_FIELDS = tuple(_DEFS["global"]["properties"])
UCP_INITIAL_STATE_TYPES = tuple(_DEFS["global"]["properties"]["initial_state_type"]["enum"])
UCP_RESOLUTION_FIELDS = tuple(_DEFS["global"]["properties"]["resolution"]["properties"])
UCP_TOP_LEVEL_FIELDS = tuple(UCP_SCHEMA["properties"])

# Built-in PyBaMM model types: {type, name, default_parameter_set, family, pybamm_class}.
MODELS: list[dict] = _read("models.json")["models"]
# Solvers a model may name; the first is the default.
SOLVERS: tuple[str, ...] = tuple(_read("solvers.json")["solvers"])

_OPTIMIZERS = _read("optimizers.json")
OPTIMIZER_METHODS = tuple(method["name"] for method in _OPTIMIZERS["methods"])
MINIMIZE_METHODS = tuple(method["name"] for method in _OPTIMIZERS["methods"] if method["scipy"] == "minimize")
DEFAULT_OPTIMIZER_METHOD: str = _OPTIMIZERS["default"]

_COSTS = _read("costs.json")
COSTS = tuple(cost["name"] for cost in _COSTS["costs"])
LEAST_SQUARES_COSTS = tuple(cost["name"] for cost in _COSTS["costs"] if cost["least_squares"])
DEFAULT_COST: str = _COSTS["default"]

CHEMISTRIES_PATH = table_path("chemistries.json")
PARAMETER_UNITS: dict = _read("parameter_units.json")

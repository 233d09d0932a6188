"""A model type the engine builds, as pybamm's ``Serialise`` document: the symbolic model
(rhs, algebraic, variables, events, initial conditions) that ``Serialise.load_custom_model``
turns back into a ``pybamm.BaseModel``, so a lab can use the model Cellar simulates with only
pybamm installed.

The document is compressed (``{"compressed": true, "data": ...}``, which ``load_custom_model``
reads as it is): an electrochemical model's plain document is several megabytes of JSON.
"""

from __future__ import annotations

from pybamm.expression_tree.operations.serialise import Serialise

from .errors import configuration_error
from .model_spec import normalize_model_spec
from .models import recipe


def serialize_model(request) -> dict:
    """``{"name": <model type>, "options": {...}}`` → the model's Serialise document."""
    if not isinstance(request, dict):
        raise configuration_error("model: must be an object")
    options = request.get("options") or {}
    spec = normalize_model_spec({"kind": "pybamm", "type": request.get("name"), "options": options})
    model = recipe(spec).new_model()
    return Serialise.serialise_custom_model(model, compress=True)

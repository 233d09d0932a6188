"""Battery simulations with PyBaMM: protocol (UCP) handling, models, solving, results.

Entry points: :func:`run_simulation`, :func:`describe_model`,
:func:`validate_custom_model`; the Temporal activities wrapping them are in
``activities.py``.
"""

from .model_description import describe_model, validate_custom_model
from .runner import run_simulation
from .solving import SimulationCancelled

__all__ = ["SimulationCancelled", "describe_model", "run_simulation", "validate_custom_model"]

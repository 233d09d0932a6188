"""Parameter fitting and validation against measured data (pipeline elements).

Entry points: :func:`fit_parameters`, :func:`fit_parameters_array`,
:func:`validate_against_data` (see ``service.py`` and ``array_fit.py``); the Temporal
activities wrapping them (``fitParameters``, ``fitParametersArray``, ``validateAgainstData``)
are in ``activities.py``.
"""

from .array_fit import fit_parameters_array
from .optimize import FitCancelled, Progress
from .service import fit_parameters, validate_against_data

__all__ = ["FitCancelled", "Progress", "fit_parameters", "fit_parameters_array", "validate_against_data"]

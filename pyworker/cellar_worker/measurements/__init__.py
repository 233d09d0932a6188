"""Measurement data: read uploads, validate, derive capacity/energy, steps and cycles, write Parquet.

The Temporal activities live in ``activities.py`` (imported separately, since they need
``cellar_worker.storage``); everything else works on local files.
"""

from .extend import extend_series
from .issues import ValidationOptions, parse_options
from .process import Outcome, process_upload
from .streaming import Progress

__all__ = ["Outcome", "Progress", "ValidationOptions", "extend_series", "parse_options", "process_upload"]

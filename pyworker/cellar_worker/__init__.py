"""Cellar's Python worker: simulation and measurement-processing Temporal activities."""

import os

# PyBaMM phones home unless told not to; this must be set before pybamm is imported.
os.environ.setdefault("PYBAMM_DISABLE_TELEMETRY", "true")

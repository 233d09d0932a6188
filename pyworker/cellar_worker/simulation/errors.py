"""Failures a simulation or fit reports back to the workflow, by code.

The science modules raise these; only the activity edge (``simulation/activities.py``,
``fitting/activities.py``) turns them into Temporal ``ApplicationError``\\ s, of the same
type and message. Both are non-retryable there: a configuration mistake needs a user fix,
and a solver failure has already been retried once with tighter settings inside the activity.
"""

import math

CONFIGURATION_ERROR = "CONFIGURATION_ERROR"
SOLVER_ERROR = "SOLVER_ERROR"


class SimulationError(Exception):
    """A failure with a code (``type``) the workflow reports; ``message`` names the field at fault."""

    type: str = ""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ConfigurationError(SimulationError):
    """A mistake the user can fix (unknown parameter, infeasible protocol, bad value)."""

    type = CONFIGURATION_ERROR


class SolverError(SimulationError):
    """The numerical solver failed on a configuration that looked valid."""

    type = SOLVER_ERROR


def configuration_error(message: str) -> ConfigurationError:
    return ConfigurationError(message)


def solver_error(message: str) -> SolverError:
    return SolverError(message)


def finite(value, path: str) -> float:
    """``value`` as a float if it is a finite number (not a bool); else the error naming ``path``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise configuration_error(f"{path}: must be a finite number")
    return float(value)


def message_of(error: BaseException) -> str:
    """The exception's message: its single argument as given (a KeyError's key unquoted)."""
    return str(error.args[0]) if len(error.args) == 1 else str(error)


def describe(error: BaseException) -> str:
    """``Type: message``, or the type alone: some exceptions carry no message at all."""
    message = message_of(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__

"""Failures a simulation job reports back to the workflow, by code.

Both are non-retryable for Temporal: a configuration mistake needs a user fix, and a
solver failure has already been retried once with tighter settings inside the activity.
"""

from temporalio.exceptions import ApplicationError

CONFIGURATION_ERROR = "CONFIGURATION_ERROR"
SOLVER_ERROR = "SOLVER_ERROR"


def configuration_error(message: str) -> ApplicationError:
    """A mistake the user can fix (unknown parameter, infeasible protocol, bad value)."""
    return ApplicationError(message, type=CONFIGURATION_ERROR, non_retryable=True)


def solver_error(message: str) -> ApplicationError:
    """The numerical solver failed on a configuration that looked valid."""
    return ApplicationError(message, type=SOLVER_ERROR, non_retryable=True)


def message_of(error: BaseException) -> str:
    """The exception's message: its single argument as given (a KeyError's key unquoted)."""
    return str(error.args[0]) if len(error.args) == 1 else str(error)


def describe(error: BaseException) -> str:
    """``Type: message``, or the type alone: some exceptions carry no message at all."""
    message = message_of(error)
    return f"{type(error).__name__}: {message}" if message else type(error).__name__

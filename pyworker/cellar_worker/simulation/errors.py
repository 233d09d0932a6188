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

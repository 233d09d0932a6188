"""Assertion shared by the suites: a call fails with an error the activity edge reports as a
non-retryable ApplicationError of a code."""

import pytest
from temporalio.exceptions import ApplicationError

from cellar_worker.simulation.activities import reported_to_temporal


def raises(code, fn, *args):
    """Calls ``fn(*args)``, checks it fails non-retryably with ``code``, and answers the message."""
    with pytest.raises(ApplicationError) as excinfo, reported_to_temporal():
        fn(*args)
    assert excinfo.value.type == code, excinfo.value.message
    assert excinfo.value.non_retryable
    return excinfo.value.message

"""Temporal activities of parameter fitting, on the simulation task queue.

Called by name from the TypeScript pipeline workflows; every payload is plain JSON (see
``service.py`` and ``array_fit.py`` for the full request and answer shapes):

- ``fitParameters(request) -> result``: ``data_fit`` elements;
- ``fitParametersArray(request) -> result``: ``array_data_fit`` elements (a joint fit, and with
  ``"mode": "per_dataset"`` then one fit per data set);
- ``validateAgainstData(request) -> result``: ``validation`` elements.

Progress: while fitting, the activity heartbeats every ``FIT_HEARTBEAT_INTERVAL_S``
(default 2 s) with ``{"iteration", "evaluations", "best_cost", "best_parameters"}``.
Give the activity a ``heartbeatTimeout`` (10-30 s) so that a killed worker is noticed
soon and the SDK does not throttle the details to its 30 s default.

Resume: when an attempt is retried (the worker was killed, its heartbeat timed out, and
Temporal runs the activity again, possibly on another worker), the new attempt reads
``activity.info().heartbeat_details`` -- the last progress the dead attempt reported --
and starts the optimizer from its ``best_parameters`` (when they name the same
parameters and lie within the bounds), counting on from its ``iteration`` and
``evaluations``. The answer says ``"resumed": true`` and gives the start point in
``initial_parameters``. A request's own ``checkpoint`` (the same shape) is used when
there are no heartbeat details, e.g. for a scheduled retry of a failed element.

An array fit's heartbeats also say which of its fits the progress belongs to: ``"fit":
"joint"`` or ``{"index", "key"}`` of a data set's own fit (``per_dataset`` mode), with the
fits already finished in ``"completed"``. A retried attempt keeps those, resumes only the
tagged fit from the progress, and starts the fits after it afresh.

Series: with a ``series_prefix`` in the request, a fit's or validation's model-vs-data series
is stored under it (``series.py``) before the answer is returned.

Cancellation (delivered through the heartbeat) stops the fit before its next model solve.

Failures are non-retryable ``ApplicationError``\\ s of type ``CONFIGURATION_ERROR`` or
``SOLVER_ERROR``, made from the science modules' own errors at this edge; anything else
(storage unavailable, ...) is left retryable.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

from temporalio import activity

from .. import settings
from ..simulation.activities import reported_to_temporal
from . import series, warmup
from .array_fit import fit_parameters_array
from .optimize import FitCancelled, Progress
from .service import fit_parameters, validate_against_data

HEARTBEAT_INTERVAL_S = settings.current().fit_heartbeat_interval_s


def _after_warm_up(work, should_cancel):
    # In a fresh worker, the warm-up's first-time work serves this fit too (see warmup.py).
    warmup.wait()
    return work(should_cancel)


async def _run_with_heartbeats(work, progress: Progress | None) -> dict:
    """Run ``work(should_cancel)`` in a thread, heartbeating progress from the event loop."""
    cancel = threading.Event()
    task = asyncio.ensure_future(asyncio.to_thread(_after_warm_up, work, cancel.is_set))
    try:
        while not task.done():
            await asyncio.wait({task}, timeout=HEARTBEAT_INTERVAL_S)
            if not task.done():
                activity.heartbeat(progress.snapshot() if progress is not None else {})
    except asyncio.CancelledError:
        cancel.set()
        # The fit stops before its next solve; wait for it so nothing runs on unobserved.
        with contextlib.suppress(BaseException):
            await task
        raise
    try:
        with reported_to_temporal():
            return task.result()
    except FitCancelled:
        # Only reachable if the flag was set without an asyncio cancellation.
        raise asyncio.CancelledError() from None


def _log_fit(kind: str, request, result: dict) -> None:
    activity.logger.info(
        f"{kind} finished",
        extra={
            "element_name": request.get("element_name") if isinstance(request, dict) else None,
            "evaluations": result.get("evaluations"),
            "iterations": result.get("iterations"),
            "cost": result.get("cost"),
            "converged": result.get("converged"),
            "resumed": result.get("resumed"),
            "duration_s": result.get("duration_s"),
        },
    )


async def _fit(fit, label: str, request: dict) -> dict:
    """Runs ``fit`` with heartbeats, handing it the attempt's heartbeat details (its checkpoints)."""
    progress = Progress()
    details = list(activity.info().heartbeat_details or ())
    result = await _run_with_heartbeats(lambda should_cancel: fit(request, progress, should_cancel, details), progress)
    _log_fit(label, request, result)
    return await asyncio.to_thread(series.store, request, result)


@activity.defn(name="fitParameters")
async def fit_parameters_activity(request: dict) -> dict:
    return await _fit(fit_parameters, "fit", request)


@activity.defn(name="fitParametersArray")
async def fit_parameters_array_activity(request: dict) -> dict:
    return await _fit(fit_parameters_array, "array fit", request)


@activity.defn(name="validateAgainstData")
async def validate_against_data_activity(request: dict) -> dict:
    result = await _run_with_heartbeats(lambda should_cancel: validate_against_data(request, should_cancel), None)
    return await asyncio.to_thread(series.store, request, result)


ACTIVITIES = [fit_parameters_activity, fit_parameters_array_activity, validate_against_data_activity]

"""The Temporal activity of design optimization, on the fits queue: ``optimizeDesign(request) ->
result`` (see ``run.py``), with the fits' heartbeats, resume from the last heartbeat, and
cancellation before the next solve."""

from __future__ import annotations

from temporalio import activity

from ..fitting.activities import _run_with_heartbeats
from ..fitting.optimize import Progress
from .run import optimize_design


@activity.defn(name="optimizeDesign")
async def optimize_design_activity(request: dict) -> dict:
    progress = Progress()
    details = list(activity.info().heartbeat_details or ())
    result = await _run_with_heartbeats(
        lambda should_cancel: optimize_design(request, progress, should_cancel, details), progress
    )
    activity.logger.info(
        "design optimization finished",
        extra={"evaluations": result.get("evaluations"), "objective_value": result.get("objective_value")},
    )
    return result


ACTIVITIES = [optimize_design_activity]

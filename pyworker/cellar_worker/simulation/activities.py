"""Temporal activities of the simulation task queue.

They are called from TypeScript workflows, so the names below are the property names
used in ``proxyActivities`` and every payload is a plain JSON object:

- ``runSimulation(request) -> result``: see ``runner.run_simulation``. Heartbeats
  ``{"steps_done", "steps_total"}`` every couple of seconds while solving; a
  cancellation (delivered through the heartbeat) stops the solve before its next step.
- ``describeModel(model) -> {"model", "variable_names", "parameter_names",
  "simulator_version"}``: see ``models.describe_model``.
- ``validateCustomModel(model_json) -> {"valid", "error"?, "model"?, "simulator_version"?}``:
  see ``models.validate_custom_model``.

Failures are ``ApplicationError``\\ s of type ``CONFIGURATION_ERROR`` or ``SOLVER_ERROR``
(non-retryable); anything else (e.g. storage unavailable) is left retryable.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading

from temporalio import activity

from .models import describe_model, validate_custom_model
from .runner import run_simulation

HEARTBEAT_INTERVAL_S = float(os.environ.get("SIMULATION_HEARTBEAT_INTERVAL_S") or "2")


@activity.defn(name="runSimulation")
async def run_simulation_activity(request: dict) -> dict:
    progress = {"steps_done": 0, "steps_total": 0}
    cancel = threading.Event()

    def on_progress(steps_done: int, steps_total: int) -> None:
        progress.update(steps_done=steps_done, steps_total=steps_total)

    # The solve runs in a thread; this coroutine stays free to heartbeat, which is also
    # how a cancellation reaches it.
    solve = asyncio.ensure_future(asyncio.to_thread(run_simulation, request, on_progress, cancel.is_set))
    try:
        while not solve.done():
            await asyncio.wait({solve}, timeout=HEARTBEAT_INTERVAL_S)
            if not solve.done():
                activity.heartbeat(dict(progress))
    except asyncio.CancelledError:
        cancel.set()
        # Let the solver thread reach its next step boundary and stop before reporting.
        with contextlib.suppress(BaseException):
            await solve
        raise
    result = solve.result()
    activity.logger.info(
        "simulation finished",
        extra={
            "simulation_id": request.get("simulation_id"),
            "steps": result["metrics"]["num_steps"],
            "solve_time_s": round(result["metrics"]["solve_time_s"], 3),
            "cache_hit": result["cache_hit"],
        },
    )
    return result


@activity.defn(name="describeModel")
async def describe_model_activity(model: dict) -> dict:
    return await asyncio.to_thread(describe_model, model)


@activity.defn(name="validateCustomModel")
async def validate_custom_model_activity(model_json) -> dict:
    return await asyncio.to_thread(validate_custom_model, model_json)


ACTIVITIES = [run_simulation_activity]
# Served on their own queue (``<SIMULATION_TASK_QUEUE>-models``): they answer API requests.
MODEL_ACTIVITIES = [describe_model_activity, validate_custom_model_activity]

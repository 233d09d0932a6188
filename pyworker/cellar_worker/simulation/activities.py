"""Temporal activities of the simulation task queue.

They are called from TypeScript workflows, so the names below are the property names
used in ``proxyActivities`` and every payload is a plain JSON object:

- ``solveChunk(request) -> outcome``: a chunk of a sweep, see ``chunk.ChunkRun``. Heartbeats
  every second with the point being solved and its steps (``chunk.ChunkProgress``); a point
  that takes more than half a second is shown ``running`` and is stopped at its next step
  when its job is canceled. Cancelling the activity (the batch canceled) stops the chunk
  after recording the points already done.
- ``runSimulation(request) -> result``: one simulation of a batch begun before sweeps ran in
  chunks; see ``runner.run_simulation``. Heartbeats
  ``{"steps_done", "steps_total"}`` every couple of seconds while solving; a
  cancellation (delivered through the heartbeat) stops the solve before its next step.
- ``describeModel(model) -> {"model", "variable_names", "parameter_names",
  "simulator_version"}``: see ``model_description.describe_model``.
- ``validateCustomModel(model_json) -> {"valid", "error"?, "model"?, "simulator_version"?}``:
  see ``model_description.validate_custom_model``.
- ``serializeModel({"name", "options"}) -> document``: see ``serialize.serialize_model``.

Failures are ``ApplicationError``\\ s of type ``CONFIGURATION_ERROR`` or ``SOLVER_ERROR``
(non-retryable), made here from the science modules' own ``errors.SimulationError``\\ s
(``reported_to_temporal``); anything else (e.g. storage unavailable) is left retryable.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

from temporalio import activity
from temporalio.exceptions import ApplicationError

from .. import settings
from .chunk import ChunkProgress, ChunkRun, check_request
from .errors import SimulationError
from .model_description import describe_model, validate_custom_model
from .records import Records
from .runner import run_simulation
from .serialize import serialize_model

HEARTBEAT_INTERVAL_S = settings.current().simulation_heartbeat_interval_s
# A chunk heartbeats more often: its heartbeat timeout is short, so a dead worker is seen soon.
CHUNK_HEARTBEAT_INTERVAL_S = 1.0
# A point solving for longer than this is shown running (shorter ones go straight to done).
SHOW_RUNNING_AFTER_S = 0.5

# One of each per process: the solving thread records, the heartbeat loop watches the point.
_RECORDS = Records()
_WATCH = Records()


@contextlib.contextmanager
def reported_to_temporal():
    """The activity edge: a science module's failure becomes a non-retryable ApplicationError of its code."""
    try:
        yield
    except SimulationError as error:
        raise ApplicationError(error.message, type=error.type, non_retryable=True) from None


def _watch_point(progress: ChunkProgress) -> None:
    """Show a slow point running, and stop it when its own job is canceled."""
    simulation_id = progress.simulation_id
    if simulation_id is None or time.monotonic() - progress.point_started < SHOW_RUNNING_AFTER_S:
        return
    status = _WATCH.mark_running(simulation_id)
    if simulation_id == progress.simulation_id:
        progress.marked_running = True
        if status not in ("pending", "running"):
            progress.point_canceled.set()


async def _heartbeating(work, stop: threading.Event, details, interval: float, tick=None):
    """Runs `work` in a thread while this coroutine heartbeats `details()` every `interval`
    (which is also how a cancellation reaches it: then `stop` is set, and the work is let reach
    its next step and end before the cancel is reported)."""
    solve = asyncio.ensure_future(asyncio.to_thread(work))
    try:
        while not solve.done():
            await asyncio.wait({solve}, timeout=interval)
            if not solve.done():
                activity.heartbeat(details())
                if tick is not None:
                    await tick()
    except asyncio.CancelledError:
        stop.set()
        with contextlib.suppress(BaseException):
            await solve
        raise
    return solve.result()


@activity.defn(name="solveChunk")
async def solve_chunk_activity(request: dict) -> dict:
    with reported_to_temporal():
        check_request(request)
    progress = ChunkProgress()
    stop = threading.Event()
    run = ChunkRun(request, _RECORDS, progress, stop.is_set, attempt=activity.info().attempt)

    async def watch() -> None:
        try:
            await asyncio.to_thread(_watch_point, progress)
        except Exception:  # noqa: BLE001 - watching is best effort; the flush re-checks
            activity.logger.warning("could not check the running point", exc_info=True)

    # Canceled (the batch) or stopping (the worker): the chunk records what is done, then reports.
    outcome = await _heartbeating(run.run, stop, progress.snapshot, CHUNK_HEARTBEAT_INTERVAL_S, watch)
    activity.logger.info(
        "chunk finished",
        extra={
            "batch_id": request["batch_id"],
            "chunk": request["chunk"],
            "points": len(request["simulation_ids"]),
            "completed": outcome["completed"],
            "failed": outcome["failed"],
            "canceled": outcome["canceled"],
        },
    )
    return outcome


@activity.defn(name="runSimulation")
async def run_simulation_activity(request: dict) -> dict:
    progress = {"steps_done": 0, "steps_total": 0}
    cancel = threading.Event()

    def on_progress(steps_done: int, steps_total: int) -> None:
        progress.update(steps_done=steps_done, steps_total=steps_total)

    with reported_to_temporal():
        result = await _heartbeating(
            lambda: run_simulation(request, on_progress, cancel.is_set),
            cancel,
            lambda: dict(progress),
            HEARTBEAT_INTERVAL_S,
        )
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
    with reported_to_temporal():
        return await asyncio.to_thread(describe_model, model)


@activity.defn(name="validateCustomModel")
async def validate_custom_model_activity(model_json) -> dict:
    with reported_to_temporal():
        return await asyncio.to_thread(validate_custom_model, model_json)


@activity.defn(name="serializeModel")
async def serialize_model_activity(request: dict) -> dict:
    with reported_to_temporal():
        return await asyncio.to_thread(serialize_model, request)


ACTIVITIES = [solve_chunk_activity, run_simulation_activity]
# Served on their own queue (``<SIMULATION_TASK_QUEUE>-models``): they answer API requests.
MODEL_ACTIVITIES = [describe_model_activity, validate_custom_model_activity, serialize_model_activity]

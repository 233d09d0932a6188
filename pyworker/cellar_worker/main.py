"""The Python worker process: ``python -m cellar_worker.main`` (run from ``pyworker/``).

It serves the simulation queue (a sweep's chunks), the fits queue
``<SIMULATION_TASK_QUEUE>-fits`` (``fitParameters``, ``fitParametersArray``,
``validateAgainstData``: their own, so a long sweep never holds a fit back), the model calls
(``describeModel``, ``validateCustomModel``) on ``<SIMULATION_TASK_QUEUE>-models`` with slots of
their own, so a request never waits behind a batch's solves, and the measurement queue (the
activities of ``cellar_worker.measurements.activities.ACTIVITIES``). ``SIMULATION_CONCURRENCY - 1``
more solver processes (``python -m cellar_worker.solvers``) serve the simulation queue too,
restarted when one dies and stopped with it.

Its environment variables are those of ``cellar_worker.settings``, all documented there; a bad
value stops the worker at once (exit code 2) with a message naming the variable.

Logs are JSON lines on stderr. They never include storage credentials.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import ipaddress
import json
import logging
import os
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from temporalio import activity
from temporalio.client import Client
from temporalio.service import GrpcCompression
from temporalio.worker import Worker

from cellar_worker import settings as worker_settings
from cellar_worker.design.activities import ACTIVITIES as DESIGN_ACTIVITIES
from cellar_worker.fitting import warmup as fit_warmup
from cellar_worker.fitting.activities import ACTIVITIES as FITTING_ACTIVITIES
from cellar_worker.settings import ConfigError, Settings, read_settings
from cellar_worker.simulation.activities import ACTIVITIES as _SIMULATION_ONLY
from cellar_worker.simulation.activities import MODEL_ACTIVITIES
from cellar_worker.solvers import run_solver_pool

# ConfigError and read_settings are also reachable here, where the worker's settings were read before.
__all__ = ["SIMULATION_ACTIVITIES", "ConfigError", "Settings", "main", "read_settings"]

# The simulation queue still serves fits and validations for pipeline elements begun before
# they had a queue of their own (workflows/pipelineElement.ts, patch "fits-own-queue").
SIMULATION_ACTIVITIES = [*_SIMULATION_ONLY, *FITTING_ACTIVITIES]
# Fits and validations at once in the main process, on their own queue.
FIT_CONCURRENCY = 1

log = logging.getLogger("cellar_worker")

# Activities heartbeat every couple of seconds. The SDK would send only one heartbeat per
# 0.8 x the heartbeat timeout (48 s for a simulation), so a job's progress would stand still
# and a cancellation would reach its solve that late.
HEARTBEAT_SEND_INTERVAL = timedelta(seconds=2)
# Added to the worker's niceness at start (see main()).
WORKER_NICENESS = 10
# Model descriptions at once: each takes a second or two at most.
MODEL_CONCURRENCY = 2

_RECORD_FIELDS = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, then any ``extra`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        entry.update({key: value for key, value in vars(record).items() if key not in _RECORD_FIELDS})
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


# LOG_LEVEL is shared with the Node processes, which use pino's level names.
_LOG_LEVELS = {
    "trace": logging.DEBUG,
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warn": logging.WARNING,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "fatal": logging.CRITICAL,
    "silent": logging.CRITICAL + 1,
}


def configure_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(_LOG_LEVELS[worker_settings.current().log_level])
    # PyBaMM installs its own plain-text stderr handler; route it through ours instead.
    pybamm_logger = logging.getLogger("pybamm.logger")
    pybamm_logger.handlers.clear()
    pybamm_logger.propagate = True
    # An activity's record carries its context in the "temporal_activity" field; the SDK would
    # also append it to the message as a Python dict.
    activity.logger.activity_info_on_message = False


def measurement_activities() -> list:
    """The measurement helper's activities, or none while that module does not exist."""
    try:
        module = importlib.import_module("cellar_worker.measurements.activities")
    except ModuleNotFoundError as error:
        if error.name in ("cellar_worker.measurements", "cellar_worker.measurements.activities"):
            return []
        raise
    return list(getattr(module, "ACTIVITIES", []))


def is_loopback_address(address: str) -> bool:
    """Whether ``host:port`` names this machine (localhost, 127.0.0.0/8 or ::1)."""
    host = address[1 : address.index("]")] if address.startswith("[") else address.rpartition(":")[0]
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name
        return False


def grpc_compression_for(address: str) -> GrpcCompression:
    """No gzip to a server on this machine: CPU at both ends for nothing (as worker/temporalConnection.ts)."""
    return GrpcCompression.NONE if is_loopback_address(address) else GrpcCompression.GZIP


async def connect(address: str, namespace: str, timeout_s: float, stop: asyncio.Event) -> Client | None:
    """Connect, retrying while the Temporal server is still starting (None: stopped first)."""
    deadline = time.monotonic() + timeout_s
    while not stop.is_set():
        try:
            return await Client.connect(address, namespace=namespace, grpc_compression=grpc_compression_for(address))
        except RuntimeError as error:
            if time.monotonic() >= deadline:
                raise
            log.warning("temporal not reachable yet, retrying", extra={"address": address, "error": str(error)})
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=1.0)
    return None


def main_queues(settings: Settings) -> list[tuple[str, list, int]]:
    """The queues the main process serves: one solver slot, the model calls, fits, measurements."""
    queues = [
        # One activity at a time per process: a solve is CPU-bound, so more would only share a
        # core (the GIL); `SIMULATION_CONCURRENCY - 1` solver processes serve the same queue.
        (settings.simulation_task_queue, SIMULATION_ACTIVITIES, 1),
        # Model descriptions answer submissions: on their own queue and slots, never behind a
        # batch's solves (api/services/simulationWorker.ts names the same queue).
        (f"{settings.simulation_task_queue}-models", MODEL_ACTIVITIES, MODEL_CONCURRENCY),
        # Fits and validations: never behind a sweep's chunks (workflows/pipelineIds.ts fitTaskQueue).
        # Design optimizations too: the same optimizer loop, on the same queue.
        (f"{settings.simulation_task_queue}-fits", [*FITTING_ACTIVITIES, *DESIGN_ACTIVITIES], FIT_CONCURRENCY),
    ]
    measurement = measurement_activities()
    if measurement:
        queues.append((settings.measurement_task_queue, measurement, settings.measurement_concurrency))
    return queues


def solver_queues(settings: Settings) -> list[tuple[str, list, int]]:
    """What each extra solver process serves: the simulation queue, one activity at a time."""
    return [(settings.simulation_task_queue, SIMULATION_ACTIVITIES, 1)]


async def run(settings: Settings, stop: asyncio.Event, queues=None, solvers: int | None = None) -> None:
    """Serve `queues` (default: the main process's) until `stop`; with `solvers` extra solver processes."""
    address, namespace = settings.address, settings.namespace
    grace = timedelta(seconds=settings.shutdown_grace_s)
    client = await connect(address, namespace, settings.connect_timeout_s, stop)
    if client is None:
        return
    queues = main_queues(settings) if queues is None else queues
    solvers = settings.simulation_concurrency - 1 if solvers is None else solvers
    pool = asyncio.ensure_future(run_solver_pool(solvers, stop)) if solvers > 0 else None

    with ThreadPoolExecutor(max_workers=max(limit for _, _, limit in queues)) as executor:
        async with contextlib.AsyncExitStack() as stack:
            for queue, activities, limit in queues:
                # Synchronous activities need a thread pool; async ones run on the loop.
                needs_executor = any(not inspect.iscoroutinefunction(fn) for fn in activities)
                worker = Worker(
                    client,
                    task_queue=queue,
                    activities=activities,
                    activity_executor=executor if needs_executor else None,
                    max_concurrent_activities=limit,
                    max_heartbeat_throttle_interval=HEARTBEAT_SEND_INTERVAL,
                    graceful_shutdown_timeout=grace,
                )
                await stack.enter_async_context(worker)
                log.info("worker started", extra={"task_queue": queue, "activities": len(activities)})
            log.info("connected", extra={"address": address, "namespace": namespace, "solver_processes": solvers})
            # After polling has begun, so warming never delays a worker's readiness.
            fit_warmup.start()
            await stop.wait()
            log.info("shutting down", extra={"grace_s": grace.total_seconds()})
    if pool is not None:
        await pool
    log.info("stopped")


async def serve(settings: Settings, solver: bool = False) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    if solver:
        await run(settings, stop, queues=solver_queues(settings), solvers=0)
    else:
        await run(settings, stop)


def main(solver: bool = False) -> int:
    """The worker process, or (`solver`) one of its extra solver processes."""
    configure_logging()
    problems = worker_settings.problems()
    if problems:
        # Like the Node processes: before connecting to anything, naming the variable.
        for error in problems:
            log.error(f"configuration: {error}", extra={"variable": error.variable})
        return 2
    settings = worker_settings.current()
    if not solver:
        # Solves and processing are batch work: on a machine shared with the API, Temporal and
        # PostgreSQL, they yield the CPU to them (the solver processes inherit this), so requests
        # stay quick while a sweep keeps every core busy.
        with contextlib.suppress(OSError):
            os.nice(WORKER_NICENESS)
    try:
        asyncio.run(serve(settings, solver))
    except Exception:  # noqa: BLE001 - report any fatal error as a log line, then fail
        log.exception("solver process failed" if solver else "worker failed")
        return 1
    return 0


def exit_with(code: int) -> None:
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: a native solver thread can abort it ("terminate called
    # without an active exception"), turning a clean stop into a crash.
    os._exit(code)


if __name__ == "__main__":
    exit_with(main())

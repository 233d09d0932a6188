"""A chunk of a sweep: solve its points one after another on cached builds, record in bulk.

The batch workflow hands a chunk only ids (``{"batch_id", "chunk", "output_prefix",
"simulation_ids"}``); the chunk reads its batch and points from PostgreSQL, solves the ones
whose jobs are still open, and flushes about every half second: one result pack to storage
(see pack.py), then one statement recording every outcome since the last flush (records.py).

Exactly once: a point's job moves only from pending or running, in the same statement that
names its pack, so a retried chunk (its worker killed, PostgreSQL or storage down) finds the
points already recorded ended and solves only the rest. A pack written by an attempt that
died before recording it is named by no simulation, and the batch removes it when it ends.

A point that fails (``CONFIGURATION_ERROR``, ``SOLVER_ERROR`` after the tighter retry) fails
its own job; the chunk goes on. A point whose job is canceled is skipped, or stopped at its
next step if it is running. ``stop()`` (the batch canceled, the worker shutting down) ends
the chunk after recording what is done.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pybamm

from .. import storage
from .errors import SimulationError, configuration_error
from .job import prepare_point, prepare_setup
from .pack import PackWriter, object_key, parquet_bytes
from .records import Point, Records
from .solving import SimulationCancelled, solve_point

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.5
FLUSH_POINTS = 1000
FLUSH_BYTES = 64 * 1024 * 1024
FAILURES_REPORTED = 20
# Solves of a point begun by retried chunks that never returned (their worker died), after which
# it is failed unsolved: its solve keeps killing the worker (a crash in the solver), and the
# chunk would otherwise be retried for ever. Only retries count, so a first attempt costs nothing.
MAX_RETRIED_STARTS = 2
POINT_ERRORS = ("CONFIGURATION_ERROR", "SOLVER_ERROR")


@dataclass
class ChunkProgress:
    """Shared between the solving thread (writes) and the heartbeat loop (reads)."""

    simulation_id: str | None = None
    job_id: str | None = None
    point_started: float = 0.0
    marked_running: bool = False
    steps_done: int = 0
    steps_total: int = 0
    completed: int = 0
    failed: int = 0
    canceled: int = 0
    point_canceled: threading.Event = field(default_factory=threading.Event)

    def begin(self, point: Point) -> None:
        self.point_canceled.clear()
        self.steps_done = self.steps_total = 0
        self.marked_running = False
        self.point_started = time.monotonic()
        self.job_id = point.job_id
        self.simulation_id = point.simulation_id

    def end(self) -> None:
        self.simulation_id = self.job_id = None

    def snapshot(self) -> dict:
        """Heartbeat details: the point being solved and its steps (GET /jobs/{id} shows them)."""
        return {
            "simulation_id": self.simulation_id,
            "job_id": self.job_id,
            "steps_done": self.steps_done,
            "steps_total": self.steps_total,
            "completed": self.completed,
            "failed": self.failed,
            "canceled": self.canceled,
        }


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _finite(metrics: dict) -> dict:
    """JSON has no NaN or infinity (a metric of an empty series): those become null."""
    return {k: (v if not isinstance(v, float) or math.isfinite(v) else None) for k, v in metrics.items()}


class ChunkRun:
    def __init__(
        self,
        request: dict,
        records: Records,
        progress: ChunkProgress,
        stop: Callable[[], bool],
        attempt: int = 1,
    ) -> None:
        self.batch_id: str = request["batch_id"]
        self.chunk: int = int(request["chunk"])
        self.prefix: str = storage.check_key(request["output_prefix"])
        self.ids: list[str] = list(request["simulation_ids"])
        self.records = records
        self.progress = progress
        self.stop = stop
        self.attempt = attempt
        self.flushes = 0
        self.outcomes: list[dict] = []
        self.pack = PackWriter()
        self.last_flush = time.monotonic()
        self.busy_seconds = 0.0
        self.timed_points = 0
        # One flush at a time runs beside the solving (writing the pack and waiting for
        # PostgreSQL would otherwise stall it); the next hand-off waits for it.
        self._flusher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chunk-flush")
        self._pending: Future | None = None
        self._ended: set[str] = set()

    # ------------------------------------------------------------------------- the loop

    def run(self) -> dict:
        batch = self.records.load_batch(self.batch_id)
        points = self.records.open_points(self.ids) if batch else []
        setup_error: SimulationError | None = None
        setup = None
        if points:
            try:
                setup = prepare_setup(
                    batch.model_config, batch.protocol, batch.max_backward_jumps, batch.extra_variables
                )
            except SimulationError as error:  # the whole batch's configuration: every point fails with it
                setup_error = error
        try:
            for index, point in enumerate(points):
                if self.stop():
                    break
                if point.simulation_id in self._ended:
                    self.progress.canceled += 1
                    continue
                if self.attempt == 1:
                    self._solve(point, setup, setup_error)
                elif self.records.count_solve_start(point.simulation_id, +1) > MAX_RETRIED_STARTS:
                    self._outcome(
                        point,
                        "failed",
                        _now(),
                        error_code="WORKER_ERROR",
                        error=(
                            f"the worker stopped {MAX_RETRIED_STARTS + 1} times while solving this simulation "
                            "(a crash in the solver, or its machine lost): it is not tried again"
                        ),
                    )
                else:
                    # Counted while it solves: only a solve that never returns (its worker died)
                    # leaves its count up; one whose flush then fails (storage down) does not.
                    self._solve(point, setup, setup_error)
                    self.records.count_solve_start(point.simulation_id, -1)
                if self._flush_due():
                    self._hand_off([p.simulation_id for p in points[index + 1 :]])
            self._hand_off([])
            self._pending.result()
        finally:
            self._flusher.shutdown(wait=True)
        # Counted from the jobs themselves: also right when an earlier attempt recorded some.
        summary = self.records.chunk_summary(self.ids, FAILURES_REPORTED)
        return {**summary, "point_seconds": self.busy_seconds / self.timed_points if self.timed_points else None}

    def _solve(self, point: Point, setup, setup_error: SimulationError | None) -> None:
        progress = self.progress
        progress.begin(point)
        started_at = _now()

        def on_progress(done: int, total: int) -> None:
            progress.steps_done, progress.steps_total = done, total

        def cancelled() -> bool:
            return self.stop() or progress.point_canceled.is_set()

        begun = time.monotonic()
        built = True
        try:
            if setup_error is not None:
                raise setup_error
            job = prepare_point(setup, point.inputs, self.prefix)
            solved = solve_point(job, on_progress, cancelled)
            built = not solved.cache_hit
            where = self.pack.add(point.simulation_id, solved.columns, solved.steps)
            self._outcome(
                point, "completed", started_at, metrics=_finite(solved.metrics), pack=where, cache_hit=solved.cache_hit
            )
        except SimulationCancelled:
            if not self.stop():
                progress.canceled += 1  # this point only: its job already says canceled
        except SimulationError as error:
            code = error.type if error.type in POINT_ERRORS else "CONFIGURATION_ERROR"
            self._outcome(point, "failed", started_at, error_code=code, error=error.message)
        except Exception as error:  # noqa: BLE001 - a fault of this point alone: it fails, the chunk goes on
            log.exception("simulation failed unexpectedly", extra={"simulation_id": point.simulation_id})
            self._outcome(
                point, "failed", started_at, error_code="WORKER_ERROR", error=f"{type(error).__name__}: {error}"
            )
        finally:
            progress.end()
        if not built:  # a point that built its model would skew the measured cost per point
            self.busy_seconds += time.monotonic() - begun
            self.timed_points += 1

    def _outcome(self, point: Point, status: str, started_at: str, **fields) -> None:
        self.outcomes.append(
            {
                "simulation_id": point.simulation_id,
                "status": status,
                "started_at": started_at,
                "finished_at": _now(),
                "compute_seconds": (fields.get("metrics") or {}).get("solve_time_s") or 0.0,
                "metrics": fields.get("metrics"),
                "pack": fields.get("pack"),
                "cache_hit": fields.get("cache_hit", False),
                "error_code": fields.get("error_code"),
                "error": fields.get("error"),
            }
        )

    # ------------------------------------------------------------------------- recording

    def _flush_due(self) -> bool:
        return (
            time.monotonic() - self.last_flush >= FLUSH_SECONDS
            or len(self.outcomes) >= FLUSH_POINTS
            or self.pack.size >= FLUSH_BYTES
        )

    def _hand_off(self, remaining: list[str]) -> None:
        """Record what is done so far beside the solving; waits for the previous flush (and
        re-raises its failure, which fails the chunk: its retry resumes from what was recorded)."""
        if self._pending is not None:
            self._ended = self._pending.result()
        outcomes, pack, number = self.outcomes, self.pack, self.flushes
        self.outcomes, self.pack, self.flushes = [], PackWriter(), self.flushes + 1
        self.last_flush = time.monotonic()
        self._pending = self._flusher.submit(self._flush, outcomes, pack, number, remaining)

    def _flush(self, outcomes: list[dict], pack: PackWriter, number: int, remaining: list[str]) -> set[str]:
        """Store the pack, then record its outcomes in one statement; answers which of the
        remaining points have ended meanwhile (canceled), for the solving to skip."""
        if outcomes:
            self._store(outcomes, pack, number)
        return self.records.ended_among(remaining)

    def _store(self, outcomes: list[dict], pack: PackWriter, number: int) -> None:
        key = None
        if pack.count:
            key = f"{self.prefix}{self.chunk:06d}-{self.attempt}-{number:04d}"
            for kind, table in pack.tables().items():
                storage.put_bytes(object_key(key, kind), parquet_bytes(table))
            for outcome in outcomes:
                if outcome["pack"] is not None:
                    outcome["pack"] = {"key": key, **outcome["pack"]}
        moved = self.records.record(outcomes, self.prefix, pybamm.__version__)
        stored = 0
        for outcome in outcomes:
            status = moved.get(outcome["simulation_id"])
            if status == "completed":
                self.progress.completed += 1
                stored += 1
            elif status == "failed":
                self.progress.failed += 1
            else:  # its job ended meanwhile (canceled): its outcome is dropped
                self.progress.canceled += 1
        if key is not None and not stored:
            storage.delete_prefix(key + "-")  # every point in it was canceled meanwhile


def check_request(request) -> None:
    """A chunk request is made by the batch workflow; anything else is a bug, not worth a retry."""
    ok = (
        isinstance(request, dict)
        and isinstance(request.get("batch_id"), str)
        and isinstance(request.get("chunk"), int)
        and isinstance(request.get("output_prefix"), str)
        and isinstance(request.get("simulation_ids"), list)
        and all(isinstance(i, str) for i in request["simulation_ids"])
    )
    if not ok:
        raise configuration_error("solveChunk: expected {batch_id, chunk, output_prefix, simulation_ids}")

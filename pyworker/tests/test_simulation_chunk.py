"""A chunk's bookkeeping around its solves, with the database stood in by a dict (the
end-to-end suites in test/simulation*.test.ts run chunks against PostgreSQL)."""

import numpy as np
import pytest

from cellar_worker.simulation import chunk as chunk_module
from cellar_worker.simulation.chunk import MAX_RETRIED_STARTS, ChunkProgress, ChunkRun
from cellar_worker.simulation.output import Solved
from cellar_worker.simulation.records import Batch, Point
from cellar_worker.simulation.steps_summary import summarize_step_columns


class Store:
    """The rows a chunk reads and writes: job status and unfinished-solve counts by point."""

    def __init__(self, ids):
        self.status = dict.fromkeys(ids, "pending")
        self.starts = dict.fromkeys(ids, 0)
        self.errors = {}

    def load_batch(self, batch_id):
        return Batch("org", None, {}, {}, [], None)

    def open_points(self, ids):
        return [Point(i, f"job-{i}", {}) for i in ids if self.status[i] in ("pending", "running")]

    def ended_among(self, ids):
        return {i for i in ids if self.status[i] not in ("pending", "running")}

    def count_solve_start(self, sid, change):
        self.starts[sid] = max(self.starts[sid] + change, 0)
        return self.starts[sid]

    def record(self, outcomes, folder, version):
        moved = {}
        for o in outcomes:
            if self.status[o["simulation_id"]] in ("pending", "running"):
                self.status[o["simulation_id"]] = moved[o["simulation_id"]] = o["status"]
                self.errors[o["simulation_id"]] = o["error_code"]
        return moved

    def chunk_summary(self, ids, failures):
        return {s: sum(1 for i in ids if self.status[i] == s) for s in ("completed", "failed", "canceled")} | {
            "failures": []
        }


class WorkerDied(BaseException):
    """Stands for the process ending mid-solve: nothing after it runs."""


@pytest.fixture
def solves(monkeypatch, tmp_path):
    monkeypatch.setenv("STORAGE_DRIVER", "fs")
    monkeypatch.setenv("STORAGE_DIR", str(tmp_path))
    monkeypatch.setattr(chunk_module, "prepare_setup", lambda *args: object())
    monkeypatch.setattr(chunk_module, "prepare_point", lambda setup, inputs, prefix: inputs)

    def solve_point(job, on_progress=None, should_cancel=None):
        if job.get("crash"):
            raise WorkerDied()
        columns = {
            "Time [s]": np.arange(3.0),
            "Voltage [V]": np.full(3, 4.0),
            "Current [A]": np.ones(3),
            "Step count": np.zeros(3, dtype=np.int64),
            "Cycle count": np.zeros(3, dtype=np.int64),
        }
        return Solved(columns, summarize_step_columns(columns), {"solve_time_s": 0.001}, True)

    monkeypatch.setattr(chunk_module, "solve_point", solve_point)


def run(store, ids, attempt, crash=()):
    store_points = store.open_points
    store.open_points = lambda wanted: [
        Point(p.simulation_id, p.job_id, {"crash": p.simulation_id in crash}) for p in store_points(wanted)
    ]
    try:
        request = {"batch_id": "b", "chunk": 0, "output_prefix": "orgs/o/simulation-batches/b/", "simulation_ids": ids}
        return ChunkRun(request, store, ChunkProgress(), lambda: False, attempt=attempt).run()
    finally:
        store.open_points = store_points


def test_a_point_that_keeps_killing_its_worker_is_failed_unsolved_and_the_rest_complete(solves):
    ids = ["a", "b", "c"]
    store = Store(ids)
    for attempt in range(1, MAX_RETRIED_STARTS + 2):  # the first attempt and retries die on "b"
        with pytest.raises(WorkerDied):
            run(store, ids, attempt, crash={"b"})
    outcome = run(store, ids, MAX_RETRIED_STARTS + 2, crash={"b"})
    assert store.status == {"a": "completed", "b": "failed", "c": "completed"}
    assert store.errors["b"] == "WORKER_ERROR"
    assert outcome["completed"] == 2 and outcome["failed"] == 1


def test_retries_that_do_not_die_mid_solve_never_fail_a_point(solves):
    ids = ["a", "b"]
    store = Store(ids)
    record = store.record

    def storage_down(*args):
        raise OSError("storage down")

    store.record = storage_down  # every flush fails: the chunk is retried, its points solved again
    for attempt in range(1, 6):
        with pytest.raises(OSError):
            run(store, ids, attempt)
    store.record = record
    run(store, ids, 6)
    assert store.status == {"a": "completed", "b": "completed"}
    assert store.starts == {"a": 0, "b": 0}

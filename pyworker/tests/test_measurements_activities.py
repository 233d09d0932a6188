"""The measurement activities against the fs storage driver, in Temporal's activity test environment."""

from __future__ import annotations

import asyncio
import hashlib

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

from cellar_worker import storage
from cellar_worker.measurements.activities import ACTIVITIES, delete_objects, process_measurement
from cellar_worker.measurements.columns import CUMULATIVE
from cellar_worker.measurements.generate import write_synthetic_series

PREFIX = "measurements/org-1/m-1/"
UPLOAD_KEY = PREFIX + "uploads/time_series.parquet"


def run_activity(fn, params, heartbeats=None):
    env = ActivityEnvironment()
    if heartbeats is not None:
        env.on_heartbeat = lambda *details: heartbeats.append(details)
    return asyncio.run(env.run(fn, params))


def upload_params(**overrides):
    params = {
        "measurement_id": "m-1",
        "mode": "upload",
        "measurement_type": "time_series",
        "source_key": UPLOAD_KEY,
        "steps_key": PREFIX + "uploads/steps.parquet",
        "current_key": None,
        "output_prefix": PREFIX,
        "version": None,
        "validation": {"strict": True, "skip_checks": []},
        "rated_capacity_ah": 5.0,
        "voltage_min": 2.5,
        "voltage_max": 4.2,
    }
    params.update(overrides)
    return params


def upload_generated(tmp_path, rows=2000, cycles=4, key=UPLOAD_KEY):
    path = tmp_path / "generated.parquet"
    write_synthetic_series(str(path), rows, cycles, row_group_rows=500)
    storage.upload_file(str(path), key)


def test_activity_names():
    names = [fn.__temporal_activity_definition.name for fn in ACTIVITIES]
    assert names == ["processMeasurement", "deleteObjects"]


def test_upload_is_processed_into_canonical_objects(tmp_path, fs_storage):
    upload_generated(tmp_path)
    heartbeats = []
    result = run_activity(process_measurement, upload_params(), heartbeats)
    assert result["status"] == "ready", result["issues"]
    assert result["issues"] == [] and result["processing_error"] is None
    assert result["time_series_key"] == PREFIX + "time_series.parquet"
    assert result["steps_key"] == PREFIX + "steps.parquet"
    assert result["cycles_key"] == PREFIX + "cycles.parquet"
    assert result["row_count"] == 2000 and result["steps_created"] == 20
    assert result["first_time"] == 0.0 and result["last_time"] > 0
    assert result["columns"][:5] == ["Time [s]", "Current [A]", "Voltage [V]", "Step count", "Cycle count"]
    for key in ("time_series_key", "steps_key", "cycles_key"):
        assert storage.exists(result[key])
    with storage.open_read(result["cycles_key"]) as handle:
        assert pq.read_table(handle).num_rows == 4
    assert heartbeats and "rows_done" in heartbeats[0][0]


def test_failed_validation_is_a_result_not_an_error(tmp_path, fs_storage):
    table = pa.table({"Time [s]": [5.0, 6.0], "Current [A]": [0.0, 0.0], "Voltage [V]": [3.7, 3.7]})
    storage.put_bytes(UPLOAD_KEY, _parquet_bytes(table, tmp_path))
    result = run_activity(process_measurement, upload_params())
    assert result["status"] == "failed"
    assert {issue["code"] for issue in result["issues"]} == {"time_does_not_start_at_zero", "step_count_missing"}
    assert result["processing_error"].endswith(".")
    assert result["time_series_key"] is None
    assert not storage.exists(PREFIX + "time_series.parquet")


def test_uploaded_step_labels_join_the_derived_summary(tmp_path, fs_storage):
    upload_generated(tmp_path)
    steps = pa.table({"Step count": list(range(20)), "Label": ["x"] * 20})
    storage.put_bytes(PREFIX + "uploads/steps.parquet", _parquet_bytes(steps, tmp_path))
    result = run_activity(process_measurement, upload_params())
    assert result["status"] == "ready" and result["issues"] == []
    assert result["steps_created"] == 20
    with storage.open_read(result["steps_key"]) as handle:
        stored = pq.read_table(handle)
    assert stored.column_names[:3] == ["Step count", "Cycle count", "Step type"]
    assert stored.column_names[-1] == "Label" and stored.column("Label").to_pylist() == ["x"] * 20


def test_missing_upload_fails_cleanly(fs_storage):
    result = run_activity(process_measurement, upload_params())
    assert result["status"] == "failed"
    assert [issue["code"] for issue in result["issues"]] == ["object_missing"]


def test_extend_writes_a_new_version(tmp_path, fs_storage):
    upload_generated(tmp_path, rows=1000, cycles=2)
    first = run_activity(process_measurement, upload_params())
    assert first["status"] == "ready", first["issues"]
    stored = first["time_series_key"]
    before = _digest(stored)
    delta = pa.table(
        {
            "Time [s]": [first["last_time"] + 10.0 * k for k in range(1, 4)],
            "Current [A]": [0.0] * 3,
            "Voltage [V]": [2.9] * 3,
            "Step count": [10] * 3,
            "Cycle count": [2] * 3,
            "Temperature [degC]": [25.0] * 3,
            "Discharge capacity [A.h]": [0.0] * 3,
            "Charge capacity [A.h]": [0.0] * 3,
            "Discharge energy [W.h]": [0.0] * 3,
            "Charge energy [W.h]": [0.0] * 3,
        }
    )
    delta_key = PREFIX + "uploads/time_series_extend.parquet"
    storage.put_bytes(delta_key, _parquet_bytes(delta, tmp_path))
    result = run_activity(
        process_measurement, upload_params(mode="extend", source_key=delta_key, current_key=stored, version=2)
    )
    assert result["status"] == "ready", result["issues"]
    assert result["time_series_key"] == PREFIX + "time_series.v2.parquet"
    assert result["steps_key"] == PREFIX + "steps.v2.parquet"
    assert result["row_count"] == 1003 and result["steps_created"] == 11
    assert _digest(stored) == before


def test_extend_carries_the_stored_step_labels_over(tmp_path, fs_storage):
    upload_generated(tmp_path, rows=1000, cycles=2)
    steps = pa.table({"Step count": list(range(10)), "Label": [f"s{k}" for k in range(10)]})
    storage.put_bytes(PREFIX + "uploads/steps.parquet", _parquet_bytes(steps, tmp_path))
    first = run_activity(process_measurement, upload_params())
    assert first["status"] == "ready" and first["issues"] == [], first["issues"]
    labels = [f"s{k}" for k in range(10)]
    for version in (1, 2):  # the second extend reads the summary the first one wrote
        # `result` is the first pass's (set below), read only in the second.
        stored = first["time_series_key"] if version == 1 else result["time_series_key"]  # noqa: F821
        stored_steps = first["steps_key"] if version == 1 else result["steps_key"]  # noqa: F821
        last_time = first["last_time"] if version == 1 else result["last_time"]  # noqa: F821
        delta = pa.table(
            {
                "Time [s]": [last_time + 10.0 * k for k in range(1, 4)],
                "Current [A]": [0.0] * 3,
                "Voltage [V]": [2.9] * 3,
                "Step count": [0] * 3,
                "Cycle count": [0] * 3,
                "Temperature [degC]": [25.0] * 3,
                **{name: [0.0] * 3 for name in CUMULATIVE},
            }
        )
        delta_key = PREFIX + f"uploads/extend-v{version}/time_series_extend.parquet"
        storage.put_bytes(delta_key, _parquet_bytes(delta, tmp_path))
        result = run_activity(
            process_measurement,
            upload_params(mode="extend", source_key=delta_key, current_key=stored, version=version)
            | {"current_steps_key": stored_steps},
        )
        assert result["status"] == "ready", result["issues"]
        labels.append(None)
        with storage.open_read(result["steps_key"]) as handle:
            assert pq.read_table(handle).column("Label").to_pylist() == labels
        assert result["steps_created"] == len(labels)


def test_file_measurements_only_need_their_objects(fs_storage):
    storage.put_bytes(PREFIX + "uploads/notes.pdf", b"%PDF-1.7")
    ready = run_activity(process_measurement, {"measurement_type": "file", "source_key": PREFIX + "uploads/notes.pdf"})
    assert ready["status"] == "ready" and ready["issues"] == []
    missing = run_activity(process_measurement, {"measurement_type": "file", "source_key": [PREFIX + "uploads/x.csv"]})
    assert missing["status"] == "failed" and missing["issues"][0]["code"] == "object_missing"


def test_delete_objects_is_idempotent(fs_storage):
    storage.put_bytes(PREFIX + "a.parquet", b"1")
    storage.put_bytes(PREFIX + "uploads/b.parquet", b"2")
    storage.put_bytes("measurements/org-1/m-2/c.parquet", b"3")
    assert run_activity(delete_objects, {"prefix": PREFIX}) == {"prefix": PREFIX}
    assert not storage.exists(PREFIX + "a.parquet") and not storage.exists(PREFIX + "uploads/b.parquet")
    assert storage.exists("measurements/org-1/m-2/c.parquet")
    run_activity(delete_objects, {"prefix": PREFIX})
    with pytest.raises(ApplicationError):
        run_activity(delete_objects, {"prefix": "/"})


def _parquet_bytes(table: pa.Table, tmp_path) -> bytes:
    path = tmp_path / "table.parquet"
    pq.write_table(table, str(path))
    return path.read_bytes()


def _digest(key: str) -> str:
    with storage.open_read(key) as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def test_malformed_input_is_not_retried(fs_storage):
    with pytest.raises(ApplicationError) as raised:
        run_activity(process_measurement, upload_params(mode="extend", current_key=None))
    assert raised.value.non_retryable and "current_key" in str(raised.value)
    with pytest.raises(ApplicationError):
        run_activity(process_measurement, upload_params(mode="extend", current_key=UPLOAD_KEY, version=0))

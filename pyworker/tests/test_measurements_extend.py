"""Measurement extension: a delta appended to a stored series, renumbered, validated again with its boundary."""

from __future__ import annotations

import hashlib
import os

import pytest
from measurement_series import H, add_cumulative, baseline, only, read, run, upload_steps, write

from cellar_worker.measurements import columns as col
from cellar_worker.measurements.extend import extend_series
from cellar_worker.measurements.issues import parse_options


def stored_series(tmp_path, data=None) -> str:
    (tmp_path / "v0").mkdir()
    outcome = run(tmp_path / "v0", data or baseline(cumulative=False))
    assert outcome.status == "ready", outcome.issues
    return outcome.time_series_path


def delta(first_time: float, first_step: int, cycle: int = 1, rows: int = 4, current: float = 1.0) -> dict[str, list]:
    return {
        col.TIME: [first_time + 10.0 * k for k in range(rows)],
        col.CURRENT: [current] * rows,
        col.VOLTAGE: [3.80 - 0.05 * k for k in range(rows)],
        col.STEP: [first_step] * rows,
        col.CYCLE: [cycle] * rows,
    }


def extend(tmp_path, current_path, delta_data, version=1, fmt="parquet"):
    delta_path = write(tmp_path / f"delta.{fmt}", delta_data, fmt)
    out = tmp_path / "ext"
    out.mkdir(exist_ok=True)
    return extend_series(current_path, delta_path, str(out), parse_options(None)[0], version=version)


def digest(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def test_extend_appends_a_new_step(tmp_path):
    current = stored_series(tmp_path)
    before = digest(current)
    outcome = extend(tmp_path, current, delta(160.0, 4))
    assert outcome.status == "ready", outcome.issues
    assert os.path.basename(outcome.time_series_path) == "time_series.v1.parquet"
    assert os.path.basename(outcome.steps_path) == "steps.v1.parquet"
    assert digest(current) == before
    series = read(outcome.time_series_path)
    assert outcome.row_count == 20 and series[col.TIME][-4:] == [160, 170, 180, 190]
    assert series[col.STEP][-4:] == [4] * 4
    assert series[col.DISCHARGE_CAPACITY][-4:] == pytest.approx([0, 10 * H, 20 * H, 30 * H])
    steps = read(outcome.steps_path)
    assert steps[col.STEP] == [0, 1, 2, 3, 4] and steps["Step type"][-1] == "Constant current discharge"
    assert outcome.last_time == 190.0


def test_extend_renumbers_relative_steps_and_cycles(tmp_path):
    current = stored_series(tmp_path)
    outcome = extend(tmp_path, current, delta(160.0, 0, cycle=0), fmt="csv")
    assert outcome.status == "ready", outcome.issues
    series = read(outcome.time_series_path)
    assert series[col.STEP][-4:] == [4] * 4 and series[col.CYCLE][-4:] == [1] * 4


def test_extend_continues_the_last_step(tmp_path):
    current = stored_series(tmp_path)
    outcome = extend(tmp_path, current, delta(160.0, 3, current=-1.0))
    assert outcome.status == "ready", outcome.issues
    series = read(outcome.time_series_path)
    assert series[col.STEP][-5:] == [3] * 5
    # The charge capacity keeps counting from the stored 40 s of charge at 1 A.
    assert series[col.CHARGE_CAPACITY][-5:] == pytest.approx([40 * H, 50 * H, 60 * H, 70 * H, 80 * H])
    steps = read(outcome.steps_path)
    assert steps["End time [s]"][-1] == 190 and len(steps[col.STEP]) == 4


def test_extend_with_reported_cumulative_values_restarting_in_the_continued_step(tmp_path):
    current = stored_series(tmp_path, baseline())
    data = add_cumulative(delta(160.0, 3, current=-1.0))  # the delta's own count restarts from 0
    outcome = extend(tmp_path, current, data)
    assert outcome.status == "ready", outcome.issues
    charge = read(outcome.time_series_path)[col.CHARGE_CAPACITY]
    # Stored 40 s of charge, plus the 10 s between the last stored row and the delta.
    assert charge[-4:] == pytest.approx([50 * H, 60 * H, 70 * H, 80 * H])


@pytest.mark.parametrize("first_step, current", [(4, 1.0), (3, -1.0)], ids=["new step", "continued step"])
def test_extend_keeps_the_labels_of_the_stored_steps(tmp_path, first_step, current):
    (tmp_path / "v0").mkdir()
    steps_upload = upload_steps(
        tmp_path / "v0", {"Step count": [0, 1, 2, 3], "Label": ["a", "b", "c", "d"], "Protocol step": [1, 2, 3, 4]}
    )
    stored = run(tmp_path / "v0", baseline(cumulative=False), steps_path=steps_upload)
    assert stored.status == "ready", stored.issues
    delta_path = write(tmp_path / "delta.parquet", delta(160.0, first_step, current=current))
    (tmp_path / "ext").mkdir()
    outcome = extend_series(
        stored.time_series_path,
        delta_path,
        str(tmp_path / "ext"),
        parse_options(None)[0],
        version=1,
        steps_path=stored.steps_path,
    )
    assert outcome.status == "ready" and outcome.issues == []
    steps = read(outcome.steps_path)
    new_steps = [None] if first_step == 4 else []
    assert steps["Label"] == ["a", "b", "c", "d", *new_steps]
    assert steps["Protocol step"] == [1, 2, 3, 4, *new_steps]
    assert steps["End time [s]"][-1] == 190
    assert outcome.steps_created == len(steps[col.STEP]) == 4 + len(new_steps)


def test_extend_columns_mismatch(tmp_path):
    current = stored_series(tmp_path)
    data = delta(160.0, 4)
    data[col.TEMPERATURE] = [25.0] * 4
    del data[col.CYCLE]
    outcome = extend(tmp_path, current, data)
    issue = only(outcome, "extend_columns_mismatch")
    assert issue["severity"] == "error"
    assert issue["payload"]["unexpected_columns"] == [col.TEMPERATURE]
    assert issue["payload"]["missing_columns"] == [col.CYCLE]
    assert outcome.status == "failed" and outcome.time_series_path is None


def test_extend_must_start_after_the_last_sample(tmp_path):
    current = stored_series(tmp_path)
    outcome = extend(tmp_path, current, delta(150.0, 4))
    issue = only(outcome, "extend_not_after_last_sample")
    assert issue["payload"] == {"last_stored_time": 150.0, "first_extension_time": 150.0}
    assert outcome.status == "failed" and outcome.time_series_path is None


def test_extend_validates_the_delta(tmp_path):
    current = stored_series(tmp_path)
    before = digest(current)
    data = delta(160.0, 4)
    data[col.TIME][2] = 100.0
    outcome = extend(tmp_path, current, data)
    issue = only(outcome, "time_not_monotonic")
    assert issue["payload"]["row_index"] == 18
    assert outcome.status == "failed"
    assert digest(current) == before


def test_extend_checks_the_boundary(tmp_path):
    current = stored_series(tmp_path)
    outcome = extend(tmp_path, current, delta(160.0, 3, cycle=2, current=-1.0))  # continues step 3 in cycle 1
    issue = only(outcome, "cycle_changes_within_step")
    assert issue["payload"]["row_index"] == 16 and issue["payload"]["step_index"] == 3
    assert outcome.status == "failed"

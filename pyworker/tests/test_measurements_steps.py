"""Derivation: cumulative columns, canonical types, the steps and cycles summaries, uploaded step labels."""

from __future__ import annotations

import math

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from measurement_series import H, baseline, codes, only, read, run, upload_steps

from cellar_worker.measurements import columns as col


def test_cumulative_columns_are_derived_when_absent(tmp_path):
    outcome = run(tmp_path, baseline(cumulative=False))
    series = read(outcome.time_series_path)
    assert series[col.DISCHARGE_CAPACITY][3:8] == pytest.approx([0, 10 * H, 20 * H, 30 * H, 40 * H])
    assert series[col.CHARGE_CAPACITY][11:16] == pytest.approx([0, 10 * H, 20 * H, 30 * H, 40 * H])
    assert series[col.DISCHARGE_ENERGY][7] == pytest.approx(10 * H * (0.5 * 3.65 + 3.60 + 3.55 + 3.50 + 0.5 * 3.45))
    assert series[col.CHARGE_ENERGY][15] == pytest.approx(10 * H * (0.5 * 3.60 + 3.65 + 3.70 + 3.75 + 0.5 * 3.80))
    assert series[col.DISCHARGE_CAPACITY][8] == 0.0  # reset at the next step
    assert series[col.CHARGE_CAPACITY][:11] == [0.0] * 11
    metadata = pq.read_schema(outcome.time_series_path).metadata[b"cellar:derived_columns"].decode()
    assert metadata.split(",") == list(col.CUMULATIVE)


def test_canonical_types(tmp_path):
    outcome = run(tmp_path, baseline())
    schema = pq.read_schema(outcome.time_series_path)
    assert schema.field(col.STEP).type == pa.int64() and schema.field(col.CYCLE).type == pa.int64()
    assert all(schema.field(name).type == pa.float64() for name in (col.TIME, col.CURRENT, *col.CUMULATIVE))


def test_steps_summary_values(tmp_path):
    steps = read(run(tmp_path, baseline(cumulative=False)).steps_path)
    assert steps[col.STEP] == [0, 1, 2, 3]
    assert steps[col.CYCLE] == [0, 0, 1, 1]
    assert steps["Step type"] == ["Rest", "Constant current discharge", "Rest", "Constant current charge"]
    assert steps["Start time [s]"] == [0, 30, 80, 110]
    assert steps["End time [s]"] == [20, 70, 100, 150]
    assert steps["Duration [s]"] == [20, 40, 20, 40]
    assert steps["Start voltage [V]"][1] == 3.65 and steps["End voltage [V]"][1] == 3.45
    assert steps["Min voltage [V]"][1] == 3.45 and steps["Max voltage [V]"][1] == 3.65
    assert steps["Mean voltage [V]"][1] == pytest.approx(3.55)
    assert steps["Std voltage [V]"][1] == pytest.approx(math.sqrt(0.005))
    assert steps["Mean current [A]"] == pytest.approx([0, 1, 0, -1])
    assert steps["Std current [A]"] == pytest.approx([0, 0, 0, 0], abs=1e-12)
    assert steps["Mean power [W]"][3] == pytest.approx(-3.70)
    assert steps["Min power [W]"][3] == pytest.approx(-3.80) and steps["Max power [W]"][3] == pytest.approx(-3.60)
    assert steps[col.DISCHARGE_CAPACITY] == pytest.approx([0, 40 * H, 0, 0])
    assert steps[col.CHARGE_CAPACITY] == pytest.approx([0, 0, 0, 40 * H])
    assert steps["Label"] == [None] * 4


def test_step_types(tmp_path):
    n = 5
    t = [float(k) for k in range(6 * n)]
    current = (
        [1.0] * n  # constant current discharge
        + [-2.0, -1.5, -1.0, -0.7, -0.5]  # constant voltage charge
        + [2.0 / v for v in (4.0, 3.9, 3.8, 3.7, 3.6)]  # constant power discharge (2 W)
        + [0.5, 1.5, 0.2, 2.0, 1.0]  # nothing constant
        + [0.0004, -0.0004, 0.0, 0.0004, -0.0004]  # rest (|I| below 1 mA)
        + [-1.0] * n  # constant current charge
    )
    voltage = (
        [4.0, 3.95, 3.9, 3.85, 3.8]
        + [4.2] * n
        + [4.0, 3.9, 3.8, 3.7, 3.6]
        + [3.5, 3.3, 3.6, 3.0, 3.4]
        + [3.4] * n
        + [3.4, 3.5, 3.6, 3.7, 3.8]
    )
    data = {col.TIME: t, col.CURRENT: current, col.VOLTAGE: voltage, col.STEP: [k // n for k in range(6 * n)]}
    steps = read(run(tmp_path, data, validation={"strict": False}).steps_path)
    assert steps["Step type"] == [
        "Constant current discharge",
        "Constant voltage charge",
        "Constant power discharge",
        "Unknown step type",
        "Rest",
        "Constant current charge",
    ]


def test_cycles_summary(tmp_path):
    cycles = read(run(tmp_path, baseline(cumulative=False)).cycles_path)
    assert cycles[col.CYCLE] == [0, 1]
    assert cycles[col.DISCHARGE_CAPACITY] == pytest.approx([40 * H, 0])
    assert cycles[col.CHARGE_CAPACITY] == pytest.approx([0, 40 * H])
    assert cycles[col.DISCHARGE_ENERGY] == pytest.approx([10 * H * 14.2, 0])
    assert cycles[col.CHARGE_ENERGY] == pytest.approx([0, 10 * H * 14.8])
    assert cycles["Start time [s]"] == [0, 80] and cycles["End time [s]"] == [70, 150]


def derived_steps(tmp_path) -> dict[str, list]:
    (tmp_path / "plain").mkdir()
    return read(run(tmp_path / "plain", baseline()).steps_path)


def test_uploaded_step_labels_are_merged_into_the_derived_summary(tmp_path):
    steps_upload = upload_steps(
        tmp_path,
        {
            "Label": ["rest", "discharge", "rest", "charge"],
            "Step count": [3, 1, 2, 0],  # any order
            "Step type": ["mine"] * 4,  # derived columns are never overridden
            "Protocol step": ["A", "B", "C", "D"],
        },
    )
    outcome = run(tmp_path, baseline(), steps_path=steps_upload)
    assert outcome.status == "ready" and outcome.issues == []
    steps = read(outcome.steps_path)
    derived = derived_steps(tmp_path)
    assert list(steps) == [*derived, "Protocol step"]
    assert {name: steps[name] for name in derived if name != "Label"} == {
        name: values for name, values in derived.items() if name != "Label"
    }
    assert steps["Label"] == ["charge", "discharge", "rest", "rest"]
    assert steps["Protocol step"] == ["D", "B", "C", "A"]
    assert outcome.steps_created == 4
    assert read(outcome.cycles_path)[col.CYCLE] == [0, 1]


def test_steps_the_upload_does_not_name_have_no_label(tmp_path):
    steps_upload = upload_steps(tmp_path, {"Step count": [1], "Label": [7]}, "parquet")
    outcome = run(tmp_path, baseline(), steps_path=steps_upload)
    assert outcome.status == "ready" and outcome.issues == []
    steps = read(outcome.steps_path)
    assert steps["Label"] == [None, "7", None, None]  # always text
    assert pq.read_schema(outcome.steps_path).field("Label").type == pa.string()
    assert outcome.steps_created == 4


def test_uploaded_unknown_step_counts_are_a_warning(tmp_path):
    steps_upload = upload_steps(
        tmp_path, {"Step count": ["1", "7", "2.5", None, "x", "3", "7"], "Label": ["b", "g", "h", "i", "j", "d", "k"]}
    )
    outcome = run(tmp_path, baseline(), steps_path=steps_upload)
    assert outcome.status == "ready"
    issue = only(outcome, "steps_file_unknown_step_counts")
    assert issue["severity"] == "warning"
    assert issue["payload"] == {
        "file": "steps",
        "step_counts": ["7", "2.5", None, "x"],
        "num_rows": 5,
        "num_series_steps": 4,
    }
    assert codes(outcome) == ["steps_file_unknown_step_counts"]
    assert read(outcome.steps_path)["Label"] == [None, "b", None, "d"]


def test_uploaded_steps_without_step_count_are_a_warning(tmp_path):
    steps_upload = upload_steps(tmp_path, {"Step": [0, 1, 2, 3], "Label": ["a", "b", "c", "d"]})
    outcome = run(tmp_path, baseline(), steps_path=steps_upload)
    assert outcome.status == "ready"
    issue = only(outcome, "steps_file_step_count_missing")
    assert issue["severity"] == "warning"
    assert issue["payload"] == {"file": "steps", "column": "Step count", "available_columns": ["Step", "Label"]}
    assert read(outcome.steps_path) == derived_steps(tmp_path)
    assert outcome.steps_created == 4


def test_repeated_uploaded_step_counts_keep_the_first_row(tmp_path):
    steps_upload = upload_steps(tmp_path, {"Step count": [0, 1, 1, 0], "Label": ["a", "b", "again", "again"]})
    outcome = run(tmp_path, baseline(), steps_path=steps_upload)
    issue = only(outcome, "steps_file_duplicate_step_counts")
    assert issue["severity"] == "warning"
    assert issue["payload"] == {"file": "steps", "step_counts": [1, 0], "num_rows": 2}
    assert read(outcome.steps_path)["Label"] == ["a", "b", None, None]


def test_unreadable_steps_file_fails(tmp_path):
    steps_upload = tmp_path / "steps.parquet"
    steps_upload.write_bytes(b"")
    outcome = run(tmp_path, baseline(), steps_path=str(steps_upload))
    issue = only(outcome, "empty_file")
    assert issue["payload"]["file"] == "steps"
    assert outcome.status == "failed"

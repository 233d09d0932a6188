"""Measurement processing: a clean baseline, and the validation rules that are always checked
(the baseline series is described in measurement_series.py)."""

from __future__ import annotations

import gzip

import pyarrow.parquet as pq
import pytest
from measurement_series import H, add_cumulative, baseline, codes, only, read, run, write

from cellar_worker.measurements import columns as col
from cellar_worker.measurements.issues import parse_options
from cellar_worker.measurements.process import process_upload


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_baseline_is_ready_without_issues(tmp_path, fmt):
    outcome = run(tmp_path, baseline(), fmt, rated=0.005, vmin=2.5, vmax=4.2)
    assert outcome.status == "ready", outcome.issues
    assert outcome.issues == []
    assert outcome.row_count == 16
    assert (outcome.first_time, outcome.last_time) == (0.0, 150.0)
    assert outcome.steps_created == 4
    assert outcome.columns == [col.TIME, col.CURRENT, col.VOLTAGE, col.STEP, col.CYCLE, *col.CUMULATIVE]


def test_csv_and_parquet_give_identical_outputs(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = run(tmp_path / "a", baseline(), "parquet")
    b = run(tmp_path / "b", baseline(), "csv")
    for kind in ("time_series_path", "steps_path", "cycles_path"):
        assert pq.read_table(getattr(a, kind)).equals(pq.read_table(getattr(b, kind)))


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_gzip_compressed_uploads_are_read_as_what_they_hold(tmp_path, fmt):
    (tmp_path / "plain").mkdir()
    (tmp_path / "gz").mkdir()
    plain = run(tmp_path / "plain", baseline(), fmt)
    raw = open(write(tmp_path / f"raw.{fmt}", baseline(), fmt), "rb").read()
    compressed = tmp_path / "gz" / "upload.bin"
    compressed.write_bytes(gzip.compress(raw))
    out = tmp_path / "gz" / "out"
    out.mkdir()
    outcome = process_upload(str(compressed), str(out), parse_options(None)[0])
    assert outcome.status == "ready", outcome.issues
    for kind in ("time_series_path", "steps_path", "cycles_path"):
        assert pq.read_table(getattr(outcome, kind)).equals(pq.read_table(getattr(plain, kind)))


def test_corrupt_gzip_upload_is_unreadable(tmp_path):
    path = tmp_path / "upload.bin"
    path.write_bytes(gzip.compress(b"Time [s],Current [A]\n" * 1000)[:60])
    outcome = process_upload(str(path), str(tmp_path), parse_options(None)[0])
    assert codes(outcome) == ["unreadable_file"]
    assert "gzip" in outcome.issues[0]["message"]


def test_current_sign_reversed(tmp_path):
    data = baseline(cumulative=False)
    data[col.CURRENT] = [-x for x in data[col.CURRENT]]
    outcome = run(tmp_path, data)
    issue = only(outcome, "current_sign_reversed")
    assert issue["severity"] == "error"
    assert issue["payload"]["charge_fraction"] == pytest.approx(1.0)
    assert outcome.status == "failed"


def test_current_sign_unsigned(tmp_path):
    data = baseline(cumulative=False)
    data[col.CURRENT] = [abs(x) for x in data[col.CURRENT]]
    issue = only(run(tmp_path, data), "current_sign_unsigned")
    assert issue["severity"] == "error"
    assert issue["payload"]["charge_fraction"] == pytest.approx(0.5)


def test_current_sign_indeterminate(tmp_path):
    data = baseline(cumulative=False)
    data[col.VOLTAGE][11:16] = data[col.VOLTAGE][11:16][::-1]  # charging while the voltage falls
    outcome = run(tmp_path, data)
    issue = only(outcome, "current_sign_indeterminate")
    assert issue["severity"] == "error"
    assert issue["payload"]["charge_fraction"] == pytest.approx(0.5)
    assert "current_sign_unsigned" not in codes(outcome)


def test_current_sign_correct_convention_passes(tmp_path):
    outcome = run(tmp_path, baseline(cumulative=False))
    assert not [c for c in codes(outcome) if c.startswith("current_sign")]


def with_eis_step(data: dict[str, list]) -> dict[str, list]:
    """Append an impedance step (step 4) whose rows have a frequency but no time or current."""
    for name, values in (
        (col.TIME, [None] * 3),
        (col.CURRENT, [None] * 3),
        (col.VOLTAGE, [3.8] * 3),
        (col.STEP, [4] * 3),
        (col.CYCLE, [1] * 3),
    ):
        data[name] = data[name] + values
    data[col.FREQUENCY] = [None] * 16 + [1000.0, 100.0, 10.0]
    data["Z_Re [Ohm]"] = [None] * 16 + [0.02, 0.025, 0.03]
    return data


def test_time_missing_on_non_eis_row(tmp_path):
    data = baseline(cumulative=False)
    data[col.TIME][5] = None
    issue = only(run(tmp_path, data), "time_missing_on_non_eis_row")
    assert issue["severity"] == "error"
    assert issue["payload"] == {"row_index": 5, "num_rows": 1}


def test_time_missing_on_eis_rows_is_allowed(tmp_path):
    outcome = run(tmp_path, with_eis_step(baseline(cumulative=False)))
    assert outcome.status == "ready", outcome.issues
    steps = read(outcome.steps_path)
    assert steps["Step type"][-1] == "EIS"
    series = read(outcome.time_series_path)
    assert series[col.TIME][-3:] == [None, None, None]
    assert series[col.FREQUENCY][-3:] == [1000.0, 100.0, 10.0]


def test_time_does_not_start_at_zero(tmp_path):
    data = baseline()
    data[col.TIME] = [t + 5 for t in data[col.TIME]]
    issue = only(run(tmp_path, data), "time_does_not_start_at_zero")
    assert issue["severity"] == "error"
    assert issue["payload"] == {"observed": 5.0, "tolerance": 1e-6}


def test_time_starting_within_tolerance_passes(tmp_path):
    data = baseline()
    data[col.TIME][0] = 5e-7
    assert "time_does_not_start_at_zero" not in codes(run(tmp_path, data))


def test_time_not_monotonic(tmp_path):
    data = baseline()
    data[col.TIME][5] = 35.0
    issue = only(run(tmp_path, data), "time_not_monotonic")
    assert issue["severity"] == "error"
    assert issue["payload"] == {"row_index": 5, "previous_time": 40.0, "current_time": 35.0, "num_violations": 1}


def test_repeated_time_is_monotonic(tmp_path):
    data = baseline()
    data[col.TIME][5] = 40.0
    assert "time_not_monotonic" not in codes(run(tmp_path, add_cumulative(data)))


def test_step_count_missing(tmp_path):
    data = baseline()
    del data[col.STEP]
    outcome = run(tmp_path, data)
    issue = only(outcome, "step_count_missing")
    assert issue["severity"] == "error"
    assert issue["payload"]["column"] == col.STEP
    assert col.TIME in issue["payload"]["available_columns"]
    assert outcome.status == "failed"


def test_step_count_does_not_start_at_zero(tmp_path):
    data = baseline()
    data[col.STEP] = [s + 1 for s in data[col.STEP]]
    outcome = run(tmp_path, data)
    issue = only(outcome, "step_count_does_not_start_at_zero")
    assert issue["severity"] == "error"
    assert issue["payload"] == {"column": col.STEP, "observed_first": 1}
    assert "step_count_missing" not in codes(outcome)


def test_step_count_non_sequential(tmp_path):
    data = baseline()
    data[col.STEP][11:] = [5] * 5
    outcome = run(tmp_path, data)
    issue = only(outcome, "step_count_non_sequential")
    assert issue["severity"] == "error"
    assert issue["payload"] == {
        "column": col.STEP,
        "num_violations": 1,
        "examples": [{"row_index": 11, "from": 2, "to": 5}],
    }
    assert "step_count_does_not_start_at_zero" not in codes(outcome)


def test_cumulative_value_not_reset(tmp_path):
    data = baseline()
    carried = data[col.DISCHARGE_CAPACITY][7]
    data[col.DISCHARGE_CAPACITY][8:11] = [carried] * 3  # the rest step keeps the discharge total
    issues = [i for i in run(tmp_path, data).issues if i["code"] == "cumulative_value_not_reset"]
    assert len(issues) == 1
    assert issues[0]["severity"] == "error"
    payload = issues[0]["payload"]
    assert payload["column"] == col.DISCHARGE_CAPACITY
    assert payload["step_index"] == 2
    assert payload["observed"] == pytest.approx(40 * H)
    assert payload["tolerance"] == 1e-6


def test_cumulative_value_decreased(tmp_path):
    data = baseline()
    data[col.CHARGE_ENERGY][13] = data[col.CHARGE_ENERGY][12] - 0.001
    issue = only(run(tmp_path, data), "cumulative_value_decreased")
    assert issue["severity"] == "error"
    payload = issue["payload"]
    assert (payload["column"], payload["step_index"], payload["row_index"]) == (col.CHARGE_ENERGY, 3, 13)
    assert payload["current_value"] == pytest.approx(payload["previous_value"] - 0.001)


def test_cumulative_values_within_tolerance_pass(tmp_path):
    data = baseline()
    data[col.DISCHARGE_CAPACITY][8] = 5e-7
    data[col.DISCHARGE_CAPACITY][5] -= 5e-7
    found = codes(run(tmp_path, data))
    assert "cumulative_value_not_reset" not in found and "cumulative_value_decreased" not in found

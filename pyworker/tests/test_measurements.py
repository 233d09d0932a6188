"""Measurement processing: reading, every validation rule, derivation, steps/cycles, extend.

Series are crafted in the tests and written to real Parquet/CSV files. The baseline is
16 rows, 10 s apart: rest (rows 0-2), 1 A discharge (rows 3-7), rest (rows 8-10),
1 A charge (rows 11-15); steps 0-1 are cycle 0, steps 2-3 cycle 1.
"""

from __future__ import annotations

import gzip
import hashlib
import math
import os

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from cellar_worker.measurements import columns as col
from cellar_worker.measurements.extend import extend_series
from cellar_worker.measurements.generate import write_synthetic_series
from cellar_worker.measurements.issues import parse_options
from cellar_worker.measurements.pipeline import SeriesPass
from cellar_worker.measurements.process import process_upload
from cellar_worker.measurements.reader import open_series

H = 1 / 3600.0  # seconds -> hours


def baseline(cumulative: bool = True) -> dict[str, list]:
    data = {
        col.TIME: [10.0 * k for k in range(16)],
        col.CURRENT: [0.0] * 3 + [1.0] * 5 + [0.0] * 3 + [-1.0] * 5,
        col.VOLTAGE: [3.70] * 3 + [3.65, 3.60, 3.55, 3.50, 3.45] + [3.50, 3.52, 3.53] + [3.60, 3.65, 3.70, 3.75, 3.80],
        col.STEP: [0] * 3 + [1] * 5 + [2] * 3 + [3] * 5,
        col.CYCLE: [0] * 8 + [1] * 8,
    }
    if cumulative:
        add_cumulative(data)
    return data


def add_cumulative(data: dict[str, list]) -> dict[str, list]:
    """Reference per-step trapezoid integrals, written as plainly as possible."""
    t, i, v, s = data[col.TIME], data[col.CURRENT], data[col.VOLTAGE], data[col.STEP]
    totals = {name: [0.0] for name in col.CUMULATIVE}
    for k in range(1, len(t)):
        same_step = s[k] == s[k - 1]
        dt = (t[k] - t[k - 1]) * H
        integrands = {
            col.DISCHARGE_CAPACITY: lambda j: max(i[j], 0.0),
            col.CHARGE_CAPACITY: lambda j: max(-i[j], 0.0),
            col.DISCHARGE_ENERGY: lambda j: max(v[j] * i[j], 0.0),
            col.CHARGE_ENERGY: lambda j: max(-v[j] * i[j], 0.0),
        }
        for name, f in integrands.items():
            previous = totals[name][-1] if same_step else 0.0
            increment = 0.5 * (f(k) + f(k - 1)) * dt if same_step else 0.0
            totals[name].append(previous + increment)
    data.update(totals)
    return data


def write(path, data: dict[str, list], fmt: str = "parquet") -> str:
    table = pa.table(data)
    if fmt == "csv":
        pacsv.write_csv(table, str(path))
    else:
        pq.write_table(table, str(path))
    return str(path)


def run(tmp_path, data, fmt="parquet", validation=None, rated=None, vmin=None, vmax=None, **kwargs):
    source = write(tmp_path / f"upload.{fmt}", data, fmt)
    options, option_issues = parse_options(validation, rated, vmin, vmax)
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    return process_upload(source, str(out), options, option_issues=option_issues, **kwargs)


def codes(outcome) -> list[str]:
    return [issue["code"] for issue in outcome.issues]


def only(outcome, code: str) -> dict:
    found = [issue for issue in outcome.issues if issue["code"] == code]
    assert len(found) == 1, outcome.issues
    return found[0]


def read(path) -> dict[str, list]:
    return pq.read_table(path).to_pydict()


# --- the baseline is clean ---------------------------------------------------------------


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


# --- always-checked rules ------------------------------------------------------------------


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


# --- strict rules --------------------------------------------------------------------------------


def single_row_step(data: dict[str, list]) -> dict[str, list]:
    data[col.STEP] = [0] * 3 + [1] * 5 + [2] + [3] * 2 + [4] * 5
    return add_cumulative(data)


def test_step_too_few_points(tmp_path):
    issue = only(run(tmp_path, single_row_step(baseline())), "step_too_few_points")
    assert issue["severity"] == "error"
    assert issue["payload"] == {"step_index": 2, "num_points": 1, "min_points": 2, "num_violations": 1}


@pytest.mark.parametrize(
    "validation",
    [
        {"strict": False},
        {"skip_checks": ["minimum_points_per_step"]},
        {"skip_checks": ["STEP_TOO_FEW_POINTS"]},
    ],
)
def test_strict_check_can_be_turned_off(tmp_path, validation):
    outcome = run(tmp_path, single_row_step(baseline()), validation=validation)
    assert outcome.status == "ready", outcome.issues


def test_unknown_skip_check_is_a_warning(tmp_path):
    outcome = run(tmp_path, baseline(), validation={"skip_checks": ["time_not_monotonic", "time_gaps"]})
    issue = only(outcome, "skip_check_ignored")
    assert issue["severity"] == "warning"
    assert issue["payload"]["name"] == "time_not_monotonic"
    assert outcome.status == "ready"


def test_cycle_changes_within_step(tmp_path):
    data = baseline()
    data[col.CYCLE][6:8] = [1, 1]
    issue = only(run(tmp_path, data), "cycle_changes_within_step")
    assert issue["severity"] == "error"
    assert issue["payload"] == {
        "step_index": 1,
        "row_index": 6,
        "previous_cycle": 0,
        "current_cycle": 1,
        "num_violations": 1,
    }


def test_cycle_changing_at_step_start_passes(tmp_path):
    assert "cycle_changes_within_step" not in codes(run(tmp_path, baseline()))


MISMATCH = {
    col.DISCHARGE_CAPACITY: "discharge_capacity_integral_mismatch",
    col.CHARGE_CAPACITY: "charge_capacity_integral_mismatch",
    col.DISCHARGE_ENERGY: "discharge_energy_integral_mismatch",
    col.CHARGE_ENERGY: "charge_energy_integral_mismatch",
}


@pytest.mark.parametrize("column", col.CUMULATIVE)
def test_integral_mismatch(tmp_path, column):
    data = baseline()
    data[column] = [2 * x for x in data[column]]
    outcome = run(tmp_path, data)
    issue = only(outcome, MISMATCH[column])
    assert issue["severity"] == "error"
    assert issue["payload"]["column"] == column
    assert issue["payload"]["relative_error"] == pytest.approx(0.5)
    assert issue["payload"]["tolerance"] == 0.10
    assert codes(outcome) == [MISMATCH[column]]


@pytest.mark.parametrize("column", col.CUMULATIVE)
def test_integral_within_tolerance_passes(tmp_path, column):
    data = baseline()
    data[column] = [1.05 * x for x in data[column]]
    assert run(tmp_path, data).issues == []


def test_energy_integral_uses_power_column(tmp_path):
    data = baseline()
    data[col.POWER] = [2 * v * i for v, i in zip(data[col.VOLTAGE], data[col.CURRENT])]
    found = codes(run(tmp_path, data))
    assert MISMATCH[col.DISCHARGE_ENERGY] in found and MISMATCH[col.CHARGE_ENERGY] in found
    assert MISMATCH[col.DISCHARGE_CAPACITY] not in found


def with_gap(seconds: float) -> dict[str, list]:
    data = baseline()
    data[col.TIME] = data[col.TIME][:9] + [t + seconds - 10 for t in data[col.TIME][9:]]
    return add_cumulative(data)


def test_time_gap_too_large(tmp_path):
    issue = only(run(tmp_path, with_gap(18_001)), "time_gap_too_large")
    assert issue["severity"] == "error"
    assert issue["payload"] == {
        "row_index": 9,
        "previous_row_index": 8,
        "gap_seconds": 18_001.0,
        "max_gap_seconds": 18_000.0,
        "num_violations": 1,
    }


def test_time_gap_below_limit_passes(tmp_path):
    assert run(tmp_path, with_gap(17_999)).issues == []


def test_voltage_continuity(tmp_path):
    data = baseline()
    data[col.VOLTAGE][1] = 2.0  # two jumps of 1.7 V > 80 % of a 1.7 V window: 2 of 15 pairs
    issue = only(run(tmp_path, add_cumulative(data), vmin=2.5, vmax=4.2), "voltage_continuity")
    assert issue["severity"] == "error"
    payload = issue["payload"]
    assert (payload["bad_count"], payload["total_pairs"]) == (2, 15)
    assert payload["bad_fraction"] == pytest.approx(2 / 15)
    assert payload["threshold_volts"] == pytest.approx(1.36)
    assert payload["voltage_window"] == [2.5, 4.2]


def test_voltage_continuity_needs_a_window(tmp_path):
    data = baseline()
    data[col.VOLTAGE][1] = 2.0
    assert "voltage_continuity" not in codes(run(tmp_path, add_cumulative(data)))


def two_discharges() -> dict[str, list]:
    data = baseline()
    data[col.CURRENT][11:] = [1.0] * 5
    data[col.VOLTAGE][11:] = [3.50, 3.45, 3.40, 3.35, 3.30]
    return add_cumulative(data)


def test_consecutive_same_direction_full_steps(tmp_path):
    issue = only(run(tmp_path, two_discharges(), rated=0.005), "consecutive_same_direction_full_steps")
    assert issue["severity"] == "error"
    assert issue["payload"] == {
        "direction": "discharge",
        "previous_step": 1,
        "current_step": 3,
        "threshold_capacity": 0.01,
        "rated_capacity": 0.005,
        "num_violations": 1,
    }


def test_consecutive_full_steps_need_the_same_direction_and_size(tmp_path):
    assert "consecutive_same_direction_full_steps" not in codes(run(tmp_path, baseline(), rated=0.005))
    assert "consecutive_same_direction_full_steps" not in codes(run(tmp_path, two_discharges(), rated=0.006))
    assert "consecutive_same_direction_full_steps" not in codes(run(tmp_path, two_discharges()))


def test_full_steps_with_a_step_of_either_direction_between_are_not_consecutive(tmp_path):
    """Full discharge, small charge (or small discharge), full discharge: no pair of consecutive full steps."""
    for between in (-0.2, 0.2):
        data = {
            col.TIME: [10.0 * k for k in range(13)],
            col.CURRENT: [1.0] * 5 + [between] * 3 + [1.0] * 5,
            col.VOLTAGE: [3.70, 3.65, 3.60, 3.55, 3.50] + [3.52, 3.53, 3.54] + [3.50, 3.45, 3.40, 3.35, 3.30],
            col.STEP: [0] * 5 + [1] * 3 + [2] * 5,
            col.CYCLE: [0] * 13,
        }
        assert "consecutive_same_direction_full_steps" not in codes(run(tmp_path, add_cumulative(data), rated=0.005)), (
            between
        )


def test_step_capacity_exceeds_rated_is_a_warning(tmp_path):
    outcome = run(tmp_path, baseline(), rated=0.002)
    issue = only(outcome, "step_capacity_exceeds_rated")
    assert issue["severity"] == "warning"
    payload = issue["payload"]
    assert (payload["step_index"], payload["column"], payload["num_steps"]) == (1, col.DISCHARGE_CAPACITY, 2)
    assert payload["observed"] == pytest.approx(40 * H)
    assert payload["threshold_capacity"] == pytest.approx(0.01)
    assert outcome.status == "ready"
    assert outcome.issues == [issue]


def test_step_capacity_within_rated_passes(tmp_path):
    assert run(tmp_path, baseline(), rated=0.003).issues == []


@pytest.mark.parametrize(
    "pair, code",
    [
        ((col.DISCHARGE_CAPACITY, col.CHARGE_CAPACITY), "charge_discharge_capacity_columns_swapped"),
        ((col.DISCHARGE_ENERGY, col.CHARGE_ENERGY), "charge_discharge_energy_columns_swapped"),
    ],
)
def test_charge_discharge_columns_swapped(tmp_path, pair, code):
    data = baseline()
    data[pair[0]], data[pair[1]] = data[pair[1]], data[pair[0]]
    outcome = run(tmp_path, data)
    issue = only(outcome, code)
    assert issue["severity"] == "error"
    assert issue["payload"] == {"columns": list(pair), "swapped_steps": 2, "eligible_steps": 2, "fraction": 1.0}
    assert "charge_discharge_column_direction" not in codes(outcome)
    skipped = run(tmp_path, data, validation={"skip_checks": ["charge_discharge_column_direction"]})
    assert code not in codes(skipped)


# --- reading --------------------------------------------------------------------------------


def test_unreadable_binary_file(tmp_path):
    path = tmp_path / "upload.parquet"
    path.write_bytes(b"\x00\x01garbage" * 100)
    outcome = process_upload(str(path), str(tmp_path), parse_options(None)[0])
    issue = only(outcome, "unreadable_file")
    assert issue["severity"] == "error" and outcome.status == "failed"


def test_truncated_parquet_is_unreadable(tmp_path):
    full = write(tmp_path / "full.parquet", baseline())
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(open(full, "rb").read()[:300])
    outcome = process_upload(str(truncated), str(tmp_path), parse_options(None)[0])
    assert codes(outcome) == ["unreadable_file"]
    assert "corrupt or truncated" in outcome.issues[0]["message"]


@pytest.mark.parametrize("content", [b"", b"Time [s],Current [A],Voltage [V],Step count\n"])
def test_empty_files(tmp_path, content):
    path = tmp_path / "upload.parquet"
    path.write_bytes(content)
    outcome = process_upload(str(path), str(tmp_path), parse_options(None)[0])
    assert codes(outcome) == ["empty_file"]
    assert outcome.issues[0]["severity"] == "error"


def test_zero_row_parquet_is_empty(tmp_path):
    data = {name: [] for name in baseline()}
    outcome = run(tmp_path, {k: pa.array(v, pa.float64()) for k, v in data.items()})
    assert codes(outcome) == ["empty_file"]


def test_text_in_numeric_csv_column(tmp_path):
    path = tmp_path / "upload.parquet"  # CSV bytes under a .parquet key, as uploads arrive
    rows = ["Time [s],Current [A],Voltage [V],Step count", "0,0,3.7,0", "10,abc,3.7,0"]
    path.write_text("\n".join(rows) + "\n")
    outcome = process_upload(str(path), str(tmp_path), parse_options(None)[0])
    issue = only(outcome, "column_not_numeric")
    assert issue["severity"] == "error"
    assert issue["payload"] == {"file": "time series", "column": col.CURRENT, "value": "abc"}


def test_text_in_numeric_parquet_column(tmp_path):
    data = baseline()
    data[col.VOLTAGE] = [str(v) for v in data[col.VOLTAGE]]
    data[col.VOLTAGE][4] = "n/a"
    issue = only(run(tmp_path, data), "column_not_numeric")
    assert issue["payload"] == {"file": "time series", "column": col.VOLTAGE, "row_index": 4, "value": "n/a"}


def test_numbers_stored_as_text_are_accepted(tmp_path):
    data = baseline()
    data[col.VOLTAGE] = [str(v) for v in data[col.VOLTAGE]]
    assert run(tmp_path, data).status == "ready"


def test_csv_without_time_column(tmp_path):
    data = baseline()
    del data[col.TIME]
    issue = only(run(tmp_path, data, "csv"), "time_column_missing")
    assert issue["severity"] == "error"
    assert col.CURRENT in issue["payload"]["available_columns"]
    # The message says how the file was read (text meant as Parquet is read as CSV).
    assert issue["payload"]["format"] == "csv"
    assert "read as CSV text" in issue["message"]


def test_missing_voltage_column(tmp_path):
    data = baseline()
    del data[col.VOLTAGE]
    issue = only(run(tmp_path, data), "required_column_missing")
    assert issue["payload"]["column"] == col.VOLTAGE


def test_empty_current_value(tmp_path):
    data = baseline()
    data[col.CURRENT][4] = None
    issue = only(run(tmp_path, data, "csv"), "value_missing")
    assert issue["payload"] == {"column": col.CURRENT, "row_index": 4, "num_rows": 1}


def test_fractional_cycle_count(tmp_path):
    data = baseline()
    data[col.CYCLE] = [0.0] * 8 + [0.5] * 8
    issue = only(run(tmp_path, data), "count_not_integer")
    assert issue["payload"] == {"column": col.CYCLE, "row_index": 8, "value": 0.5, "num_rows": 8}


@pytest.mark.parametrize("alias", ["Cycle number", "Cycle from cycler"])
def test_cycle_aliases(tmp_path, alias):
    data = baseline()
    data[alias] = data.pop(col.CYCLE)
    outcome = run(tmp_path, data, "csv")
    assert outcome.status == "ready", outcome.issues
    assert read(outcome.time_series_path)[col.CYCLE] == [0] * 8 + [1] * 8


def test_missing_cycle_count_is_all_zero(tmp_path):
    data = baseline()
    del data[col.CYCLE]
    outcome = run(tmp_path, data)
    assert read(outcome.time_series_path)[col.CYCLE] == [0] * 16
    assert read(outcome.cycles_path)[col.CYCLE] == [0]


def test_unknown_columns_are_dropped_with_a_warning(tmp_path):
    data = baseline()
    data["Operator"] = ["alice"] * 16
    outcome = run(tmp_path, data)
    issue = only(outcome, "unknown_columns_dropped")
    assert issue["severity"] == "warning" and issue["payload"]["columns"] == ["Operator"]
    assert "Operator" not in pq.read_schema(outcome.time_series_path).names


def test_semicolon_csv(tmp_path):
    path = tmp_path / "upload.csv"
    table = pa.table(baseline())
    pacsv.write_csv(table, str(path), pacsv.WriteOptions(delimiter=";"))
    outcome = process_upload(str(path), str(tmp_path), parse_options(None)[0])
    assert outcome.status == "ready", outcome.issues


# --- derivation, steps and cycles -----------------------------------------------------------


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


def upload_steps(tmp_path, data: dict[str, list], fmt: str = "csv") -> str:
    return write(tmp_path / f"steps-upload.{fmt}", data, fmt)


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


# --- streaming: batch boundaries do not change the answer -----------------------------------------


def load(path) -> dict[str, np.ndarray]:
    source = open_series(str(path))
    batches = list(source.iter_batches())
    return {name: np.concatenate([b[name] for b in batches]) for name in batches[0]}


def run_pass(values: dict[str, np.ndarray], splits: list[int]):
    options = parse_options(None, 5.0, 2.5, 4.2)[0]
    written = []
    series_pass = SeriesPass(list(values), options, sink=written.append)
    edges = [0, *splits, len(values[col.TIME])]
    for a, b in zip(edges[:-1], edges[1:]):
        series_pass.feed({name: array[a:b] for name, array in values.items()})
    result = series_pass.finish()
    return result, pa.Table.from_batches(written, series_pass.schema) if written else None


def random_splits(n: int, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    cuts = set(rng.integers(1, n, size=n // 7).tolist()) | {1, 2, n - 1}
    return sorted(cuts)


def test_batch_boundaries_do_not_change_results(tmp_path):
    path = tmp_path / "gen.parquet"
    write_synthetic_series(str(path), 1500, 3, seed=3)
    values = load(path)
    whole, whole_table = run_pass(values, [])
    split, split_table = run_pass(values, random_splits(1500, 1))
    assert whole.issues == split.issues == []
    assert whole_table.equals(split_table)
    for name in whole.steps.column_names:
        a, b = whole.steps.column(name).to_pylist(), split.steps.column(name).to_pylist()
        if name in ("Step type", "Label", col.STEP, col.CYCLE):
            assert a == b
        else:
            np.testing.assert_allclose(np.array(a, dtype=float), np.array(b, dtype=float), rtol=1e-9, atol=1e-9)
    assert whole.cycles.equals(split.cycles)


def test_batch_boundaries_do_not_change_issues(tmp_path):
    path = tmp_path / "gen.parquet"
    write_synthetic_series(str(path), 1500, 3, seed=4)
    values = {name: array.copy() for name, array in load(path).items()}
    values[col.TIME][700] = values[col.TIME][699] - 1  # decrease straddling a batch edge below
    values[col.STEP][1200:] += 1  # a step skipped
    values[col.DISCHARGE_CAPACITY][900] = -1.0  # a drop inside a step
    values[col.CYCLE][1000] += 7  # cycle changes inside a step
    whole, _ = run_pass(values, [])
    split, _ = run_pass(values, [700, 900, 1000, 1200, 1201])
    assert {i["code"] for i in whole.issues} >= {
        "time_not_monotonic",
        "step_count_non_sequential",
        "cumulative_value_decreased",
        "cycle_changes_within_step",
    }
    assert rounded(whole.issues) == rounded(split.issues)


def rounded(value):
    """Floats to 9 significant digits: summation order may differ in the last bits."""
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return float(f"{value:.9g}") if isinstance(value, float) else value


def test_multi_row_group_file_matches_single_row_group(tmp_path):
    many = tmp_path / "many.parquet"
    one = tmp_path / "one.parquet"
    write_synthetic_series(str(many), 2000, 4, row_group_rows=37, seed=5)
    write_synthetic_series(str(one), 2000, 4, row_group_rows=10_000, seed=5)
    assert pq.ParquetFile(str(many)).num_row_groups > 50
    assert len(list(open_series(str(many)).iter_batches(37))) > 50
    options = parse_options(None, 5.0)[0]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = process_upload(str(many), str(tmp_path / "a"), options, batch_rows=37)
    b = process_upload(str(one), str(tmp_path / "b"), options)
    assert a.status == b.status == "ready"
    assert pq.read_table(a.time_series_path).equals(pq.read_table(b.time_series_path))
    assert pq.read_table(a.cycles_path).equals(pq.read_table(b.cycles_path))
    steps_a, steps_b = read(a.steps_path), read(b.steps_path)
    assert steps_a["Step type"] == steps_b["Step type"]
    np.testing.assert_allclose(steps_a["Std voltage [V]"], steps_b["Std voltage [V]"], rtol=1e-9, atol=1e-9)


# --- generated data ----------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["parquet", "csv"])
def test_generated_series_is_valid(tmp_path, suffix):
    path = tmp_path / f"gen.{suffix}"
    info = write_synthetic_series(str(path), 3000, 3, row_group_rows=500)
    assert info["rows"] == 3000 and info["steps"] == 15
    outcome = process_upload(str(path), str(tmp_path), parse_options(None, 5.0, 2.5, 4.2)[0])
    assert outcome.status == "ready" and outcome.issues == []
    assert outcome.row_count == 3000
    steps = read(outcome.steps_path)
    assert steps["Step type"][:5] == [
        "Rest",
        "Constant current charge",
        "Constant voltage charge",
        "Rest",
        "Constant current discharge",
    ]
    cycles = read(outcome.cycles_path)
    assert cycles[col.CYCLE] == [0, 1, 2]
    assert all(4.0 < c < 5.0 for c in cycles[col.DISCHARGE_CAPACITY])


# --- extend ------------------------------------------------------------------------------------------


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


def test_a_header_of_a_million_characters_is_an_unreadable_file(tmp_path):
    path = tmp_path / "upload.csv"
    path.write_text("Time [s],Current [A],Voltage [V]," + "x" * 1_000_000 + "\n0,1,3.7,1\n")
    outcome = process_upload(str(path), str(tmp_path / "out"), parse_options(None)[0])
    assert codes(outcome) == ["unreadable_file"]
    assert "header row" in outcome.issues[0]["message"]


def test_issues_stay_small_whatever_the_header_holds(tmp_path):
    # 200,000 columns and none of them a time column: the issue lists the first 100 and the count.
    path = tmp_path / "upload.csv"
    path.write_text(",".join(f"Col{i}" for i in range(200_000)) + "\n" + ",".join("1" for _ in range(200_000)) + "\n")
    outcome = process_upload(str(path), str(tmp_path / "out"), parse_options(None)[0])
    assert codes(outcome) == ["time_column_missing"]
    payload = outcome.issues[0]["payload"]
    assert payload["available_columns"] == [f"Col{i}" for i in range(100)]
    assert payload["available_columns_total"] == 200_000
    assert len(str(outcome.issues)) < 10_000

"""The strict validation rules, and turning them off."""

from __future__ import annotations

import pytest
from measurement_series import H, add_cumulative, baseline, codes, only, run

from cellar_worker.measurements import columns as col


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

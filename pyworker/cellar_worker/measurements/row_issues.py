"""The issues the streaming row rules found, built once the last batch has been fed.

To keep reports small, a rule that fails many times yields one issue (per column where the
rule is per column) describing the first failure, plus how many there were.
"""

from __future__ import annotations

from . import columns as col
from . import issues as iss
from .row_checks import CUMULATIVE_TOLERANCE, MAX_GAP_S, VOLTAGE_JUMP_FRACTION, RowChecks

TIME_ZERO_TOLERANCE = 1e-6
INTEGRAL_TOLERANCE = 0.10
VOLTAGE_MAX_BAD_FRACTION = 0.05

_MISMATCH_CODES = {
    col.DISCHARGE_CAPACITY: iss.DISCHARGE_CAPACITY_INTEGRAL_MISMATCH,
    col.CHARGE_CAPACITY: iss.CHARGE_CAPACITY_INTEGRAL_MISMATCH,
    col.DISCHARGE_ENERGY: iss.DISCHARGE_ENERGY_INTEGRAL_MISMATCH,
    col.CHARGE_ENERGY: iss.CHARGE_ENERGY_INTEGRAL_MISMATCH,
}
_INTEGRAND = {
    col.DISCHARGE_CAPACITY: "max(I, 0)",
    col.CHARGE_CAPACITY: "max(-I, 0)",
    col.DISCHARGE_ENERGY: "max(P, 0)",
    col.CHARGE_ENERGY: "max(-P, 0)",
}


def row_issues(checks: RowChecks, reported_columns: list[str]) -> list[dict]:
    """The issues of the row rules, in a stable order: time, values, counts, steps, cumulative values."""
    out: list[dict] = []
    out += _time_issues(checks)
    for name, tally in checks.missing.items():
        if tally.first is not None:
            where = " on a row without 'Frequency [Hz]'" if name in (col.CURRENT, col.VOLTAGE) else ""
            out.append(
                iss.make_issue(
                    iss.VALUE_MISSING,
                    f"Column '{name}' is empty at row {tally.first['row_index']}{where} "
                    f"({tally.count} empty row(s) in all); fill in every value.",
                    {"column": name, **tally.first, "num_rows": tally.count},
                )
            )
    for name, tally in checks.not_integer.items():
        if tally.first is not None:
            out.append(
                iss.make_issue(
                    iss.COUNT_NOT_INTEGER,
                    f"Column '{name}' must hold whole numbers, but row {tally.first['row_index']} "
                    f"holds {tally.first['value']} ({tally.count} such row(s)).",
                    {"column": name, **tally.first, "num_rows": tally.count},
                )
            )
    if not checks.has_steps:
        out.append(
            iss.make_issue(
                iss.STEP_COUNT_MISSING,
                f"Column '{col.STEP}' is required but missing; number the steps from 0, adding 1 at each new step.",
                {"column": col.STEP, "available_columns": checks.available_columns},
            )
        )
        return out
    out += _step_numbering_issues(checks)
    out += _cumulative_issues(checks, reported_columns)
    return out


def _time_issues(checks: RowChecks) -> list[dict]:
    out = []
    if checks.time_missing.first is not None:
        row = checks.time_missing.first["row_index"]
        out.append(
            iss.make_issue(
                iss.TIME_MISSING_ON_NON_EIS_ROW,
                f"'{col.TIME}' is empty at row {row}, which is not an impedance (EIS) row "
                f"({checks.time_missing.count} such row(s)); every non-EIS row needs a time.",
                {"row_index": row, "num_rows": checks.time_missing.count},
            )
        )
    if checks.first_time is not None and abs(checks.first_time) > TIME_ZERO_TOLERANCE:
        out.append(
            iss.make_issue(
                iss.TIME_DOES_NOT_START_AT_ZERO,
                f"'{col.TIME}' starts at {checks.first_time:g} s but must start at 0; subtract the first "
                "time and record the absolute start in the measurement's start_time.",
                {"observed": checks.first_time, "tolerance": TIME_ZERO_TOLERANCE},
            )
        )
    if checks.time_decrease.first is not None:
        first = checks.time_decrease.first
        out.append(
            iss.make_issue(
                iss.TIME_NOT_MONOTONIC,
                f"'{col.TIME}' goes backwards at row {first['row_index']} ({first['previous_time']:g} s "
                f"then {first['current_time']:g} s; {checks.time_decrease.count} decrease(s) in all); use "
                "elapsed time since the start of the test, not time within each step.",
                {**first, "num_violations": checks.time_decrease.count},
            )
        )
    if checks.time_gap.first is not None:
        first = checks.time_gap.first
        out.append(
            iss.make_issue(
                iss.TIME_GAP_TOO_LARGE,
                f"Rows {first['previous_row_index']} and {first['row_index']} are "
                f"{first['gap_seconds'] / 3600:.2f} h apart, more than the 5 h allowed "
                f"({checks.time_gap.count} such gap(s)); rows are probably missing.",
                {**first, "max_gap_seconds": MAX_GAP_S, "num_violations": checks.time_gap.count},
            )
        )
    return out


def _step_numbering_issues(checks: RowChecks) -> list[dict]:
    out = []
    if checks.first_step_value is not None and checks.first_step_value != 0:
        out.append(
            iss.make_issue(
                iss.STEP_COUNT_DOES_NOT_START_AT_ZERO,
                f"'{col.STEP}' must start at 0 but starts at {checks.first_step_value:g}.",
                {"column": col.STEP, "observed_first": checks.first_step_value},
            )
        )
    if checks.step_jumps.count:
        first = checks.step_examples[0]
        out.append(
            iss.make_issue(
                iss.STEP_COUNT_NON_SEQUENTIAL,
                f"'{col.STEP}' must stay the same or go up by 1 from row to row, but at row "
                f"{first['row_index']} it goes from {first['from']:g} to {first['to']:g} "
                f"({checks.step_jumps.count} such change(s)); renumber steps 0, 1, 2, ... in time order.",
                {"column": col.STEP, "num_violations": checks.step_jumps.count, "examples": checks.step_examples},
            )
        )
    if checks.cycle_change.first is not None:
        first = checks.cycle_change.first
        out.append(
            iss.make_issue(
                iss.CYCLE_CHANGES_WITHIN_STEP,
                f"'{col.CYCLE}' changes from {first['previous_cycle']:g} to {first['current_cycle']:g} "
                f"inside step {first['step_index']} (row {first['row_index']}); a step belongs to one cycle.",
                {**first, "num_violations": checks.cycle_change.count},
            )
        )
    return out


def _cumulative_issues(checks: RowChecks, reported_columns: list[str]) -> list[dict]:
    out = []
    for name in reported_columns:
        tally = checks.not_reset[name]
        if tally.first is not None:
            out.append(
                iss.make_issue(
                    iss.CUMULATIVE_VALUE_NOT_RESET,
                    f"'{name}' is {tally.first['observed']:g} at the start of step "
                    f"{tally.first['step_index']} but must restart from 0 at every step "
                    f"({tally.count} step(s) affected).",
                    {
                        "column": name,
                        **tally.first,
                        "tolerance": CUMULATIVE_TOLERANCE,
                        "num_violations": tally.count,
                    },
                )
            )
        tally = checks.decreased[name]
        if tally.first is not None:
            first = tally.first
            out.append(
                iss.make_issue(
                    iss.CUMULATIVE_VALUE_DECREASED,
                    f"'{name}' drops from {first['previous_value']:g} to {first['current_value']:g} at row "
                    f"{first['row_index']} inside step {first['step_index']}; within a step it may only grow "
                    f"({tally.count} drop(s) in all).",
                    {"column": name, **first, "num_violations": tally.count},
                )
            )
    if checks.options.runs("capacity_energy_from_current_power"):
        for name in reported_columns:
            out += _mismatch_issue(checks, name)
    return out


def _mismatch_issue(checks: RowChecks, name: str) -> list[dict]:
    stats = checks.mismatch[name]
    scale = max(stats.max_reported, stats.max_integrated)
    if scale <= 0 or stats.max_diff < 0:
        return []
    relative = stats.max_diff / scale
    if relative <= INTEGRAL_TOLERANCE:
        return []
    if "energy" not in name:
        source = col.CURRENT
    else:
        source = col.POWER if col.POWER in checks.available_columns else f"{col.VOLTAGE} * {col.CURRENT}"
    return [
        iss.make_issue(
            _MISMATCH_CODES[name],
            f"'{name}' differs from the per-step integral of {_INTEGRAND[name]} by up to "
            f"{relative:.0%} of its largest value (allowed {INTEGRAL_TOLERANCE:.0%}); worst at row "
            f"{stats.worst['worst_row_index']}. Check the column's units and sign convention.",
            {
                "column": name,
                "source_column": source,
                **stats.worst,
                "max_abs_difference": stats.max_diff,
                "max_scale": scale,
                "relative_error": relative,
                "tolerance": INTEGRAL_TOLERANCE,
            },
        )
    ]


def voltage_continuity_issue(checks: RowChecks) -> list[dict]:
    window = checks.options.voltage_window
    if not window or not checks.options.runs("voltage_continuity") or checks.voltage_pairs == 0:
        return []
    fraction = checks.voltage_jumps / checks.voltage_pairs
    if fraction <= VOLTAGE_MAX_BAD_FRACTION:
        return []
    threshold = VOLTAGE_JUMP_FRACTION * (window[1] - window[0])
    return [
        iss.make_issue(
            iss.VOLTAGE_CONTINUITY,
            f"{fraction:.1%} of consecutive rows jump by more than {threshold:.3g} V (80 % of the "
            f"{window[0]:g}-{window[1]:g} V window); the rows are probably not in time order.",
            {
                "bad_count": checks.voltage_jumps,
                "total_pairs": checks.voltage_pairs,
                "bad_fraction": fraction,
                "threshold_volts": threshold,
                "voltage_window": list(window),
            },
        )
    ]

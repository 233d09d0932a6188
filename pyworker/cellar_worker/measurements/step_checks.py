"""Step-level checks of docs/spec/measurement-data.md, run at the end over the per-step table from steps.py."""

from __future__ import annotations

import numpy as np

from . import columns as col
from . import issues as iss
from .issues import ValidationOptions
from .steps import EIS, REST, directions

FULL_STEP_RATED_MULTIPLE = 2.0
STEP_RATED_MULTIPLE_WARNING = 5.0
SWAPPED_STEP_FRACTION = 0.75
SIGN_REVERSED_FRACTION = 0.75
SIGN_AMBIGUOUS_FRACTION = 0.25
# A step votes on the sign convention only if its fitted voltage trend moves this much.
SIGN_MIN_VOLTAGE_TREND_V = 1e-3


def current_sign_issue(table: dict[str, np.ndarray], types: np.ndarray, any_negative_current: bool) -> list[dict]:
    """Sign convention from the voltage trend of each non-rest step.

    With positive current = discharge, charge put into the cell q = -∫I dt makes the
    voltage rise. For each non-rest, non-EIS, non-constant-voltage step, the slope of a
    least-squares line V = a + b·q is computed from streamed sums; a step whose fitted
    voltage change |b·q_end| is at least 1 mV votes "charges where it should discharge"
    when b < 0. Votes are weighted by the charge the step moved (∫|I| dt), and
    ``charge_fraction`` is the reversed share of that weight.
    """
    n = table["n_V"]
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_q = table["Sq"] / n
        var_q = table["Sqq"] / n - mean_q * mean_q
        cov = table["SqV"] / n - mean_q * table["mean_V"]
        slope = cov / var_q
    q_end = table[f"int_{col.CHARGE_CAPACITY}"] - table[f"int_{col.DISCHARGE_CAPACITY}"]
    weight = table[f"int_{col.CHARGE_CAPACITY}"] + table[f"int_{col.DISCHARGE_CAPACITY}"]
    constant_voltage = np.array([t.startswith("Constant voltage") for t in types], dtype=bool)
    voting = (
        (types != REST)
        & (types != EIS)
        & ~constant_voltage
        & (n >= 3)
        & (var_q > 0)
        & (np.abs(slope * q_end) >= SIGN_MIN_VOLTAGE_TREND_V)
    )
    total = float(weight[voting].sum())
    if total <= 0:
        return []
    fraction = float(weight[voting & (slope < 0)].sum()) / total
    payload = {"charge_fraction": fraction}
    if fraction >= SIGN_REVERSED_FRACTION:
        return [
            iss.make_issue(
                iss.CURRENT_SIGN_REVERSED,
                f"The current sign looks reversed: in {fraction:.0%} of the charge moved, the voltage rises "
                "while the current is positive. Use positive current for discharge and negative for charge.",
                payload,
            )
        ]
    if fraction < SIGN_AMBIGUOUS_FRACTION:
        return []
    if not any_negative_current:
        return [
            iss.make_issue(
                iss.CURRENT_SIGN_UNSIGNED,
                "All currents are positive, so charge and discharge cannot be told apart; make charge "
                "current negative.",
                payload,
            )
        ]
    return [
        iss.make_issue(
            iss.CURRENT_SIGN_INDETERMINATE,
            f"The current sign convention is unclear: in {fraction:.0%} of the charge moved the voltage "
            "moves the wrong way for its current. Use positive current for discharge and negative for charge.",
            payload,
        )
    ]


def too_few_points_issue(table: dict[str, np.ndarray]) -> list[dict]:
    short = np.flatnonzero(table["rows"] < 2)
    if len(short) == 0:
        return []
    k = int(short[0])
    return [
        iss.make_issue(
            iss.STEP_TOO_FEW_POINTS,
            f"Step {k} has only {int(table['rows'][k])} row(s); every step needs at least 2 "
            f"({len(short)} step(s) affected).",
            {"step_index": k, "num_points": int(table["rows"][k]), "min_points": 2, "num_violations": len(short)},
        )
    ]


def _moved(table: dict[str, np.ndarray], direction: np.ndarray) -> np.ndarray:
    """Capacity a step moved in its own direction (A.h)."""
    moved = np.where(direction == "discharge", table[f"end_{col.DISCHARGE_CAPACITY}"], 0.0)
    moved = np.where(direction == "charge", table[f"end_{col.CHARGE_CAPACITY}"], moved)
    return np.nan_to_num(np.abs(moved))


def consecutive_full_steps_issue(table: dict[str, np.ndarray], types: np.ndarray, rated: float) -> list[dict]:
    """Two consecutive charge (or discharge) steps, each moving more than 2 × rated.

    Consecutive among the steps that move charge: rests and EIS between them are skipped, so
    full charge, rest, full charge counts; any charge or discharge step between them, however
    small, breaks the pair.
    """
    direction = directions(table, types)
    full = _moved(table, direction) > FULL_STEP_RATED_MULTIPLE * rated
    moving = np.flatnonzero(direction != None)  # noqa: E711 (element-wise)
    pairs = [(a, b) for a, b in zip(moving[:-1], moving[1:]) if direction[a] == direction[b] and full[a] and full[b]]
    if not pairs:
        return []
    a, b = pairs[0]
    threshold = FULL_STEP_RATED_MULTIPLE * rated
    return [
        iss.make_issue(
            iss.CONSECUTIVE_SAME_DIRECTION_FULL_STEPS,
            f"Steps {int(table['step_value'][a])} and {int(table['step_value'][b])} are consecutive full "
            f"{direction[a]} steps, each moving more than {threshold:g} A.h (2 × rated); a measurement should "
            "hold one experiment, so split concatenated tests.",
            {
                "direction": direction[a],
                "previous_step": int(table["step_value"][a]),
                "current_step": int(table["step_value"][b]),
                "threshold_capacity": threshold,
                "rated_capacity": rated,
                "num_violations": len(pairs),
            },
        )
    ]


def step_capacity_issue(table: dict[str, np.ndarray], rated: float) -> list[dict]:
    threshold = STEP_RATED_MULTIPLE_WARNING * rated
    discharge = np.nan_to_num(table[f"end_{col.DISCHARGE_CAPACITY}"])
    charge = np.nan_to_num(table[f"end_{col.CHARGE_CAPACITY}"])
    moved = np.maximum(discharge, charge)
    over = np.flatnonzero(moved > threshold)
    if len(over) == 0:
        return []
    k = int(over[0])
    column = col.DISCHARGE_CAPACITY if discharge[k] >= charge[k] else col.CHARGE_CAPACITY
    return [
        iss.make_issue(
            iss.STEP_CAPACITY_EXCEEDS_RATED,
            f"Step {int(table['step_value'][k])} moves {moved[k]:.3g} A.h, more than 5 × the rated "
            f"{rated:g} A.h ({len(over)} step(s)); step boundaries may be wrong or rows missing.",
            {
                "step_index": k,
                "column": column,
                "observed": float(moved[k]),
                "threshold_capacity": threshold,
                "rated_capacity": rated,
                "num_steps": len(over),
            },
            iss.WARNING,
        )
    ]


def swapped_columns_issues(table: dict[str, np.ndarray], types: np.ndarray, reported: list[str]) -> list[dict]:
    """Charge/discharge columns swapped on ≥ 75 % of eligible steps.

    Eligible: non-rest, non-EIS steps that move charge mainly one way (the integrated
    charge and discharge differ by at least half their sum) and for which both reported
    columns of the pair exist. A step counts as swapped when the reported pair is closer
    to the crossed integrals than to the straight ones.
    """
    out = []
    pairs = (
        (col.DISCHARGE_CAPACITY, col.CHARGE_CAPACITY, iss.CHARGE_DISCHARGE_CAPACITY_COLUMNS_SWAPPED, "capacity"),
        (col.DISCHARGE_ENERGY, col.CHARGE_ENERGY, iss.CHARGE_DISCHARGE_ENERGY_COLUMNS_SWAPPED, "energy"),
    )
    for discharge_col, charge_col, code, what in pairs:
        if discharge_col not in reported or charge_col not in reported:
            continue
        rep_d, rep_c = table[f"rep_{discharge_col}"], table[f"rep_{charge_col}"]
        int_d, int_c = table[f"int_{discharge_col}"], table[f"int_{charge_col}"]
        moved = int_d + int_c
        eligible = (
            (types != REST)
            & (types != EIS)
            & (moved > 0)
            & (np.abs(int_d - int_c) >= 0.5 * moved)
            & ~np.isnan(rep_d)
            & ~np.isnan(rep_c)
        )
        straight = np.abs(rep_d - int_d) + np.abs(rep_c - int_c)
        crossed = np.abs(rep_d - int_c) + np.abs(rep_c - int_d)
        swapped = eligible & (crossed < straight)
        num_eligible = int(np.count_nonzero(eligible))
        if num_eligible == 0:
            continue
        fraction = int(np.count_nonzero(swapped)) / num_eligible
        if fraction >= SWAPPED_STEP_FRACTION:
            out.append(
                iss.make_issue(
                    code,
                    f"'{discharge_col}' and '{charge_col}' look swapped: on {fraction:.0%} of the "
                    f"{num_eligible} charge/discharge steps the charge {what} grows during discharge and vice "
                    "versa. Swap the two columns.",
                    {
                        "columns": [discharge_col, charge_col],
                        "swapped_steps": int(np.count_nonzero(swapped)),
                        "eligible_steps": num_eligible,
                        "fraction": fraction,
                    },
                )
            )
    return out


def step_issues(
    table: dict[str, np.ndarray],
    types: np.ndarray,
    options: ValidationOptions,
    reported: list[str],
    any_negative_current: bool,
) -> tuple[list[dict], list[dict]]:
    """(always-checked, strict) issues that need the per-step table."""
    always = current_sign_issue(table, types, any_negative_current)
    strict: list[dict] = []
    if options.runs("minimum_points_per_step"):
        strict += too_few_points_issue(table)
    if options.rated_capacity_ah:
        if options.runs("consecutive_same_direction_full_steps"):
            strict += consecutive_full_steps_issue(table, types, options.rated_capacity_ah)
        if options.runs("step_capacity_within_rated"):
            strict += step_capacity_issue(table, options.rated_capacity_ah)
    if options.runs("charge_discharge_column_direction"):
        strict += swapped_columns_issues(table, types, reported)
    return always, strict

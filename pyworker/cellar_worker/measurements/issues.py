"""Validation issue codes, the issue record and validation options.

Every finding is a plain JSON-ready dict ``{"code", "severity", "message", "payload"}``
so it can cross the Temporal boundary unchanged. README.md in this folder lists every
code with its rule and payload keys.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

ERROR = "error"
WARNING = "warning"

# --- Codes from docs/spec/measurement-data.md -------------------------------------
CURRENT_SIGN_REVERSED = "current_sign_reversed"
CURRENT_SIGN_UNSIGNED = "current_sign_unsigned"
CURRENT_SIGN_INDETERMINATE = "current_sign_indeterminate"
TIME_MISSING_ON_NON_EIS_ROW = "time_missing_on_non_eis_row"
TIME_DOES_NOT_START_AT_ZERO = "time_does_not_start_at_zero"
TIME_NOT_MONOTONIC = "time_not_monotonic"
STEP_COUNT_MISSING = "step_count_missing"
STEP_COUNT_DOES_NOT_START_AT_ZERO = "step_count_does_not_start_at_zero"
STEP_COUNT_NON_SEQUENTIAL = "step_count_non_sequential"
CUMULATIVE_VALUE_NOT_RESET = "cumulative_value_not_reset"
CUMULATIVE_VALUE_DECREASED = "cumulative_value_decreased"
STEP_TOO_FEW_POINTS = "step_too_few_points"
CYCLE_CHANGES_WITHIN_STEP = "cycle_changes_within_step"
DISCHARGE_CAPACITY_INTEGRAL_MISMATCH = "discharge_capacity_integral_mismatch"
CHARGE_CAPACITY_INTEGRAL_MISMATCH = "charge_capacity_integral_mismatch"
DISCHARGE_ENERGY_INTEGRAL_MISMATCH = "discharge_energy_integral_mismatch"
CHARGE_ENERGY_INTEGRAL_MISMATCH = "charge_energy_integral_mismatch"
TIME_GAP_TOO_LARGE = "time_gap_too_large"
VOLTAGE_CONTINUITY = "voltage_continuity"
CONSECUTIVE_SAME_DIRECTION_FULL_STEPS = "consecutive_same_direction_full_steps"
STEP_CAPACITY_EXCEEDS_RATED = "step_capacity_exceeds_rated"
CHARGE_DISCHARGE_CAPACITY_COLUMNS_SWAPPED = "charge_discharge_capacity_columns_swapped"
CHARGE_DISCHARGE_ENERGY_COLUMNS_SWAPPED = "charge_discharge_energy_columns_swapped"

# --- Codes added by this worker (reading, extending, options) -----------------------
UNREADABLE_FILE = "unreadable_file"
EMPTY_FILE = "empty_file"
TIME_COLUMN_MISSING = "time_column_missing"
REQUIRED_COLUMN_MISSING = "required_column_missing"
COLUMN_NOT_NUMERIC = "column_not_numeric"
VALUE_MISSING = "value_missing"
COUNT_NOT_INTEGER = "count_not_integer"
UNKNOWN_COLUMNS_DROPPED = "unknown_columns_dropped"
SKIP_CHECK_IGNORED = "skip_check_ignored"
OBJECT_MISSING = "object_missing"
EXTEND_COLUMNS_MISMATCH = "extend_columns_mismatch"
EXTEND_NOT_AFTER_LAST_SAMPLE = "extend_not_after_last_sample"
STEPS_FILE_STEP_COUNT_MISSING = "steps_file_step_count_missing"
STEPS_FILE_UNKNOWN_STEP_COUNTS = "steps_file_unknown_step_counts"
STEPS_FILE_DUPLICATE_STEP_COUNTS = "steps_file_duplicate_step_counts"

# Strict checks by the name a client uses to skip them, with the codes each one emits.
STRICT_CHECKS: dict[str, tuple[str, ...]] = {
    "minimum_points_per_step": (STEP_TOO_FEW_POINTS,),
    "cycle_constant_within_step": (CYCLE_CHANGES_WITHIN_STEP,),
    "capacity_energy_from_current_power": (
        DISCHARGE_CAPACITY_INTEGRAL_MISMATCH,
        CHARGE_CAPACITY_INTEGRAL_MISMATCH,
        DISCHARGE_ENERGY_INTEGRAL_MISMATCH,
        CHARGE_ENERGY_INTEGRAL_MISMATCH,
    ),
    "time_gaps": (TIME_GAP_TOO_LARGE,),
    "voltage_continuity": (VOLTAGE_CONTINUITY,),
    "consecutive_same_direction_full_steps": (CONSECUTIVE_SAME_DIRECTION_FULL_STEPS,),
    "step_capacity_within_rated": (STEP_CAPACITY_EXCEEDS_RATED,),
    "charge_discharge_column_direction": (
        CHARGE_DISCHARGE_CAPACITY_COLUMNS_SWAPPED,
        CHARGE_DISCHARGE_ENERGY_COLUMNS_SWAPPED,
    ),
}
_CHECK_BY_CODE = {code: name for name, codes in STRICT_CHECKS.items() for code in codes}


def _json_value(value: Any) -> Any:
    """Plain Python scalars only: numpy scalars unwrapped, NaN/inf become None."""
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


# An issue stays small whatever the file holds: a header of 200,000 columns listed in full made
# the processing result larger than Temporal carries, and the measurement failed without issues.
MAX_MESSAGE_CHARS = 2_000
MAX_LIST_ITEMS = 100
MAX_STRING_CHARS = 500


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more characters)"


def _bounded(value: Any) -> Any:
    if isinstance(value, str):
        return _clip(value, MAX_STRING_CHARS)
    if isinstance(value, dict):
        return {k: _bounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_bounded(v) for v in value[:MAX_LIST_ITEMS]]
    return value


def make_issue(code: str, message: str, payload: dict[str, Any], severity: str = ERROR) -> dict:
    """A list longer than MAX_LIST_ITEMS keeps its first items, with its length as ``<key>_total``."""
    totals = {
        f"{k}_total": len(v) for k, v in payload.items() if isinstance(v, (list, tuple)) and len(v) > MAX_LIST_ITEMS
    }
    return {
        "code": code,
        "severity": severity,
        "message": _clip(message, MAX_MESSAGE_CHARS),
        # Bounded first: a list of 200,000 names is cut before its items are converted.
        "payload": _json_value(_bounded({**payload, **totals})),
    }


def has_errors(issues: list[dict]) -> bool:
    return any(issue["severity"] == ERROR for issue in issues)


def summarise_errors(issues: list[dict]) -> str | None:
    """One sentence for ``processing_error``: the first error, and how many more follow."""
    errors = [issue for issue in issues if issue["severity"] == ERROR]
    if not errors:
        return None
    first = errors[0]["message"].rstrip(".")
    if len(errors) == 1:
        return f"{first}."
    others = ", ".join(sorted({issue["code"] for issue in errors[1:]}))
    return f"{first} (and {len(errors) - 1} more error(s): {others})."


@dataclass(frozen=True)
class ValidationOptions:
    strict: bool = True
    skipped: frozenset[str] = field(default_factory=frozenset)
    rated_capacity_ah: float | None = None
    voltage_window: tuple[float, float] | None = None

    def runs(self, check: str) -> bool:
        """Whether the strict check ``check`` (a key of STRICT_CHECKS) is enabled."""
        return self.strict and check not in self.skipped


def parse_options(
    validation: dict | None,
    rated_capacity_ah: float | None = None,
    voltage_min: float | None = None,
    voltage_max: float | None = None,
) -> tuple[ValidationOptions, list[dict]]:
    """Build options from the activity input; unknown skip names become warnings.

    ``skip_checks`` entries may be check names or issue codes, in any case.
    """
    validation = validation or {}
    strict = validation.get("strict")
    skipped: set[str] = set()
    warnings: list[dict] = []
    for raw in validation.get("skip_checks") or []:
        name = str(raw).strip().lower()
        check = name if name in STRICT_CHECKS else _CHECK_BY_CODE.get(name)
        if check is None:
            warnings.append(
                make_issue(
                    SKIP_CHECK_IGNORED,
                    f"'{raw}' is not a check that can be skipped, so it was ignored.",
                    {"name": raw, "skippable_checks": sorted(STRICT_CHECKS)},
                    WARNING,
                )
            )
        else:
            skipped.add(check)
    rated = float(rated_capacity_ah) if rated_capacity_ah else None
    window = None
    if voltage_min is not None and voltage_max is not None and voltage_max > voltage_min:
        window = (float(voltage_min), float(voltage_max))
    options = ValidationOptions(
        strict=True if strict is None else bool(strict),
        skipped=frozenset(skipped),
        rated_capacity_ah=rated if rated and rated > 0 else None,
        voltage_window=window,
    )
    return options, warnings

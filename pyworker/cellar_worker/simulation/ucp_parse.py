"""A UCP JSON document checked field by field and resolved into typed steps (see ucp.py for its shape)."""

from __future__ import annotations

import math
import re

from .. import tables
from .errors import configuration_error
from .ucp import (
    ENDS_OPERATORS,
    ENDS_VARIABLES,
    INITIAL_STATE_TYPES,
    STEP_TYPES,
    EndCondition,
    InputRef,
    Protocol,
    Resolution,
    Step,
    Value,
)

# Allowed fields per step type, the control modes each accepts, and the other field lists,
# from the schema (tables/ucp.schema.json).
_STEP_FIELDS = {step_type: set(fields) for step_type, fields in tables.UCP_STEP_FIELDS.items()}
_STEP_MODES = tables.UCP_STEP_MODES
_GLOBAL_FIELDS = set(tables.UCP_GLOBAL_FIELDS)
_RESOLUTION_FIELDS = tables.UCP_RESOLUTION_FIELDS
_TOP_LEVEL_FIELDS = set(tables.UCP_TOP_LEVEL_FIELDS)

_INPUT_REF = re.compile(r"""^\s*input\[\s*(?:'(?P<single>[^']+)'|"(?P<double>[^"]+)")\s*\]\s*$""")
_END_CONDITION = re.compile(
    rf"^\s*(?P<variable>{'|'.join(map(re.escape, ENDS_VARIABLES))})\s*(?P<op><=|>=|<|>)\s*"
    r"(?P<value>[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?)\s*$"
)


def parse_protocol(document) -> Protocol:
    """Check a UCP JSON document and turn it into a :class:`Protocol`."""
    if not isinstance(document, dict):
        raise configuration_error("protocol: must be an object with 'steps' (and optionally 'global')")
    _reject_unknown(document, _TOP_LEVEL_FIELDS, "protocol")
    raw_steps = document.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise configuration_error("protocol.steps: must be a non-empty list of steps")
    steps = tuple(_parse_step(index, raw) for index, raw in enumerate(raw_steps))
    _check_gotos(steps)

    settings = document.get("global", {})
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        raise configuration_error("protocol.global: must be an object")
    _reject_unknown(settings, _GLOBAL_FIELDS, "protocol.global")
    state_type = settings.get("initial_state_type")
    state_value = settings.get("initial_state_value")
    if (state_type is None) != (state_value is None):
        raise configuration_error("protocol.global: initial_state_type and initial_state_value must be given together")
    if state_type is not None and state_type not in INITIAL_STATE_TYPES:
        raise configuration_error(
            f"protocol.global.initial_state_type: must be one of {', '.join(INITIAL_STATE_TYPES)}"
        )
    return Protocol(
        steps=steps,
        initial_state_type=state_type,
        initial_state_value=None
        if state_value is None
        else _parse_value(state_value, "protocol.global.initial_state_value"),
        initial_temperature=None
        if settings.get("initial_temperature") is None
        else _parse_value(settings["initial_temperature"], "protocol.global.initial_temperature"),
        resolution=_parse_resolution(settings.get("resolution")),
    )


def _reject_unknown(mapping: dict, allowed: set[str], path: str) -> None:
    unknown = sorted(set(mapping) - allowed)
    if unknown:
        raise configuration_error(
            f"{path}: unknown field(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(sorted(allowed))}"
        )


def _number(raw, path: str) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        raise configuration_error(f"{path}: must be a number")
    try:
        value = float(raw)
    except ValueError:
        raise configuration_error(f"{path}: {raw!r} is not a number") from None
    if not math.isfinite(value):
        raise configuration_error(f"{path}: must be a finite number")
    return value


def _positive(raw, path: str) -> float:
    value = _number(raw, path)
    if value <= 0:
        raise configuration_error(f"{path}: must be greater than 0 (got {value:g})")
    return value


def _parse_value(raw, path: str) -> Value:
    """A number, a numeric string, or an ``input['Name']`` placeholder."""
    if isinstance(raw, str):
        match = _INPUT_REF.match(raw)
        if match:
            return InputRef(match.group("single") or match.group("double"))
        if raw.strip().startswith("input"):
            raise configuration_error(f"{path}: malformed placeholder {raw!r}; write input['Name']")
    return _number(raw, path)


def _parse_resolution(raw) -> Resolution:
    if raw is None:
        return Resolution()
    if not isinstance(raw, dict):
        raise configuration_error("protocol.global.resolution: must be an object")
    _reject_unknown(raw, set(_RESOLUTION_FIELDS), "protocol.global.resolution")
    values = {
        name: _positive(raw[name], f"protocol.global.resolution.{name}")
        for name in _RESOLUTION_FIELDS
        if raw.get(name) is not None
    }
    return Resolution(**values)


def _parse_end(raw, path: str) -> EndCondition:
    if not isinstance(raw, str):
        raise configuration_error(f"{path}: must be a string such as 'Voltage < 2.5'")
    match = _END_CONDITION.match(raw)
    if not match:
        raise configuration_error(
            f"{path}: {raw!r} is not '<Variable> <op> <number>' with Variable one of "
            f"{', '.join(ENDS_VARIABLES)} and op one of {', '.join(ENDS_OPERATORS)}"
        )
    variable, operator = match.group("variable"), match.group("op")[0]
    threshold = float(match.group("value"))
    if variable == "Time" and operator == "<":
        raise configuration_error(f"{path}: 'Time < ...' is true from the start; use 'Time > ...' or duration")
    if variable == "Voltage" and threshold <= 0:
        raise configuration_error(f"{path}: the voltage threshold must be positive")
    if variable in ("Current", "C-rate", "Time") and threshold < 0:
        raise configuration_error(f"{path}: {variable} is a magnitude, so the threshold must not be negative")
    return EndCondition(variable, operator, threshold)


def _parse_step(index: int, raw) -> Step:
    where = f"protocol.steps[{index}]"
    if not isinstance(raw, dict) or len(raw) != 1:
        raise configuration_error(
            f"{where}: each step is a one-key object {{<StepType>: {{fields}}}} "
            f"with StepType one of {', '.join(STEP_TYPES)}"
        )
    ((step_type, fields),) = raw.items()
    if step_type not in STEP_TYPES:
        raise configuration_error(f"{where}: unknown step type {step_type!r}; allowed: {', '.join(STEP_TYPES)}")
    path = f"{where}.{step_type}"
    if fields is None:
        fields = {}
    if not isinstance(fields, dict):
        raise configuration_error(f"{path}: must be an object of fields")
    _reject_unknown(fields, _STEP_FIELDS[step_type], path)

    label = fields.get("label")
    if label is not None and not isinstance(label, str):
        raise configuration_error(f"{path}.label: must be a string")

    if step_type == "Goto":
        target, repeat = fields.get("step"), fields.get("repeat")
        if isinstance(target, bool) or not isinstance(target, int):
            raise configuration_error(f"{path}.step: must be the integer index of an earlier step")
        if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
            raise configuration_error(f"{path}.repeat: must be an integer >= 1 (the number of backward jumps)")
        return Step(index, step_type, label=label, goto_step=target, goto_repeat=repeat)

    mode = fields.get("mode")
    if step_type in _STEP_MODES:
        if mode not in _STEP_MODES[step_type]:
            raise configuration_error(f"{path}.mode: must be one of {', '.join(_STEP_MODES[step_type])}")

    value = None
    if step_type in ("Charge", "Discharge", "Hold"):
        if fields.get("value") is None:
            raise configuration_error(f"{path}.value: is required")
        value = _parse_value(fields["value"], f"{path}.value")
        if isinstance(value, float) and value <= 0:
            raise configuration_error(
                f"{path}.value: must be greater than 0 (the step type sets the direction), got {value:g}"
            )

    duration = None if fields.get("duration") is None else _positive(fields["duration"], f"{path}.duration")
    raw_ends = fields.get("ends") or []
    if not isinstance(raw_ends, list):
        raise configuration_error(f"{path}.ends: must be a list of conditions such as 'Voltage < 2.5'")
    ends = tuple(_parse_end(item, f"{path}.ends[{i}]") for i, item in enumerate(raw_ends))
    # "Time > t" is a duration in disguise: fold it in so PyBaMM sees one time limit.
    time_limits = [end.threshold for end in ends if end.variable == "Time"]
    if time_limits:
        if min(time_limits) <= 0:
            raise configuration_error(f"{path}.ends: a 'Time > 0' condition ends the step at once")
        duration = min(time_limits + ([duration] if duration is not None else []))
        ends = tuple(end for end in ends if end.variable != "Time")

    data = None
    if step_type == "DriveCycle":
        data = _parse_drive_cycle(fields.get("data"), f"{path}.data")
    elif duration is None and not ends:
        raise configuration_error(f"{path}: needs a duration or at least one 'ends' condition to finish")

    return Step(index, step_type, mode=mode, value=value, duration=duration, ends=ends, data=data, label=label)


def _parse_drive_cycle(raw, path: str) -> tuple[tuple[float, float], ...]:
    if not isinstance(raw, list) or len(raw) < 2:
        raise configuration_error(f"{path}: must be a list of at least two [time_s, value] pairs")
    points = []
    for i, pair in enumerate(raw):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise configuration_error(f"{path}[{i}]: must be a [time_s, value] pair")
        points.append((_number(pair[0], f"{path}[{i}][0]"), _number(pair[1], f"{path}[{i}][1]")))
    if points[0][0] != 0:
        raise configuration_error(f"{path}[0][0]: the drive cycle must start at time 0")
    for i in range(1, len(points)):
        if points[i][0] <= points[i - 1][0]:
            raise configuration_error(f"{path}[{i}][0]: times must be strictly increasing")
    return tuple(points)


def _check_gotos(steps: tuple[Step, ...]) -> None:
    for step in steps:
        if step.type != "Goto":
            continue
        target = step.goto_step
        if not 0 <= target < step.index:
            raise configuration_error(
                f"{step.path}.step: must point to an earlier step (0 to {step.index - 1}), got {target}"
            )
        if steps[target].type == "Goto":
            raise configuration_error(f"{step.path}.step: must point to a step that is not itself a Goto")

"""The canonical protocol ("UCP", universal cycler protocol) in its JSON form.

The TypeScript API parses user text (PyBaMM experiment lines or UCP YAML) into this JSON
and validates it against ``tables/ucp.schema.json``; this module checks it again (the worker
must not trust its input), resolves it into typed steps, and expands backward jumps
("Goto") into the flat list of steps that is simulated.

Shape::

    {"global": {"initial_state_type": "soc_percentage" | "voltage",
                "initial_state_value": 80 | "input['Initial SOC [%]']",
                "initial_temperature": 25.0,
                "resolution": {"time": 10, "voltage": 0.01, "current": 0.01}},
     "steps": [{"Charge": {"mode": "C-rate", "value": "0.5", "ends": ["Voltage > 4.2"]}},
               {"Goto": {"step": 0, "repeat": 9}}]}

Every error names the offending field, e.g. ``protocol.steps[2].Charge.value``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .. import tables
from .errors import configuration_error

# The step table (types, allowed fields per type, the control modes each accepts) and the
# other field lists, from the schema (tables/ucp.schema.json).
STEP_TYPES = tuple(tables.UCP_STEP_FIELDS)
ENDS_VARIABLES = tables.UCP_ENDS_VARIABLES
ENDS_OPERATORS = ("<=", ">=", "<", ">")
INITIAL_STATE_TYPES = tables.UCP_INITIAL_STATE_TYPES
_STEP_FIELDS = {step_type: set(fields) for step_type, fields in tables.UCP_STEP_FIELDS.items()}
_STEP_MODES = tables.UCP_STEP_MODES
_GLOBAL_FIELDS = set(tables.UCP_GLOBAL_FIELDS)
_RESOLUTION_FIELDS = tables.UCP_RESOLUTION_FIELDS
_TOP_LEVEL_FIELDS = set(tables.UCP_TOP_LEVEL_FIELDS)

DEFAULT_MAX_BACKWARD_JUMPS = 1000
# Expansion guard: each simulated step costs solver time and output rows, so a protocol
# is refused if its loops unroll into more steps than this.
MAX_EXPANDED_STEPS = 50_000

_INPUT_REF = re.compile(r"""^\s*input\[\s*(?:'(?P<single>[^']+)'|"(?P<double>[^"]+)")\s*\]\s*$""")
_END_CONDITION = re.compile(
    rf"^\s*(?P<variable>{'|'.join(map(re.escape, ENDS_VARIABLES))})\s*(?P<op><=|>=|<|>)\s*"
    r"(?P<value>[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?)\s*$"
)


@dataclass(frozen=True)
class InputRef:
    """A value filled per simulation from ``inputs`` (``input['Name']`` in the protocol)."""

    name: str


Value = float | InputRef


@dataclass(frozen=True)
class EndCondition:
    variable: str  # one of ENDS_VARIABLES
    operator: str  # "<" or ">" ("<=" / ">=" are read as the same crossing)
    threshold: float

    def __str__(self) -> str:
        return f"{self.variable} {self.operator} {self.threshold:g}"


@dataclass(frozen=True)
class Step:
    index: int
    type: str
    mode: str | None = None
    value: Value | None = None
    duration: float | None = None
    ends: tuple[EndCondition, ...] = ()
    data: tuple[tuple[float, float], ...] | None = None
    label: str | None = None
    goto_step: int | None = None
    goto_repeat: int | None = None

    @property
    def path(self) -> str:
        return f"protocol.steps[{self.index}].{self.type}"

    def describe(self, inputs: Mapping[str, float] | None = None) -> str:
        """A readable one-line description, used as the step label by default.

        Placeholders show their value when ``inputs`` has it.
        """
        if self.label:
            return self.label
        if self.type == "Rest":
            text = "Rest"
        elif self.type == "DriveCycle":
            text = f"Drive cycle ({self.mode}, {len(self.data or ())} points)"
        elif self.type == "Goto":
            return f"Goto step {self.goto_step} ({self.goto_repeat} times)"
        else:
            value = self.value
            if isinstance(value, InputRef):
                value = inputs[value.name] if inputs and value.name in inputs else f"input['{value.name}']"
            value = value if isinstance(value, str) else f"{value:g}"
            unit = {"C-rate": "C", "current": "A", "power": "W", "voltage": "V"}[self.mode]
            text = f"{self.type} at {value} {unit}"
        if self.duration is not None:
            text += f" for {self.duration:g} s"
        if self.ends:
            text += (" or" if self.duration is not None else "") + " until " + " or ".join(map(str, self.ends))
        return text


@dataclass(frozen=True)
class Resolution:
    time: float | None = None
    voltage: float | None = None
    current: float | None = None


@dataclass(frozen=True)
class Protocol:
    steps: tuple[Step, ...]
    initial_state_type: str | None = None
    initial_state_value: Value | None = None
    initial_temperature: Value | None = None
    resolution: Resolution = Resolution()

    def input_references(self) -> list[str]:
        """Names of every ``input['...']`` placeholder, in order of first use."""
        values = [self.initial_state_value, self.initial_temperature] + [s.value for s in self.steps]
        names: list[str] = []
        for value in values:
            if isinstance(value, InputRef) and value.name not in names:
                names.append(value.name)
        return names


@dataclass(frozen=True)
class PlannedStep:
    """One step of the expanded protocol, as simulated."""

    step: Step
    cycle: int  # passes of the outermost loop so far (0 without loops)


# ----------------------------------------------------------------------------- parsing


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


# ----------------------------------------------------------------------------- expansion


def _outermost_gotos(steps: tuple[Step, ...]) -> set[int]:
    """Gotos whose loop is not enclosed by another loop; their jumps start new cycles."""
    spans = {s.index: (s.goto_step, s.index) for s in steps if s.type == "Goto"}
    return {
        index
        for index, (start, end) in spans.items()
        if not any(
            other != index and other_start <= start and end <= other_end
            for other, (other_start, other_end) in spans.items()
        )
    }


def expand(protocol: Protocol, max_backward_jumps: int = DEFAULT_MAX_BACKWARD_JUMPS) -> list[PlannedStep]:
    """Unroll the Goto loops into the flat list of steps that is simulated.

    A Goto with ``repeat: n`` jumps back ``n`` times, so its loop body runs ``n + 1``
    times; when the loop is left its counter is re-armed, so a nested loop runs again in
    full on each pass of the enclosing one. Every jump counts towards
    ``max_backward_jumps``. ``Cycle count`` grows by one at each jump of an outermost
    loop.
    """
    if isinstance(max_backward_jumps, bool) or not isinstance(max_backward_jumps, int) or max_backward_jumps < 0:
        raise configuration_error("max_backward_jumps: must be an integer >= 0")
    steps = protocol.steps
    outermost = _outermost_gotos(steps)
    remaining: dict[int, int] = {}
    planned: list[PlannedStep] = []
    jumps = 0
    cycle = 0
    position = 0
    while position < len(steps):
        step = steps[position]
        if step.type != "Goto":
            planned.append(PlannedStep(step, cycle))
            if len(planned) > MAX_EXPANDED_STEPS:
                raise configuration_error(f"protocol.steps: the loops unroll into more than {MAX_EXPANDED_STEPS} steps")
            position += 1
            continue
        left = remaining.get(position, step.goto_repeat)
        if left == 0:
            remaining.pop(position, None)
            position += 1
            continue
        remaining[position] = left - 1
        jumps += 1
        if jumps > max_backward_jumps:
            raise configuration_error(
                f"{step.path}: the protocol needs more than max_backward_jumps={max_backward_jumps} "
                "backward jumps in total (nested loops included)"
            )
        if position in outermost:
            cycle += 1
        position = step.goto_step
    return planned

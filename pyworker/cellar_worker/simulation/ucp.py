"""The canonical protocol ("UCP", universal cycler protocol) in its JSON form.

The TypeScript API parses user text (PyBaMM experiment lines or UCP YAML) into this JSON
and validates it against ``tables/ucp.schema.json``; this module checks it again (the worker
must not trust its input, ucp_parse.py), resolves it into the typed steps below, and
expands backward jumps ("Goto") into the flat list of steps that is simulated (ucp_expand.py).

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

from collections.abc import Mapping
from dataclasses import dataclass

from .. import tables

# The step types and the terms of end conditions, from the schema (tables/ucp.schema.json);
# the fields each step type allows are checked in ucp_parse.py.
STEP_TYPES = tuple(tables.UCP_STEP_FIELDS)
ENDS_VARIABLES = tables.UCP_ENDS_VARIABLES
ENDS_OPERATORS = ("<=", ">=", "<", ">")
INITIAL_STATE_TYPES = tables.UCP_INITIAL_STATE_TYPES


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

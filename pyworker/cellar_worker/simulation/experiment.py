"""Turn an expanded UCP protocol into a ``pybamm.Experiment``.

Each planned step becomes its own PyBaMM "cycle", so solution cycle ``i`` is planned step
``i``. Step values written as ``input['Name']`` become PyBaMM input parameters, so a
built simulation can be re-solved for another design point without rebuilding.
"""

from __future__ import annotations

import numpy as np
import pybamm

from .ucp import EndCondition, InputRef, PlannedStep, Protocol, Step

PROTOCOL_INPUT_PREFIX = "Protocol input: "
DEFAULT_PERIOD_S = 10.0
# A step with ends but no duration (a drive cycle aside: it lasts as long as its data)
# stops after this long at the latest: a C-rate or current step after three times the
# time to move the nominal capacity (PyBaMM's own default is twice), any other step
# after 48 h. Reaching the limit means its end condition
# never happened, which is reported as an infeasible protocol. The limit is kept tight
# because PyBaMM prepares an output grid for the whole of it at every step: a 1C step
# limited to 48 h instead of 3 h solves about three times slower.
# tables/ucp.schema.json's top-level description states this rule to users; keep the two in step.
OPEN_ENDED_STEP_LIMIT_S = 48 * 3600.0
_OPEN_ENDED_CAPACITY_FACTOR = 3.0
# With a voltage or current resolution, the solution is sampled this much finer than the
# time resolution and thinned afterwards (see ``output._thin``).
FINE_SAMPLING_FACTOR = 10


def protocol_input_name(name: str) -> str:
    """Name of the PyBaMM input parameter behind ``input['name']`` in a step value."""
    return PROTOCOL_INPUT_PREFIX + name


def output_period(protocol: Protocol) -> float:
    """Seconds between solution samples."""
    resolution = protocol.resolution
    period = resolution.time or DEFAULT_PERIOD_S
    if resolution.voltage is not None or resolution.current is not None:
        period /= FINE_SAMPLING_FACTOR
    return period


def _magnitude_above(variable: str, threshold: float, unit: str) -> pybamm.step.CustomTermination:
    # The name goes into PyBaMM's step identity, so it must spell out the threshold.
    return pybamm.step.CustomTermination(
        f"abs({variable}) > {threshold!r}{unit}",
        lambda variables: threshold - abs(variables[variable]),
    )


def _termination(end: EndCondition):
    if end.variable == "Voltage":
        return pybamm.step.VoltageTermination(end.threshold, operator=end.operator)
    if end.variable == "Current":
        if end.operator == "<":
            return pybamm.step.CurrentTermination(end.threshold)  # |I| < threshold
        return _magnitude_above("Current [A]", end.threshold, " [A]")
    if end.operator == "<":
        return pybamm.step.CRateTermination(end.threshold)  # |C-rate| < threshold
    return _magnitude_above("C-rate", end.threshold, "")


def _value(value, sign: float):
    if isinstance(value, InputRef):
        return sign * pybamm.InputParameter(protocol_input_name(value.name))
    return sign * value


def is_open_ended(step: Step) -> bool:
    """A step without a duration that runs until an end condition (or its time limit). A drive
    cycle without one is not: it lasts as long as its data."""
    return step.duration is None and step.type != "DriveCycle"


def open_ended_limit(step: Step, nominal_capacity_ah: float) -> float:
    """Longest simulated time of an open-ended step [s]."""
    if isinstance(step.value, float) and step.mode in ("C-rate", "current"):
        c_rate = step.value if step.mode == "C-rate" else step.value / nominal_capacity_ah
        return _OPEN_ENDED_CAPACITY_FACTOR * 3600.0 / c_rate
    return OPEN_ENDED_STEP_LIMIT_S


def pybamm_step(step: Step, period: float, nominal_capacity_ah: float) -> pybamm.step.BaseStep:
    """The PyBaMM step for one UCP step (Goto excluded)."""
    kwargs = {
        "termination": [_termination(end) for end in step.ends],
        "period": period,
        "description": step.path,
        # An end condition already true at the start is an error to report, not to skip.
        "skip_ok": False,
    }
    kwargs["duration"] = open_ended_limit(step, nominal_capacity_ah) if is_open_ended(step) else step.duration
    if step.type == "DriveCycle":
        data = np.asarray(step.data, dtype=float)
        kwargs["period"] = min(period, float(np.diff(data[:, 0]).min()))
        make = pybamm.step.current if step.mode == "current" else pybamm.step.power
        return make(data, **kwargs)

    if step.type == "Rest":
        return pybamm.step.rest(**kwargs)
    if step.type == "Hold":
        return pybamm.step.voltage(_value(step.value, 1.0), **kwargs)
    sign = 1.0 if step.type == "Discharge" else -1.0  # PyBaMM: positive current discharges
    make = {"C-rate": pybamm.step.c_rate, "current": pybamm.step.current, "power": pybamm.step.power}[step.mode]
    return make(_value(step.value, sign), **kwargs)


def build_experiment(
    plan: list[PlannedStep], period: float, temperature_k: float | None, nominal_capacity_ah: float
) -> pybamm.Experiment:
    # One PyBaMM step object per UCP step, reused on every pass of a loop, so PyBaMM
    # processes (and builds a model for) each distinct step once.
    by_index: dict[int, pybamm.step.BaseStep] = {}
    for planned in plan:
        if planned.step.index not in by_index:
            by_index[planned.step.index] = pybamm_step(planned.step, period, nominal_capacity_ah)
    return pybamm.Experiment([by_index[planned.step.index] for planned in plan], temperature=temperature_k)


def experiment_input_names(plan: list[PlannedStep]) -> list[str]:
    """Protocol inputs that appear in step values (and so in the built models)."""
    names: list[str] = []
    for planned in plan:
        value = planned.step.value
        if isinstance(value, InputRef) and value.name not in names:
            names.append(value.name)
    return names

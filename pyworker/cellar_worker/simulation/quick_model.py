"""Parameter values of the quick model: a Thevenin equivalent circuit per chemistry.

The published chemistries and their base parameters live in ``chemistries.json`` (the
TypeScript API reads the same file). The shape of the resistance tables (temperature,
current and state-of-charge dependence) is borrowed from PyBaMM's bundled
``ECM_Example`` set, which describes a 100 A.h cell; everything is rescaled to the
requested capacity so that equal C-rates see equal behaviour.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import numpy as np
import pybamm

from .errors import configuration_error

CHEMISTRIES_PATH = Path(__file__).with_name("chemistries.json")
BASE_PARAMETER_SET = "ECM_Example"

# The ECM SoC state must stay strictly inside (0, 1): PyBaMM stops the solve when the
# "Minimum SoC" / "Maximum SoC" events reach zero, including at the initial state.
SOC_MARGIN = 1e-6

_CAPACITY_SCALED = (
    "Cell thermal mass [J/K]",
    "Cell-jig heat transfer coefficient [W/K]",
    "Jig thermal mass [J/K]",
    "Jig-air heat transfer coefficient [W/K]",
)


@functools.cache
def chemistries() -> dict[str, dict]:
    """Published chemistries by name."""
    with open(CHEMISTRIES_PATH, encoding="utf-8") as handle:
        return {entry["name"]: entry for entry in json.load(handle)["chemistries"]}


def chemistry(name) -> dict:
    table = chemistries()
    if name not in table:
        raise configuration_error(
            f"model.chemistry: unknown chemistry {name!r}; allowed: {', '.join(table)}"
        )
    return table[name]


@functools.cache
def _reference_dc_resistance() -> float:
    """R0 + R1 of ECM_Example at 25 degC, zero current and 50 % SoC [Ohm]."""
    base = pybamm.ParameterValues(BASE_PARAMETER_SET)
    at = (pybamm.Scalar(25.0), pybamm.Scalar(0.0), pybamm.Scalar(0.5))
    return sum(float(base[name](*at).evaluate().item()) for name in ("R0 [Ohm]", "R1 [Ohm]"))


def _check_positive(value, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise configuration_error(f"{path}: must be a positive number")
    return float(value)


def quick_parameter_values(capacity_ah, chemistry_name, resistance_pct=100.0) -> pybamm.ParameterValues:
    """ParameterValues for ``pybamm.equivalent_circuit.Thevenin`` from capacity and chemistry."""
    capacity = _check_positive(capacity_ah, "model.capacity")
    resistance_factor = _check_positive(resistance_pct, "model.resistance_pct") / 100.0
    chem = chemistry(chemistry_name)

    values = pybamm.ParameterValues(BASE_PARAMETER_SET)
    reference_capacity = float(values["Nominal cell capacity [A.h]"])
    capacity_ratio = capacity / reference_capacity
    # Ohms of the base tables -> ohms of this cell.
    resistance_scale = (
        chem["dc_resistance_ohm_ah"] / capacity / _reference_dc_resistance() * resistance_factor
    )

    base_r0, base_r1, base_c1 = values["R0 [Ohm]"], values["R1 [Ohm]"], values["C1 [F]"]

    def r0(temperature, current, soc):
        return base_r0(temperature, current / capacity_ratio, soc) * resistance_scale

    def r1(temperature, current, soc):
        return base_r1(temperature, current / capacity_ratio, soc) * resistance_scale

    def c1(temperature, current, soc):
        # Dividing by the same factor keeps the RC time constant R1 * C1 unchanged.
        return base_c1(temperature, current / capacity_ratio, soc) / resistance_scale

    soc_points = np.asarray(chem["ocv"]["soc"], dtype=float)
    ocv_points = np.asarray(chem["ocv"]["voltage_v"], dtype=float)
    ocv_name = f"{chem['name']} open-circuit voltage"

    def ocv(soc):
        return pybamm.Interpolant(soc_points, ocv_points, soc, name=ocv_name, interpolator="linear")

    entropic = chem["entropic_change_v_per_k"]

    def entropic_change(open_circuit_voltage, temperature):
        return pybamm.Scalar(entropic)

    values.update(
        {
            "Cell capacity [A.h]": capacity,
            "Nominal cell capacity [A.h]": capacity,
            "Current function [A]": capacity,
            "Upper voltage cut-off [V]": chem["voltage_max_v"],
            "Lower voltage cut-off [V]": chem["voltage_min_v"],
            "Open-circuit voltage [V]": ocv,
            "R0 [Ohm]": r0,
            "R1 [Ohm]": r1,
            "C1 [F]": c1,
            "Entropic change [V/K]": entropic_change,
            "Initial SoC": 1.0 - SOC_MARGIN,
            **{name: float(values[name]) * capacity_ratio for name in _CAPACITY_SCALED},
        }
    )
    return values

"""Parameter values of the quick model: a Thevenin equivalent circuit per chemistry.

The published chemistries and their base parameters live in ``tables/chemistries.json`` (the
TypeScript API reads the same file; its description states the rules applied here).
PyBaMM's bundled ``ECM_Example`` set (a 100 A.h cell) provides the remaining thermal
parameters, scaled to the requested capacity. The resistances follow the closed-form
rules ECM_Example's lookup tables were generated with, which are much cheaper for the
solver than those tables.
"""

from __future__ import annotations

import functools
import json
import math

import numpy as np
import pybamm

from ..tables import CHEMISTRIES_PATH
from .errors import configuration_error

BASE_PARAMETER_SET = "ECM_Example"
GAS_CONSTANT = 8.314462618  # J/(mol K)
REFERENCE_TEMPERATURE_K = 298.15

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
        raise configuration_error(f"model.chemistry: unknown chemistry {name!r}; allowed: {', '.join(table)}")
    return table[name]


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
    capacity_ratio = capacity / float(values["Nominal cell capacity [A.h]"])
    dc_resistance = chem["dc_resistance_ohm_ah"] / capacity * resistance_factor
    r0_fraction = chem["r0_fraction"]
    activation = chem["resistance_activation_energy_j_per_mol"] / GAS_CONSTANT
    curvature = chem["resistance_soc_curvature"]
    current_slope = chem["resistance_current_slope_per_c"] / capacity  # per ampere

    def dc_resistance_at(temperature_c, current, soc):
        arrhenius = pybamm.exp(activation * (1 / (temperature_c + 273.15) - 1 / REFERENCE_TEMPERATURE_K))
        return dc_resistance * (1 + curvature * (2 * soc - 1) ** 2) * arrhenius * (1 + current_slope * abs(current))

    def r0(temperature_c, current, soc):
        return r0_fraction * dc_resistance_at(temperature_c, current, soc)

    def r1(temperature_c, current, soc):
        return (1 - r0_fraction) * dc_resistance_at(temperature_c, current, soc)

    def c1(temperature_c, current, soc):
        return chem["rc_time_constant_s"] / r1(temperature_c, current, soc)

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

"""Canonical time-series column names (units are part of the name)."""

TIME = "Time [s]"
CURRENT = "Current [A]"
VOLTAGE = "Voltage [V]"
STEP = "Step count"
CYCLE = "Cycle count"
DISCHARGE_CAPACITY = "Discharge capacity [A.h]"
CHARGE_CAPACITY = "Charge capacity [A.h]"
DISCHARGE_ENERGY = "Discharge energy [W.h]"
CHARGE_ENERGY = "Charge energy [W.h]"
POWER = "Power [W]"
TEMPERATURE = "Temperature [degC]"
STEP_FROM_CYCLER = "Step from cycler"
FREQUENCY = "Frequency [Hz]"

CUMULATIVE = (DISCHARGE_CAPACITY, CHARGE_CAPACITY, DISCHARGE_ENERGY, CHARGE_ENERGY)
OPTIONAL = (
    POWER,
    TEMPERATURE,
    STEP_FROM_CYCLER,
    FREQUENCY,
    "Z_Re [Ohm]",
    "Z_Im [Ohm]",
    "Z_Mod [Ohm]",
    "Z_Phase [deg]",
)
# Storage order of the canonical time series.
ORDER = (TIME, CURRENT, VOLTAGE, STEP, CYCLE, *CUMULATIVE, *OPTIONAL)
KNOWN = frozenset(ORDER)
# Integer columns; everything else is float64.
COUNTS = frozenset({STEP, CYCLE, STEP_FROM_CYCLER})

ALIASES = {"Cycle number": CYCLE, "Cycle from cycler": CYCLE}


def ordered(columns) -> list[str]:
    present = set(columns)
    return [name for name in ORDER if name in present]

"""Simulation requests the tests build, and reading their stored results."""

import copy

import pyarrow.parquet as pq

QUICK_5AH = {"kind": "quick", "capacity": 5.0, "chemistry": "NMC/Graphite"}
SPM_COARSE = {"kind": "pybamm", "type": "SPM", "simulation_settings": {"var_pts": {"r_n": 10, "r_p": 10}}}


def request(protocol, inputs=None, model=QUICK_5AH, **extra):
    return {
        "simulation_id": "sim-1",
        "model": copy.deepcopy(model),
        "protocol": protocol,
        "inputs": inputs or {},
        "output_prefix": "simulations/org-1/sim-1/",
        **extra,
    }


def full_discharge(soc=100, rate=1):
    return {
        "global": {"initial_state_type": "soc_percentage", "initial_state_value": soc},
        "steps": [{"Discharge": {"mode": "C-rate", "value": rate, "ends": ["Voltage < 2.5"]}}],
    }


def read(storage_dir, name):
    return pq.read_table(storage_dir / "simulations" / "org-1" / "sim-1" / name)

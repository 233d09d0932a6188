"""The 'measured' data the fitting tests fit to, and the requests they send."""

import contextlib
import copy
import io

import pyarrow.parquet as pq
import pytest

from cellar_worker import settings, storage
from cellar_worker.simulation import run_simulation

QUICK = {"kind": "quick", "capacity": 2.0, "chemistry": "NMC/Graphite"}
R0 = "R0 [Ohm]"
TRUE_R0 = 0.02
SERIES_KEY = "measurements/org-1/m-1/time_series.parquet"


def discharge_protocol(rate=1.0, temperature_c=None):
    protocol = {
        "global": {"initial_state_type": "soc_percentage", "initial_state_value": 100},
        "steps": [
            {"Discharge": {"mode": "C-rate", "value": rate, "ends": ["Voltage < 3.3"]}},
            {"Rest": {"duration": 600}},
        ],
    }
    if temperature_c is not None:
        protocol["global"]["initial_temperature"] = temperature_c
    return protocol


def simulate(model, protocol, inputs, extra_variables=()) -> bytes:
    """A simulated 'measurement': the canonical time_series.parquet bytes."""
    # The settings are read again with the storage folder set, and again once it is unset.
    with contextlib.ExitStack() as stack:
        stack.callback(settings.reset)
        patch, folder = stack.enter_context(pytest.MonkeyPatch.context()), stack.enter_context(_tmpdir())
        patch.setenv("STORAGE_DRIVER", "fs")
        patch.setenv("STORAGE_DIR", folder)
        settings.reset()
        run_simulation(
            {
                "simulation_id": "synthetic",
                "model": copy.deepcopy(model),
                "protocol": protocol,
                "inputs": inputs,
                "extra_variables": list(extra_variables),
                "output_prefix": "synthetic/",
            }
        )
        with storage.open_read("synthetic/time_series.parquet") as handle:
            return handle.read()


def _tmpdir():
    import tempfile

    return tempfile.TemporaryDirectory(prefix="cellar-fit-test-")


def inline(parquet: bytes, columns=("Time [s]", "Current [A]", "Voltage [V]")) -> dict:
    table = pq.read_table(io.BytesIO(parquet), columns=list(columns))
    return {"source": "inline", "columns": {name: table.column(name).to_pylist() for name in columns}}


def fit_request(data, **extra):
    request = {
        "element_name": "fit-r0",
        "model": copy.deepcopy(QUICK),
        "parameters": {R0: {"bounds": [0.001, 0.1], "initial_value": 0.01}},
        "data": data,
        "cost": "RMSE",
        "optimizer": {"method": "Nelder-Mead", "max_iterations": 100},
    }
    request.update(extra)
    return request

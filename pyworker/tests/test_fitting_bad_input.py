"""Bad fit input refused as configuration errors, and the solver errors a fit reports."""

import io

import numpy as np
import pyarrow.parquet as pq
import pytest
from application_errors import raises
from fit_data import QUICK, R0, SERIES_KEY, TRUE_R0, discharge_protocol, fit_request, inline, simulate

from cellar_worker import storage
from cellar_worker.fitting import fit_parameters, fit_parameters_array, validate_against_data


@pytest.fixture(scope="module")
def quick_discharge() -> bytes:
    return simulate(QUICK, discharge_protocol(), {R0: TRUE_R0})


def _long_inline(rows: int) -> dict:
    time = np.arange(rows, dtype=float)
    return {
        "source": "inline",
        "columns": {"Time [s]": time.tolist(), "Current [A]": [1.0] * rows, "Voltage [V]": [3.7] * rows},
    }


BAD_FITS = [
    ("no parameters", {"parameters": {}}, "parameters"),
    (
        "bounds reversed",
        {"parameters": {R0: {"bounds": [0.1, 0.01], "initial_value": 0.05}}},
        f"parameters['{R0}'].bounds",
    ),
    ("bounds equal", {"parameters": {R0: {"bounds": [0.1, 0.1], "initial_value": 0.1}}}, f"parameters['{R0}'].bounds"),
    (
        "initial outside",
        {"parameters": {R0: {"bounds": [0.001, 0.1], "initial_value": 0.5}}},
        f"parameters['{R0}'].initial_value",
    ),
    (
        "unknown parameter",
        {"parameters": {"Flux capacitance [F]": {"bounds": [0, 1], "initial_value": 0.5}}},
        "parameters['Flux capacitance [F]']",
    ),
    (
        "current is data",
        {"parameters": {"Current function [A]": {"bounds": [0, 1], "initial_value": 0.5}}},
        "parameters['Current function [A]']",
    ),
    ("inline over 1000 rows", {"data": _long_inline(1001)}, "1000 rows"),
    (
        "missing column",
        {"data": {"source": "inline", "columns": {"Time [s]": [0, 1, 2], "Voltage [V]": [4, 4, 4]}}},
        "'Current [A]'",
    ),
    ("unknown target", {"target": "Warp factor"}, "target: unknown variable"),
    ("target varies in space", {"target": "Distributed SoC"}, "target: 'Distributed SoC' varies in space"),
    (
        "negative lower bound of a resistance",
        {"parameters": {R0: {"bounds": [-0.01, 0.1], "initial_value": 0.01}}},
        f"parameters['{R0}'].bounds[0]: -0.01 is negative",
    ),
    (
        "negative fixed capacitance",
        {"fixed_parameters": {"C1 [F]": -10}},
        "fixed_parameters['C1 [F]']: -10 is negative",
    ),
    ("unknown cost", {"cost": "R2"}, "cost"),
    ("unknown method", {"optimizer": {"method": "BFGS"}}, "optimizer.method"),
    ("least squares of MAE", {"cost": "MAE", "optimizer": {"method": "least_squares"}}, "optimizer.method"),
    ("bad source", {"data": {"source": "db", "id": "x"}}, "data.source"),
    ("reversed time range", {"data": {**_long_inline(10), "time_range": [5, 1]}}, "data.time_range"),
    ("unknown field", {"colour": "red"}, "colour"),
    (
        "fixed not a number",
        {"fixed_parameters": {"Cell capacity [A.h]": "big"}},
        "fixed_parameters['Cell capacity [A.h]']",
    ),
]


@pytest.mark.parametrize("case, change, field", BAD_FITS, ids=[case for case, _, _ in BAD_FITS])
def test_bad_fit_input_is_a_configuration_error(case, change, field):
    request = fit_request(_long_inline(10))
    request.update(change)
    message = raises("CONFIGURATION_ERROR", fit_parameters, request)
    assert field in message


def test_missing_stored_data_is_a_configuration_error(fs_storage):
    message = raises(
        "CONFIGURATION_ERROR", fit_parameters, fit_request({"source": "storage", "key": "nope/time_series.parquet"})
    )
    assert message.startswith("data.key")


def test_time_range_selects_rows_and_large_stored_data_is_refused(fs_storage, quick_discharge, monkeypatch):
    storage.put_bytes(SERIES_KEY, quick_discharge)
    data = {"source": "storage", "key": SERIES_KEY}
    rows = pq.read_table(io.BytesIO(quick_discharge)).num_rows
    request = {"model": QUICK, "parameter_values": {R0: TRUE_R0}, "data": {**data, "time_range": [0, 1200]}}
    result = validate_against_data(request)
    assert 0 < result["n_data_points"] < rows / 2
    monkeypatch.setattr("cellar_worker.fitting.data.MAX_ROWS", 100)
    message = raises("CONFIGURATION_ERROR", validate_against_data, {**request, "data": data})
    assert message.startswith("data:") and "time_range" in message


def test_array_fit_bad_input():
    base = {
        "model": QUICK,
        "independent_variable": "C-rate",
        "parameters": {R0: {"bounds": [0.001, 0.1], "initial_value": 0.01}},
    }
    assert "datasets" in raises("CONFIGURATION_ERROR", fit_parameters_array, {**base, "datasets": []})
    too_long = {**base, "datasets": [{"value": 1, "data": _long_inline(1001)}]}
    assert "datasets[0].data.columns" in raises("CONFIGURATION_ERROR", fit_parameters_array, too_long)
    clash = {**base, "independent_variable": R0, "datasets": [{"value": 1, "data": _long_inline(10)}]}
    assert "independent_variable" in raises("CONFIGURATION_ERROR", fit_parameters_array, clash)
    both = {**base, "mode": "both", "datasets": [{"value": 1, "data": _long_inline(10)}]}
    assert raises("CONFIGURATION_ERROR", fit_parameters_array, both).startswith("mode:")
    # least_squares minimizes a sum of squares; a sum of several RMSEs is not one.
    two = [{"value": 1, "data": _long_inline(10)}, {"value": 2, "data": _long_inline(10)}]
    squares = {**base, "datasets": two, "optimizer": {"method": "least_squares"}}
    assert raises("CONFIGURATION_ERROR", fit_parameters_array, squares).startswith("optimizer.method:")


def test_start_point_the_solver_cannot_handle_is_a_solver_error(quick_discharge):
    # A zero thermal mass divides by zero in the thermal equation (see simulation/runner.py).
    request = fit_request(
        inline(quick_discharge), parameters={"Cell thermal mass [J/K]": {"bounds": [0, 1000], "initial_value": 0}}
    )
    message = raises("SOLVER_ERROR", fit_parameters, request)
    assert "solver failed" in message

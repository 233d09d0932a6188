"""Parameter fitting and validation against data, with real PyBaMM.

The "measured" data are simulations of the simulation package (its experiment path, with
a known parameter value), stored as canonical Parquet time series; the fits drive the
model with that data's current through a different path (a drive-cycle interpolant), so
recovering the value checks both the fit and the data handling.
"""

import contextlib
import copy
import io

import numpy as np
import pyarrow.parquet as pq
import pytest
from application_errors import raises

from cellar_worker import settings, storage
from cellar_worker.fitting import evaluator as evaluator_module
from cellar_worker.fitting import fit_parameters, fit_parameters_array, validate_against_data
from cellar_worker.fitting.evaluator import EvaluationFailed
from cellar_worker.simulation import run_simulation
from cellar_worker.simulation.errors import solver_error

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


@pytest.fixture(scope="module")
def quick_discharge() -> bytes:
    return simulate(QUICK, discharge_protocol(), {R0: TRUE_R0})


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


# ----------------------------------------------------------------------------- fits


def test_fit_recovers_the_resistance_from_a_stored_measurement(fs_storage, quick_discharge):
    storage.put_bytes(SERIES_KEY, quick_discharge)
    result = fit_parameters(
        fit_request({"source": "storage", "key": SERIES_KEY}, fixed_parameters={"Cell mass [kg]": 0.05})
    )
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.02)
    assert result["converged"] is True
    assert result["cost_name"] == "RMSE"
    assert result["cost"] == pytest.approx(result["summary_stats"]["RMSE"])
    assert result["summary_stats"]["RMSE"] < 2e-3  # V
    assert set(result["summary_stats"]) == {"RMSE", "MAE", "Max"}
    assert result["evaluations"] >= result["iterations"] > 0
    assert result["coverage"] == 1.0
    assert result["resumed"] is False
    assert result["initial_parameters"] == {R0: 0.01}
    # The quick model has no such parameter: reported, not an error.
    assert result["ignored_parameters"] == ["Cell mass [kg]"]
    assert result["element_name"] == "fit-r0"


@pytest.mark.parametrize("method", ["Nelder-Mead", "differential_evolution", "least_squares"])
def test_the_optimizer_trace_follows_the_fit(quick_discharge, method):
    optimizer = {"method": method, "max_iterations": 8}
    result = fit_parameters(fit_request(inline(quick_discharge), optimizer=optimizer))
    trace = result["intermediate_results"]
    # The start point, then one entry per iteration.
    assert [entry["iteration"] for entry in trace] == list(range(len(trace)))
    assert len(trace) == result["iterations"] + 1
    assert trace[0]["inputs_unscaled"][R0] == pytest.approx(0.01)
    assert trace[0]["inputs"][R0] == pytest.approx((0.01 - 0.001) / (0.1 - 0.001))
    for entry in trace:
        unit = entry["inputs"][R0]
        assert entry["inputs_unscaled"][R0] == pytest.approx(0.001 + unit * (0.1 - 0.001))
    # best_cost never rises, and ends at the cost reported for the fitted values.
    best = [entry["best_cost"] for entry in trace]
    assert best == sorted(best, reverse=True)
    assert min(best[-1], trace[-1]["cost"]) == pytest.approx(result["cost"])
    assert trace[-1]["cost"] < trace[0]["cost"]


def test_a_long_trace_is_thinned_evenly():
    from cellar_worker.fitting.optimize import MAX_TRACE, Progress

    progress = Progress()
    for iteration in range(5 * MAX_TRACE):
        progress.log(iteration, 1.0 / (iteration + 1), {"a": 0.5}, {"a": 2.0})
    iterations = [entry["iteration"] for entry in progress.trace]
    assert len(iterations) <= MAX_TRACE
    assert iterations[0] == 0 and iterations[-1] >= 5 * MAX_TRACE - 8
    assert len({b - a for a, b in zip(iterations, iterations[1:])}) == 1


@pytest.mark.parametrize("method", ["L-BFGS-B", "least_squares"])
def test_other_optimizers_recover_it_too(quick_discharge, method):
    request = fit_request(inline(quick_discharge), optimizer={"method": method, "max_iterations": 50})
    result = fit_parameters(request)
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.02)


@pytest.mark.parametrize("cost", ["MAE", "Max", "SSE"])
def test_each_cost_is_minimized_and_reported(quick_discharge, cost):
    result = fit_parameters(fit_request(inline(quick_discharge), cost=cost))
    assert result["cost_name"] == cost
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.05)
    if cost != "SSE":
        assert result["cost"] == pytest.approx(result["summary_stats"][cost])


def test_spme_diffusivity_is_recovered():
    diffusivity = "Negative particle diffusivity [m2.s-1]"
    model = {"type": "SPMe", "simulation_settings": {"var_pts": {"x_n": 10, "x_s": 5, "x_p": 10, "r_n": 10, "r_p": 10}}}
    protocol = {
        "global": {"initial_state_type": "soc_percentage", "initial_state_value": 90},
        "steps": [{"Discharge": {"mode": "C-rate", "value": 1.5, "duration": 1200}}, {"Rest": {"duration": 300}}],
    }
    data = inline(simulate(model, protocol, {diffusivity: 3.3e-14}))
    result = fit_parameters(
        {
            "model": model,
            "parameters": {diffusivity: {"bounds": [1e-15, 1e-12], "initial_value": 1e-14, "scale": "log"}},
            "fixed_parameters": {"Initial SOC [%]": 90},
            "data": data,
            "optimizer": {"method": "Nelder-Mead", "max_iterations": 60},
        }
    )
    assert result["parameter_values"][diffusivity] == pytest.approx(3.3e-14, rel=0.05)
    assert result["summary_stats"]["RMSE"] < 2e-3


def test_fit_driven_by_a_protocol(quick_discharge):
    data = inline(quick_discharge, columns=("Time [s]", "Voltage [V]"))
    result = fit_parameters(fit_request(data, protocol=discharge_protocol()))
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.02)


def test_fit_driven_by_a_protocol_to_another_variable_than_voltage():
    # The protocol's simulations keep only the variables read; the target must be one of them.
    temperature = "Cell temperature [degC]"
    data = inline(
        simulate(QUICK, discharge_protocol(), {R0: TRUE_R0}, [temperature]), columns=("Time [s]", temperature)
    )
    result = fit_parameters(fit_request(data, protocol=discharge_protocol(), target=temperature))
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.05)


def test_initial_soc_can_be_fitted_with_a_parameter():
    data = inline(
        simulate(
            QUICK,
            {**discharge_protocol(), "global": {"initial_state_type": "soc_percentage", "initial_state_value": 80}},
            {R0: TRUE_R0},
        )
    )
    result = fit_parameters(
        fit_request(
            data,
            parameters={
                R0: {"bounds": [0.001, 0.1], "initial_value": 0.01},
                "Initial SOC [%]": {"bounds": [50, 100], "initial_value": 95},
            },
        )
    )
    assert result["parameter_values"]["Initial SOC [%]"] == pytest.approx(80, abs=1)
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.05)


def test_failed_candidates_cost_a_lot_and_the_fit_goes_on(quick_discharge, monkeypatch):
    # A real evaluator, which in addition refuses resistances above 0.05 Ohm, as a
    # solver would fail for part of a parameter range.
    real = evaluator_module.DriveCycleEvaluator.predict

    def predict(self, values, should_cancel=None):
        if values[R0] > 0.05:
            raise EvaluationFailed(solver_error("the solver failed: test"))
        return real(self, values, should_cancel)

    monkeypatch.setattr(evaluator_module.DriveCycleEvaluator, "predict", predict)
    request = fit_request(inline(quick_discharge), optimizer={"method": "differential_evolution", "max_iterations": 8})
    result = fit_parameters(request)
    assert result["failed_evaluations"] > 0
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.05)


# ----------------------------------------------------------------------------- validation, arrays


def test_validation_of_the_generating_model_is_close_to_zero(fs_storage, quick_discharge):
    storage.put_bytes(SERIES_KEY, quick_discharge)
    request = {
        "element_name": "check",
        "model": QUICK,
        "parameter_values": {R0: TRUE_R0},
        "data": {"source": "storage", "key": SERIES_KEY},
    }
    result = validate_against_data(request)
    table = pq.read_table(io.BytesIO(quick_discharge))
    assert result["n_points"] == result["n_data_points"] <= table.num_rows
    assert result["coverage"] == 1.0
    assert result["summary_stats"]["RMSE"] < 2e-3
    assert result["summary_stats"]["Max"] < 1e-2
    wrong = validate_against_data({**request, "parameter_values": {R0: 2 * TRUE_R0}})
    assert wrong["summary_stats"]["RMSE"] > 10 * result["summary_stats"]["RMSE"]
    # While discharging at 2 A, the voltage is ΔR0 x 2 A = 40 mV lower; at rest the same.
    assert wrong["summary_stats"]["Max"] == pytest.approx(TRUE_R0 * 2.0, rel=0.25)
    assert 0.02 < wrong["summary_stats"]["MAE"] < 0.04


def test_array_fit_over_two_temperatures():
    datasets = [
        {
            "value": kelvin,
            "data": inline(simulate(QUICK, discharge_protocol(temperature_c=kelvin - 273.15), {R0: TRUE_R0})),
        }
        for kelvin in (283.15, 308.15)
    ]
    result = fit_parameters_array(
        {
            "model": QUICK,
            "independent_variable": "Ambient temperature [K]",
            "datasets": datasets,
            "parameters": {R0: {"bounds": [0.001, 0.1], "initial_value": 0.01}},
            "fixed_parameters": {"Initial SOC [%]": 100},
        }
    )
    assert result["independent_variable_applied"] is True
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.03)
    assert [entry["value"] for entry in result["per_dataset"]] == [283.15, 308.15]
    assert result["cost"] == pytest.approx(sum(entry["cost"] for entry in result["per_dataset"]))
    for entry in result["per_dataset"]:
        assert entry["summary_stats"]["RMSE"] < 3e-3
    assert result["n_points"] == sum(entry["n_points"] for entry in result["per_dataset"])


def test_array_fit_with_a_label_variable(quick_discharge):
    datasets = [
        {"value": 1.0, "data": inline(quick_discharge)},
        {"value": 0.5, "data": inline(simulate(QUICK, discharge_protocol(rate=0.5), {R0: TRUE_R0}))},
    ]
    result = fit_parameters_array(
        {
            "model": QUICK,
            "independent_variable": "C-rate",
            "datasets": datasets,
            "parameters": {R0: {"bounds": [0.001, 0.1], "initial_value": 0.01}},
        }
    )
    assert result["independent_variable_applied"] is False
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.03)


AGED_R0 = {0.0: 0.015, 500.0: 0.03}  # cycle number -> true R0 of the synthetic data


def aged_datasets() -> list[dict]:
    """Two data sets keyed by a label variable ("Cycle number"), with different true R0."""
    return [
        {"value": cycles, "data": inline(simulate(QUICK, discharge_protocol(), {R0: r0}))}
        for cycles, r0 in AGED_R0.items()
    ]


def aged_request(datasets, **extra) -> dict:
    return {
        "model": QUICK,
        "independent_variable": "Cycle number",
        "datasets": datasets,
        "parameters": {R0: {"bounds": [0.001, 0.1], "initial_value": 0.01}},
        "mode": "per_dataset",
        **extra,
    }


def test_weights_pull_the_joint_fit_towards_the_heavier_data_set():
    """The joint cost is the weighted sum of the data sets' costs (a DataFit's objective_weights)."""
    datasets = aged_datasets()
    even = fit_parameters_array(aged_request(datasets, mode="joint", cost="SSE"))
    heavy = [{**datasets[0], "weight": 50.0}, datasets[1]]
    weighted = fit_parameters_array(aged_request(heavy, mode="joint", cost="SSE"))
    low, high = AGED_R0[0.0], AGED_R0[500.0]
    assert low < even["parameter_values"][R0] < high
    assert abs(weighted["parameter_values"][R0] - low) < abs(even["parameter_values"][R0] - low) / 5
    assert [entry["weight"] for entry in weighted["per_dataset"]] == [50.0, 1.0]
    assert weighted["cost"] == pytest.approx(sum(e["weight"] * e["cost"] for e in weighted["per_dataset"]))
    zero = aged_request([datasets[0], {**datasets[1], "weight": 0}], mode="joint")
    assert raises("CONFIGURATION_ERROR", fit_parameters_array, zero).startswith("datasets[1].weight")


def test_per_dataset_mode_fits_each_data_set_on_its_own():
    result = fit_parameters_array(aged_request(aged_datasets()))
    assert result["mode"] == "per_dataset"
    assert [entry["key"] for entry in result["per_dataset"]] == list(AGED_R0)
    for entry in result["per_dataset"]:
        assert entry["parameter_values"][R0] == pytest.approx(AGED_R0[entry["key"]], rel=0.03)
        assert entry["summary_stats"]["RMSE"] < 3e-3
        # Its own fit is much closer than the joint one, which is the compromise between them.
        assert entry["joint_summary_stats"]["RMSE"] > 3 * entry["summary_stats"]["RMSE"]
        # Each starts from the joint values.
        assert entry["initial_parameters"] == result["parameter_values"]
    # What later elements receive is the joint fit's.
    assert min(AGED_R0.values()) < result["parameter_values"][R0] < max(AGED_R0.values())
    assert result["cost"] == pytest.approx(sum(entry["joint_cost"] for entry in result["per_dataset"]))
    assert result["resumed"] is False


# ----------------------------------------------------------------------------- bad input


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

"""Parameter fitting and validation against data, with real PyBaMM.

The "measured" data are simulations of the simulation package (its experiment path, with
a known parameter value), stored as canonical Parquet time series; the fits drive the
model with that data's current through a different path (a drive-cycle interpolant), so
recovering the value checks both the fit and the data handling.
"""

import io

import pyarrow.parquet as pq
import pytest
from application_errors import raises
from fit_data import QUICK, R0, SERIES_KEY, TRUE_R0, discharge_protocol, fit_request, inline, simulate

from cellar_worker import storage
from cellar_worker.fitting import drive_cycle_evaluator as evaluator_module
from cellar_worker.fitting import fit_parameters, fit_parameters_array, validate_against_data
from cellar_worker.fitting.evaluator import EvaluationFailed
from cellar_worker.simulation.errors import solver_error


@pytest.fixture(scope="module")
def quick_discharge() -> bytes:
    return simulate(QUICK, discharge_protocol(), {R0: TRUE_R0})


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

"""End-to-end simulations with real PyBaMM: results, errors, caching, models."""

import numpy as np
import pytest
from application_errors import raises
from simulation_requests import SPM_COARSE, full_discharge, read, request

from cellar_worker.simulation import run_simulation, solving
from cellar_worker.simulation.cache import BuiltSimulationCache
from cellar_worker.simulation.errors import describe
from cellar_worker.simulation.job import prepare_request
from cellar_worker.simulation.steps_summary import SUMMARY_COLUMNS

TIME_SERIES_COLUMNS = [
    "Time [s]",
    "Voltage [V]",
    "Current [A]",
    "Step count",
    "Cycle count",
    "Discharge capacity [A.h]",
    "Charge capacity [A.h]",
    "Discharge energy [W.h]",
    "Charge energy [W.h]",
]


def test_1c_discharge_delivers_the_nominal_capacity(fs_storage):
    progress = []
    result = run_simulation(request(full_discharge()), on_progress=lambda done, total: progress.append((done, total)))

    assert result["storage_folder"] == "simulations/org-1/sim-1/"
    assert result["files"] == ["time_series.parquet", "steps.parquet"]
    metrics = result["metrics"]
    assert metrics["discharge_capacity_ah"] == pytest.approx(5.0, rel=0.03)
    assert metrics["charge_capacity_ah"] == 0
    assert metrics["duration_s"] == pytest.approx(3600, rel=0.03)
    assert metrics["min_voltage_v"] == pytest.approx(2.5, abs=1e-3)
    assert metrics["num_steps"] == 1
    assert progress == [(1, 1)]

    series = read(fs_storage, "time_series.parquet")
    assert series.column_names == TIME_SERIES_COLUMNS
    current = series.column("Current [A]").to_numpy()
    assert np.allclose(current, 5.0)  # 1C of 5 A.h, positive = discharge
    assert series.column("Discharge capacity [A.h]").to_numpy()[-1] == pytest.approx(metrics["discharge_capacity_ah"])

    steps = read(fs_storage, "steps.parquet")
    assert steps.column_names == list(SUMMARY_COLUMNS)
    row = steps.to_pylist()[0]
    assert row["Step type"] == "Constant current discharge"
    assert row["Label"] == "Discharge at 1 C until Voltage < 2.5"
    assert row["End voltage [V]"] == pytest.approx(2.5, abs=1e-3)


def test_cycling_protocol_with_goto_placeholders_and_extra_variable(fs_storage):
    protocol = {
        "global": {
            "initial_state_type": "soc_percentage",
            "initial_state_value": "input['Initial SOC [%]']",
            "initial_temperature": 25,
        },
        "steps": [
            {"Discharge": {"mode": "C-rate", "value": "input['Rate']", "ends": ["Voltage < 2.5"]}},
            {"Rest": {"duration": 600}},
            {"Charge": {"mode": "current", "value": 2.5, "ends": ["Voltage > 4.2"]}},
            {"Hold": {"mode": "voltage", "value": 4.2, "ends": ["Current < 0.1"], "label": "CV"}},
            {"Goto": {"step": 0, "repeat": 1}},
        ],
    }
    inputs = {"Initial SOC [%]": 50, "Rate": 0.5}
    result = run_simulation(request(protocol, inputs, extra_variables=["Cell temperature [degC]"]))

    series = read(fs_storage, "time_series.parquet")
    assert series.column_names == TIME_SERIES_COLUMNS + ["Cell temperature [degC]"]
    temperature = series.column("Cell temperature [degC]").to_numpy()
    assert temperature[0] == pytest.approx(25, abs=1e-6) and temperature.max() > 25

    steps = read(fs_storage, "steps.parquet").to_pylist()
    assert [row["Step count"] for row in steps] == list(range(8))
    assert [row["Cycle count"] for row in steps] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert [row["Step type"] for row in steps[:4]] == [
        "Constant current discharge",
        "Rest",
        "Constant current charge",
        "Constant voltage charge",
    ]
    assert steps[0]["Label"] == "Discharge at 0.5 C until Voltage < 2.5"
    assert steps[3]["Label"] == "CV"
    # input['Rate'] = 0.5 C of 5 A.h from 50 % SoC: about 2.5 A for about an hour.
    assert steps[0]["Mean current [A]"] == pytest.approx(2.5)
    assert steps[0]["Discharge capacity [A.h]"] == pytest.approx(2.5, rel=0.05)
    # The second pass starts full, so it delivers about the whole capacity.
    assert steps[4]["Discharge capacity [A.h]"] == pytest.approx(5.0, rel=0.05)
    # Capacity and energy columns restart from zero at every step.
    step_count = series.column("Step count").to_numpy()
    starts = np.flatnonzero(np.r_[True, np.diff(step_count) != 0])
    for name in TIME_SERIES_COLUMNS[5:]:
        assert np.all(series.column(name).to_numpy()[starts] == 0)
    assert result["metrics"]["num_steps"] == 8


def test_power_and_drive_cycle_steps_logged_at_the_requested_resolution(fs_storage):
    protocol = {
        "global": {
            "initial_state_type": "soc_percentage",
            "initial_state_value": 80,
            "resolution": {"time": 30, "voltage": 0.005},
        },
        "steps": [
            {"Discharge": {"mode": "power", "value": 10, "duration": 900}},
            {"DriveCycle": {"mode": "current", "data": [[0, 5], [60, -2.5], [120, 0], [180, 5]]}},
        ],
    }
    run_simulation(request(protocol))
    steps = read(fs_storage, "steps.parquet").to_pylist()
    assert steps[0]["Step type"] == "Constant power discharge"
    assert steps[0]["Mean power [W]"] == pytest.approx(10, rel=1e-3)
    assert steps[1]["Duration [s]"] == pytest.approx(180)
    assert steps[1]["Charge capacity [A.h]"] > 0 and steps[1]["Discharge capacity [A.h]"] > 0

    series = read(fs_storage, "time_series.parquet")
    time = series.column("Time [s]").to_numpy()
    voltage = series.column("Voltage [V]").to_numpy()
    step = series.column("Step count").to_numpy()
    same_step = step[1:] == step[:-1]
    last_of_step = np.r_[step[1:] != step[:-1], True]
    # Within a step, a row is logged after 30 s, or earlier on a 5 mV move (and the
    # last row of every step is kept).
    gaps, moves = np.diff(time)[same_step], np.abs(np.diff(voltage))[same_step]
    assert np.all(gaps <= 30 + 1e-6)
    assert np.all((gaps >= 30 - 1e-6) | (moves >= 0.005) | last_of_step[1:][same_step])
    assert np.any(gaps < 30 - 1e-6)  # the drive cycle moves the voltage fast enough


def test_second_design_point_reuses_the_built_simulation(fs_storage):
    protocol = full_discharge(soc=90)
    first = run_simulation(request(protocol, {"R0 [Ohm]": 0.010}))
    second = run_simulation(request(protocol, {"R0 [Ohm]": 0.030}))
    assert second["cache_hit"] is True
    # A larger series resistance reaches the cut-off earlier.
    assert second["metrics"]["discharge_capacity_ah"] < first["metrics"]["discharge_capacity_ah"]


def test_a_reused_build_gives_what_a_fresh_build_gives(fs_storage, monkeypatch):
    # A cached build keeps its processed initial conditions between solves; they must
    # still follow each design point's initial state and parameters.
    def solve_last(*points):
        monkeypatch.setattr(solving, "CACHE", BuiltSimulationCache())
        for soc, r0 in points:
            result = run_simulation(request(full_discharge(soc=soc), {"R0 [Ohm]": r0}))
        return result, read(fs_storage, "time_series.parquet"), read(fs_storage, "steps.parquet")

    reused, reused_series, reused_steps = solve_last((90, 0.010), (40, 0.030))
    fresh, fresh_series, fresh_steps = solve_last((40, 0.030))
    assert reused["cache_hit"] is True and fresh["cache_hit"] is False
    assert reused_series.equals(fresh_series)
    assert reused_steps.equals(fresh_steps)
    assert reused_series.column("Discharge capacity [A.h]").to_numpy()[-1] == pytest.approx(0.4 * 5.0, rel=0.05)


def test_a_cached_build_keeps_no_solution_and_the_solver_keeps_only_the_series_variables(fs_storage, monkeypatch):
    # A DFN's state is about a thousand values per time point: a long protocol's whole
    # solution took gigabytes, and the cache kept the last one of every build it held.
    cache = BuiltSimulationCache()
    monkeypatch.setattr(solving, "CACHE", cache)
    run_simulation(request(full_discharge(), extra_variables=["Cell temperature [degC]"]))
    [simulation] = [built for pool in cache._idle.values() for built in pool]
    assert simulation.solution is None
    assert simulation.solver.output_variables == ["Voltage [V]", "Current [A]", "Cell temperature [degC]"]
    # The columns come from those variables alone.
    series = read(fs_storage, "time_series.parquet")
    assert series.column_names == [*TIME_SERIES_COLUMNS, "Cell temperature [degC]"]


def test_equivalent_circuit_state_of_charge_matches_pybamm():
    # state_inputs sets an equivalent-circuit SoC without asking PyBaMM; PyBaMM must agree.
    job = prepare_request(request(full_discharge(soc=37)))
    values = job.recipe.base_parameters.copy()
    values.set_initial_state(0.37, options=job.recipe.model_options)
    assert solving.state_inputs(job) == {"Initial SoC": float(values["Initial SoC"])}


def test_unknown_parameter_is_a_configuration_error(fs_storage):
    message = raises("CONFIGURATION_ERROR", run_simulation, request(full_discharge(), {"Flux capacitance [F]": 1.21}))
    assert "inputs['Flux capacitance [F]']" in message


def test_unknown_extra_variable_is_a_configuration_error(fs_storage):
    message = raises("CONFIGURATION_ERROR", run_simulation, request(full_discharge(), extra_variables=["Warp factor"]))
    assert "extra_variables[0]" in message and "Warp factor" in message


def test_extra_variable_that_varies_in_space_is_refused_before_solving():
    # prepare_request reads the request and solves nothing.
    message = raises(
        "CONFIGURATION_ERROR",
        prepare_request,
        request(full_discharge(), model=SPM_COARSE, extra_variables=["Electrolyte concentration [mol.m-3]"]),
    )
    assert "extra_variables[0]" in message and "varies in space" in message
    # A minimum over space, or an x-average in a model whose current collector is one point, is one value per time.
    job = prepare_request(
        request(
            full_discharge(),
            model=SPM_COARSE,
            extra_variables=[
                "Minimum negative particle concentration [mol.m-3]",
                "X-averaged negative electrode porosity",
            ],
        )
    )
    assert job.output_variables[2:] == [
        "Minimum negative particle concentration [mol.m-3]",
        "X-averaged negative electrode porosity",
    ]


def test_negative_value_of_a_quantity_that_cannot_be_negative_is_refused():
    thickness = "Negative electrode thickness [m]"
    message = raises(
        "CONFIGURATION_ERROR", prepare_request, request(full_discharge(), {thickness: -1e-05}, model=SPM_COARSE)
    )
    assert message.startswith(f"inputs['{thickness}']: -1e-05 is negative") and "[m]" in message
    in_model = {**SPM_COARSE, "parameters": {thickness: -1e-05}}
    assert raises("CONFIGURATION_ERROR", prepare_request, request(full_discharge(), model=in_model)).startswith(
        f"model.parameters['{thickness}']: -1e-05 is negative"
    )
    # A capacity must be more than nothing: a C-rate of a 0 A.h cell is no current at all.
    assert raises(
        "CONFIGURATION_ERROR", prepare_request, request(full_discharge(), {"Nominal cell capacity [A.h]": 0})
    ).startswith("inputs['Nominal cell capacity [A.h]']: 0 is not greater than 0")
    # Zero is otherwise the model's to judge, and a quantity that may be negative (an entropic change) is left alone.
    prepare_request(request(full_discharge(), {"R0 [Ohm]": 0.0}))
    prepare_request(
        request(full_discharge(), {"Positive electrode OCP entropic change [V.K-1]": -1e-4}, model=SPM_COARSE)
    )


def test_missing_protocol_input_is_a_configuration_error(fs_storage):
    protocol = full_discharge()
    protocol["steps"][0]["Discharge"]["value"] = "input['Rate']"
    assert "input['Rate']" in raises("CONFIGURATION_ERROR", run_simulation, request(protocol))


def test_charge_that_cannot_start_is_a_configuration_error(fs_storage):
    protocol = {
        "global": {"initial_state_type": "voltage", "initial_state_value": 4.2},
        "steps": [
            {"Rest": {"duration": 60}},
            {"Charge": {"mode": "C-rate", "value": 1, "ends": ["Voltage > 4.1"]}},
        ],
    }
    message = raises("CONFIGURATION_ERROR", run_simulation, request(protocol))
    assert "protocol.steps[1].Charge" in message


def test_discharge_past_empty_is_a_configuration_error(fs_storage):
    protocol = {"steps": [{"Discharge": {"mode": "C-rate", "value": 1, "duration": 7200}}]}
    message = raises("CONFIGURATION_ERROR", run_simulation, request(protocol))
    assert "protocol.steps[0].Discharge" in message and "model limit" in message


def test_documented_solver_failure_is_a_solver_error(fs_storage):
    # See runner.py: a zero thermal mass makes the thermal equation singular.
    message = raises("SOLVER_ERROR", run_simulation, request(full_discharge(), {"Cell thermal mass [J/K]": 0.0}))
    assert "protocol.steps[0].Discharge" in message


def test_unknown_chemistry_names_the_allowed_ones(fs_storage):
    model = {"kind": "quick", "capacity": 5.0, "chemistry": "Unobtainium"}
    message = raises("CONFIGURATION_ERROR", run_simulation, request(full_discharge(), model=model))
    assert "model.chemistry" in message and "LFP/Graphite" in message


def test_pybamm_spm_runs_with_geometric_design_parameter(fs_storage):
    model = {"kind": "pybamm", "type": "SPM", "simulation_settings": {"var_pts": {"r_n": 10, "r_p": 10}}}
    protocol = {
        "global": {"initial_state_type": "soc_percentage", "initial_state_value": 100},
        "steps": [{"Discharge": {"mode": "C-rate", "value": 1, "ends": ["Voltage < 3.0"]}}],
    }
    result = run_simulation(request(protocol, {"Negative electrode thickness [m]": 8.0e-5}, model=model))
    # Chen2020 is a 5 A.h cell.
    assert result["metrics"]["discharge_capacity_ah"] == pytest.approx(5.0, rel=0.15)


def drive_cycle_with_cut_off(cut_off: str) -> dict:
    """Three minutes of current data from 80 % charge, with one end condition and no duration."""
    data = [[0, 5], [60, -2.5], [120, 0], [180, 5]]
    return {
        "global": {"initial_state_type": "soc_percentage", "initial_state_value": 80},
        "steps": [{"DriveCycle": {"mode": "current", "data": data, "ends": [cut_off]}}],
    }


def test_drive_cycle_that_runs_out_of_data_ends_normally(fs_storage):
    # Without a duration a drive cycle lasts as long as its data; a cut-off it never
    # meets is not a missed end condition.
    result = run_simulation(request(drive_cycle_with_cut_off("Voltage < 2.5")))
    assert result["metrics"]["duration_s"] == pytest.approx(180)


def test_drive_cycle_cut_off_still_ends_it_early(fs_storage):
    # The voltage passes 3.87 V in the last minute's discharge (about 3.84 V at 180 s).
    result = run_simulation(request(drive_cycle_with_cut_off("Voltage < 3.87")))
    assert 120 < result["metrics"]["duration_s"] < 179
    assert result["metrics"]["min_voltage_v"] == pytest.approx(3.87, abs=1e-3)


LOOPED = {
    "steps": [
        {"Discharge": {"mode": "C-rate", "value": 1, "duration": 600}},
        {"Charge": {"mode": "C-rate", "value": 1, "duration": 600}},
        {"Goto": {"step": 0, "repeat": 20}},
    ]
}


def test_a_cancel_after_the_last_step_stores_nothing(fs_storage):
    # The cancel arrives once every step is solved, while PyBaMM assembles the solution.
    state = {"cancel": False}

    def on_progress(done, total):
        state["cancel"] = done == total

    with pytest.raises(solving.SimulationCancelled):
        run_simulation(request(LOOPED), on_progress, lambda: state["cancel"])
    assert not fs_storage.exists() or not any(path.is_file() for path in fs_storage.rglob("*"))


def test_a_cancel_while_the_results_are_written_removes_them(fs_storage, monkeypatch):
    state = {"cancel": False}
    summarize = solving.summarize_step_columns

    def summarize_then_cancel(*args, **kwargs):
        summary = summarize(*args, **kwargs)
        state["cancel"] = True  # the time series is being written meanwhile
        return summary

    monkeypatch.setattr(solving, "summarize_step_columns", summarize_then_cancel)
    with pytest.raises(solving.SimulationCancelled):
        run_simulation(request(LOOPED), None, lambda: state["cancel"])
    assert not any(path.is_file() for path in fs_storage.rglob("*"))
    # Without a cancel the same run stores both files.
    monkeypatch.setattr(solving, "summarize_step_columns", summarize)
    run_simulation(request(LOOPED))
    assert sorted(path.name for path in fs_storage.rglob("*.parquet")) == ["steps.parquet", "time_series.parquet"]


def test_a_failure_without_a_message_is_described_by_its_type():
    # Reported failures read "ZeroDivisionError", not "ZeroDivisionError: " with nothing after.
    assert describe(ZeroDivisionError()) == "ZeroDivisionError"
    assert describe(ValueError("bad value")) == "ValueError: bad value"

"""Design optimization on a coarse SPM: the optimum over a bounded electrode thickness is known."""

import pytest

from cellar_worker.design.run import optimize_design
from cellar_worker.fitting.optimize import FitCancelled, Progress
from cellar_worker.simulation.errors import ConfigurationError, SolverError

SPM = {
    "kind": "pybamm",
    "type": "SPM",
    "simulation_settings": {"var_pts": {"r_n": 6, "r_p": 6, "x_n": 5, "x_s": 5, "x_p": 5}},
}
THICKNESS = "Positive electrode thickness [m]"
DISCHARGE = {
    "global": {"initial_state_type": "soc_percentage", "initial_state_value": 100},
    "steps": [{"Discharge": {"mode": "C-rate", "value": 1, "ends": ["Voltage < 3.0"]}}],
}


def request(aim="maximize", initial=6e-5, **extra):
    return {
        "model": SPM,
        "protocol": DISCHARGE,
        "parameters": {THICKNESS: {"initial": initial, "bounds": [4e-5, 8e-5]}},
        "objective": {"metric": "discharge capacity [A.h]", "aim": aim},
        "optimizer": {"method": "Nelder-Mead", "max_iterations": 8},
        **extra,
    }


@pytest.fixture(scope="module")
def extremes():
    return optimize_design(request()), optimize_design(request("minimize"))


def test_maximizing_capacity_takes_the_thickest_electrode_and_minimizing_the_thinnest(extremes):
    best, low = extremes
    assert best["parameter_values"][THICKNESS] == pytest.approx(8e-5, rel=1e-6)
    assert low["parameter_values"][THICKNESS] == pytest.approx(4e-5, rel=1e-6)
    # More active material holds more charge; the answer is the best design's simulated capacity.
    assert best["objective_value"] > low["objective_value"] > 0
    assert best["metrics"]["discharge_capacity_ah"] == pytest.approx(best["objective_value"])
    assert best["cost"] == pytest.approx(-best["objective_value"]) and best["cost_name"] == "design"
    trace = best["intermediate_results"]
    assert trace[0]["inputs_unscaled"] == {THICKNESS: pytest.approx(6e-5)} and len(trace) >= 2
    assert trace[0]["cost"] == trace[0]["best_cost"] > best["cost"]
    assert best["evaluations"] >= 3 and best["failed_evaluations"] == 0 and not best["resumed"]


def test_a_constraint_bounds_the_optimum_and_breaking_it_everywhere_is_a_solver_error(extremes):
    thick, thin = (result["objective_value"] for result in extremes)
    cap = (thick + thin) / 2
    capped = optimize_design(request(initial=4e-5, constraints=[{"metric": "discharge capacity [A.h]", "max": cap}]))
    # The best feasible design sits below the cap, and the thicker ones the search tried were infeasible.
    assert thin < capped["objective_value"] <= cap
    assert capped["parameter_values"][THICKNESS] < 8e-5 and capped["failed_evaluations"] > 0
    with pytest.raises(SolverError, match="no feasible design"):
        optimize_design(request(constraints=[{"metric": "discharge capacity [A.h]", "min": 1e3}]))


def test_a_checkpoint_resumes_from_its_best_design():
    progress = Progress()
    checkpoint = {"best_parameters": {THICKNESS: 7.9e-5}, "iteration": 3, "evaluations": 5}
    result = optimize_design(request(), progress, None, [checkpoint])
    assert result["resumed"] and result["initial_parameters"] == {THICKNESS: 7.9e-5}
    assert result["evaluations"] > 5


def test_cancelling_stops_before_a_solve():
    with pytest.raises(FitCancelled):
        optimize_design(request(), None, lambda: True)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"parameters": {THICKNESS: {"initial": 6e-5, "bounds": [8e-5, 4e-5]}}}, "bounds"),
        ({"parameters": {THICKNESS: {"initial": 9e-5, "bounds": [4e-5, 8e-5]}}}, ".initial"),
        ({"parameters": {"Not a parameter": {"initial": 1, "bounds": [0, 2]}}}, "Not a parameter"),
        ({"parameters": {THICKNESS: {"initial": 6e-5, "bounds": [-1e-5, 8e-5]}}}, r"bounds\[0\]"),
        ({"objective": {"metric": "happiness", "aim": "maximize"}}, "objective.metric"),
        ({"objective": {"metric": "duration [s]", "aim": "up"}}, "objective.aim"),
        ({"optimizer": {"method": "least_squares"}}, "optimizer.method"),
    ],
)
def test_bad_input_is_a_configuration_error_naming_the_field(change, field):
    with pytest.raises(ConfigurationError, match=field):
        optimize_design({**request(), **change})

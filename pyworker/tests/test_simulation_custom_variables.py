"""Custom variables: expressions over a model's variables, solved with it."""

import copy

import numpy as np
import pyarrow.parquet as pq
import pytest
from application_errors import raises

from cellar_worker.simulation import describe_model, run_simulation, validate_custom_model

POWER = {"name": "Power out [W]", "expression": "Voltage [V] * Current [A]"}
ECM = {
    "kind": "pybamm",
    "type": "ECM",
    "custom_variables": [POWER, {"name": "Loss [W]", "expression": "(Current [A]) ** 2 * 0.01 + 0 * Power out [W]"}],
}
DISCHARGE = {"steps": [{"Discharge": {"mode": "C-rate", "value": 1, "duration": 600}}]}


def test_a_custom_variable_is_solved_as_a_result_column(fs_storage):
    request = {
        "simulation_id": "sim-1",
        "model": copy.deepcopy(ECM),
        "protocol": DISCHARGE,
        "inputs": {},
        "output_prefix": "simulations/org-1/sim-1/",
        "extra_variables": ["Power out [W]", "Loss [W]"],
    }
    run_simulation(request)
    table = pq.read_table(fs_storage / "simulations" / "org-1" / "sim-1" / "time_series.parquet").to_pydict()
    voltage, current = np.array(table["Voltage [V]"]), np.array(table["Current [A]"])
    assert np.all(current > 0)
    np.testing.assert_allclose(table["Power out [W]"], voltage * current, rtol=1e-9)
    np.testing.assert_allclose(table["Loss [W]"], current**2 * 0.01, rtol=1e-9)


def test_described_with_the_model_and_kept_in_its_spec():
    described = describe_model(copy.deepcopy(ECM))
    assert {"Power out [W]", "Loss [W]"} <= set(described["variable_names"])
    assert described["model"]["custom_variables"] == ECM["custom_variables"]
    assert "custom_variables" not in describe_model({"kind": "pybamm", "type": "ECM"})["model"]


@pytest.mark.parametrize(
    ("variable", "field", "words"),
    [
        ({"name": "x", "expression": "Voltag [V] * 2"}, "expression", "Voltag"),
        ({"name": "x", "expression": "Voltage [V] +"}, "expression", "not an arithmetic expression"),
        ({"name": "x", "expression": "__import__('os').system('true')"}, "expression", "only numbers"),
        ({"name": "x", "expression": "Voltage [V] / 0 + 1 / 0"}, "expression", "cannot be evaluated"),
        ({"name": "x", "expression": "3 * 2"}, "expression", "none of the model's variables"),
        ({"name": "Voltage [V]", "expression": "Current [A]"}, "name", "already a variable"),
    ],
)
def test_bad_custom_variables_are_refused_naming_the_field(variable, field, words):
    answer = validate_custom_model({"type": "ECM", "custom_variables": [variable]})
    assert answer["valid"] is False
    assert answer["error"].startswith(f"model.custom_variables[0].{field}: ") and words in answer["error"]


def test_a_simulation_with_an_unknown_custom_variable_is_a_configuration_error(fs_storage):
    bad = {**ECM, "custom_variables": [{"name": "y", "expression": "Warp factor * 2"}]}
    request = {
        "simulation_id": "s",
        "model": bad,
        "protocol": DISCHARGE,
        "inputs": {},
        "output_prefix": "simulations/o/s/",
    }
    assert "custom_variables[0].expression" in raises("CONFIGURATION_ERROR", run_simulation, request)

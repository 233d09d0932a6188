"""The engine's models as pybamm Serialise documents: loadable, and the same model."""

import pybamm
import pytest
from pybamm.expression_tree.operations.serialise import Serialise

from cellar_worker.simulation.errors import SimulationError
from cellar_worker.simulation.serialize import serialize_model


def test_an_ecm_document_loads_and_solves_like_the_engines_model():
    document = serialize_model({"name": "ECM", "options": {}})
    assert document["compressed"] is True
    loaded = Serialise.load_custom_model(document)
    values = pybamm.ParameterValues("ECM_Example")
    ours = pybamm.Simulation(loaded, parameter_values=values).solve([0, 600])
    theirs = pybamm.Simulation(pybamm.equivalent_circuit.Thevenin(), parameter_values=values).solve([0, 600])
    assert ours["Voltage [V]"].entries[-1] == pytest.approx(theirs["Voltage [V]"].entries[-1], rel=1e-6)


def test_options_reach_the_model():
    isothermal = Serialise.load_custom_model(serialize_model({"name": "SPM"}))
    lumped = Serialise.load_custom_model(serialize_model({"name": "SPM", "options": {"thermal": "lumped"}}))
    # The lumped thermal model solves for the cell temperature as well.
    assert len(lumped.rhs) == len(isothermal.rhs) + 1


def test_unknown_model_or_option_is_a_configuration_error():
    with pytest.raises(SimulationError, match="model.type"):
        serialize_model({"name": "MPM", "options": {}})
    with pytest.raises(SimulationError, match="model.options"):
        serialize_model({"name": "DFN", "options": {"thermal": "boiling"}})

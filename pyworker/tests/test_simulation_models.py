"""Models through the simulation package: described, validated when uploaded, meshed as their
settings say."""

import copy

import numpy as np
import pybamm
import pytest
from application_errors import raises
from simulation_requests import SPM_COARSE, full_discharge, request

from cellar_worker.simulation import describe_model, run_simulation, solving, validate_custom_model
from cellar_worker.simulation.job import prepare_request


def test_describe_model_lists_variables_and_parameters():
    description = describe_model({"quick_model": {"capacity": 3.0, "chemistry": "LFP/Graphite"}})
    assert description["model"]["kind"] == "quick"
    assert "Cell temperature [degC]" in description["variable_names"]
    assert {"R0 [Ohm]", "Initial SOC [%]", "Ambient temperature [K]"} <= set(description["parameter_names"])
    assert "Current function [A]" not in description["parameter_names"]
    assert description["simulator_version"]


def test_describe_model_tells_the_variables_that_vary_in_space_from_those_of_time_alone():
    description = describe_model({"kind": "pybamm", "type": "SPMe"})
    spatial, of_time = set(description["spatial_variable_names"]), set(description["variable_names"])
    assert not spatial & of_time
    assert {"Electrolyte concentration [mol.m-3]", "Negative particle concentration [mol.m-3]"} <= spatial
    assert {
        "Voltage [V]",
        "Minimum negative particle concentration [mol.m-3]",
        "X-averaged cell temperature [K]",
    } <= of_time
    # In a pouch cell the current collector is a line, so its averages over x still vary (along it).
    pouch = describe_model(
        {
            "kind": "pybamm",
            "type": "SPM",
            "parameter_set": "Marquis2019",  # it has the tab parameters a pouch cell needs
            "options": {"current collector": "potential pair", "dimensionality": 1},
        }
    )
    assert "X-averaged negative electrode porosity" in pouch["spatial_variable_names"]
    assert "Voltage [V]" in pouch["variable_names"]


def test_validate_custom_model_builds_it():
    valid = validate_custom_model('{"type": "SPM", "parameters": {"Negative electrode thickness [m]": 8e-05}}')
    assert valid["valid"] is True
    assert valid["model"]["parameter_set"] == "Chen2020"
    bad_option = validate_custom_model({"type": "SPM", "options": {"thermal": "sideways"}})
    assert bad_option == {"valid": False, "error": bad_option["error"]}
    assert bad_option["error"].startswith("model.options")
    unknown = validate_custom_model({"type": "SPM", "parameters": {"Flux capacitance [F]": 1}})
    assert unknown["valid"] is False and "Flux capacitance [F]" in unknown["error"]


def test_submesh_types_and_spatial_methods_reach_the_built_mesh(fs_storage):
    model = copy.deepcopy(SPM_COARSE)
    model["simulation_settings"]["submesh_types"] = {"negative particle": "Chebyshev1DSubMesh"}
    model["simulation_settings"]["spatial_methods"] = {"macroscale": "FiniteVolume"}
    protocol = {
        "global": {"initial_state_type": "soc_percentage", "initial_state_value": 90},
        "steps": [{"Discharge": {"mode": "C-rate", "value": 1, "duration": 300}}],
    }
    job = prepare_request(request(protocol, model=model))
    assert job.cache_key() != prepare_request(request(protocol, model=SPM_COARSE)).cache_key()
    simulation = solving.build_simulation(
        job, tighten=False, inputs={**job.protocol_inputs, **solving.state_inputs(job)}
    )
    negative = np.diff(simulation.mesh["negative particle"].edges)
    positive = np.diff(simulation.mesh["positive particle"].edges)
    assert len(negative) == 10 and np.ptp(negative) > 1e-3 * negative.max()  # Chebyshev: uneven
    assert np.ptp(positive) < 1e-9 * positive.max()  # still the default uniform mesh
    assert isinstance(simulation.spatial_methods["macroscale"], pybamm.FiniteVolume)

    result = run_simulation(request(protocol, model=model))
    assert result["metrics"]["discharge_capacity_ah"] == pytest.approx(5.0 * 300 / 3600, rel=1e-3)
    assert describe_model(model)["model"]["simulation_settings"]["submesh_types"] == {
        "negative particle": "Chebyshev1DSubMesh"
    }


@pytest.mark.parametrize(
    "settings, fragment",
    [
        ({"submesh_types": {"negative particle": "Hexagonal1DSubMesh"}}, "submesh_types['negative particle']"),
        ({"spatial_methods": {"macroscale": "FiniteElephant"}}, "spatial_methods['macroscale']"),
        ({"submesh_types": {"moon": "Uniform1DSubMesh"}}, "submesh_types['moon']"),
        ({"submesh_types": {"negative particle": "SubMesh0D"}}, "model.simulation_settings.submesh_types"),
        (
            {"spatial_methods": {"negative particle": "ZeroDimensionalSpatialMethod"}},
            "model.simulation_settings.spatial_methods",
        ),
    ],
)
def test_unusable_mesh_settings_are_configuration_errors(fs_storage, settings, fragment):
    model = {"kind": "pybamm", "type": "SPM", "simulation_settings": settings}
    message = raises("CONFIGURATION_ERROR", run_simulation, request(full_discharge(), model=model))
    assert fragment in message
    assert validate_custom_model(model)["valid"] is False


def test_describing_a_model_that_cannot_be_built_with_its_parameter_set_is_a_configuration_error():
    # A pouch cell with x-lumped cooling needs current-collector heat-transfer parameters that Chen2020 lacks.
    spec = {
        "kind": "pybamm",
        "type": "SPM",
        "options": {"dimensionality": 1, "current collector": "potential pair", "thermal": "x-lumped"},
    }
    message = raises("CONFIGURATION_ERROR", describe_model, spec)
    assert (
        message.startswith("model: cannot be built with parameter set 'Chen2020'")
        and "heat transfer coefficient" in message
    )

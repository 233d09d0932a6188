"""Models and discovery, parameterized models, protocols (experiment templates), simulation
batches in both forms (a quick model; a model with parameters), jobs, results as DataFrames,
studies."""

import pytest
from ionworks import IonworksError

from conftest import POLL_S, unique

DISCHARGE = "Discharge at 1C until 2.5V"


@pytest.fixture(scope="module")
def model(client, project):
    m = client.model.create({"name": unique("ECM"), "project_id": project.id, "config": {"type": "ECM"}})
    return m  # models belong to the organization, and its parameterized models keep it


def test_discovery_and_models(client, project, model):
    found = client.pybamm_models()
    assert "SPMe" in found["pybamm_models"]["pybamm.lithium_ion"]
    assert found["pybamm_version"].startswith("26.")
    assert client.model.get(model.id).config["type"] == "ECM"
    assert model.id in [m.id for m in client.model.list(project_id=project.id)]
    # The client's top-level simulation_settings land in the config the engine applies.
    tuned = client.model.create(
        {
            "name": unique("ECM tight"),
            "project_id": project.id,
            "config": {"type": "ECM"},
            "simulation_settings": {"solver": {"rtol": 1e-7}},
            "pybamm_version": found["pybamm_version"],
        }
    )
    assert client.model.get(tuned.id).config["simulation_settings"]["solver"]["rtol"] == 1e-7
    with pytest.raises(IonworksError) as e:
        client.model.create(
            {"name": unique("ECM old"), "project_id": project.id, "config": {"type": "ECM"}, "pybamm_version": "23.5"}
        )
    assert e.value.status_code == 422 and "pybamm_version" in str(e.value.message)
    pm = client.parameterized_model.create(
        None,
        {
            "name": unique("ECM low R"),
            "model_id": model.id,
            "project_id": project.id,
            "parameters": {"R0 [Ohm]": 0.0005},
        },
    )
    assert client.parameterized_model.get(pm.id).parameters["R0 [Ohm]"] == 0.0005
    names = client.parameterized_model.get_variable_names(pm.id)
    assert isinstance(names, list) and "Voltage [V]" in names


def test_parameterized_models_of_a_cell_specification(client, project, model):
    spec = client.cell_spec.create(
        {"project_id": project.id, "name": unique("Spec"), "ratings": {"capacity": {"value": 5.0, "unit": "A.h"}}}
    )
    pm = client.parameterized_model.create(
        spec.id, {"name": unique("ECM of spec"), "model_id": model.id, "parameters": {"R0 [Ohm]": 0.002}}
    )
    assert pm.cell_spec_id == spec.id and pm.project_id == project.id
    # create_or_get recovers the existing one from the 409's existing_id.
    assert client.parameterized_model.create_or_get(spec.id, {"name": pm.name, "model_id": model.id}).id == pm.id
    assert [p.id for p in client.parameterized_model.list_by_cell_specification(spec.id)] == [pm.id]
    renamed = client.parameterized_model.update(spec.id, pm.id, {"name": "ECM renamed"})
    assert renamed.name == "ECM renamed"
    assert client.parameterized_model.get_parameter_values(pm.id)["R0 [Ohm]"] == 0.002
    other = client.cell_spec.create({"project_id": project.id, "name": unique("Other spec")})
    with pytest.raises(IonworksError) as e:
        client.parameterized_model.update(other.id, pm.id, {"name": "wrong spec"})
    assert e.value.status_code == 404
    client.parameterized_model.delete(spec.id, pm.id)
    assert list(client.parameterized_model.list_by_cell_specification(spec.id)) == []


def test_protocols(client, project):
    checked = client.protocol.validate(DISCHARGE)
    assert checked["valid"] is True and checked["protocol"]
    ucp = checked["protocol"]  # the canonical form, as the client saves it
    name = unique("1C discharge")
    saved = client.protocol.create(name, ucp, project.id, description="to 2.5 V", source_protocol=DISCHARGE)
    assert saved.name == name and saved.protocol_config == ucp
    assert client.protocol.create_or_get(name, ucp, project.id).id == saved.id
    with pytest.raises(IonworksError) as e:
        client.protocol.create(name, ucp, project.id, force_create=True)
    assert e.value.status_code == 409 and e.value.data["detail"]["existing_id"] == saved.id
    assert client.protocol.source_protocol(saved.id) == DISCHARGE
    text = client.protocol.human_readable(saved.id)
    assert text.startswith(f"# {name}") and "2.5" in text
    listed = client.protocol.list(project_id=project.id, include=["protocol_config", "metrics_spec"])
    mine = [p for p in listed if p.id == saved.id]
    assert mine and mine[0].protocol_config == ucp


def test_quick_model_simulation_and_result(client, project):
    study = client.study.create({"name": unique("Rate study")}, project_id=project.id)
    sim = client.simulation.protocol(
        {
            "parameterized_model": {"capacity": 5.0, "chemistry": "NMC/Graphite"},
            "protocol_experiment": {"protocol": DISCHARGE, "name": "1C"},
            "project_id": project.id,
            "study_id": study.id,
        }
    )
    done = client.simulation.wait_for_completion(sim.simulation_id, timeout=300, poll_interval=POLL_S, verbose=False)
    assert done["status"] == "completed"
    job = client.job.get(sim.job_id)
    assert job.status == "completed"
    result = client.simulation.get_result(sim.simulation_id)
    ts = result.time_series
    assert len(ts) > 10 and "Voltage [V]" in ts.columns
    assert float(ts["Voltage [V]"].min()) >= 2.45
    assert 4.7 < result.metrics["discharge_capacity_ah"] < 5.1
    # The inline protocol was saved as a protocol (experiment template) of the project.
    assert sim.protocol_id
    saved = client.protocol.get(sim.protocol_id)
    assert saved.name == "1C"
    assert sim.protocol_id in [p.id for p in client.protocol.list(project_id=project.id)]
    in_study = client.simulation.list(study_id=study.id)
    assert [s["id"] for s in in_study] == [sim.simulation_id]
    client.study.delete(study.id, project_id=project.id)


def test_model_with_parameters_batch(client, project, model):
    sims = client.simulation.protocol_batch(
        {
            "parameterized_model": {"model_id": model.id, "parameters": {"R0 [Ohm]": 0.001}},
            "protocol_experiment": {"protocol": "Discharge at 1C for 10 minutes", "name": "1C 10 min"},
            "design_parameters_doe": {
                "sampling": "grid",
                "rows": [{"type": "discrete", "name": "R0 [Ohm]", "values": [0.001, 0.004]}],
            },
            "project_id": project.id,
        }
    )
    assert len(sims) == 2
    done = client.simulation.wait_for_completion(
        [s.simulation_id for s in sims], timeout=300, poll_interval=POLL_S, verbose=False
    )
    assert [d["status"] for d in done] == ["completed", "completed"]
    unknown = "00000000-0000-0000-0000-000000000000"
    statuses = client.simulation.get_statuses([s.simulation_id for s in sims] + [unknown])
    assert sorted(x["simulation_id"] for x in statuses) == sorted(s.simulation_id for s in sims)
    assert {x["status"] for x in statuses} == {"completed"}
    low, high = (client.simulation.get_result(s.simulation_id).time_series for s in sims)
    # More resistance, a lower voltage under the same load.
    assert float(high["Voltage [V]"][1]) < float(low["Voltage [V]"][1])
    # Deleting one leaves the other's results, stored in the same chunk's pack, readable.
    assert client.simulation.delete(sims[0].simulation_id) is None
    with pytest.raises(IonworksError) as e:
        client.simulation.get(sims[0].simulation_id)
    assert e.value.status_code == 404
    assert client.simulation.get_result(sims[1].simulation_id).time_series.equals(high)
    assert [x["simulation_id"] for x in client.simulation.get_statuses([s.simulation_id for s in sims])] == [
        sims[1].simulation_id
    ]


def test_custom_variable_is_solved_with_the_model(client, project):
    """model.add_custom_variable: the variable joins the model's config, and a simulation of the
    model gives it as a result column, equal to its expression over the solved variables."""
    from ionworks import Ionworks

    slow = Ionworks(timeout=60)  # the worker builds the model (with its variables) before storing it
    m = slow.model.create({"name": unique("ECM power"), "project_id": project.id, "config": {"type": "ECM"}})
    power = {"name": "Power out [W]", "expression": "Voltage [V] * Current [A]"}
    updated = slow.model.add_custom_variable(m.id, power)
    assert updated.id == m.id and updated.config["custom_variables"] == [power]
    with pytest.raises(IonworksError) as e:
        slow.model.add_custom_variable(m.id, {"name": "Bad [W]", "expression": "Voltag [V] * 2"})
    assert e.value.status_code == 422 and "Voltag" in str(e.value.message)
    with pytest.raises(IonworksError) as e:
        slow.model.add_custom_variable(m.id, power)
    assert e.value.status_code == 422 and "already" in str(e.value.message)
    assert client.model.get(m.id).config["custom_variables"] == [power]
    sim = client.simulation.protocol(
        {
            "parameterized_model": {"model_id": m.id, "parameters": {}},
            "protocol_experiment": {"protocol": "Discharge at 1C for 5 minutes", "name": "power"},
            "extra_variables": ["Power out [W]"],
            "project_id": project.id,
        }
    )
    done = client.simulation.wait_for_completion(sim.simulation_id, timeout=300, poll_interval=POLL_S, verbose=False)
    assert done["status"] == "completed"
    ts = client.simulation.get_result(sim.simulation_id).time_series
    expected = ts["Voltage [V]"] * ts["Current [A]"]
    assert float(expected.abs().max()) > 0
    assert ((ts["Power out [W]"] - expected).abs() <= 1e-9 * expected.abs().max()).all()


def test_validate_pybamm_model_config():
    """The engine builds the model to answer, as a simulation would; nothing else happens."""
    from ionworks import Ionworks

    # Building a thermal DFN on a cold worker can take longer than the client's 10 s default.
    client = Ionworks(timeout=120)
    assert client.validate_pybamm_model_config("SPMe", {"thermal": "lumped"}) == {"valid": True}
    assert client.validate_pybamm_model_config("ECM", module="equivalent_circuit") == {"valid": True}
    refused = client.validate_pybamm_model_config("DFN", {"thermal": "boiling"})
    assert refused["valid"] is False and refused["error_type"] == "ModelError" and "boiling" in refused["error"]
    unknown = client.validate_pybamm_model_config("MPM")
    assert unknown["valid"] is False and unknown["error_type"] == "UnsupportedModel" and "SPMe" in unknown["error"]
    wrong_module = client.validate_pybamm_model_config("SPM", module="lead_acid")
    assert wrong_module["valid"] is False and "lithium_ion" in wrong_module["error"]


def test_model_download_is_the_engines_model(tmp_path):
    """model.download: the engine's ECM as pybamm's Serialise document, loaded by the client
    with pybamm alone, solves like pybamm's own Thevenin model; the file it saves loads too."""
    import json

    import pybamm
    from ionworks import Ionworks
    from pybamm.expression_tree.operations.serialise import Serialise

    client = Ionworks(timeout=60)
    path = tmp_path / "ecm.json"
    model = client.model.download("ECM", path=path)
    values = pybamm.ParameterValues("ECM_Example")
    ours = pybamm.Simulation(model, parameter_values=values).solve([0, 300])
    reference = pybamm.Simulation(pybamm.equivalent_circuit.Thevenin(), parameter_values=values).solve([0, 300])
    assert float(ours["Voltage [V]"].entries[-1]) == pytest.approx(
        float(reference["Voltage [V]"].entries[-1]), rel=1e-6
    )
    assert Serialise.load_custom_model(json.loads(path.read_text())).name == model.name
    thermal = client.model.serialize("SPM", options={"thermal": "lumped"})
    assert thermal["compressed"] is True and len(Serialise.load_custom_model(thermal).rhs) > 0
    with pytest.raises(IonworksError) as e:
        client.model.serialize("LumpedSPMR")
    assert e.value.status_code == 422 and "SPMe" in str(e.value.message)
    with pytest.raises(IonworksError) as e:
        client.model.serialize("SPM", options={"thermal": "boiling"})
    assert e.value.status_code == 422 and "boiling" in str(e.value.message)

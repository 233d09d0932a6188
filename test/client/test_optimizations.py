"""Optimizations through client.optimization: a DataFit built with ionworks-schema run as a durable
workflow on a stored measurement (run, wait_for_completion, get, list, update, cancel), its
optimizer trace through client.job.get_parameter_trace, and refusals."""

import warnings

import pandas as pd
import pytest
from ionworks import IonworksError, Optimization

from conftest import POLL_S, unique

warnings.simplefilter("ignore", DeprecationWarning)
import ionworks_schema as iws  # noqa: E402

QUICK = {"kind": "quick", "capacity": 2.0, "chemistry": "NMC/Graphite"}
R0 = "R0 [Ohm]"


@pytest.fixture(scope="module")
def discharge(client, project):
    """A "measured" 1C discharge: Cellar's own simulation of the quick model, stored as a measurement."""
    sim = client.simulation.protocol(
        {
            "parameterized_model": {"capacity": 2.0, "chemistry": "NMC/Graphite"},
            "protocol_experiment": {"protocol": "Discharge at 1C for 20 minutes", "name": unique("1C")},
            "project_id": project.id,
        }
    )
    client.simulation.wait_for_completion(sim.simulation_id, timeout=300, poll_interval=POLL_S, verbose=False)
    ts = client.simulation.get_result(sim.simulation_id).time_series
    measured = pd.DataFrame({c: ts[c].to_list() for c in ("Time [s]", "Current [A]", "Voltage [V]")})
    measured["Step count"] = 0
    spec = client.cell_spec.create({"project_id": project.id, "name": unique("Spec")})
    inst = client.cell_instance.create(spec.id, {"name": unique("Cell")})
    return client.cell_measurement.create(inst.id, {"measurement": {"name": unique("1C")}, "time_series": measured})


def data_fit(measurement_id, optimizer=None):
    objective = iws.objectives.CurrentDriven(data_input=f"db:{measurement_id}", options={"model": QUICK})
    return iws.DataFit(
        objectives={"discharge": objective},
        parameters={R0: iws.Parameter(R0, initial_value=0.05, bounds=(0.001, 0.1))},
        cost=iws.costs.RMSE(),
        optimizer=optimizer or iws.parameter_estimators.ScipyMinimize(method="Nelder-Mead", maxiter=40),
    )


def test_optimization_runs_and_reports_its_fit_and_trace(client, project, discharge):
    name = unique("R0 fit")
    run = client.optimization.run(
        {
            "project_id": project.id,
            "name": name,
            "description": "internal resistance",
            "config": data_fit(discharge.id).to_config(),
        }
    )
    assert isinstance(run, Optimization) and run.name == name and run.project_id == project.id and run.job_id
    assert run.status in ("queued", "running")
    done = client.optimization.wait_for_completion(run.id, timeout=300, poll_interval=POLL_S, verbose=False)
    assert done["status"] == "succeeded" and done["error"] is None
    assert done["parameter_names"] == [R0]
    r0 = done["parameter_values"][R0]
    metrics = done["metrics"]
    assert 0.001 <= r0 <= 0.1 and metrics["cost_name"] == "RMSE"
    # The fit reproduces the measured voltage far better than its start point (RMSE in V).
    assert metrics["cost"] < 0.005 and metrics["cost"] == pytest.approx(metrics["summary_stats"]["RMSE"])
    assert metrics["evaluations"] >= metrics["iterations"] > 0
    # The fit decodes as the client's own result type.
    result = iws.from_config(done["result"])
    assert isinstance(result, iws.OptimizationResult) and result.x == [r0] and result.fun == metrics["cost"]

    trace = client.job.get_parameter_trace(done["job_id"])
    assert [t["iteration"] for t in trace] == list(range(len(trace))) and len(trace) == metrics["iterations"] + 1
    assert trace[0]["inputs_unscaled"][R0] == pytest.approx(0.05)
    assert trace[0]["cost"] > 5 * metrics["cost"]
    best = [t["best_cost"] for t in trace]
    assert best == sorted(best, reverse=True) and best[-1] >= metrics["cost"] - 1e-12
    # The model-vs-data series of the fit, under the objective's name.
    series = client.job.get_series(done["job_id"], "discharge", max_points=50)
    assert set(series) == {"Time [s]", "Voltage [V] (data)", "Voltage [V] (model)"}

    assert client.optimization.get(run.id)["metrics"] == metrics
    listed = client.optimization.list(project_id=project.id)
    assert run.id in [o["id"] for o in listed["optimizations"]] and listed["total"] >= 1
    assert client.optimization.list(project_id=project.id, limit=1)["optimizations"][0]["id"] is not None
    renamed = client.optimization.update(run.id, {"name": name + " (final)", "description": None})
    assert renamed.name == name + " (final)" and renamed.description is None and renamed.job_id == run.job_id
    # The Python worker's time on the fit counts as compute of type optimization (hours).
    by_type = client.organization.usage().compute.usage_by_type
    assert 0 < by_type["optimization"] < 1
    # A finished optimization is not canceled after the fact.
    assert client.optimization.cancel(run.id)["status"] == "succeeded"


def test_optimization_cancel(client, project, discharge):
    slow = iws.parameter_estimators.ScipyDifferentialEvolution(maxiter=1000)
    run = client.optimization.run({"project_id": project.id, "config": data_fit(discharge.id, slow).to_config()})
    assert run.name == "Optimization"
    canceled = client.optimization.cancel(run.id)
    assert canceled["status"] == "canceled" and canceled["metrics"] is None
    final = client.optimization.wait_for_completion(
        run.id, timeout=60, poll_interval=POLL_S, verbose=False, raise_on_failure=False
    )
    assert final["status"] == "canceled"
    with pytest.raises(IonworksError) as e:
        client.optimization.wait_for_completion(run.id, timeout=60, poll_interval=POLL_S, verbose=False)
    assert e.value.error_code == "JOB_FAILED" and "canceled" in str(e.value.message)


def test_optimization_refusals(client, project, discharge):
    before = client.optimization.list(project_id=project.id)["total"]
    config = data_fit(discharge.id).to_config()
    config["parameters"][R0]["bounds"] = [0.1, 0.001]
    with pytest.raises(IonworksError) as e:
        client.optimization.run({"project_id": project.id, "config": config})
    assert e.value.status_code == 422 and "'config', 'parameters'" in str(e.value.message)
    bad = data_fit(discharge.id).to_config()
    bad["objectives"]["discharge"]["data"] = "db:00000000-0000-4000-8000-000000000000"
    with pytest.raises(IonworksError) as e:
        client.optimization.run({"project_id": project.id, "config": bad})
    assert e.value.status_code in (404, 422)
    with pytest.raises(IonworksError) as e:
        client.optimization.run({"project_id": project.id, "config": {**config, "element_type": "validation"}})
    assert e.value.status_code == 422 and "element_type" in str(e.value.message)
    assert client.optimization.list(project_id=project.id)["total"] == before  # nothing created
    with pytest.raises(IonworksError) as e:
        client.optimization.get("00000000-0000-4000-8000-000000000000")
    assert e.value.status_code == 404


def test_data_fit_with_several_weighted_objectives(client, project, discharge):
    """A DataFit of two objectives (1C and C/2 discharges) in a pipeline: one joint fit whose cost is
    the sum of each objective's cost times its weight (ionworks-schema's objective_weights)."""
    sim = client.simulation.protocol(
        {
            "parameterized_model": {"capacity": 2.0, "chemistry": "NMC/Graphite"},
            "protocol_experiment": {"protocol": "Discharge at 0.5C for 30 minutes", "name": unique("C/2")},
            "project_id": project.id,
        }
    )
    client.simulation.wait_for_completion(sim.simulation_id, timeout=300, poll_interval=POLL_S, verbose=False)
    ts = client.simulation.get_result(sim.simulation_id).time_series
    half = pd.DataFrame({c: ts[c].to_list() for c in ("Time [s]", "Current [A]", "Voltage [V]")})
    half["Step count"] = 0
    inst = client.cell_instance.create(
        client.cell_spec.create({"project_id": project.id, "name": unique("S")}).id, {"name": unique("Cell")}
    )
    slow = client.cell_measurement.create(inst.id, {"measurement": {"name": unique("C/2")}, "time_series": half})

    def objective(m):
        return iws.objectives.CurrentDriven(data_input=f"db:{m.id}", options={"model": QUICK})

    fit = iws.DataFit(
        objectives={"1C": objective(discharge), "C/2": objective(slow)},
        parameters={R0: iws.Parameter(R0, initial_value=0.05, bounds=(0.001, 0.1))},
        cost=iws.costs.RMSE(objective_weights={"C/2": 3.0}),
        optimizer=iws.parameter_estimators.ScipyMinimize(method="Nelder-Mead", maxiter=40),
    )
    submitted = client.pipeline.create(iws.Pipeline({"fit": fit}), project_id=project.id, name=unique("Two rates"))
    done = client.pipeline.wait_for_completion(submitted.id, timeout=300, poll_interval=POLL_S, verbose=False)
    assert done.status == "completed"
    result = client.pipeline.result(submitted.id).element("fit")
    assert isinstance(result, iws.OptimizationResult)
    raw = client.pipeline.result(submitted.id).element_results["fit"]
    per = raw["objective_results"]
    assert list(per) == ["1C", "C/2"] and [per["1C"]["weight"], per["C/2"]["weight"]] == [1.0, 3.0]
    # The joint cost is the weighted sum of the objectives' RMSEs, each small at the fitted R0.
    assert result.fun == pytest.approx(per["1C"]["cost"] + 3.0 * per["C/2"]["cost"], rel=1e-9)
    assert per["1C"]["cost"] < 0.005 and per["C/2"]["cost"] < 0.005
    assert per["1C"]["n_points"] > 0 and per["C/2"]["n_points"] > 0
    assert 0.001 <= result.parameter_values[R0] <= 0.1

    # The objectives of one DataFit share the model: a second model is refused, naming the objective.
    other = iws.objectives.CurrentDriven(data_input=f"db:{slow.id}", options={"model": "SPMe"})
    mixed = iws.DataFit(
        objectives={"1C": objective(discharge), "C/2": other},
        parameters={R0: iws.Parameter(R0, initial_value=0.05, bounds=(0.001, 0.1))},
    )
    with pytest.raises(IonworksError) as e:
        client.pipeline.create(iws.Pipeline({"fit": mixed}), project_id=project.id)
    assert e.value.status_code == 422 and "'objectives', 'C/2', 'options'" in str(e.value.message)
    weights = iws.costs.RMSE(objective_weights={"2C": 1.0})
    unknown = iws.DataFit(
        objectives={"1C": objective(discharge), "C/2": objective(slow)},
        cost=weights,
        parameters={R0: iws.Parameter(R0, initial_value=0.05, bounds=(0.001, 0.1))},
    )
    with pytest.raises(IonworksError) as e:
        client.pipeline.create(iws.Pipeline({"fit": unknown}), project_id=project.id)
    assert e.value.status_code == 422 and "'cost', 'objective_weights', '2C'" in str(e.value.message)


def test_optimization_from_a_parameterized_model(client, project, discharge):
    """parameterized_model_id: the fit's model is the stored one with its parameter values."""
    model = client.model.create({"name": unique("ECM"), "project_id": project.id, "config": {"type": "ECM"}})
    pm = client.parameterized_model.create(
        None,
        {
            "name": unique("ECM cell"),
            "model_id": model.id,
            "project_id": project.id,
            "parameters": {"Cell capacity [A.h]": 2.0},
        },
    )
    fit = data_fit(discharge.id, iws.parameter_estimators.ScipyMinimize(method="Nelder-Mead", maxiter=10))
    config = fit.to_config()
    del config["objectives"]["discharge"]["options"]["model"]
    run = client.optimization.run({"project_id": project.id, "parameterized_model_id": pm.id, "config": config})
    assert run.parameterized_model_id == pm.id
    done = client.optimization.wait_for_completion(run.id, timeout=300, poll_interval=POLL_S, verbose=False)
    assert done["status"] == "succeeded"
    used = done["config"]["model"]
    assert used["type"] == "ECM" and used["parameters"]["Cell capacity [A.h]"] == 2.0
    trace = client.job.get_parameter_trace(done["job_id"])
    assert done["metrics"]["cost"] <= trace[0]["cost"]

    with pytest.raises(IonworksError) as e:  # a model as well: which one is meant is not guessed
        client.optimization.run({"project_id": project.id, "parameterized_model_id": pm.id, "config": fit.to_config()})
    assert e.value.status_code == 422 and "'objectives', 'discharge', 'options', 'model'" in str(e.value.message)


THICKNESS = "Positive electrode thickness [m]"
SPM_COARSE = {"model": {"type": "SPM", "simulation_settings": {"var_pts": {"r_n": 6, "r_p": 6}}}, "parameters": {}}


def design(**change):
    return {
        "type": "design",
        "model": SPM_COARSE,
        "protocol": "Discharge at 1C until 3.0 V",
        "parameters": {THICKNESS: {"initial": 6e-5, "bounds": [4e-5, 8e-5]}},
        "objective": {"metric": "discharge capacity [A.h]", "aim": "maximize"},
        "optimizer": {"method": "Nelder-Mead", "max_iterations": 8},
        **change,
    }


def test_design_optimization_finds_the_thickest_electrode(client, project):
    """A design optimization: the most discharge capacity over a bounded positive electrode
    thickness is at its upper bound (more active material), found by simulating each design."""
    run = client.optimization.run({"project_id": project.id, "name": unique("Thickness"), "config": design()})
    assert isinstance(run, Optimization) and run.job_id and run.status in ("queued", "running")
    done = client.optimization.wait_for_completion(run.id, timeout=300, poll_interval=POLL_S, verbose=False)
    assert done["status"] == "succeeded" and done["parameter_names"] == [THICKNESS]
    assert done["parameter_values"][THICKNESS] == pytest.approx(8e-5, rel=1e-6)
    metrics = done["metrics"]
    assert metrics["metric"] == "discharge capacity [A.h]" and metrics["aim"] == "maximize"
    assert metrics["objective_value"] > 0 and metrics["cost"] == pytest.approx(-metrics["objective_value"])
    assert metrics["simulation"]["discharge_capacity_ah"] == pytest.approx(metrics["objective_value"])
    assert metrics["failed_evaluations"] == 0 and metrics["evaluations"] >= 3
    result = iws.from_config(done["result"])
    assert isinstance(result, iws.OptimizationResult) and result.x == [done["parameter_values"][THICKNESS]]
    # The trace starts at the initial design, and its best cost only improves.
    trace = client.job.get_parameter_trace(done["job_id"])
    assert trace[0]["inputs_unscaled"][THICKNESS] == pytest.approx(6e-5)
    best = [t["best_cost"] for t in trace]
    assert best == sorted(best, reverse=True) and best[-1] == pytest.approx(metrics["cost"])
    assert client.optimization.get(run.id)["metrics"] == metrics


def test_design_optimization_refusals(client, project):
    before = client.optimization.list(project_id=project.id)["total"]
    inverted = design(parameters={THICKNESS: {"initial": 6e-5, "bounds": [8e-5, 4e-5]}})
    with pytest.raises(IonworksError) as e:
        client.optimization.run({"project_id": project.id, "config": inverted})
    assert e.value.status_code == 422 and "'bounds'" in str(e.value.message)
    unknown = design(parameters={"Warp factor [1]": {"initial": 1, "bounds": [0, 2]}})
    with pytest.raises(IonworksError) as e:
        client.optimization.run({"project_id": project.id, "config": unknown})
    assert e.value.status_code == 422 and "Warp factor [1]" in str(e.value.message)
    assert client.optimization.list(project_id=project.id)["total"] == before


def test_design_optimization_from_a_parameterized_model(client, project):
    """parameterized_model_id: the designs are the stored model with its values, the searched ones replaced."""
    model = client.model.create({"name": unique("SPM"), "project_id": project.id, "config": SPM_COARSE["model"]})
    pm = client.parameterized_model.create(
        None,
        {
            "name": unique("SPM cell"),
            "model_id": model.id,
            "project_id": project.id,
            "parameters": {"Negative electrode thickness [m]": 9e-5},
        },
    )
    config = design(optimizer={"method": "Nelder-Mead", "max_iterations": 2})
    del config["model"]
    run = client.optimization.run({"project_id": project.id, "parameterized_model_id": pm.id, "config": config})
    assert run.parameterized_model_id == pm.id
    done = client.optimization.wait_for_completion(run.id, timeout=300, poll_interval=POLL_S, verbose=False)
    assert done["status"] == "succeeded"
    assert done["config"]["model"]["parameters"]["Negative electrode thickness [m]"] == 9e-5
    assert 4e-5 <= done["parameter_values"][THICKNESS] <= 8e-5 and done["metrics"]["objective_value"] > 0

"""Simple pipelines in the client's request form (config: {elements}), their results through
client.pipeline.result, listing, cancel; studies with simulations and measurements; jobs."""

import pytest
from ionworks import IonworksError
from ionworks.job import JobCreationPayload

from conftest import POLL_S, cycling_series, unique

GEOMETRY = {"Positive electrode thickness [m]": 7.5e-05, "Electrode width [m]": 0.065}


def test_simple_pipeline_in_client_form_and_result(client, project):
    name = unique("Entry")
    submitted = client.simple_pipeline.create(
        {
            "project_id": project.id,
            "name": name,
            "elements": {"geometry": {"element_type": "entry", "values": GEOMETRY}},
        }
    )
    assert submitted.name == name and submitted.status in ("pending", "running", "completed")
    done = client.simple_pipeline.wait_for_completion(submitted.id, timeout=120, poll_interval=POLL_S, verbose=False)
    assert done.status == "completed" and done.is_terminal and not done.is_failed
    result = client.pipeline.result(submitted.id)  # no second pipeline_id: no TypeError
    assert result.element_results["geometry"]["parameter_values"] == GEOMETRY
    assert result.result["parameter_values"] == GEOMETRY
    listed = client.simple_pipeline.list(project_id=project.id)
    assert submitted.id in [p.id for p in listed]
    client.simple_pipeline.delete(submitted.id)
    with pytest.raises(IonworksError) as e:
        client.simple_pipeline.get(submitted.id)
    assert e.value.status_code == 404


def test_simple_pipeline_without_name_and_bad_element(client, project):
    unnamed = client.simple_pipeline.create(
        {"project_id": project.id, "elements": {"g": {"element_type": "entry", "values": GEOMETRY}}}
    )
    assert unnamed.name == "Simple pipeline"
    with pytest.raises(IonworksError) as e:
        client.simple_pipeline.create(
            {"project_id": project.id, "elements": {"g": {"element_type": "entry", "values": {"x": "not a number"}}}}
        )
    assert e.value.status_code == 422
    # The conventions' 422 body is a list of issues; the client keeps it as the message.
    assert "'elements', 'g', 'values'" in str(e.value.message)


def test_studies_and_jobs(client, project):
    study = client.study.create({"name": unique("Study"), "description": "rate capability"}, project_id=project.id)
    assert client.study.get(study.id, project_id=project.id).name == study.name
    assert study.id in [s.id for s in client.study.list(project_id=project.id)]
    renamed = client.study.update(study.id, {"description": "rate capability, 25 degC"}, project_id=project.id)
    assert renamed.description == "rate capability, 25 degC"

    spec = client.cell_spec.create({"project_id": project.id, "name": unique("Spec")})
    inst = client.cell_instance.create(spec.id, {"name": unique("Cell")})
    m = client.cell_measurement.create(
        inst.id, {"measurement": {"name": unique("Cycling")}, "time_series": cycling_series(1)}
    )
    client.study.assign_measurement(study.id, m.id, project_id=project.id)
    assert m.id in client.study.get(study.id, project_id=project.id).measurement_ids
    page = client.study.list_measurements(study.id, project_id=project.id)
    assert [x["id"] for x in page["items"]] == [m.id] and page["total"] == 1
    client.study.remove_measurement(study.id, m.id, project_id=project.id)
    assert m.id not in client.study.get(study.id, project_id=project.id).measurement_ids

    with pytest.raises(IonworksError) as gone:  # deprecated in the client: the service answers 410
        client.job.create(JobCreationPayload(job_type="simulation", params={}))
    assert gone.value.status_code == 410 and gone.value.error_code == "GONE"
    run = client.simple_pipeline.create(
        {"project_id": project.id, "elements": {"g": {"element_type": "entry", "values": GEOMETRY}}}
    )
    client.simple_pipeline.wait_for_completion(run.id, timeout=120, poll_interval=POLL_S, verbose=False)
    (element,) = client.get(f"/pipelines/{run.id}/elements")  # what the client's element accessors read
    jobs = client.job.list()
    assert element["job_id"] in [j.job_id for j in jobs]
    job = client.job.get(element["job_id"])
    assert (job.status, job.is_terminal) == ("completed", True)
    client.study.delete(study.id, project_id=project.id)


def test_pipeline_built_with_ionworks_schema(client, project):
    """A pipeline of the client's own schema objects, run on a stored measurement: entry,
    calculation, data fit and validation; results decoded by the client as ionworks-schema types,
    with the fit's model-vs-data series."""
    import warnings

    warnings.simplefilter("ignore", DeprecationWarning)
    import ionworks_schema as iws

    quick = {"kind": "quick", "capacity": 2.0, "chemistry": "NMC/Graphite"}
    # The "measured" discharge: Cellar's own simulation of the model, run through the client.
    sim = client.simulation.protocol(
        {
            "parameterized_model": {"capacity": 2.0, "chemistry": "NMC/Graphite"},
            "protocol_experiment": {"protocol": "Discharge at 1C for 20 minutes", "name": unique("1C")},
            "project_id": project.id,
        }
    )
    client.simulation.wait_for_completion(sim.simulation_id, timeout=300, poll_interval=POLL_S, verbose=False)
    ts = client.simulation.get_result(sim.simulation_id).time_series
    spec = client.cell_spec.create({"project_id": project.id, "name": unique("Spec")})
    inst = client.cell_instance.create(spec.id, {"name": unique("Cell")})
    import pandas as pd

    measured = pd.DataFrame({c: ts[c].to_list() for c in ("Time [s]", "Current [A]", "Voltage [V]")})
    measured["Step count"] = 0
    m = client.cell_measurement.create(
        inst.id, {"measurement": {"name": unique("1C discharge")}, "time_series": measured}
    )

    objective = iws.objectives.CurrentDriven(data_input=f"db:{m.id}", options={"model": quick})
    pipeline = iws.Pipeline(
        {
            "known": iws.direct_entries.DirectEntry(parameters={"Electrode area [m2]": 0.01}, source="datasheet"),
            "geometry": iws.calculations.AreaToSquareWidthHeight(),
            "fit": iws.DataFit(
                objectives={"discharge": objective},
                parameters={"R0 [Ohm]": iws.Parameter("R0 [Ohm]", initial_value=0.05, bounds=(0.001, 0.1))},
                cost=iws.costs.RMSE(),
                optimizer=iws.parameter_estimators.ScipyMinimize(method="Nelder-Mead", maxiter=60),
            ),
            "check": iws.Validation(objectives={"discharge": objective}),
        }
    )
    submitted = client.pipeline.create(pipeline, project_id=project.id, name=unique("Schema pipeline"))
    done = client.pipeline.wait_for_completion(submitted.id, timeout=300, poll_interval=POLL_S, verbose=False)
    assert done.status == "completed"

    result = client.pipeline.result(submitted.id)
    assert result.element_results["geometry"]["parameter_values"] == {
        "Electrode height [m]": 0.1,
        "Electrode width [m]": 0.1,
    }
    fit = result.element("fit")
    assert isinstance(fit, iws.OptimizationResult)
    r0 = fit.parameter_values["R0 [Ohm]"]
    assert 0.001 <= r0 <= 0.1 and fit.x == [r0] and fit.initial_guess == {"R0 [Ohm]": 0.05}
    # The fit's series: the data, the model at the fitted values and at the start point.
    series = fit.series["discharge"]
    assert set(series) == {"optimal", "baseline"}
    optimal = series["optimal"]
    assert set(optimal) == {"Time [s]", "Voltage [V] (data)", "Voltage [V] (model)"}
    assert len(optimal["Time [s]"]) == len(ts)

    def rmse(source):
        errors = [(d - p) ** 2 for d, p in zip(source["Voltage [V] (data)"], source["Voltage [V] (model)"])]
        return (sum(errors) / len(errors)) ** 0.5

    # The cost the fit reports is the RMSE of the series it stored; the start point was far worse.
    assert rmse(optimal) == pytest.approx(fit.fun, rel=1e-6)
    assert fit.fun < 0.005 and rmse(series["baseline"]) > 5 * fit.fun
    window = client.job.get_series(
        fit_job(client, submitted.id, "fit"), "discharge", x_min=60, x_max=600, max_points=50
    )
    assert 3 <= len(window["Time [s]"]) <= 50 and min(window["Time [s]"]) >= 60 and max(window["Time [s]"]) <= 600
    # The overlay the client assembles from the job's plot manifest: measured and fitted curves, then the error.
    overlay = fit.overlay["discharge"]
    assert overlay["type"] == "CurrentDriven" and len(overlay["plots"]) == 2
    curves, error = overlay["plots"]
    assert [t["name"] for t in curves["traces"]] == ["Data", "Fit"]
    assert curves["layout"]["yaxis"]["title"]["text"] == "Voltage [V]"
    assert error["layout"]["yaxis"]["title"]["text"] == "Error [V]"
    assert max(abs(y) for y in error["traces"][0]["y"]) == pytest.approx(worst_error(optimal), rel=1e-6)
    metadata = client.pipeline.get_element_metadata(submitted.id, "check")
    assert metadata["intermediate_results"] == [] and "discharge" in metadata["validation_results"]
    check = result.element("check")
    assert isinstance(check, iws.ValidationResult)
    assert check.validation_results["discharge"]["summary_stats"]["RMSE"] == pytest.approx(fit.fun, rel=1e-3)

    # The month's usage in hours, as the client reads it: the 20-minute discharge simulated, and
    # the Python worker's time on the fit and the validation by job type.
    usage = client.organization.usage()
    assert usage.simulation.usage >= 20 / 60 - 1e-5 and usage.simulation.limit is None and usage.simulation.count >= 1
    by_type = usage.compute.usage_by_type
    assert by_type["datafit"] > 0 and by_type["validation"] > 0 and by_type["simulation"] > 0
    assert usage.compute.usage == pytest.approx(sum(by_type.values()), abs=1e-5)
    assert by_type["datafit"] < 1  # hours, not seconds

    # What the engine cannot run is refused up front, naming the client's field.
    with pytest.raises(IonworksError) as e:
        client.pipeline.create(
            iws.Pipeline(
                {
                    "fit": iws.DataFit(
                        objectives={"discharge": objective},
                        parameters={"R0 [Ohm]": iws.Parameter("R0 [Ohm]", initial_value=0.05, bounds=(0.001, 0.1))},
                        optimizer=iws.parameter_estimators.CMAES(),
                    )
                }
            ),
            project_id=project.id,
        )
    assert e.value.status_code == 422
    assert "'elements', 'fit', 'optimizer', 'type'" in str(e.value.message)
    client.pipeline.delete(submitted.id)


def worst_error(source):
    return max(abs(d - p) for d, p in zip(source["Voltage [V] (data)"], source["Voltage [V] (model)"]))


def fit_job(client, pipeline_id, name):
    return next(e["job_id"] for e in client.get(f"/pipelines/{pipeline_id}/elements") if e["name"] == name)

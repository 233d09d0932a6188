"""Simple pipelines in the client's request form (config: {elements}), their results through
client.pipeline.result, listing, cancel; studies with simulations and measurements; jobs."""

import pytest
from ionworks import IonworksError
from ionworks.job import JobCreationPayload

from conftest import cycling_series, unique

GEOMETRY = {"Positive electrode thickness [m]": 7.5e-05, "Electrode width [m]": 0.065}


def test_simple_pipeline_in_client_form_and_result(client, project):
    name = unique("Entry")
    submitted = client.simple_pipeline.create(
        {"project_id": project.id, "name": name, "elements": {"geometry": {"element_type": "entry", "values": GEOMETRY}}}
    )
    assert submitted.name == name and submitted.status in ("pending", "running", "completed")
    done = client.simple_pipeline.wait_for_completion(submitted.id, timeout=120, poll_interval=1, verbose=False)
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
    unnamed = client.simple_pipeline.create({"project_id": project.id, "elements": {"g": {"element_type": "entry", "values": GEOMETRY}}})
    assert unnamed.name == "Simple pipeline"
    with pytest.raises(IonworksError) as e:
        client.simple_pipeline.create({"project_id": project.id, "elements": {"g": {"element_type": "entry", "values": {"x": "not a number"}}}})
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
    m = client.cell_measurement.create(inst.id, {"measurement": {"name": unique("Cycling")}, "time_series": cycling_series(1)})
    client.study.assign_measurement(study.id, m.id, project_id=project.id)
    assert m.id in client.study.get(study.id, project_id=project.id).measurement_ids
    page = client.study.list_measurements(study.id, project_id=project.id)
    assert [x["id"] for x in page["items"]] == [m.id] and page["total"] == 1
    client.study.remove_measurement(study.id, m.id, project_id=project.id)
    assert m.id not in client.study.get(study.id, project_id=project.id).measurement_ids

    with pytest.raises(IonworksError) as gone:  # deprecated in the client: the service answers 410
        client.job.create(JobCreationPayload(job_type="simulation", params={}))
    assert gone.value.status_code == 410 and gone.value.error_code == "GONE"
    run = client.simple_pipeline.create({"project_id": project.id, "elements": {"g": {"element_type": "entry", "values": GEOMETRY}}})
    client.simple_pipeline.wait_for_completion(run.id, timeout=120, poll_interval=1, verbose=False)
    (element,) = client.get(f"/pipelines/{run.id}/elements")  # what the client's element accessors read
    jobs = client.job.list()
    assert element["job_id"] in [j.job_id for j in jobs]
    job = client.job.get(element["job_id"])
    assert (job.status, job.is_terminal) == ("completed", True)
    client.study.delete(study.id, project_id=project.id)

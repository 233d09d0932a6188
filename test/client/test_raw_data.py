"""Raw data through client.raw_data and client.cell_measurement: an original cycler export
uploaded (initiate -> signed PUT -> confirm), listed, read, described, downloaded byte for byte,
linked to the measurement made from it, and deleted."""

import io

import pytest
from ionworks import IonworksError

from conftest import unique

EXPORT = b"Test_Time(s),Current(A),Voltage(V)\n0,0,4.1\n1,1.5,4.0\n2,1.5,3.9\n"


@pytest.fixture(scope="module")
def instance(client, project):
    spec = client.cell_spec.create({"project_id": project.id, "name": unique("Raw data spec")})
    yield client.cell_instance.create(spec.id, {"name": unique("Raw data cell")})
    client.cell_spec.delete(spec.id)


def test_raw_data_upload_read_link_delete(client, project, instance, tmp_path):
    path = tmp_path / "arbin_export.csv"
    path.write_bytes(EXPORT)
    raw = client.raw_data.upload(project.id, str(path), source="Arbin MITS Pro export", metadata={"channel": 4})
    assert raw.project_id == project.id and raw.filename == "arbin_export.csv" and raw.name == "arbin_export.csv"
    assert raw.source == "Arbin MITS Pro export"
    assert raw.size_bytes == len(EXPORT) and raw.content_type == "text/csv" and raw.metadata == {"channel": 4}

    # A file-like object without a seekable size is buffered by the client; a name is kept.
    piped = client.raw_data.upload(project.id, io.BytesIO(b"binary\x00dump"), name=unique("Maccor dump"))
    assert piped.filename == "upload.bin" and piped.size_bytes == 11

    listed = client.raw_data.list(project.id, limit=1)
    assert listed.total == 2 and len(listed) == 1 and listed[0].id == piped.id
    assert client.raw_data.get(raw.id).name == raw.name

    changed = client.raw_data.update(raw.id, name="Formation export", source="", metadata={"channel": 5})
    assert changed.name == "Formation export" and changed.source is None and changed.metadata == {"channel": 5}

    assert client.raw_data.download(raw.id, use_cache=False) == EXPORT
    assert client.raw_data.download_url(raw.id).startswith("http")

    run = client.cell_measurement.create_properties(instance.id, unique("OCV"), {"ocv": {"value": 3.6, "unit": "V"}})
    client.cell_measurement.attach_raw_data(run.id, [raw.id, piped.id])
    client.cell_measurement.attach_raw_data(run.id, [raw.id])  # idempotent
    linked = client.cell_measurement.list_raw_data(run.id)
    assert linked.total == 2 and {r.id for r in linked} == {raw.id, piped.id}
    assert list(client.raw_data.list_measurements(raw.id)) == [run.id]
    client.cell_measurement.detach_raw_data(run.id, piped.id)
    assert [r.id for r in client.cell_measurement.list_raw_data(run.id)] == [raw.id]
    with pytest.raises(IonworksError):
        client.cell_measurement.detach_raw_data(run.id, piped.id)

    client.raw_data.delete(raw.id)
    with pytest.raises(IonworksError) as gone:
        client.raw_data.get(raw.id)
    assert "404" in str(gone.value) or "NOT_FOUND" in str(gone.value)
    assert list(client.cell_measurement.list_raw_data(run.id)) == []
    client.raw_data.delete(piped.id)
    assert client.raw_data.list(project.id).total == 0


def test_raw_data_refuses_a_file_of_another_project(client, project, instance):
    other = client.project.create({"name": unique("Other raw data project")})
    try:
        foreign = client.raw_data.upload(other.id, io.BytesIO(EXPORT))
        run = client.cell_measurement.create_properties(
            instance.id, unique("OCV"), {"ocv": {"value": 3.6, "unit": "V"}}
        )
        with pytest.raises(IonworksError) as refused:
            client.cell_measurement.attach_raw_data(run.id, [foreign.id])
        assert "raw_data_ids" in str(refused.value)
    finally:
        client.project.delete(other.id)

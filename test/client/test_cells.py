"""Cell specifications, instances and the time-series upload (create -> signed PUT -> confirm
-> processed) through client.cell_measurement, then its reads."""

import pytest
from ionworks import IonworksError

from conftest import cycling_series, unique


@pytest.fixture(scope="module")
def spec(client, project):
    s = client.cell_spec.create(
        {
            "project_id": project.id,
            "name": unique("NMC 21700"),
            "form_factor": "cylindrical",
            "ratings": {"capacity": {"value": 5.0, "unit": "A.h"}, "nominal_voltage": {"value": 3.6, "unit": "V"}},
            "cathode": {"material": {"name": "NMC811"}, "loading": {"value": 20.0, "unit": "mg/cm^2"}},
            "anode": {"material": {"name": "Graphite"}},
            "source": "datasheet rev B",
            "notes": "sample lot from supplier",
        }
    )
    yield s
    client.cell_spec.delete(s.id)


def test_cell_specifications(client, project, spec):
    assert spec.source == "datasheet rev B" and spec.notes == "sample lot from supplier"
    again = client.cell_spec.create_or_get({"project_id": project.id, "name": spec.name})
    assert again.id == spec.id
    # A nested update merges into what is stored: other ratings and cathode keys stay.
    updated = client.cell_spec.update(
        spec.id,
        {
            "ratings": {"capacity": {"value": 4.9, "unit": "A.h"}},
            "cathode": {"loading": {"value": 21.0, "unit": "mg/cm^2"}},
        },
    )
    assert updated.ratings["capacity"]["value"] == 4.9
    assert updated.ratings["nominal_voltage"]["value"] == 3.6
    assert updated.cathode["material"]["name"] == "NMC811"
    assert updated.cathode["loading"]["value"] == 21.0
    full = client.cell_spec.list(include_components=True, name_exact=spec.name, project_id=project.id)
    assert [s.id for s in full] == [spec.id]
    assert full[0].cathode["material"]["name"] == "NMC811"
    got = client.cell_spec.get(spec.id)
    assert got.source == "datasheet rev B"


def test_cell_instances(client, spec):
    inst = client.cell_instance.create(
        spec.id,
        {
            "name": unique("Cell"),
            "serial_number": "SN-001",
            "date_manufactured": "2026-10-01",
            "measured_properties": {"mass": {"value": 68.2, "unit": "g"}},
        },
    )
    assert inst.cell_specification_id == spec.id
    assert inst.date_manufactured == "2026-10-01"
    assert inst.measured_properties["mass"]["value"] == 68.2
    same = client.cell_instance.create_or_get(spec.id, {"name": inst.name})
    assert same.id == inst.id
    upd = client.cell_instance.update(inst.id, {"measured_properties": {"mass": {"value": 68.4, "unit": "g"}}})
    assert upd.measured_properties["mass"]["value"] == 68.4
    listed = client.cell_instance.list(spec.id, limit=200)
    assert inst.id in [i.id for i in listed]
    client.cell_instance.delete(inst.id)


def test_cell_batches(client, spec):
    lot = client.cell_batch.create(
        spec.id, {"name": unique("LOT-Q1"), "date_manufactured": "2026-01-15", "notes": "supplier A"}
    )
    assert (lot.cell_specification_id, lot.date_manufactured, lot.instance_count) == (spec.id, "2026-01-15", 0)
    # Names are unique per specification, case-insensitively: create_or_get finds the lot.
    assert client.cell_batch.create_or_get(spec.id, {"name": lot.name.lower()}).id == lot.id
    cell = client.cell_instance.create(spec.id, {"name": unique("Lot cell"), "batch_id": lot.id})
    assert (cell.batch_id, cell.batch_name) == (lot.id, lot.name)
    assert [i.id for i in client.cell_instance.list(spec.id, batch_id=lot.id)] == [cell.id]
    assert client.cell_batch.get(lot.id).instance_count == 1
    renamed = client.cell_batch.update(lot.id, {"name": lot.name + "-b"})
    assert client.cell_instance.get(cell.id).batch_name == renamed.name
    assert lot.id in [b.id for b in client.cell_batch.list(spec.id)]
    other = client.cell_spec.create({"project_id": spec.project_id, "name": unique("Other spec")})
    with pytest.raises(IonworksError) as e:
        client.cell_instance.create(other.id, {"name": "wrong lot", "batch_id": lot.id})
    assert e.value.status_code == 422
    client.cell_batch.delete(lot.id)
    assert client.cell_instance.get(cell.id).batch_id is None  # the cell stays, out of the lot


def test_time_series_upload_and_reads(client, spec):
    inst = client.cell_instance.create(spec.id, {"name": unique("Cycled cell")})
    series = cycling_series(cycles=2)
    bundle = client.cell_measurement.create(
        inst.id,
        {
            "measurement": {
                "name": unique("Formation"),
                "notes": "two cycles",
                "protocol": {"name": "1C cycling", "ambient_temperature_degc": 25},
                "tags": [" formation", "25degC", "Formation"],
            },
            "time_series": series,
        },
    )
    m = bundle
    assert m.cell_instance_id == inst.id and m.processing_status in ("pending", "running", "ready")
    assert m.protocol["name"] == "1C cycling"
    got = client.cell_measurement.get(m.id)
    assert got.processing_status == "ready"
    assert got.protocol == {"name": "1C cycling", "ambient_temperature_degc": 25}
    assert got.protocol.get("name") == "1C cycling"
    listed = client.cell_measurement.list(inst.id)
    assert [x.id for x in listed] == [m.id]

    steps = client.cell_measurement.steps(m.id, use_cache=False)
    assert len(steps) == 8
    cycles = client.cell_measurement.cycles(m.id, use_cache=False)
    assert len(cycles) == 2
    both = client.cell_measurement.steps_and_cycles(m.id, use_cache=False)
    assert len(both.steps) == 8 and len(both.cycles) == 2
    ts = client.cell_measurement.time_series(m.id, use_cache=False)
    assert len(ts) == len(series)
    assert abs(float(ts["Voltage [V]"].max()) - float(series["Voltage [V]"].max())) < 1e-6

    # Tags: normalised on write, filtered case-insensitively, counted per project, changed in bulk.
    assert got.tags == ["25degC", "formation"]
    assert [x.id for x in client.cell_measurement.list(inst.id, tags_all=["FORMATION", "25degc"])] == [m.id]
    assert list(client.cell_measurement.list(inst.id, tags_any=["hppc"])) == []
    assert client.cell_measurement.add_tags(m.id, ["hppc", "HPPC"]) == 1
    assert client.cell_measurement.remove_tags([m.id], ["25DEGC"]) == 1
    assert client.cell_measurement.get(m.id).tags == ["formation", "hppc"]
    with pytest.raises(IonworksError) as e:
        client.cell_measurement.add_tags(m.id, [f"t{i}" for i in range(60)])
    assert e.value.status_code == 422
    assert client.cell_measurement.get(m.id).tags == ["formation", "hppc"]
    in_project = client.cell_measurement.list_by_project(spec.project_id, tags_all=["HPPC"])
    assert [x.id for x in in_project] == [m.id]
    assert [x.id for x in client.cell_measurement.list_by_project(spec.project_id, q="1c cyc")] == [m.id]
    assert list(client.cell_measurement.list_by_project(spec.project_id, q="no such words")) == []
    assert [x.id for x in client.cell_measurement.list(inst.id, measurement_type="time_series")] == [m.id]
    assert list(client.cell_measurement.list(inst.id, measurement_type="properties")) == []
    usage = client.cell_measurement.list_tags(spec.project_id)
    assert {(u.tag, u.usage_count) for u in usage} == {("formation", 1), ("hppc", 1)}
    assert [u.tag for u in client.cell_measurement.list_tags(spec.project_id, q="HP")] == ["hppc"]

    renamed = client.cell_measurement.update(m.id, {"protocol": {"name": "1C cycling", "ambient_temperature_degc": 30}})
    assert renamed.protocol["ambient_temperature_degc"] == 30
    client.cell_measurement.delete(m.id)


def test_analyses(client, project, spec):
    """An analysis of a measurement: its table uploaded, listed by measurement and project, read
    back through the signed URL, its metadata edited, and deleted with its table."""
    inst = client.cell_instance.create(spec.id, {"name": unique("Aged cell")})
    m = client.cell_measurement.create_properties(inst.id, unique("RPT"), {"capacity": {"value": 4.8, "unit": "A.h"}})
    table = {"cycle": [0, 100, 200], "lli_pct": [0.0, 2.1, 4.0], "lam_ne_pct": [0.0, 1.2, 2.6]}
    columns = [{"name": "cycle", "unit": ""}, {"name": "lli_pct", "unit": "%"}, {"name": "lam_ne_pct", "unit": "%"}]
    a = client.analysis.create(
        m.id,
        "LLI and LAM",
        "lam_lli_from_rpt",
        table,
        columns=columns,
        plots=[{"x": "cycle", "y": ["lli_pct", "lam_ne_pct"], "title": "Degradation modes"}],
        metadata={"rpt_cycles": [0, 100, 200]},
        notes="from the C/20 RPTs",
    )
    assert (a.measurement_id, a.project_id, a.analysis_type) == (m.id, project.id, "lam_lli_from_rpt")
    assert [c.name for c in a.columns] == ["cycle", "lli_pct", "lam_ne_pct"] and a.metadata == {
        "rpt_cycles": [0, 100, 200]
    }
    assert client.analysis.get(a.id).notes == "from the C/20 RPTs"
    assert [x.id for x in client.analysis.list(m.id)] == [a.id]
    assert a.id in [x.id for x in client.analysis.list(project_id=project.id)]
    assert client.analysis.find_one(m.id, analysis_type="lam_lli_from_rpt").id == a.id
    data = client.analysis.get_data(a.id)
    assert list(data.columns) == ["cycle", "lli_pct", "lam_ne_pct"] and list(data["lli_pct"]) == [0.0, 2.1, 4.0]
    renamed = client.analysis.update(a.id, {"name": "Degradation modes", "plots": [{"x": "cycle", "y": ["lli_pct"]}]})
    assert renamed.name == "Degradation modes" and renamed.plots == [{"x": "cycle", "y": ["lli_pct"]}]

    # A column spec or preset that the table does not have is refused, naming the field.
    with pytest.raises(IonworksError) as e:
        client.analysis.create(m.id, "Bad", "lam_lli_from_rpt", table, columns=[{"name": "soh"}])
    assert e.value.status_code == 422 and "soh" in str(e.value.message)
    with pytest.raises(IonworksError) as e:
        client.analysis.update(a.id, {"plots": [{"x": "cycle", "y": ["resistance"]}]})
    assert e.value.status_code == 422 and "resistance" in str(e.value.message)
    assert [x.id for x in client.analysis.list(m.id)] == [a.id]

    client.analysis.delete(a.id)
    with pytest.raises(IonworksError) as e:
        client.analysis.get(a.id)
    assert e.value.status_code == 404

"""Sites, cyclers, channels, incidents, service events and calibration."""

from datetime import UTC, datetime, timedelta

import pytest

from conftest import unique


@pytest.fixture(scope="module")
def cycler(client, project):
    site = client.site.create({"name": unique("Site"), "location": "Building 2"})
    c = client.cycler.create(
        site.id,
        {"name": unique("Arbin"), "project_id": project.id, "manufacturer": "Arbin", "model": "LBT-5V"},
    )
    yield c
    client.cycler.delete(c.id)
    client.site.delete(site.id)


def test_sites_and_cyclers(client, project, cycler):
    site = client.site.get(cycler.site_id)
    assert any(s.id == site.id for s in client.site.list(name=site.name))
    assert client.site.update(site.id, {"location": "Building 3"}).location == "Building 3"
    listed = client.cycler.list(cycler.site_id)
    assert [c.id for c in listed] == [cycler.id]
    got = client.cycler.get(cycler.id)
    assert (got.manufacturer, got.model, got.project_id) == ("Arbin", "LBT-5V", project.id)
    assert client.cycler.update(cycler.id, {"firmware_version": "4.2"}).firmware_version == "4.2"
    assert client.cycler.create_or_get(cycler.site_id, {"name": cycler.name, "project_id": project.id}).id == cycler.id


def test_channels_and_incidents(client, project, cycler):
    ch = client.channel.create(cycler.id, {"name": "CH1", "max_amps": 5.0, "min_volts": 2.5, "max_volts": 4.2})
    assert (ch.cycler_id, ch.project_id, ch.max_amps, ch.out_of_commission) == (cycler.id, project.id, 5.0, False)
    assert [c.id for c in client.channel.list(cycler.id)] == [ch.id]
    assert any(c.id == ch.id for c in client.channel.list_all())
    down = client.channel.update(
        ch.id, {"out_of_commission": True, "incident_category": "hardware_failure", "incident_notes": "relay clicks"}
    )
    assert down.out_of_commission is True
    incidents = client.channel.list_incidents(ch.id)
    assert len(incidents) == 1
    inc = incidents[0]
    assert inc.channel_id == ch.id and inc.category == "hardware_failure"
    assert inc.notes == "relay clicks"
    assert inc.started_at is not None and inc.resolved_at is None
    up = client.channel.update(ch.id, {"out_of_commission": False, "resolution_notes": "relay replaced"})
    assert up.out_of_commission is False
    inc = client.channel.list_incidents(ch.id)[0]
    assert inc.resolved_at is not None and inc.resolved_at >= inc.started_at
    assert inc.resolution_notes == "relay replaced"
    assert client.channel.get(ch.id).name == "CH1"


def test_service_events_and_calibration(client, project, cycler):
    client.channel.create_or_get(cycler.id, {"name": "CH2"})
    when = (datetime.now(UTC) + timedelta(hours=1)).replace(microsecond=0)
    opened = client.cycler.start_service(
        cycler.id,
        "preventive_maintenance",
        when.isoformat(),
        scheduled_until=(when + timedelta(hours=2)).isoformat(),
        notes="fans",
    )
    assert opened.event_type == "preventive_maintenance" and opened.performed_at is None
    assert opened.scheduled_for == when and opened.scheduled_until == when + timedelta(hours=2)
    done = client.cycler.complete_service(cycler.id, notes="fans cleaned", event_type="preventive_maintenance")
    assert done.id == opened.id and done.performed_at is not None
    assert (done.notes, done.completion_notes) == ("fans", "fans cleaned")

    # A calibration recorded after the fact in one call: no open event needed.
    performed = (datetime.now(UTC) - timedelta(days=1)).replace(microsecond=0)
    cal = client.cycler.complete_service(cycler.id, performed_at=performed.isoformat(), notes="annual")
    assert cal.event_type == "calibration" and cal.performed_at == performed and cal.scheduled_for is None
    events = client.cycler.list_service_events(cycler.id)
    assert {e.id for e in events} >= {opened.id, cal.id}
    assert all(e.performed_at is not None for e in events)
    got = client.cycler.get(cycler.id)
    assert got.last_calibrated_at == performed


def test_lab_status_free_channels_and_utilization(client):
    """The lab as the client reads it: one channel running a test, two free, one out of commission."""
    from conftest import cycling_series

    project = client.project.create({"name": unique("Lab")})
    site = client.site.create({"name": unique("Site"), "location": "Bay 1"})
    cycler = client.cycler.create(
        site.id, {"name": unique("Maccor"), "project_id": project.id, "manufacturer": "Maccor"}
    )
    running = client.channel.create(cycler.id, {"name": "A", "max_amps": 5.0, "min_volts": 2.0, "max_volts": 4.5})
    strong = client.channel.create(cycler.id, {"name": "B", "max_amps": 5.0, "min_volts": 2.0, "max_volts": 4.5})
    weak = client.channel.create(cycler.id, {"name": "C", "max_amps": 1.0, "min_volts": 2.0, "max_volts": 4.5})
    broken = client.channel.create(cycler.id, {"name": "D", "max_amps": 10.0, "min_volts": 2.0, "max_volts": 4.5})
    client.channel.update(broken.id, {"out_of_commission": True, "incident_category": "hardware_failure"})
    spec = client.cell_spec.create({"project_id": project.id, "name": unique("Spec")})
    inst = client.cell_instance.create(spec.id, {"name": unique("Cell")})
    started = (datetime.now(UTC) - timedelta(minutes=30)).isoformat()
    m = client.cell_measurement.create(
        inst.id,
        {
            "measurement": {"name": unique("On test"), "channel_id": running.id, "start_time": started},
            "time_series": cycling_series(1),
        },
    )

    status = client.lab.status(project.id)
    assert (status.occupied, status.stale, status.free, status.out_of_commission) == (1, 0, 2, 1)
    states = {ch.name: ch.state.value for s in status.sites for c in s.cyclers for ch in c.channels}
    assert states == {"A": "occupied", "B": "free", "C": "free", "D": "out_of_commission"}
    # An out-of-commission channel is never offered, whatever its rating.
    free = client.lab.free_channels(project.id, status=status)
    assert sorted(fc.channel.name for fc in free) == ["B", "C"]
    assert all(fc.cycler_id == cycler.id and fc.site_name == site.name for fc in free)
    assert [fc.channel.id for fc in client.lab.free_channels(project.id, min_amps=2.0, status=status)] == [strong.id]
    assert client.lab.free_channels(project.id, min_volts=1.5, status=status) == []
    assert [fc.channel.id for fc in client.lab.free_channels(project.id, max_volts=4.2, min_amps=0.5)] == sorted(
        [strong.id, weak.id], key=[fc.channel.id for fc in free].index
    )
    usage = client.lab.utilization(project.id, status=status)
    assert (usage.percent, usage.occupied, usage.free, usage.out_of_commission, usage.total) == (25, 1, 2, 1, 4)
    assert client.lab.stale_channels(project.id, status=status) == []
    on_test = client.lab.on_channel(project.id, running.id, status=status)
    assert on_test.id == m.id and on_test.cell_instance_id == inst.id and on_test.watched is False
    assert client.lab.on_channel(project.id, strong.id, status=status) is None

    client.cell_measurement.watch(m.id)
    assert m.id in client.lab.list_watched(project.id)
    assert [fc.channel.id for fc in client.lab.watched_channels(project.id)] == [running.id]
    client.cell_measurement.unwatch(m.id)
    assert client.lab.watched_channels(project.id) == []

    # A repaired channel is free again and counts as such.
    client.channel.update(broken.id, {"out_of_commission": False, "resolution_notes": "relay replaced"})
    repaired = client.lab.utilization(project.id)
    assert (repaired.free, repaired.out_of_commission, repaired.percent) == (3, 0, 25)
    assert broken.id in [fc.channel.id for fc in client.lab.free_channels(project.id, min_amps=8.0)]
    # The test ends: its channel is free, and the project can go (not while a test runs on it).
    # (ended two minutes ago: the lab status reads the clock to the minute)
    client.cell_measurement.update(m.id, {"end_time": (datetime.now(UTC) - timedelta(minutes=2)).isoformat()})
    ended = client.lab.utilization(project.id)
    assert (ended.free, ended.occupied, ended.percent) == (4, 0, 0)
    assert client.lab.on_channel(project.id, running.id) is None
    client.project.delete(project.id)
    client.site.delete(site.id)

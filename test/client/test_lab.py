"""Sites, cyclers, channels, incidents, service events and calibration."""

from datetime import datetime, timedelta, timezone

import pytest
from ionworks import IonworksError

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
    when = (datetime.now(timezone.utc) + timedelta(hours=1)).replace(microsecond=0)
    opened = client.cycler.start_service(
        cycler.id, "preventive_maintenance", when.isoformat(), scheduled_until=(when + timedelta(hours=2)).isoformat(), notes="fans"
    )
    assert opened.event_type == "preventive_maintenance" and opened.performed_at is None
    assert opened.scheduled_for == when and opened.scheduled_until == when + timedelta(hours=2)
    done = client.cycler.complete_service(cycler.id, notes="fans cleaned", event_type="preventive_maintenance")
    assert done.id == opened.id and done.performed_at is not None
    assert (done.notes, done.completion_notes) == ("fans", "fans cleaned")

    # A calibration recorded after the fact in one call: no open event needed.
    performed = (datetime.now(timezone.utc) - timedelta(days=1)).replace(microsecond=0)
    cal = client.cycler.complete_service(cycler.id, performed_at=performed.isoformat(), notes="annual")
    assert cal.event_type == "calibration" and cal.performed_at == performed and cal.scheduled_for is None
    events = client.cycler.list_service_events(cycler.id)
    assert {e.id for e in events} >= {opened.id, cal.id}
    assert all(e.performed_at is not None for e in events)
    got = client.cycler.get(cycler.id)
    assert got.last_calibrated_at == performed

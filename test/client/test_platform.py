"""Health, whoami, projects and members, usage, search."""

import os
import re
import uuid

import pytest
from ionworks import IonworksError

from conftest import unique


def test_health_and_whoami(client):
    health = client.health_check()
    assert health["status"] == "ok"
    me = client.whoami()
    assert me["id"] and "@" in me["email"]
    assert me["authorized_organization"]["id"]
    assert any(o["id"] == me["authorized_organization"]["id"] for o in me["organizations"])


def test_discovery_documents(client):
    caps = client.capabilities()
    assert caps["schemas"]["data"] == "/discovery/schemas/data" and caps["openapi_spec"] == "/openapi.json"
    data = client.schema("data")
    assert data["properties"]["cell_instance"] == {"$ref": "#/$defs/CellInstance"}
    assert "batch_id" in data["$defs"]["CellInstance"]["properties"]
    refs = re.findall(r"'\$ref': '([^']*)'", str(data))
    assert refs and all(r.startswith("#/$defs/") and r[len("#/$defs/") :] in data["$defs"] for r in refs)
    assert client.schema("protocol")["$schema"].startswith("https://json-schema.org/")


def test_projects_and_members(client):
    name = unique("Project")
    p = client.project.create({"name": name, "description": "made by the client"})
    assert p.name == name and p.organization_id
    assert client.project.get(p.id).name == name
    listed = client.project.list(name_exact=name)
    assert [x.id for x in listed] == [p.id]
    renamed = client.project.update(p.id, {"name": name + " b"})
    assert renamed.name == name + " b"

    roles = client.project.roles()
    names = {r.name for r in roles}
    assert "Project Contributor" in names
    member = os.environ["CELLAR_TEST_MEMBER_ID"]
    client.project.add_member(p.id, member)  # role by name, resolved through /roles/project
    client.project.update_member(p.id, member, "Project Viewer")
    client.project.remove_member(p.id, member)
    # Inviting by e-mail: a new person joins the organization and the project in one call.
    newcomer = f"new-{uuid.uuid4().hex[:8]}@example.test"
    invited = client.project.invite_member(p.id, newcomer, "Project Viewer")
    assert (invited.invite_sent, invited.already_member, invited.role_name) == (False, False, "Project Viewer")
    assert client.organization.get_member(newcomer).role == "Member"
    again = client.project.invite_member(p.id, newcomer)
    assert again.already_member and again.role_name == "Project Viewer"

    client.project.delete(p.id)
    with pytest.raises(IonworksError) as e:
        client.project.get(p.id)
    assert e.value.status_code == 404


def test_usage(client):
    usage = client.organization.usage()
    assert usage.period_start <= usage.period_end


def test_search(client, project):
    name = unique("Searchable site")
    site = client.site.create({"name": name, "location": "Bay 4"})
    try:
        found = client.search.query(name.split()[-1])
        assert any(r.id == site.id and r.entity_type == "site" for r in found.results)
    finally:
        client.site.delete(site.id)


def test_errors(client, project):
    with pytest.raises(IonworksError) as e:
        client.site.get("00000000-0000-0000-0000-000000000000")
    assert e.value.status_code == 404
    name = unique("Dup site")
    site = client.site.create({"name": name})
    try:
        with pytest.raises(IonworksError) as e:
            client.site.create({"name": name})
        assert e.value.status_code == 409
        assert e.value.error_code == "CONFLICT"
        assert e.value.data["detail"]["existing_id"] == site.id
        # create_or_get recovers through existing_id
        assert client.site.create_or_get({"name": name}).id == site.id
        with pytest.raises(IonworksError) as e:
            client.cycler.create(site.id, {"name": "no project"})
        assert e.value.status_code == 422
    finally:
        client.site.delete(site.id)


def test_organization_members(client):
    me = client.whoami()
    members = client.organization.members()
    mine = [m for m in members if m.id == me["id"]]
    assert mine and mine[0].role == "Admin"
    colleague = client.organization.get_member(os.environ["CELLAR_TEST_MEMBER_EMAIL"].upper())
    assert colleague.role == "Member"
    invited = client.organization.invite(f"new-{uuid.uuid4().hex[:8]}@example.test")
    assert (invited.invite_sent, invited.already_member, invited.role_name) == (False, False, "Member")
    again = client.organization.invite(colleague.email, role="Admin")
    assert again.already_member and again.role_name == "Member"  # an existing member keeps their role
    client.organization.set_role(invited.user_id, "Admin")
    assert {m.id: m.role for m in client.organization.members()}[invited.user_id] == "Admin"
    client.organization.resend_invite(invited.user_id)
    # Deactivated, a member is listed as inactive; the organization keeps an active owner.
    client.organization.deactivate(invited.user_id)
    assert {m.id: m.is_active for m in client.organization.members()}[invited.user_id] is False
    with pytest.raises(IonworksError) as e:
        client.organization.deactivate(me["id"])
    assert e.value.status_code == 409
    client.organization.reactivate(invited.user_id)
    assert {m.id: m.is_active for m in client.organization.members()}[invited.user_id] is True
    client.organization.remove(invited.user_id)
    assert invited.user_id not in [m.id for m in client.organization.members()]
    # The organization keeps an owner: its only Admin cannot be removed.
    assert [m.id for m in client.organization.members() if m.role == "Admin"] == [me["id"]]
    with pytest.raises(IonworksError) as e:
        client.organization.remove(me["id"])
    assert e.value.status_code == 409

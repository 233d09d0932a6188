"""client.search over raw data files and analyses: found by name and by their details (file
name, source, analysis type, notes, metadata), renamed with them, gone once deleted."""

import io
import uuid

import polars as pl
from ionworks import AnalysisType

from conftest import unique


def hits(client, q, types):
    return [(h.id, h.entity_type, h.project_id, h.parent_id) for h in client.search.query(q, entity_types=types)]


def test_search_finds_raw_data_and_analyses(client, project):
    token = uuid.uuid4().hex[:10]
    raw = client.raw_data.upload(
        project.id, io.BytesIO(b"t,i,v\n0,0,4.1\n"), name=f"Formation {token}", source=f"Arbin{token} export"
    )
    found = [(raw.id, "raw_data", project.id, None)]
    assert hits(client, f"formation {token}", ["raw_data"]) == found
    assert hits(client, f"arbin{token}", None) == found  # by its source, a word prefix
    client.raw_data.update(raw.id, name=f"Aging {token}")
    assert hits(client, f"aging {token}", ["raw_data"]) == found
    assert hits(client, f"formation {token}", ["raw_data"]) == []

    spec = client.cell_spec.create({"project_id": project.id, "name": unique("Search spec")})
    cell = client.cell_instance.create(spec.id, {"name": unique("Search cell")})
    run = client.cell_measurement.create_properties(cell.id, unique("RPT"), {"capacity": {"value": 4.9, "unit": "A.h"}})
    df = pl.DataFrame({"cycle": [1.0, 50.0], "lli": [0.0, 2.1]})
    a = client.analysis.create(
        run.id, f"Degradation {token}", AnalysisType.LAM_LLI_FROM_RPT, df, notes=f"rpt{token} every 50 cycles"
    )
    analysis = [(a.id, "analysis", project.id, run.id)]
    assert hits(client, f"degradation {token}", ["analysis"]) == analysis
    assert hits(client, f"rpt{token}", ["analysis", "raw_data"]) == analysis  # by its notes

    client.raw_data.delete(raw.id)
    assert hits(client, token, ["raw_data"]) == []
    # An analysis goes with its measurement, and out of the index with it.
    client.cell_spec.delete(spec.id)
    assert hits(client, token, ["analysis"]) == []

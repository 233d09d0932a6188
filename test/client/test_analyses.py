"""Analyses through client.analysis: features extracted from a measurement, uploaded as a
DataFrame (multipart Parquet) with column specs, plot presets and metadata, then found, listed,
changed, read back as a DataFrame and deleted."""

import polars as pl
import pytest
from ionworks import AnalysisType, IonworksError

from conftest import unique


@pytest.fixture(scope="module")
def run(client, project):
    spec = client.cell_spec.create({"project_id": project.id, "name": unique("Analysis spec")})
    cell = client.cell_instance.create(spec.id, {"name": unique("Analysis cell")})
    yield client.cell_measurement.create_properties(cell.id, unique("RPT"), {"capacity": {"value": 4.9, "unit": "A.h"}})
    client.cell_spec.delete(spec.id)


def test_analysis_lifecycle(client, project, run):
    df = pl.DataFrame({"cycle": [1.0, 50.0, 100.0], "lam_ne": [0.0, 1.5, 3.2], "lli": [0.0, 2.1, 4.4]})
    a = client.analysis.create(
        run.id,
        "Degradation modes",
        AnalysisType.LAM_LLI_FROM_RPT,
        df,
        columns=[{"name": "cycle", "unit": ""}, {"name": "lam_ne", "unit": "%"}, {"name": "lli", "unit": "%"}],
        plots=[{"x": "cycle", "y": ["lam_ne"], "y2": ["lli"], "title": "LAM and LLI"}],
        metadata={"rpt": "C/20"},
        notes="RPT every 50 cycles",
    )
    assert a.measurement_id == run.id and a.project_id == project.id and a.analysis_type == "lam_lli_from_rpt"
    assert a.columns[1].unit == "%" and a.metadata == {"rpt": "C/20"}
    assert client.analysis.find_one(run.id, analysis_type="lam_lli_from_rpt").id == a.id
    assert [x.id for x in client.analysis.list(run.id)] == [a.id]
    assert client.analysis.list(project_id=project.id).total == 1

    changed = client.analysis.update(a.id, {"name": "Degradation (LAM/LLI)", "notes": None})
    assert changed.name == "Degradation (LAM/LLI)" and changed.notes is None
    data = client.analysis.get_data(a.id)
    assert data["lli"].to_list() == [0.0, 2.1, 4.4]

    with pytest.raises(IonworksError) as refused:
        client.analysis.create(run.id, "Bad", "ecm_from_eis", df, plots=[{"x": "cycle", "y": ["R0"]}])
    assert "plots" in str(refused.value)

    client.analysis.delete(a.id)
    with pytest.raises(IonworksError):
        client.analysis.get(a.id)
    assert client.analysis.list(run.id).total == 0

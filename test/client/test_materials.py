"""Materials (the seeded catalogue) through client.material, and a material property dataset
through client.material_property_dataset: create from a DataFrame (multipart Parquet), read its
units and data, reshape, replace the file, turn a scalar into a prior, download and delete."""

import polars as pl
import pytest
import requests
from ionworks import IonworksError

from conftest import unique


def test_material_catalogue(client, project):
    graphite = client.material.list(project_id=project.id, name_exact="Graphite")
    assert len(graphite) == 1 and graphite.total == 1
    assert client.material.get(graphite[0].id).name == "Graphite"
    nmc = client.material.list(project_id=project.id, name="ilike.%NMC%", order_by="name", order="desc")
    assert [m.name for m in nmc] == sorted((m.name for m in nmc), reverse=True) and len(nmc) >= 4
    with pytest.raises(IonworksError):
        client.material.get("00000000-0000-4000-8000-00000000abcd")


def test_material_property_dataset(client, project):
    graphite = client.material.list(project_id=project.id, name_exact="Graphite")[0]
    df = pl.DataFrame({"Stoichiometry": [0.0, 0.5, 1.0], "OCP [V]": [0.8, None, 0.05]})
    ds = client.material_property_dataset.create(graphite.id, unique("Graphite OCP"), df, project_id=project.id)
    assert ds.data_version == 1 and ds.nan_counts == {"Stoichiometry": 0, "OCP": 1}
    assert client.material_property_dataset.get_units(ds.id) == {"Stoichiometry": "", "OCP": "V"}
    data = client.material_property_dataset.get_data(ds.id)
    assert list(data.columns) == ["Stoichiometry", "OCP"] and data["OCP"].to_list()[0] == 0.8
    listed = client.material_property_dataset.list(graphite.id, project_id=project.id)
    assert [d.id for d in listed] == [ds.id] and listed.total == 1

    renamed = client.material_property_dataset.update(ds.id, name="Graphite OCP (lithiation)")
    assert renamed.name == "Graphite OCP (lithiation)"

    scalar = pl.DataFrame({"Diffusivity": [3.3e-14]})
    replaced = client.material_property_dataset.replace_file(
        ds.id, scalar, columns=[{"name": "Diffusivity", "unit": "m2.s-1", "source_column_index": 0}]
    )
    assert replaced.data_version == 2 and replaced.columns[0].unit == "m2.s-1"
    prior = client.material_property_dataset.to_prior(
        ds.id, "Diffusivity", "Negative particle diffusivity [m2.s-1]", rel_std=0.5, distribution="lognormal"
    )
    assert prior is not None

    url = client.material_property_dataset.get_download_url(ds.id)
    assert requests.get(url, timeout=30).content[:4] == b"PAR1"

    client.material_property_dataset.delete(ds.id)
    with pytest.raises(IonworksError):
        client.material_property_dataset.get(ds.id)

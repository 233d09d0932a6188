"""Model builders through client.model_builder: a recipe that reads a cell specification
(mapping with unit conversion) and runs a calculation, checked, previewed, tried, built and
saved as a parameterized model on the specification."""

import pytest
from ionworks import IonworksError
from ionworks.model_builder import BuilderReadiness, BuildResult, ModelBuilder, ReadinessReport

from conftest import unique

THICK_POS = "Positive electrode thickness [m]"
THICK_NEG = "Negative electrode thickness [m]"
HEIGHT = "Electrode height [m]"


@pytest.fixture(scope="module")
def model(client, project):
    return client.model.create({"name": unique("SPMe"), "project_id": project.id, "config": {"type": "SPMe"}})


@pytest.fixture(scope="module")
def spec(client, project):
    s = client.cell_spec.create(
        {
            "project_id": project.id,
            "name": unique("Pouch"),
            "cathode": {"properties": {"thickness": {"value": 75.6, "unit": "um"}}},
            "properties": {"electrode_area": {"value": 100.0, "unit": "cm^2"}},
        }
    )
    yield s
    client.cell_spec.delete(s.id)


RECIPE = {
    "elements": {
        "from cell spec": {
            "element_type": "entry",
            "mapping": {
                THICK_POS: "cathode.properties.thickness",
                THICK_NEG: "anode.properties.thickness",
                "Electrode area [m2]": "properties.electrode_area",
            },
        },
        # As ionworks_schema.calculations.AreaToSquareWidthHeight().to_config() gives it.
        "square electrode": {"element_type": "calculation", "type": "AreaToSquareWidthHeight"},
    }
}


def test_model_builder_flow(client, project, model, spec):
    name = unique("Default")
    builder = client.model_builder.create(
        model.id, name, RECIPE, description="from the datasheet", project_id=project.id
    )
    assert isinstance(builder, ModelBuilder)
    assert (builder.model_id, builder.project_id, builder.name) == (model.id, project.id, name)
    assert builder.config == RECIPE and builder.description == "from the datasheet"
    assert [b.id for b in client.model_builder.list(model_id=model.id)] == [builder.id]
    assert client.model_builder.get(builder.id).name == name
    renamed = client.model_builder.update(builder.id, name=name + " v2")
    assert renamed.name == name + " v2" and renamed.config == RECIPE

    # The anode's thickness is not in the specification: not ready, the issue names path and parameter.
    report = client.model_builder.check(builder.id, spec.id)
    assert isinstance(report, ReadinessReport)
    assert report.ready is False and (report.resolved, report.total) == (3, 4)
    errors = [i for i in report.issues if i.severity == "error"]
    missing = ("missing_value", "anode.properties.thickness", THICK_NEG)
    assert [(i.code, i.path, i.parameter) for i in errors] == [missing]

    preview = client.model_builder.preview_mapping(spec.id, {THICK_POS: "cathode.properties.thickness"})
    assert preview[THICK_POS] == {"found": "75.6 um", "converted": "7.56e-05 m", "curve": None, "issue": None}

    partial = client.model_builder.build(builder.id, spec.id)
    assert isinstance(partial, BuildResult)
    assert partial.missing == [THICK_NEG] and partial.parameterized_model_id is None
    assert partial.parameters[THICK_POS] == pytest.approx(7.56e-05)
    assert partial.parameters[HEIGHT] == pytest.approx(0.1)
    with pytest.raises(IonworksError) as e:
        client.model_builder.build(builder.id, spec.id, save=True, name=unique("Built"))
    assert e.value.status_code == 422

    readiness = client.model_builder.readiness(spec.id, model_id=model.id)
    assert [(r.model_builder_id, r.ready, r.error_count) for r in readiness] == [(builder.id, False, 1)]
    assert isinstance(readiness[0], BuilderReadiness)

    # The specification completed: ready, and the build is saved on it.
    client.cell_spec.update(spec.id, {"anode": {"properties": {"thickness": {"value": 85, "unit": "um"}}}})
    assert client.model_builder.check(builder.id, spec.id).ready is True
    assert client.model_builder.readiness(spec.id)[0].ready is True
    resolved = client.model_builder.resolved_cell_spec(spec.id)
    assert resolved["anode"]["properties"]["thickness"] == {"value": 85, "unit": "um"}

    dry = client.model_builder.dry_run(model.id, RECIPE, spec.id)
    assert dry["report"]["ready"] is True and dry["missing"] == [] and dry["error"] is None
    assert dry["parameters"][THICK_NEG] == pytest.approx(8.5e-05)

    pm_name = unique("Built")
    built = client.model_builder.build(builder.id, spec.id, save=True, name=pm_name, set_as_default=True)
    assert built.missing == [] and built.parameterized_model_id
    # Electrode area is no parameter of SPMe: computed, warned about, not saved.
    assert [i.parameter for i in built.issues if i.code == "not_a_model_parameter"] == ["Electrode area [m2]"]
    saved = client.parameterized_model.list_by_cell_specification(spec.id)
    [pm] = [p for p in saved if p.id == built.parameterized_model_id]
    assert pm.name == pm_name and pm.model_id == model.id
    values = client.parameterized_model.get_parameter_values(pm.id)
    assert values[THICK_POS] == pytest.approx(7.56e-05) and values[THICK_NEG] == pytest.approx(8.5e-05)
    assert values[HEIGHT] == pytest.approx(0.1) and "Electrode area [m2]" not in values

    producing = client.model_builder.calculations_producing(HEIGHT)
    assert [c["type"] for c in producing] == ["AreaToSquareWidthHeight"]

    with pytest.raises(IonworksError) as e:
        client.model_builder.create(
            model.id, "Fit", {"elements": {"fit": {"element_type": "data_fit"}}}, project_id=project.id
        )
    assert e.value.status_code == 422

    client.model_builder.delete(builder.id)
    with pytest.raises(IonworksError) as e:
        client.model_builder.get(builder.id)
    assert e.value.status_code == 404
    # The parameterized model it saved is kept.
    assert client.parameterized_model.get_parameter_values(pm.id)[THICK_POS] == pytest.approx(7.56e-05)

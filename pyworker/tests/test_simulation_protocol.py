"""UCP parsing and goto expansion, and the published schema/chemistry files (no solving)."""

import json

import pytest
from temporalio.exceptions import ApplicationError

from cellar_worker.simulation import ucp
from cellar_worker.simulation.activities import reported_to_temporal
from cellar_worker.simulation.quick_model import CHEMISTRIES_PATH
from cellar_worker.simulation.ucp_expand import expand
from cellar_worker.simulation.ucp_parse import parse_protocol
from cellar_worker.tables import UCP_SCHEMA_PATH as SCHEMA_PATH


def steps_of(plan):
    return [(planned.step.index, planned.cycle) for planned in plan]


def config_error(excinfo) -> str:
    assert excinfo.value.type == "CONFIGURATION_ERROR"
    assert excinfo.value.non_retryable
    return excinfo.value.message


def test_goto_unrolls_and_counts_cycles():
    protocol = parse_protocol(
        {
            "steps": [
                {"Rest": {"duration": 10}},
                {"Discharge": {"mode": "C-rate", "value": 1, "ends": ["Voltage < 3"]}},
                {"Charge": {"mode": "current", "value": "2.5", "ends": ["Voltage > 4.1"]}},
                {"Goto": {"step": 1, "repeat": 2}},
                {"Rest": {"duration": 60}},
            ]
        }
    )
    plan = expand(protocol)
    assert steps_of(plan) == [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (1, 2), (2, 2), (4, 2)]
    assert protocol.steps[2].value == 2.5


def test_nested_gotos_rearm_and_cycles_follow_the_outermost_loop():
    protocol = parse_protocol(
        {
            "steps": [
                {"Discharge": {"mode": "C-rate", "value": 1, "duration": 60}},  # 0
                {"Rest": {"duration": 10}},  # 1
                {"Goto": {"step": 1, "repeat": 1}},  # 2: inner loop over step 1
                {"Goto": {"step": 0, "repeat": 1}},  # 3: outer loop over steps 0-2
            ]
        }
    )
    plan = expand(protocol)
    assert steps_of(plan) == [(0, 0), (1, 0), (1, 0), (0, 1), (1, 1), (1, 1)]
    # 1 inner jump per pass x 2 passes + 1 outer jump = 3 backward jumps.
    expand(protocol, max_backward_jumps=3)
    with pytest.raises(ApplicationError) as excinfo, reported_to_temporal():
        expand(protocol, max_backward_jumps=2)
    assert "max_backward_jumps=2" in config_error(excinfo)


def test_default_max_backward_jumps_is_enforced():
    protocol = parse_protocol({"steps": [{"Rest": {"duration": 1}}, {"Goto": {"step": 0, "repeat": 1001}}]})
    with pytest.raises(ApplicationError) as excinfo, reported_to_temporal():
        expand(protocol)
    assert "protocol.steps[1].Goto" in config_error(excinfo)


def test_input_references_and_placeholder_syntax():
    protocol = parse_protocol(
        {
            "global": {"initial_state_type": "soc_percentage", "initial_state_value": "input['Initial SOC [%]']"},
            "steps": [
                {"Charge": {"mode": "C-rate", "value": 'input["Rate"]', "ends": ["Voltage >= 4.2", "Time > 7200"]}}
            ],
        }
    )
    assert protocol.input_references() == ["Initial SOC [%]", "Rate"]
    step = protocol.steps[0]
    assert step.value == ucp.InputRef("Rate")
    assert step.duration == 7200  # "Time > t" folds into the duration
    assert [str(end) for end in step.ends] == ["Voltage > 4.2"]
    assert step.describe({"Rate": 0.5}) == "Charge at 0.5 C for 7200 s or until Voltage > 4.2"


@pytest.mark.parametrize(
    "step, fragment",
    [
        ({"Charge": {"mode": "C-rate", "value": 1}}, "protocol.steps[0].Charge: needs a duration"),
        ({"Charge": {"mode": "amps", "value": 1, "duration": 5}}, "protocol.steps[0].Charge.mode"),
        ({"Discharge": {"mode": "current", "value": -2, "duration": 5}}, "protocol.steps[0].Discharge.value"),
        ({"Discharge": {"mode": "current", "value": "input[Rate]", "duration": 5}}, "malformed placeholder"),
        ({"Rest": {"ends": ["Temperature > 40"]}}, "protocol.steps[0].Rest.ends[0]"),
        ({"Rest": {"duration": 5, "colour": "red"}}, "unknown field(s) 'colour'"),
        ({"Goto": {"step": 0, "repeat": 1}}, "protocol.steps[0].Goto.step"),
        ({"Pause": {"duration": 5}}, "unknown step type 'Pause'"),
        ({"DriveCycle": {"mode": "current", "data": [[1, 2], [2, 3]]}}, "protocol.steps[0].DriveCycle.data[0][0]"),
    ],
)
def test_invalid_steps_name_the_field(step, fragment):
    with pytest.raises(ApplicationError) as excinfo, reported_to_temporal():
        parse_protocol({"steps": [step]})
    assert fragment in config_error(excinfo)


def test_schema_publishes_the_step_types_and_ends_variables():
    schema = json.loads(SCHEMA_PATH.read_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    published_steps = [option["required"][0] for option in schema["$defs"]["step"]["oneOf"]]
    assert published_steps == list(ucp.STEP_TYPES)
    published_ends = [option["const"] for option in schema["$defs"]["ends_variable"]["oneOf"]]
    assert published_ends == list(ucp.ENDS_VARIABLES)
    # The schema's own example must pass the worker's checks too.
    expand(parse_protocol(schema["examples"][0]))


def test_chemistries_file_lists_the_required_chemistries():
    chemistries = {entry["name"]: entry for entry in json.loads(CHEMISTRIES_PATH.read_text())["chemistries"]}
    assert {"NMC/Graphite", "LFP/Graphite", "NCA/Graphite"} <= set(chemistries)
    for entry in chemistries.values():
        assert entry["voltage_min_v"] < entry["nominal_voltage_v"] < entry["voltage_max_v"]
        ocv = entry["ocv"]
        assert ocv["soc"][0] == 0 and ocv["soc"][-1] == 1
        assert ocv["voltage_v"][0] == entry["voltage_min_v"] and ocv["voltage_v"][-1] == entry["voltage_max_v"]
        assert all(b > a for a, b in zip(ocv["voltage_v"], ocv["voltage_v"][1:]))

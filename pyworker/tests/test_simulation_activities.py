"""The Temporal activity wrappers, run inside temporalio's ActivityEnvironment."""

import asyncio

import pytest
from temporalio.testing import ActivityEnvironment

from cellar_worker.simulation import activities


def cycling_request(cycles: int) -> dict:
    return {
        "simulation_id": "sim-activity",
        "model": {"kind": "quick", "capacity": 2.0, "chemistry": "LFP/Graphite"},
        "protocol": {
            "global": {"initial_state_type": "soc_percentage", "initial_state_value": 100},
            "steps": [
                {"Discharge": {"mode": "C-rate", "value": 1, "ends": ["Voltage < 2.6"]}},
                {"Charge": {"mode": "C-rate", "value": 1, "ends": ["Voltage > 3.6"]}},
                {"Goto": {"step": 0, "repeat": cycles - 1}},
            ],
        },
        "max_backward_jumps": cycles,
        "output_prefix": "simulations/org-1/sim-activity/",
    }


@pytest.fixture
def fast_heartbeat(monkeypatch):
    monkeypatch.setattr(activities, "HEARTBEAT_INTERVAL_S", 0.05)


def test_run_simulation_heartbeats_progress(fs_storage, fast_heartbeat):
    env = ActivityEnvironment()
    beats = []
    env.on_heartbeat = lambda *details: beats.append(details[0])
    result = asyncio.run(env.run(activities.run_simulation_activity, cycling_request(30)))
    assert result["metrics"]["num_steps"] == 60
    assert beats and all(set(beat) == {"steps_done", "steps_total"} for beat in beats)
    done = [beat["steps_done"] for beat in beats]
    assert done == sorted(done)


def test_run_simulation_stops_on_cancellation(fs_storage, fast_heartbeat):
    env = ActivityEnvironment()
    beats = []

    def on_heartbeat(*details):
        beats.append(details[0])
        if details[0]["steps_done"] > 0:
            env.cancel()

    env.on_heartbeat = on_heartbeat

    async def run():
        with pytest.raises(asyncio.CancelledError):
            await env.run(activities.run_simulation_activity, cycling_request(1000))

    asyncio.run(asyncio.wait_for(run(), timeout=30))
    # It stopped well before the 2000 steps, and stored nothing.
    assert beats[-1]["steps_done"] < 2000
    assert not (fs_storage / "simulations").exists()


def test_describe_and_validate_activities():
    env = ActivityEnvironment()
    description = asyncio.run(
        env.run(activities.describe_model_activity, {"kind": "quick", "capacity": 1.0, "chemistry": "NCA/Graphite"})
    )
    assert "Voltage [V]" in description["variable_names"]
    verdict = asyncio.run(
        env.run(activities.validate_custom_model_activity, {"type": "DFN", "parameter_set": "Nowhere"})
    )
    assert verdict["valid"] is False and "model.parameter_set" in verdict["error"]

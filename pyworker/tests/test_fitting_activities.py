"""The fitting activities inside temporalio's ActivityEnvironment: heartbeats, resume, cancel."""

import asyncio
import dataclasses
import time

import pytest
from temporalio.testing import ActivityEnvironment
from test_fitting import (
    AGED_R0,
    QUICK,
    R0,
    TRUE_R0,
    aged_datasets,
    aged_request,
    discharge_protocol,
    fit_request,
    inline,
    simulate,
)

from cellar_worker.fitting import activities
from cellar_worker.main import SIMULATION_ACTIVITIES

CHECKPOINT = {"iteration": 7, "evaluations": 30, "best_cost": 0.0004, "best_parameters": {R0: 0.0195}}


@pytest.fixture(scope="module")
def data() -> dict:
    return inline(simulate(QUICK, discharge_protocol(), {R0: TRUE_R0}))


@pytest.fixture
def fast_heartbeat(monkeypatch):
    monkeypatch.setattr(activities, "HEARTBEAT_INTERVAL_S", 0.02)


def environment(heartbeat_details=()):
    env = ActivityEnvironment()
    env.info = dataclasses.replace(
        env.info, heartbeat_details=list(heartbeat_details), attempt=1 + bool(heartbeat_details)
    )
    beats = []
    env.on_heartbeat = lambda *details: beats.append(details[0])
    return env, beats


def slow_request(data):
    # Many evaluations, so that the fit is still running when the test looks at it.
    return fit_request(data, optimizer={"method": "differential_evolution", "max_iterations": 1000, "tolerance": 1e-12})


def test_registered_on_the_simulation_queue():
    names = {fn.__temporal_activity_definition.name for fn in SIMULATION_ACTIVITIES}
    assert {"fitParameters", "fitParametersArray", "validateAgainstData", "runSimulation"} <= names
    # Model calls answer API requests: on their own queue, not behind solves.
    assert not {"describeModel", "validateCustomModel"} & names


def test_fit_heartbeats_its_progress(data, fast_heartbeat, monkeypatch):
    env, beats = environment()
    result = asyncio.run(env.run(activities.fit_parameters_activity, fit_request(data)))
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.02)
    assert beats, "no heartbeat"
    assert all(
        set(beat) == {"steps_done", "steps_total", "iteration", "evaluations", "best_cost", "best_parameters"}
        for beat in beats
    )
    # The job's progress: iterations against the request's budget (100), once the fit has begun.
    assert beats[-1]["steps_total"] == 100
    assert all(beat["steps_done"] == min(beat["iteration"], 100) for beat in beats if beat["steps_total"])
    evaluations = [beat["evaluations"] for beat in beats]
    assert evaluations == sorted(evaluations)
    costs = [beat["best_cost"] for beat in beats if beat["best_cost"] is not None]
    assert costs == sorted(costs, reverse=True)  # the best only improves
    last = beats[-1]
    assert set(last["best_parameters"]) == {R0}


def test_retried_fit_resumes_from_the_heartbeat_checkpoint(data):
    fresh = asyncio.run(environment()[0].run(activities.fit_parameters_activity, fit_request(data)))
    env, _ = environment([CHECKPOINT])
    resumed = asyncio.run(env.run(activities.fit_parameters_activity, fit_request(data)))
    assert resumed["resumed"] is True
    assert resumed["initial_parameters"] == {R0: 0.0195}
    # Counting goes on from the dead attempt's, and it needed fewer solves than from scratch.
    assert resumed["evaluations"] > CHECKPOINT["evaluations"]
    assert resumed["iterations"] >= CHECKPOINT["iteration"]
    assert resumed["evaluations"] - CHECKPOINT["evaluations"] < fresh["evaluations"]
    assert resumed["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.02)


def test_resume_checkpoint_is_the_first_point_solved(data, fast_heartbeat):
    env, beats = environment([CHECKPOINT])
    request = fit_request(data, optimizer={"method": "Nelder-Mead", "max_iterations": 1})
    result = asyncio.run(env.run(activities.fit_parameters_activity, request))
    assert result["initial_parameters"] == {R0: 0.0195}
    assert result["evaluations"] <= CHECKPOINT["evaluations"] + 4


def test_checkpoint_of_another_fit_is_ignored(data):
    foreign = {**CHECKPOINT, "best_parameters": {"R1 [Ohm]": 0.01}}
    outside = {**CHECKPOINT, "best_parameters": {R0: 5.0}}
    env, _ = environment([foreign])
    result = asyncio.run(env.run(activities.fit_parameters_activity, fit_request(data, checkpoint=outside)))
    assert result["resumed"] is False
    assert result["initial_parameters"] == {R0: 0.01}


def test_request_checkpoint_is_used_without_heartbeat_details(data):
    env, _ = environment()
    result = asyncio.run(env.run(activities.fit_parameters_activity, fit_request(data, checkpoint=CHECKPOINT)))
    assert result["resumed"] is True and result["initial_parameters"] == {R0: 0.0195}


def test_fit_stops_promptly_on_cancellation(data, fast_heartbeat):
    env, beats = environment()

    def on_heartbeat(*details):
        beats.append(details[0])
        if details[0]["evaluations"] >= 5:
            env.cancel()

    env.on_heartbeat = on_heartbeat

    async def run():
        with pytest.raises(asyncio.CancelledError):
            await env.run(activities.fit_parameters_activity, slow_request(data))

    started = time.monotonic()
    asyncio.run(asyncio.wait_for(run(), timeout=30))
    assert time.monotonic() - started < 10
    assert beats[-1]["evaluations"] < 2000  # it was stopped, not finished


def test_validate_against_data_activity(data):
    env, _ = environment()
    request = {"model": QUICK, "parameter_values": {R0: TRUE_R0}, "data": data}
    result = asyncio.run(env.run(activities.validate_against_data_activity, request))
    assert set(result["summary_stats"]) == {"RMSE", "MAE", "Max"}
    assert result["summary_stats"]["RMSE"] < 2e-3
    assert result["n_points"] == len(data["columns"]["Time [s]"])


def test_array_fit_activity(data):
    env, _ = environment()
    request = {
        "model": QUICK,
        "independent_variable": "C-rate",
        "datasets": [{"value": 1.0, "data": data}, {"value": 1.0, "data": data}],
        "parameters": {R0: {"bounds": [0.001, 0.1], "initial_value": 0.01}},
    }
    result = asyncio.run(env.run(activities.fit_parameters_array_activity, request))
    assert result["parameter_values"][R0] == pytest.approx(TRUE_R0, rel=0.02)
    assert len(result["per_dataset"]) == 2


@pytest.fixture(scope="module")
def aged() -> list[dict]:
    return aged_datasets()


def test_per_dataset_heartbeats_say_which_fit(aged, monkeypatch):
    monkeypatch.setattr(activities, "HEARTBEAT_INTERVAL_S", 0.005)  # several beats in each short fit
    env, beats = environment()
    result = asyncio.run(env.run(activities.fit_parameters_array_activity, aged_request(aged)))
    assert [entry["key"] for entry in result["per_dataset"]] == list(AGED_R0)
    beats = [beat for beat in beats if "fit" in beat]  # not those before the data were loaded
    fits = [beat["fit"] for beat in beats]
    assert fits[0] == "joint" and {"index": 1, "key": 500.0} in fits
    assert fits == sorted(fits, key=lambda fit: -1 if fit == "joint" else fit["index"])  # in order
    for beat in beats:
        if beat["fit"] != "joint":
            # A data set's fit carries the finished ones, and starts its counts from zero.
            assert beat["completed"]["joint"]["parameter_values"] == result["parameter_values"]
            assert len(beat["completed"]["per_dataset"]) == beat["fit"]["index"]


def test_per_dataset_fit_resumes_the_fit_its_progress_belongs_to(aged):
    # A worker died during the second data set's fit, after the joint fit and the first one.
    joint_stats = [
        {
            "value": key,
            "cost": 0.01,
            "summary_stats": {"RMSE": 0.01, "MAE": 0.01, "Max": 0.02},
            "n_points": 10,
            "coverage": 1.0,
        }
        for key in AGED_R0
    ]
    joint = {"parameter_values": {R0: 0.0201}, "cost": 0.02, "resumed": False, "_per_dataset": joint_stats}
    first = {**joint_stats[0], "key": 0.0, "parameter_values": {R0: 0.0151}, "resumed": False}
    saved = {
        "fit": {"index": 1, "key": 500.0},
        "iteration": 3,
        "evaluations": 10,
        "best_cost": 0.001,
        "best_parameters": {R0: 0.029},
        "completed": {"joint": joint, "per_dataset": [first]},
    }
    env, _ = environment([saved])
    result = asyncio.run(env.run(activities.fit_parameters_array_activity, aged_request(aged)))
    assert result["resumed"] is True
    # The finished fits are kept, not redone (their values are markers no fit would give).
    assert result["parameter_values"] == {R0: 0.0201}
    assert result["per_dataset"][0]["parameter_values"] == {R0: 0.0151}
    second = result["per_dataset"][1]
    assert second["initial_parameters"] == {R0: 0.029} and second["resumed"] is True
    assert second["evaluations"] > 10
    assert second["parameter_values"][R0] == pytest.approx(AGED_R0[500.0], rel=0.03)


def test_progress_of_a_data_set_fit_does_not_resume_the_joint_fit(aged):
    saved = {"fit": {"index": 0, "key": 0.0}, "iteration": 3, "evaluations": 10, "best_parameters": {R0: 0.015}}
    env, _ = environment([saved])
    result = asyncio.run(env.run(activities.fit_parameters_array_activity, aged_request(aged, mode="joint")))
    assert result["resumed"] is False and result["initial_parameters"] == {R0: 0.01}
    assert "key" not in result["per_dataset"][0]


def test_fit_and_validation_store_their_series(data, fs_storage):
    import pyarrow.parquet as pq

    env, _ = environment()
    fit = asyncio.run(
        env.run(activities.fit_parameters_activity, {**fit_request(data), "series_prefix": "p/series/fit/"})
    )
    assert "_series" not in fit  # arrays never travel through Temporal
    optimal = pq.read_table(fs_storage / "p" / "series" / "fit" / "optimal.parquet").to_pydict()
    baseline = pq.read_table(fs_storage / "p" / "series" / "fit" / "baseline.parquet").to_pydict()
    assert list(optimal) == ["Time [s]", "Voltage [V] (data)", "Voltage [V] (model)"]
    assert (
        optimal["Time [s]"] == data["columns"]["Time [s]"]
        and optimal["Voltage [V] (data)"] == data["columns"]["Voltage [V]"]
    )
    # The stored model curve is the one the reported cost was computed from.
    errors = [(m - d) ** 2 for m, d in zip(optimal["Voltage [V] (model)"], optimal["Voltage [V] (data)"])]
    assert (sum(errors) / len(errors)) ** 0.5 == pytest.approx(fit["cost"], rel=1e-9)
    assert baseline["Voltage [V] (model)"] != optimal["Voltage [V] (model)"]

    request = {
        "model": QUICK,
        "parameter_values": fit["parameter_values"],
        "data": data,
        "series_prefix": "p/series/check/",
    }
    checked = asyncio.run(env.run(activities.validate_against_data_activity, request))
    assert "_series" not in checked
    assert (fs_storage / "p" / "series" / "check" / "optimal.parquet").exists()
    assert not (fs_storage / "p" / "series" / "check" / "baseline.parquet").exists()
    # Without a prefix nothing is stored, and the answer is the same.
    plain = asyncio.run(
        env.run(activities.validate_against_data_activity, {k: v for k, v in request.items() if k != "series_prefix"})
    )
    assert "_series" not in plain and plain["summary_stats"] == checked["summary_stats"]

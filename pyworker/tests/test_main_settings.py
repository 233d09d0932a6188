"""The worker's environment: checked before it connects, naming the variable at fault."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cellar_worker.main import ConfigError, read_settings
from cellar_worker.simulation.cache import DEFAULT_MAX_ENTRIES


def test_defaults_and_empty_values_count_as_unset():
    expected = read_settings({}, cpus=3)
    assert expected.simulation_concurrency == 3
    assert expected.measurement_concurrency == 3
    assert expected.shutdown_grace_s == 20.0
    assert expected.connect_timeout_s == 60.0
    assert expected.address == "127.0.0.1:7233"
    assert expected.simulation_task_queue == "cellar-simulations"
    empty = dict.fromkeys(
        (
            "TEMPORAL_ADDRESS",
            "TEMPORAL_NAMESPACE",
            "SIMULATION_TASK_QUEUE",
            "MEASUREMENT_TASK_QUEUE",
            "SIMULATION_CONCURRENCY",
            "MEASUREMENT_CONCURRENCY",
            "WORKER_SHUTDOWN_GRACE_S",
            "TEMPORAL_CONNECT_TIMEOUT_S",
            "LOG_LEVEL",
            "FIT_MAX_ROWS",
        ),
        "",
    )
    assert read_settings(empty, cpus=3) == expected


def test_reads_valid_values():
    settings = read_settings(
        {
            "SIMULATION_CONCURRENCY": "4",
            "MEASUREMENT_CONCURRENCY": " 2 ",
            "WORKER_SHUTDOWN_GRACE_S": "0",
            "TEMPORAL_CONNECT_TIMEOUT_S": "2.5",
        },
        cpus=8,
    )
    assert (settings.simulation_concurrency, settings.measurement_concurrency) == (4, 2)
    assert (settings.shutdown_grace_s, settings.connect_timeout_s) == (0.0, 2.5)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SIMULATION_CONCURRENCY", "four"),
        ("SIMULATION_CONCURRENCY", "0"),
        ("SIMULATION_CONCURRENCY", "-1"),
        ("SIMULATION_CONCURRENCY", "1.5"),
        ("SIMULATION_CONCURRENCY", "10001"),
        ("MEASUREMENT_CONCURRENCY", "0"),
        ("MEASUREMENT_CONCURRENCY", "many"),
        ("WORKER_SHUTDOWN_GRACE_S", "soon"),
        ("WORKER_SHUTDOWN_GRACE_S", "-1"),
        ("WORKER_SHUTDOWN_GRACE_S", "nan"),
        ("TEMPORAL_CONNECT_TIMEOUT_S", "inf"),
        ("LOG_LEVEL", "verbose"),
        ("FIT_MAX_ROWS", "lots"),
        ("FIT_MAX_ROWS", "2"),
    ],
)
def test_names_the_variable_at_fault(name, value):
    with pytest.raises(ConfigError) as raised:
        read_settings({name: value}, cpus=2)
    assert raised.value.variable == name
    assert str(raised.value).startswith(name)


def test_worker_stops_at_once_on_a_bad_value_without_connecting():
    # Nothing listens on port 1: before the check, the worker retried it for 60 s.
    env = {
        **os.environ,
        "TEMPORAL_ADDRESS": "127.0.0.1:1",
        "TEMPORAL_CONNECT_TIMEOUT_S": "60",
        "SIMULATION_CONCURRENCY": "0",
        "LOG_LEVEL": "info",
    }
    done = subprocess.run(
        [sys.executable, "-m", "cellar_worker.main"],
        cwd=Path(__file__).resolve().parents[1],
        env=env,
        capture_output=True,
        text=True,
        timeout=50,
    )
    assert done.returncode == 2, done.stderr
    assert "configuration: SIMULATION_CONCURRENCY" in done.stderr
    assert "temporal not reachable" not in done.stderr


def test_empty_tuning_variables_mean_their_defaults():
    # npm start's configuration takes an empty value as unset; the modules reading these at
    # import must too (int('') raised before).
    names = [
        "FIT_MAX_ROWS",
        "SIMULATION_CACHE_SIZE",
        "FIT_CACHE_SIZE",
        "SIMULATION_HEARTBEAT_INTERVAL_S",
        "FIT_HEARTBEAT_INTERVAL_S",
    ]
    code = (
        "import cellar_worker.fitting.data as d, cellar_worker.fitting.activities as fa, "
        "cellar_worker.simulation.activities as sa, cellar_worker.simulation.cache as c, "
        "cellar_worker.fitting.drive_cycle_evaluator as e; "
        "print(d.MAX_ROWS, fa.HEARTBEAT_INTERVAL_S, sa.HEARTBEAT_INTERVAL_S, c.cache_size_from_env(), "
        "e.FIT_CACHE.max_entries)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[1],
        env={**os.environ, **dict.fromkeys(names, ""), "PYTHONPATH": "."},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows, fit_beat, sim_beat, cache, fit_cache = done.stdout.split()
    assert (rows, float(fit_beat), float(sim_beat)) == ("20000", 2.0, 2.0)
    assert int(cache) == int(fit_cache) == DEFAULT_MAX_ENTRIES


def test_activity_log_lines_are_json_with_the_context_beside_the_message():
    script = """
import asyncio, io, json, logging
from temporalio import activity
from temporalio.testing import ActivityEnvironment
from cellar_worker.main import configure_logging
configure_logging()
@activity.defn
async def act():
    activity.logger.info("simulation finished", extra={"steps": 3})
asyncio.run(ActivityEnvironment().run(act))
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=Path(__file__).parents[1]
    )
    entry = json.loads(out.stderr.strip().splitlines()[-1])
    assert entry["msg"] == "simulation finished"
    assert entry["steps"] == 3
    assert "activity_id" in entry["temporal_activity"]


def test_grpc_compression_is_off_only_for_a_server_on_this_machine():
    from temporalio.service import GrpcCompression

    from cellar_worker.main import grpc_compression_for

    for address in ("127.0.0.1:7233", "127.1.2.3:7233", "localhost:7233", "[::1]:7233"):
        assert grpc_compression_for(address) is GrpcCompression.NONE, address
    for address in (
        "temporal:7233",
        "10.0.0.5:7233",
        "my.tmprl.cloud:7233",
        "[2001:db8::1]:7233",
        "127.0.0.1.example.com:7233",
    ):
        assert grpc_compression_for(address) is GrpcCompression.GZIP, address

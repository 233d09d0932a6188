"""The worker's environment: checked before it connects, naming the variable at fault."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cellar_worker.main import ConfigError, read_settings


def test_defaults_and_empty_values_count_as_unset():
    expected = read_settings({}, cpus=3)
    assert expected.simulation_concurrency == 3
    assert expected.measurement_concurrency == 3
    assert expected.shutdown_grace_s == 20.0
    assert expected.connect_timeout_s == 60.0
    assert expected.address == "127.0.0.1:7233"
    assert expected.simulation_task_queue == "cellar-simulations"
    empty = {
        name: ""
        for name in (
            "TEMPORAL_ADDRESS",
            "TEMPORAL_NAMESPACE",
            "SIMULATION_TASK_QUEUE",
            "MEASUREMENT_TASK_QUEUE",
            "SIMULATION_CONCURRENCY",
            "MEASUREMENT_CONCURRENCY",
            "WORKER_SHUTDOWN_GRACE_S",
            "TEMPORAL_CONNECT_TIMEOUT_S",
        )
    }
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

"""Shared test set-up for the Python worker."""

import os

# Before anything imports pybamm: no telemetry from test runs.
os.environ.setdefault("PYBAMM_DISABLE_TELEMETRY", "true")

import pytest  # noqa: E402

from cellar_worker import settings  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_settings():
    """The worker reads its environment once; tests change it, so each reads it afresh."""
    settings.reset()


@pytest.fixture
def fs_storage(tmp_path, monkeypatch):
    """Object storage on a fresh local folder; returns that folder."""
    monkeypatch.setenv("STORAGE_DRIVER", "fs")
    monkeypatch.setenv("STORAGE_DIR", str(tmp_path / "storage"))
    return tmp_path / "storage"

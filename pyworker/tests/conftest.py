"""Shared test set-up for the Python worker."""

import os

# Before anything imports pybamm: no telemetry from test runs.
os.environ.setdefault("PYBAMM_DISABLE_TELEMETRY", "true")

import pytest  # noqa: E402


@pytest.fixture
def fs_storage(tmp_path, monkeypatch):
    """Object storage on a fresh local folder; returns that folder."""
    monkeypatch.setenv("STORAGE_DRIVER", "fs")
    monkeypatch.setenv("STORAGE_DIR", str(tmp_path / "storage"))
    return tmp_path / "storage"

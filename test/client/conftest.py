"""Shared fixtures: one real ionworks client (IONWORKS_API_URL / IONWORKS_API_KEY, as a lab sets
them) against the stack started by test/clientConformance.test.ts, and one project per module."""

import os
import uuid

import pytest
from ionworks import Ionworks

# The poll interval the tests pass to the client's wait_for_completion: with its defaults (2-3 s)
# each wait sleeps on for up to that long after the work has finished.
POLL_S = 0.25


def unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="session")
def client() -> Ionworks:
    assert os.environ.get("IONWORKS_API_URL"), "run through test/clientConformance.test.ts"
    # The client's defaults (10 s timeout, retries) are kept: they are part of what is tested.
    return Ionworks()


@pytest.fixture(scope="module")
def project(client: Ionworks):
    p = client.project.create({"name": unique("Conformance")})
    yield p
    client.project.delete(p.id)


def cycling_series(cycles: int = 2, capacity_ah: float = 1.0, dt: float = 10.0):
    """A small, physically consistent series: per cycle rest, 1C discharge, rest, 1C charge.

    Current is positive on discharge; cumulative capacity and energy reset at each step, as a
    cycler reports them (the client's validators check both)."""
    import numpy as np
    import pandas as pd

    steps = []  # (current A, duration s)
    for _ in range(cycles):
        steps += [(0.0, 120.0), (capacity_ah, 1800.0), (0.0, 120.0), (-capacity_ah, 1800.0)]
    rows = {
        k: []
        for k in (
            "Time [s]",
            "Current [A]",
            "Voltage [V]",
            "Step count",
            "Cycle count",
            "Discharge capacity [A.h]",
            "Charge capacity [A.h]",
            "Discharge energy [W.h]",
            "Charge energy [W.h]",
        )
    }
    t0, soc = 0.0, 1.0
    for index, (current, duration) in enumerate(steps):
        tau = np.arange(0.0, duration + dt / 2, dt)
        soc_t = soc - current * tau / 3600.0 / capacity_ah
        voltage = 3.0 + 1.2 * soc_t - 0.05 * current
        dq = np.concatenate([[0.0], np.cumsum(np.diff(tau)) * abs(current) / 3600.0])
        de = np.concatenate([[0.0], np.cumsum((voltage[1:] + voltage[:-1]) / 2 * np.diff(tau)) * abs(current) / 3600.0])
        rows["Time [s]"] += list(t0 + tau)
        rows["Current [A]"] += [current] * len(tau)
        rows["Voltage [V]"] += list(voltage)
        rows["Step count"] += [index] * len(tau)
        rows["Cycle count"] += [index // 4] * len(tau)
        rows["Discharge capacity [A.h]"] += list(dq if current > 0 else np.zeros(len(tau)))
        rows["Charge capacity [A.h]"] += list(dq if current < 0 else np.zeros(len(tau)))
        rows["Discharge energy [W.h]"] += list(de if current > 0 else np.zeros(len(tau)))
        rows["Charge energy [W.h]"] += list(de if current < 0 else np.zeros(len(tau)))
        t0 += duration + dt
        soc = soc_t[-1]
    return pd.DataFrame(rows)

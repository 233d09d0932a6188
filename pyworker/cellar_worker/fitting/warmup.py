"""Warms a fresh worker's fitting path in the background, so its first fit costs what later ones do.

The first fit of a model in a process pays for more than its own build: the model's recipe
(its parameter set, parameter and variable names), and first-time work in PyBaMM, CasADi and
the IDAKLU solver on the first build and solve (about a second for SPMe, more than the
build of a second data set). ``start()`` runs a small validation of each model in
``FIT_WARM_UP_MODELS`` (comma-separated model types, default ``SPMe``; empty: none) on a
synthetic constant-current discharge, in a daemon thread, once the worker polls. A fit that
arrives meanwhile waits for the step in progress (``wait()``: the same first-time work it
would otherwise do beside it on the same cores), and the warm-up stops there: a fit sent the
moment a worker starts pays for no more than it would without a warm-up.
"""

from __future__ import annotations

import logging
import threading
import time

from .. import settings
from ..simulation import model_spec, models
from ..simulation.errors import describe
from .service import validate_against_data

log = logging.getLogger("cellar_worker.fitting")

_done = threading.Event()
_done.set()  # nothing to wait for unless start() runs
_fit_waiting = threading.Event()
# A fit waits at most this long for the warm-up, then does the same work itself: a warm-up
# slowed by a busy machine must not hold a fit back.
WAIT_LIMIT_S = 10.0


def _synthetic_discharge() -> dict:
    """Ten minutes at 1 A, one point a minute: enough for a build and a solve."""
    times = [60.0 * i for i in range(11)]
    return {"Time [s]": times, "Current [A]": [1.0] * len(times), "Voltage [V]": [3.7] * len(times)}


def models_to_warm() -> list[str]:
    return list(settings.current().fit_warm_up_models)


def warm_up(model_types: list[str]) -> None:
    for model_type in model_types:
        started = time.monotonic()
        try:
            # The recipe first: every fit of the model needs it; then stop if a fit is waiting.
            models.recipe(model_spec.normalize_model_spec({"type": model_type}))
            if _fit_waiting.is_set():
                log.info("fit warm-up stopped: a fit arrived", extra={"model_type": model_type})
                return
            # A fixed value makes the build take inputs, as a fit's does (a model without it ignores it).
            validate_against_data(
                {
                    "model": {"type": model_type},
                    "fixed_parameters": {"Ambient temperature [K]": 298.15},
                    "data": {"source": "inline", "columns": _synthetic_discharge()},
                }
            )
        except Exception as error:  # noqa: BLE001 - a warm-up failure only costs the first fit its speed
            log.warning("fit warm-up failed", extra={"model_type": model_type, "error": describe(error)})
            continue
        log.info(
            "fit warm-up done", extra={"model_type": model_type, "duration_s": round(time.monotonic() - started, 3)}
        )


def start() -> threading.Thread | None:
    """Warm up in a daemon thread (None when there is nothing to warm)."""
    model_types = models_to_warm()
    if not model_types:
        return None
    _done.clear()
    _fit_waiting.clear()

    def run() -> None:
        try:
            warm_up(model_types)
        finally:
            _done.set()

    thread = threading.Thread(target=run, name="fit-warm-up", daemon=True)
    thread.start()
    return thread


def wait() -> None:
    """Until the warm-up's step in progress has finished (at once when none runs)."""
    _fit_waiting.set()
    _done.wait(WAIT_LIMIT_S)

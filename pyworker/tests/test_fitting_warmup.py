"""The fitting warm-up of a fresh worker: it prepares SPMe's first fit, fits wait for it, and
it can be turned off."""

import logging
import threading

from cellar_worker.fitting import warmup
from cellar_worker.fitting.drive_cycle_evaluator import FIT_CACHE
from cellar_worker.simulation import models


def test_warm_up_builds_and_solves_the_model_in_the_background(monkeypatch, caplog):
    monkeypatch.setenv("FIT_WARM_UP_MODELS", "SPMe")
    models._recipe_for_key.cache_clear()
    caplog.set_level(logging.INFO, logger="cellar_worker.fitting")
    thread = warmup.start()
    assert thread is not None and thread.daemon
    thread.join(120)  # no fit waits, so it runs to the end
    assert not thread.is_alive()
    warmup.wait()  # returns at once once it is done
    done = [r for r in caplog.records if r.getMessage() == "fit warm-up done"]
    assert [r.model_type for r in done] == ["SPMe"]
    # The recipe is cached and a build of the model is in the fit cache for the next fit's process.
    assert models._recipe_for_key.cache_info().currsize >= 1
    assert any('"mode": "measured-current"' in key for key in FIT_CACHE._idle)


def test_a_failing_warm_up_is_logged_and_releases_waiting_fits(monkeypatch, caplog):
    monkeypatch.setenv("FIT_WARM_UP_MODELS", "NoSuchModel")
    caplog.set_level(logging.WARNING, logger="cellar_worker.fitting")
    warmup.start()
    waited = threading.Event()
    threading.Thread(target=lambda: (warmup.wait(), waited.set()), daemon=True).start()
    assert waited.wait(30)
    assert any(r.getMessage() == "fit warm-up failed" for r in caplog.records)


def test_no_warm_up_when_turned_off(monkeypatch):
    monkeypatch.setenv("FIT_WARM_UP_MODELS", "")
    assert warmup.start() is None
    warmup.wait()  # returns at once


def test_a_fit_arriving_during_the_warm_up_stops_it_after_the_step_in_progress(monkeypatch, caplog):
    monkeypatch.setenv("FIT_WARM_UP_MODELS", "SPMe,DFN")
    models._recipe_for_key.cache_clear()
    caplog.set_level(logging.INFO, logger="cellar_worker.fitting")
    thread = warmup.start()
    warmup.wait()
    thread.join(5)
    messages = [r.getMessage() for r in caplog.records]
    assert "fit warm-up stopped: a fit arrived" in messages
    assert messages.count("fit warm-up done") <= 1

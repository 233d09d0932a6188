"""Temporal activities of the measurement pipeline (task queue ``cellar-measurements``).

Inputs and outputs are JSON objects with snake_case keys; see README.md in this folder.
A series that fails validation is a normal result with ``status: "failed"``; only
infrastructure problems (storage unreachable, stored objects gone) raise, so Temporal
retries them.
"""

from __future__ import annotations

import asyncio
import os
import tempfile

from temporalio import activity
from temporalio.exceptions import ApplicationError

from cellar_worker import storage

from . import issues as iss
from .extend import extend_series
from .process import Outcome, process_upload
from .streaming import Progress

TASK_QUEUE = "cellar-measurements"
HEARTBEAT_SECONDS = 5.0


@activity.defn(name="processMeasurement")
async def process_measurement(params: dict) -> dict:
    """Process an uploaded time series (or an extension) into canonical Parquet objects."""
    progress = Progress()
    work = asyncio.ensure_future(asyncio.to_thread(_process, params, progress))
    # A cancelled activity leaves the thread to stop at its next batch; collect its error.
    work.add_done_callback(lambda done: done.cancelled() or done.exception())
    try:
        while True:
            activity.heartbeat({"rows_done": progress.rows_done})
            finished, _ = await asyncio.wait({work}, timeout=HEARTBEAT_SECONDS)
            if finished:
                return work.result()
    except asyncio.CancelledError:
        progress.cancel()
        raise


@activity.defn(name="deleteObjects")
async def delete_objects(params: dict) -> dict:
    """Delete every object under ``prefix``; deleting an absent prefix is a no-op."""
    prefix = (params or {}).get("prefix") or ""
    if not prefix.strip("/"):
        raise ApplicationError("deleteObjects needs a non-empty prefix", non_retryable=True)
    await asyncio.to_thread(storage.delete_prefix, prefix)
    return {"prefix": prefix}


ACTIVITIES = [process_measurement, delete_objects]


def _process(params: dict, progress: Progress) -> dict:
    if params.get("measurement_type", "time_series") == "file":
        return _check_files(params)
    options, option_issues = iss.parse_options(
        params.get("validation"),
        params.get("rated_capacity_ah"),
        params.get("voltage_min"),
        params.get("voltage_max"),
    )
    extending = params.get("mode", "upload") == "extend"
    _require(params, "source_key", "output_prefix", *(("current_key", "version") if extending else ()))
    if extending and not (isinstance(params["version"], int) and params["version"] >= 1):
        raise ApplicationError("extend needs an integer version >= 1", type="InvalidInput", non_retryable=True)
    source_key = params["source_key"]
    if not storage.exists(source_key):
        return _result(Outcome("failed", option_issues + [_missing_issue([source_key])]), {})
    prefix = params["output_prefix"].rstrip("/") + "/"
    with tempfile.TemporaryDirectory(prefix="cellar-measurement-") as work_dir:
        source = _download(source_key, work_dir, "source")
        if extending:
            current = _download(params["current_key"], work_dir, "current")
            # The stored summary, only for its labels: a series stored without one has none to carry over.
            steps = _download_if_present(params.get("current_steps_key"), work_dir, "current-steps")
            outcome = extend_series(
                current,
                source,
                work_dir,
                options,
                version=params["version"],
                steps_path=steps,
                option_issues=option_issues,
                progress=progress,
            )
        else:
            steps = _download_if_present(params.get("steps_key"), work_dir, "steps")
            outcome = process_upload(
                source, work_dir, options, steps_path=steps, option_issues=option_issues, progress=progress
            )
        keys = {}
        if outcome.status == "ready":
            # The overview goes first: the API looks for it once the new series is recorded.
            if outcome.overview_path:
                storage.upload_file(outcome.overview_path, prefix + os.path.basename(outcome.overview_path))
            for kind, path in (
                ("time_series_key", outcome.time_series_path),
                ("steps_key", outcome.steps_path),
                ("cycles_key", outcome.cycles_path),
            ):
                keys[kind] = prefix + os.path.basename(path)
                storage.upload_file(path, keys[kind])
        return _result(outcome, keys)


def _require(params: dict, *keys: str) -> None:
    missing = [key for key in keys if not params.get(key)]
    if missing:
        # A malformed request will not improve with retries.
        raise ApplicationError(
            f"processMeasurement input lacks {', '.join(missing)}", type="InvalidInput", non_retryable=True
        )


def _download_if_present(key: str | None, work_dir: str, role: str) -> str | None:
    """An optional object (a steps table): its local copy, or None when it was not given or not uploaded."""
    return _download(key, work_dir, role) if key and storage.exists(key) else None


def _download(key: str, work_dir: str, role: str) -> str:
    path = os.path.join(work_dir, f"{role}-{os.path.basename(key)}")
    storage.download_to(key, path)
    return path


def _check_files(params: dict) -> dict:
    keys = params.get("source_key")
    keys = [keys] if isinstance(keys, str) else list(keys or [])
    missing = [key for key in keys if not storage.exists(key)]
    status = "failed" if missing or not keys else "ready"
    issues = [_missing_issue(missing or ["(none given)"])] if status == "failed" else []
    return _result(Outcome(status, issues), {})


def _missing_issue(keys: list[str]) -> dict:
    return iss.make_issue(
        iss.OBJECT_MISSING,
        f"The uploaded file was not found in storage ({', '.join(keys)}); upload it again before confirming.",
        {"keys": keys},
    )


def _result(outcome: Outcome, keys: dict[str, str]) -> dict:
    return {
        "status": outcome.status,
        "issues": outcome.issues,
        "processing_error": iss.summarise_errors(outcome.issues),
        "time_series_key": keys.get("time_series_key"),
        "steps_key": keys.get("steps_key"),
        "cycles_key": keys.get("cycles_key"),
        "row_count": outcome.row_count,
        "columns": outcome.columns,
        "first_time": outcome.first_time,
        "last_time": outcome.last_time,
        "steps_created": outcome.steps_created,
    }

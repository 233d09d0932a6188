"""The worker's settings: every environment variable it reads, read once, at start.

An empty variable counts as unset (as for the Node processes, stack/config.ts), except
``FIT_WARM_UP_MODELS``, where empty means none.

Temporal and the processes (``main.py``):

- ``TEMPORAL_ADDRESS`` (default ``127.0.0.1:7233``), ``TEMPORAL_NAMESPACE`` (``default``);
- ``SIMULATION_TASK_QUEUE`` (``cellar-simulations``): the simulation activities and the
  fitting ones; the model calls (``describeModel``, ``validateCustomModel``) on
  ``<SIMULATION_TASK_QUEUE>-models``, with slots of their own;
- ``MEASUREMENT_TASK_QUEUE`` (``cellar-measurements``): the measurement activities;
- ``SIMULATION_CONCURRENCY`` (CPU count): solver processes, each taking one simulation-queue
  activity at a time (this process and ``SIMULATION_CONCURRENCY - 1`` more);
- ``MEASUREMENT_CONCURRENCY`` (CPU count): measurement activities at once
  (both whole numbers from 1 to 10000);
- ``WORKER_SHUTDOWN_GRACE_S`` (``20``): on SIGINT/SIGTERM, in-flight activities get this long
  to finish before they are cancelled (a simulation stops at its next step; 0 to 3600 s);
- ``TEMPORAL_CONNECT_TIMEOUT_S`` (``60``): how long to keep retrying the first connection;
- ``LOG_LEVEL`` (``info``; pino's names: trace, debug, info, warn, error, fatal, silent).

Data:

- ``DATABASE_URL``: PostgreSQL, where sweeps read their points and record their outcomes
  (``simulation/records.py``); needed once a sweep runs;
- ``STORAGE_DRIVER``: ``fs`` (default) or ``s3`` (``storage.py``). fs: ``STORAGE_DIR``, the
  root folder. s3: ``S3_ENDPOINT``, ``S3_REGION`` (``us-east-1``), ``S3_BUCKET``,
  ``S3_ACCESS_KEY_ID``, ``S3_SECRET_ACCESS_KEY``.

Tuning:

- ``FIT_MAX_ROWS`` (``20000``, 3 to 10,000,000): rows of a stored series a fit or validation
  may use; the API reads the same variable (stack/config.ts) and checks it the same way;
- ``FIT_WARM_UP_MODELS`` (``SPMe``; comma-separated model types, empty: none): models whose
  first fit is prepared in the background at start (``fitting/warmup.py``);
- ``SIMULATION_CACHE_SIZE`` (``8``): built simulations kept per process for reuse by later
  design points (``simulation/cache.py``); ``FIT_CACHE_SIZE`` (``SIMULATION_CACHE_SIZE``): the
  same for fits (``fitting/drive_cycle_evaluator.py``); whole numbers from 0 to 100000 (0 keeps one);
- ``SIMULATION_HEARTBEAT_INTERVAL_S``, ``FIT_HEARTBEAT_INTERVAL_S`` (``2``, 0.001 to 600 s): how
  often a simulation's and a fit's activity reports its progress (the tests shorten them).

``PYBAMM_DISABLE_TELEMETRY`` is set to ``true`` unless given (``cellar_worker/__init__.py``).

The settings are read the first time a module asks (``current()``: at import, since a few
modules keep a setting as a constant) and kept. A bad value is reported by the worker at start
(``problems()``: ``main.py`` stops with exit code 2, naming the variable, before connecting);
until then it reads as its default, so that importing a module never fails first.
Secrets (``DATABASE_URL``, ``S3_SECRET_ACCESS_KEY``) are left out of the settings' repr.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

# The same bound as stack/config.ts, which checks these for `npm start`.
MAX_CONCURRENCY = 10_000
DEFAULT_CACHE_SIZE = 8
LOG_LEVELS = ("trace", "debug", "info", "warn", "warning", "error", "fatal", "silent")
STORAGE_DRIVERS = ("fs", "s3")


class ConfigError(Exception):
    """A bad environment variable; the message starts with its name."""

    def __init__(self, variable: str, problem: str) -> None:
        super().__init__(f"{variable} {problem}")
        self.variable = variable


@dataclass(frozen=True)
class Settings:
    address: str
    namespace: str
    simulation_task_queue: str
    measurement_task_queue: str
    simulation_concurrency: int
    measurement_concurrency: int
    shutdown_grace_s: float
    connect_timeout_s: float
    log_level: str
    fit_max_rows: int
    fit_warm_up_models: tuple[str, ...]
    simulation_cache_size: int
    fit_cache_size: int
    simulation_heartbeat_interval_s: float
    fit_heartbeat_interval_s: float
    storage_driver: str
    storage_dir: str | None
    s3_endpoint: str | None
    s3_region: str
    s3_bucket: str | None
    s3_access_key_id: str | None
    s3_secret_access_key: str | None = field(repr=False)
    database_url: str | None = field(repr=False)


def _env_str(env: Mapping[str, str], name: str, default: str) -> str:
    return env.get(name) or default


def _env_int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isascii() or not raw.isdigit():
        raise ConfigError(name, f'must be a whole number, got "{env[name]}"')
    value = int(raw)
    if not low <= value <= high:
        raise ConfigError(name, f"must be between {low} and {high}, got {value}")
    return value


def _env_choice(env: Mapping[str, str], name: str, default: str, choices) -> str:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw not in choices:
        raise ConfigError(name, f'must be one of {", ".join(choices)}, got "{env[name]}"')
    return raw


def _env_seconds(env: Mapping[str, str], name: str, default: float, low: float, high: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(name, f'must be a number of seconds, got "{env[name]}"') from None
    if not low <= value <= high:  # also refuses nan
        raise ConfigError(name, f"must be between {low:g} and {high:g} seconds, got {raw}")
    return value


def read_settings(
    env: Mapping[str, str], cpus: int | None = None, problems: list[ConfigError] | None = None
) -> Settings:
    """The settings from ``env``: a bad value raises ``ConfigError``, or (given ``problems``)
    is added to that list and read as its default."""
    cpus = cpus or os.cpu_count() or 1

    def checked(read, name: str, default, *bounds):
        try:
            return read(env, name, default, *bounds)
        except ConfigError as error:
            if problems is None:
                raise
            problems.append(error)
            return default

    cache_size = max(1, checked(_env_int, "SIMULATION_CACHE_SIZE", DEFAULT_CACHE_SIZE, 0, 100_000))
    return Settings(
        address=_env_str(env, "TEMPORAL_ADDRESS", "127.0.0.1:7233"),
        namespace=_env_str(env, "TEMPORAL_NAMESPACE", "default"),
        simulation_task_queue=_env_str(env, "SIMULATION_TASK_QUEUE", "cellar-simulations"),
        measurement_task_queue=_env_str(env, "MEASUREMENT_TASK_QUEUE", "cellar-measurements"),
        simulation_concurrency=checked(_env_int, "SIMULATION_CONCURRENCY", cpus, 1, MAX_CONCURRENCY),
        measurement_concurrency=checked(_env_int, "MEASUREMENT_CONCURRENCY", cpus, 1, MAX_CONCURRENCY),
        # Seconds may have a fraction here; stack/config.ts takes whole ones for `npm start`.
        shutdown_grace_s=checked(_env_seconds, "WORKER_SHUTDOWN_GRACE_S", 20.0, 0.0, 3600.0),
        connect_timeout_s=checked(_env_seconds, "TEMPORAL_CONNECT_TIMEOUT_S", 60.0, 0.0, 24 * 3600.0),
        log_level=checked(_env_choice, "LOG_LEVEL", "info", LOG_LEVELS),
        # Its range is stack/config.ts's.
        fit_max_rows=checked(_env_int, "FIT_MAX_ROWS", 20_000, 3, 10_000_000),
        fit_warm_up_models=tuple(
            name.strip() for name in env.get("FIT_WARM_UP_MODELS", "SPMe").split(",") if name.strip()
        ),
        simulation_cache_size=cache_size,
        fit_cache_size=max(1, checked(_env_int, "FIT_CACHE_SIZE", cache_size, 0, 100_000)),
        simulation_heartbeat_interval_s=checked(_env_seconds, "SIMULATION_HEARTBEAT_INTERVAL_S", 2.0, 0.001, 600.0),
        fit_heartbeat_interval_s=checked(_env_seconds, "FIT_HEARTBEAT_INTERVAL_S", 2.0, 0.001, 600.0),
        storage_driver=checked(_env_choice, "STORAGE_DRIVER", "fs", STORAGE_DRIVERS),
        storage_dir=env.get("STORAGE_DIR") or None,
        s3_endpoint=env.get("S3_ENDPOINT") or None,
        s3_region=_env_str(env, "S3_REGION", "us-east-1"),
        s3_bucket=env.get("S3_BUCKET") or None,
        s3_access_key_id=env.get("S3_ACCESS_KEY_ID") or None,
        s3_secret_access_key=env.get("S3_SECRET_ACCESS_KEY") or None,
        database_url=env.get("DATABASE_URL") or None,
    )


_current: Settings | None = None
_problems: list[ConfigError] = []


def current() -> Settings:
    """This process's settings: read from the environment the first time, then kept."""
    global _current
    if _current is None:
        problems: list[ConfigError] = []
        _current = read_settings(os.environ, problems=problems)
        _problems[:] = problems
    return _current


def problems() -> list[ConfigError]:
    """The bad values of this process's environment, each read as its default."""
    current()
    return list(_problems)


def reset() -> None:
    """Read the environment again at the next ``current()``: for tests and benchmarks that change it."""
    global _current
    _current = None

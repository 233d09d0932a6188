"""What a sweep's chunk reads from and writes to PostgreSQL (``DATABASE_URL``).

A chunk reads its batch and points once, then records outcomes in bulk: one statement per
flush updates the jobs, the simulations and the month's compute seconds together. A job is
only ever moved from ``pending`` or ``running``: one canceled meanwhile stays canceled and its
outcome is dropped, and a retried chunk cannot record a point twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import psycopg
from psycopg.types.json import Jsonb

from .. import settings

RESULT_FILES = ["time_series.parquet", "steps.parquet"]


@dataclass
class Batch:
    organization_id: str
    project_id: str | None
    model_config: object
    protocol: object
    extra_variables: list[str]
    max_backward_jumps: int | None


@dataclass
class Point:
    simulation_id: str
    job_id: str
    inputs: dict[str, float]  # experiment parameters, then the design point over them


_RECORD_SQL = """
with r as (
  select * from jsonb_to_recordset(%(rows)s::jsonb) as r(
    simulation_id uuid, status text, metrics jsonb, error_code text, error text, pack jsonb,
    started_at timestamptz, finished_at timestamptz, compute_seconds float8, cache_hit boolean)
), done as (
  update jobs j
     set status = r.status, error_code = r.error_code, error = r.error, updated_at = now(),
         started_at = coalesce(j.started_at, r.started_at), finished_at = r.finished_at,
         result = case when r.status = 'completed' then jsonb_build_object(
           'simulation_id', r.simulation_id, 'storage_folder', %(folder)s::text, 'metrics', r.metrics,
           'files', %(files)s::jsonb, 'cache_hit', r.cache_hit, 'reused', false) else j.result end
    from simulations s join r on r.simulation_id = s.id
   where j.id = s.job_id and j.status in ('pending', 'running')
  returning s.id, s.organization_id, r.status, r.compute_seconds
), sims as (
  update simulations s
     set storage_folder = %(folder)s::text, result_pack = r.pack, metrics = r.metrics,
         simulator_version = %(version)s::text, updated_at = now()
    from r join done on done.id = r.simulation_id
   where s.id = r.simulation_id and r.status = 'completed'
), usage as (
  insert into usage_counters (organization_id, period_start, compute_seconds)
  select organization_id, date_trunc('month', now() at time zone 'utc')::date, sum(compute_seconds)
    from done where status = 'completed' group by organization_id
  on conflict (organization_id, period_start)
  do update set compute_seconds = usage_counters.compute_seconds + excluded.compute_seconds
)
select id::text, status from done
"""


class Records:
    """One connection, opened on first use and dropped on any error (the next use reopens it)."""

    def __init__(self, url: str | None = None) -> None:
        self._url = url
        self._conn: psycopg.Connection | None = None

    def _connection(self) -> psycopg.Connection:
        if self._conn is None or self._conn.closed:
            url = self._url or settings.current().database_url
            if not url:
                raise RuntimeError("DATABASE_URL must be set: sweeps record their results in PostgreSQL")
            self._conn = psycopg.connect(url, autocommit=True, application_name="cellar-pyworker")
        return self._conn

    def _run(self, sql: str, params=None) -> list[tuple]:
        try:
            with self._connection().cursor() as cur:
                cur.execute(sql, params)
                return cur.fetchall() if cur.description else []
        except psycopg.Error:
            self.close()
            raise

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def load_batch(self, batch_id: str) -> Batch | None:
        rows = self._run(
            """select organization_id::text, project_id::text, model_config, protocol, extra_variables,
                      max_backward_jumps
                 from simulation_batches where id = %s""",
            (batch_id,),
        )
        return Batch(*rows[0]) if rows else None

    def open_points(self, simulation_ids: list[str]) -> list[Point]:
        """The points whose jobs have not ended, in the order given."""
        rows = self._run(
            """select s.id::text, s.job_id::text, s.experiment_parameters, s.design_parameters
                 from unnest(%s::uuid[]) with ordinality as ids(id, n)
                 join simulations s on s.id = ids.id join jobs j on j.id = s.job_id
                where j.status in ('pending', 'running') order by ids.n""",
            (simulation_ids,),
        )
        return [Point(sid, job, {**(exp or {}), **(design or {})}) for sid, job, exp, design in rows]

    def ended_among(self, simulation_ids: list[str]) -> set[str]:
        """Which of these points' jobs have ended meanwhile (canceled, or gone with their batch)."""
        if not simulation_ids:
            return set()
        rows = self._run(
            """select ids.id::text from unnest(%s::uuid[]) as ids(id)
                 left join simulations s on s.id = ids.id left join jobs j on j.id = s.job_id
                where j.status is null or j.status not in ('pending', 'running')""",
            (simulation_ids,),
        )
        return {row[0] for row in rows}

    def mark_running(self, simulation_id: str) -> str | None:
        """Shows a point that takes a while as running; answers its job's status (None: gone)."""
        rows = self._run(
            """with up as (
                 update jobs set status = 'running', started_at = coalesce(started_at, now()), updated_at = now()
                  where id = (select job_id from simulations where id = %s) and status = 'pending' returning status)
               select coalesce((select status from up),
                               (select j.status from simulations s join jobs j on j.id = s.job_id where s.id = %s))""",
            (simulation_id, simulation_id),
        )
        return rows[0][0] if rows else None

    def count_solve_start(self, simulation_id: str, change: int) -> int:
        """Adds `change` to the count of a point's unfinished solves; answers the new count."""
        rows = self._run(
            "update simulations set solve_attempts = greatest(solve_attempts + %s, 0)"
            " where id = %s returning solve_attempts",
            (change, simulation_id),
        )
        return rows[0][0] if rows else 0

    def record(self, outcomes: list[dict], folder: str, version: str) -> dict[str, str]:
        """Records outcomes in one statement; answers the status of each point it moved."""
        if not outcomes:
            return {}
        rows = self._run(
            _RECORD_SQL,
            {"rows": Jsonb(outcomes), "folder": folder, "files": json.dumps(RESULT_FILES), "version": version},
        )
        return dict(rows)

    def chunk_summary(self, simulation_ids: list[str], failures: int) -> dict:
        """How a chunk's points stand: counts by outcome and the first failures."""
        rows = self._run(
            """select j.status, count(*)::int,
                      (array_agg(jsonb_build_object('simulation_id', s.id, 'error_code', j.error_code, 'error', j.error)
                                 order by s.seq) filter (where j.status = 'failed'))[1:%s]
                 from simulations s join jobs j on j.id = s.job_id
                where s.id = any(%s::uuid[]) group by j.status""",
            (failures, simulation_ids),
        )
        counts = {status: n for status, n, _ in rows}
        listed = next((f for status, _, f in rows if status == "failed"), None) or []
        return {
            "completed": counts.get("completed", 0),
            "failed": counts.get("failed", 0),
            "canceled": counts.get("canceled", 0),
            "failures": [{**f, "error": (f.get("error") or "")[:2000]} for f in listed],
        }

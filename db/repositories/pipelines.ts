// Queries for pipelines, their elements (each with a job of the shared jobs table), the
// diagnostic events of failures, and the bulk cancellation.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Row } from '../entities/index.ts';
import type { IDiagnosticEvent, IPipeline, IPipelineElement } from '../entities/pipelines.ts';
import type { ParsedList } from '../listSql.ts';
import { page } from './sqlRows.ts';
import { CANCELED_ON_REQUEST } from '../jobs.ts';

/** A pipeline as stored (COLUMNS: every column), its JSON columns as objects. */
export type PipelineRow = Omit<Row<IPipeline>, 'options' | 'result' | 'error_detail'> & {
  options: Record<string, unknown>;
  result: Record<string, unknown> | null;
  error_detail: Record<string, unknown> | null;
};

/** A pipeline element as stored (ELEMENT_COLUMNS: every column), its JSON columns typed. */
export type ElementRow = Omit<Row<IPipelineElement>, 'config' | 'result' | 'error_detail' | 'attempt_log'> & {
  config: Record<string, unknown>;
  result: Record<string, unknown> | null;
  error_detail: Record<string, unknown> | null;
  attempt_log: unknown[];
};

const COLUMNS = `id, organization_id, project_id, kind, name, description, status, options, result, error_detail,
  workflow_id,
  created_by, created_at, updated_at, started_at, finished_at, canceled_at`;
const ELEMENT_COLUMNS = `id, pipeline_id, position, name, element_type, config, status, job_id, workflow_id, result,
  error_code,
  error_detail, attempts, attempt_log, created_at, updated_at, started_at, finished_at`;
const ACTIVE = `('pending', 'running')`;
const idsIn = `(select jsonb_array_elements_text(?::jsonb)::uuid)`;

export async function insertPipeline(
  em: EntityManager,
  p: Pick<
    PipelineRow,
    'id' | 'organization_id' | 'project_id' | 'kind' | 'name' | 'description' | 'options' | 'workflow_id' | 'created_by'
  >,
  elements: { id: string; name: string; element_type: string; config: unknown; job_id: string; workflow_id: string }[],
): Promise<PipelineRow> {
  const [row] = await em.execute<PipelineRow[]>(
    `insert into pipelines (id, organization_id, project_id, kind, name, description, options, workflow_id, created_by)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${COLUMNS}`,
    [
      p.id,
      p.organization_id,
      p.project_id,
      p.kind,
      p.name,
      p.description,
      JSON.stringify(p.options),
      p.workflow_id,
      p.created_by,
    ],
  );
  // One job per element, so GET /jobs/{id} follows each element like any other run.
  await em.execute(
    `insert into jobs (id, organization_id, project_id, job_type, workflow_id, created_by)
     select t.job_id, ?, ?, 'pipeline_element', t.workflow_id, ?
       from jsonb_to_recordset(?::jsonb) as t(job_id uuid, workflow_id text)`,
    [p.organization_id, p.project_id, p.created_by, JSON.stringify(elements)],
  );
  await em.execute(
    `insert into pipeline_elements (id, pipeline_id, position, name, element_type, config, job_id, workflow_id)
     select t.id, ?, t.position, t.name, t.element_type, t.config, t.job_id, t.workflow_id
       from jsonb_to_recordset(?::jsonb) as t(id uuid, position int, name text, element_type text, config jsonb,
         job_id uuid, workflow_id text)`,
    [p.id, JSON.stringify(elements.map((e, position) => ({ ...e, position })))],
  );
  return row!;
}

export async function findPipeline(em: EntityManager, id: string): Promise<PipelineRow | null> {
  const rows = await em.execute<PipelineRow[]>(`select ${COLUMNS} from pipelines where id = ?`, [id]);
  return rows[0] ?? null;
}

export async function findPipelines(em: EntityManager, ids: string[], lock: boolean): Promise<PipelineRow[]> {
  return em.execute<PipelineRow[]>(
    `select ${COLUMNS} from pipelines where id in ${idsIn} order by id ${lock ? 'for update' : ''}`,
    [JSON.stringify(ids)],
  );
}

export async function listPipelines(em: EntityManager, scope: { sql: string; params: unknown[] }[], list: ParsedList) {
  return page<PipelineRow>(em, { select: COLUMNS, from: 'pipelines', scope, list });
}

export async function updatePipeline(
  em: EntityManager,
  id: string,
  changes: { name?: string; description?: string | null },
): Promise<PipelineRow> {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  const sets = [...entries.map(([k]) => `${k} = ?`), 'updated_at = now()'];
  const [row] = await em.execute<PipelineRow[]>(
    `update pipelines set ${sets.join(', ')} where id = ? returning ${COLUMNS}`,
    [...entries.map(([, v]) => v), id],
  );
  return row!;
}

export async function deletePipeline(em: EntityManager, id: string): Promise<void> {
  await em.execute(
    `delete from diagnostic_events where source_id in (select id from pipeline_elements where pipeline_id = ?)
      or source_id = ?`,
    [id, id],
  );
  // Deleting the elements' jobs deletes the elements (they reference their job).
  await em.execute(`delete from jobs where id in (select job_id from pipeline_elements where pipeline_id = ?)`, [id]);
  await em.execute(`delete from pipelines where id = ?`, [id]);
}

export async function listElements(em: EntityManager, pipelineId: string): Promise<ElementRow[]> {
  return em.execute<ElementRow[]>(
    `select ${ELEMENT_COLUMNS} from pipeline_elements where pipeline_id = ? order by position`,
    [pipelineId],
  );
}

/** The elements of several pipelines (a page of optimizations), in order. */
export async function listElementsOf(em: EntityManager, pipelineIds: string[]): Promise<ElementRow[]> {
  if (!pipelineIds.length) return [];
  return em.execute<ElementRow[]>(
    `select ${ELEMENT_COLUMNS} from pipeline_elements where pipeline_id in ${idsIn} order by pipeline_id, position`,
    [JSON.stringify(pipelineIds)],
  );
}

/** Projects among `projectIds` where the user holds `permission`. */
export async function projectsWithPermission(
  em: EntityManager,
  userId: string,
  projectIds: string[],
  permission: string,
): Promise<Set<string>> {
  const rows = await em.execute<{ project_id: string }[]>(
    `select r.project_id from user_project_roles r
      join project_role_permissions p on p.project_role_id = r.project_role_id
      where r.user_id = ? and p.permission = ? and r.project_id in ${idsIn}`,
    [userId, permission, JSON.stringify(projectIds)],
  );
  return new Set(rows.map((r) => r.project_id));
}

/**
 * Marks the pipelines canceled, whatever their state, and their non-terminal elements and
 * those elements' jobs; completed elements keep their results.
 */
export async function markCanceled(em: EntityManager, ids: string[]): Promise<void> {
  const json = JSON.stringify(ids);
  await em.execute(
    `update pipelines set status = 'canceled', canceled_at = coalesce(canceled_at, now()),
      finished_at = coalesce(finished_at, now()), updated_at = now()
      where id in ${idsIn}`,
    [json],
  );
  await cancelElements(em, ids, ACTIVE);
}

/**
 * Cancels the pipelines' elements in `statuses` (an SQL list such as ('pending')) and their
 * jobs; a running element's open attempt is closed as canceled. `reason`, when given, is the
 * jobs' error and the elements' error_detail (else the jobs say CANCELED_ON_REQUEST).
 */
export async function cancelElements(
  em: EntityManager,
  pipelineIds: string[],
  statuses: string,
  reason?: string,
): Promise<void> {
  await em.execute(
    `with canceled as (
       update pipeline_elements set status = 'canceled', finished_at = now(), updated_at = now(),
              error_detail = coalesce(?::jsonb, error_detail),
              attempt_log = case when status = 'running' and jsonb_array_length(attempt_log) > 0
                then jsonb_set(attempt_log, array[(jsonb_array_length(attempt_log) - 1)::text],
                               (attempt_log -> -1) || jsonb_build_object('finished_at', now(), 'status', 'canceled'))
                else attempt_log end
        where pipeline_id in ${idsIn} and status in ${statuses} returning job_id)
     update jobs set status = 'canceled', error = ?, updated_at = now(), finished_at = now()
      where id in (select job_id from canceled) and status in ${ACTIVE}`,
    [
      reason === undefined ? null : JSON.stringify({ reason }),
      JSON.stringify(pipelineIds),
      reason ?? CANCELED_ON_REQUEST,
    ],
  );
}

/**
 * Cancels the pending element whose job this is (POST /jobs/{id}/cancel): the pipeline workflow
 * meets it canceled and ends canceled. Called before the job's own update, in the order the
 * element workflow locks them (element, then job).
 */
export async function cancelPendingElementOfJob(em: EntityManager, jobId: string): Promise<void> {
  await em.execute(
    `update pipeline_elements set status = 'canceled', finished_at = now(), updated_at = now() where job_id = ?
      and status = 'pending'`,
    [jobId],
  );
}

/** A diagnostic event as stored (every column), its context an object. */
export type DiagnosticRow = Omit<Row<IDiagnosticEvent>, 'context'> & { context: Record<string, unknown> };

export async function findDiagnostic(em: EntityManager, id: string): Promise<DiagnosticRow | null> {
  const rows = await em.execute<DiagnosticRow[]>(
    `select id, organization_id, project_id, source_type, source_id, exception_type, error_code, message, stack_trace,
      context, created_at
       from diagnostic_events where id = ?`,
    [id],
  );
  return rows[0] ?? null;
}

export interface MeasurementRef {
  id: string;
  organization_id: string;
  project_id: string;
  processing_status: string;
  measurement_type: string;
  time_series_key: string | null;
  row_count: number | null;
  /** The stored series' columns (null before processing). */
  data_columns: string[] | null;
}

export async function findMeasurements(em: EntityManager, ids: string[]): Promise<MeasurementRef[]> {
  if (!ids.length) return [];
  return em.execute<MeasurementRef[]>(
    `select id, organization_id, project_id, processing_status, measurement_type, time_series_key,
      row_count::float8 as row_count, data_columns
       from cell_measurements where id in ${idsIn}`,
    [JSON.stringify(ids)],
  );
}

// Lists of cell measurements: a cell's, a project's (with a text search), and any scope
// another service picks (a study's), all with the same filters and sort keys.
import type { RequestContext } from '../context.ts';
import { parseList, type ListSpec } from '../listQuery.ts';
import * as repo from '../../db/repositories/cells.ts';
import { page } from '../../db/repositories/sqlRows.ts';
import { requireProjectPermission } from './access.ts';
import { requireInstance } from './cellAccess.ts';
import { tagFilters } from './measurementTags.ts';
import { serializeMeasurement } from './measurementRecords.ts';

const MEASUREMENT_LIST: ListSpec = {
  columns: {
    name: { kind: 'text', sql: 'm.name' },
    notes: { kind: 'text', sql: 'm.notes' },
    // The protocol's name: the string itself, or the name key of a protocol object.
    protocol: {
      kind: 'text',
      sql: `coalesce(m.protocol->>'name', case when jsonb_typeof(m.protocol) = 'string' then m.protocol #>> '{}' end)`,
    },
    program_name: { kind: 'text', sql: 'm.program_name' },
    measurement_type: { kind: 'enum', sql: 'm.measurement_type', values: ['time_series', 'file', 'properties'] },
    processing_status: { kind: 'enum', sql: 'm.processing_status', values: ['pending', 'running', 'ready', 'failed'] },
    channel_id: { kind: 'id', sql: 'm.channel_id' },
    requested_by: { kind: 'id', sql: 'm.requested_by' },
    created_by_email: { kind: 'text', sql: '(select u.email from users u where u.id = m.created_by)' },
    start_time: { kind: 'date', sql: 'm.start_time' },
    end_time: { kind: 'date', sql: 'm.end_time' },
    estimated_end_time: { kind: 'date', sql: 'm.estimated_end_time' },
    created_at: { kind: 'date', sql: 'm.created_at' },
    updated_at: { kind: 'date', sql: 'm.updated_at' },
  },
  sortable: ['name', 'start_time', 'end_time', 'estimated_end_time', 'created_at', 'updated_at'],
  defaultOrderBy: 'start_time',
  defaultOrder: 'desc',
  tieBreak: 'm.id',
  maxLimit: 1000, // the Python client's Navigator pages with 200
};

export async function listMeasurements(ctx: RequestContext, instanceId: string, query: Record<string, unknown>) {
  await requireInstance(ctx, instanceId, 'cell_measurement:read');
  return listMeasurementsWhere(ctx, { sql: 'm.cell_instance_id = ?', params: [instanceId] }, query);
}

/**
 * GET /cell_measurements: a project's measurements across its cells; q matches name, notes,
 * the protocol's name and tags (case-insensitive substring).
 */
export async function listProjectMeasurements(ctx: RequestContext, query: Record<string, unknown>) {
  await requireProjectPermission(ctx, String(query.project_id), 'cell_measurement:read');
  const clauses: { sql: string; params: unknown[] }[] = [{ sql: 'm.project_id = ?', params: [query.project_id] }];
  const q = typeof query.q === 'string' ? query.q.trim() : '';
  if (q) {
    const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    clauses.push({
      sql: `(lower(m.name) like ? or lower(coalesce(m.notes, '')) like ?
        or lower(coalesce(m.protocol->>'name', m.protocol #>> '{}', '')) like ?
             or exists (select 1 from jsonb_array_elements_text(m.tags) t where lower(t) like ?))`,
      params: [like, like, like, like],
    });
  }
  const { q: _q, project_id: _p, ...rest } = query;
  return listMeasurementsWhere(
    ctx,
    { sql: clauses.map((c) => c.sql).join(' and '), params: clauses.flatMap((c) => c.params) },
    { limit: '25', ...rest },
  );
}

/** A page of the measurements `scope` picks, with the list filters of every measurement list. */
export async function listMeasurementsWhere(
  ctx: RequestContext,
  scope: { sql: string; params: unknown[] },
  input: Record<string, unknown>,
) {
  // The Python client sends measurement_type as a bare value.
  const type = input.measurement_type;
  const query = typeof type === 'string' && !type.includes('.') ? { ...input, measurement_type: `eq.${type}` } : input;
  const list = parseList(query, MEASUREMENT_LIST);
  const result = await page<repo.MeasurementRow>(ctx.em, {
    select: repo.MEASUREMENT_SELECT,
    from: repo.MEASUREMENT_FROM,
    scope: [scope, ...tagFilters(query)],
    list,
  });
  return { ...result, items: result.items.map(serializeMeasurement) };
}

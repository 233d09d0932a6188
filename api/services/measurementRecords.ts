// A cell measurement record as every operation answers it, as search indexes it, and as a
// request reaches it (organization and project permission checked).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../context.ts';
import { notFound } from '../errors.ts';
import * as repo from '../../db/repositories/cells.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';
import { indexEntity } from './searchIndex.ts';

/**
 * The record as answered by every operation: internal storage columns left out; the last
 * processing's issues as its processing report (docs/spec/measurement-data.md: errors fail processing
 * "with the issues in the measurement's processing report"; warnings are kept and shown).
 */
export function serializeMeasurement(row: object): Record<string, unknown> {
  const {
    time_series_key: _ts,
    steps_key: _st,
    cycles_key: _cy,
    validation_report: report,
    extending_version: _ev,
    validation_options: _vo,
    data_columns,
    row_count,
    ...rest
  } = row as Record<string, unknown>;
  const iso = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));
  return {
    ...iso,
    row_count: row_count == null ? null : Number(row_count),
    columns: data_columns ?? null,
    ...(report !== undefined ? { processing_report: report } : {}),
  };
}

/** A protocol is a name or, as the client sends it, an object with a name. */
export function protocolName(protocol: unknown): string | null {
  if (typeof protocol === 'string') return protocol;
  const name = protocol !== null && typeof protocol === 'object' ? (protocol as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : null;
}

/** The protocol as a jsonb parameter: a string is stored as a JSON string, an object as itself. */
export function protocolParam(protocol: unknown): unknown {
  return typeof protocol === 'string' ? JSON.stringify(protocol) : protocol;
}

export function indexMeasurement(em: EntityManager, m: repo.MeasurementRow) {
  return indexEntity(em, {
    entity_type: 'cell_measurement',
    entity_id: m.id,
    organization_id: m.organization_id,
    project_id: m.project_id,
    parent_id: m.cell_instance_id,
    name: m.name,
    body: [protocolName(m.protocol), m.program_name, m.notes, ...((m.tags as string[] | undefined) ?? [])]
      .filter(Boolean)
      .join(' '),
  });
}

export async function requireMeasurement(
  ctx: RequestContext,
  measurementId: string,
  permission: string,
): Promise<repo.MeasurementRow> {
  const m = await repo.findMeasurement(ctx.em, measurementId);
  if (!m) throw notFound('cell measurement', measurementId);
  assertSameOrganization(ctx.caller, m.organization_id, 'cell measurement');
  await requireProjectPermission(ctx, m.project_id, permission);
  return m;
}

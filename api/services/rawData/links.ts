// Links between raw-data files and the measurements made from them (same project only).
import type { RequestContext } from '../../context.ts';
import { notFound, type ValidationIssue, ValidationFailed } from '../../errors.ts';
import { parseList } from '../../listQuery.ts';
import { findMeasurement } from '../../../db/repositories/cells.ts';
import * as repo from '../../../db/repositories/rawData.ts';
import type { RequestBody } from '../../schemas.ts';
import { assertSameOrganization, requireProjectPermission } from '../access.ts';
import { requireRawData, serialize } from './records.ts';

/** limit and offset by the list conventions; links keep their own order (oldest first). */
const paging = (query: Record<string, unknown>) =>
  parseList(query, { columns: {}, sortable: ['created_at'], defaultOrderBy: 'created_at' });

async function requireMeasurement(ctx: RequestContext, id: string, permission: string) {
  const m = await findMeasurement(ctx.em, id);
  if (!m) throw notFound('cell measurement', id);
  assertSameOrganization(ctx.caller, m.organization_id, 'cell measurement');
  await requireProjectPermission(ctx, m.project_id, permission);
  return m;
}

/** Idempotent: ids already linked stay linked once. Answers every id now linked. */
export async function attach(
  ctx: RequestContext,
  measurementId: string,
  body: RequestBody<'attachMeasurementRawData'>,
) {
  const m = await requireMeasurement(ctx, measurementId, 'cell_measurement:update');
  const linkable = await repo.confirmedIn(ctx.em, m.project_id, body.raw_data_ids);
  const issues: ValidationIssue[] = body.raw_data_ids.flatMap((id, i) =>
    linkable.has(id)
      ? []
      : [
          {
            loc: ['body', 'raw_data_ids', i],
            msg: `no raw data ${id} in this measurement's project`,
            type: 'value_error',
            input: id,
          },
        ],
  );
  if (issues.length) throw new ValidationFailed(issues);
  await repo.link(ctx.em, measurementId, [...new Set(body.raw_data_ids)], ctx.caller.userId);
  return { cell_measurement_id: measurementId, raw_data_ids: await repo.linkedIds(ctx.em, measurementId) };
}

export async function detach(ctx: RequestContext, measurementId: string, rawDataId: string) {
  await requireMeasurement(ctx, measurementId, 'cell_measurement:update');
  if (!(await repo.unlink(ctx.em, measurementId, rawDataId)))
    throw notFound(`link of raw data ${rawDataId} to cell measurement`, measurementId);
  return { id: rawDataId, deleted: true };
}

export async function rawDataOfMeasurement(ctx: RequestContext, measurementId: string, query: Record<string, unknown>) {
  await requireMeasurement(ctx, measurementId, 'cell_measurement:read');
  const { limit, offset } = paging(query);
  const page = await repo.forMeasurement(ctx.em, measurementId, limit, offset);
  return { ...page, items: page.items.map(serialize) };
}

export async function measurementsOfRawData(ctx: RequestContext, rawDataId: string, query: Record<string, unknown>) {
  await requireRawData(ctx, rawDataId, 'cell_measurement:read');
  const { limit, offset } = paging(query);
  return repo.measurementIds(ctx.em, rawDataId, limit, offset);
}

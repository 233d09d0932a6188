// Cell batches: manufacturing lots of a cell specification (names unique per specification,
// compared case-insensitively). Instances join a lot by batch_id; deleting a lot unlinks them.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import { namedRecordList, parseList } from '../listQuery.ts';
import type { Row } from '../../db/entities/index.ts';
import type { ICellBatch } from '../../db/entities/cells.ts';
import { insertRow, orConflict, page, updateRow } from '../../db/repositories/sqlRows.ts';
import { assertSameOrganization, requireProjectPermission } from './access.ts';
import { requireSpec } from './cellAccess.ts';

/** A batch as stored, with how many instances it holds (SELECT). */
export type BatchRow = Row<ICellBatch> & { instance_count: number };

const FIELDS = ['name', 'notes', 'date_manufactured', 'properties'] as const;
const SELECT = `*, (select count(*)::int from cell_instances ci where ci.batch_id = cell_batches.id) as instance_count`;
const LIST = namedRecordList({ notes: { kind: 'text' } });

type Body = RequestBody<'createCellBatch'> | RequestBody<'updateCellBatch'>;
const pick = (body: Body) => Object.fromEntries(FIELDS.map((f) => [f, body[f]]));

async function find(ctx: RequestContext, id: string): Promise<BatchRow | null> {
  return (await ctx.em.execute<BatchRow[]>(`select ${SELECT} from cell_batches where id = ?`, [id]))[0] ?? null;
}

export async function requireBatch(ctx: RequestContext, id: string, permission: string): Promise<BatchRow> {
  const batch = await find(ctx, id);
  if (!batch) throw notFound('cell batch', id);
  assertSameOrganization(ctx.caller, batch.organization_id, 'cell batch');
  await requireProjectPermission(ctx, batch.project_id, permission);
  return batch;
}

async function assertNameFree(ctx: RequestContext, specId: string, name: string, selfId?: string) {
  const [clash] = await ctx.em.execute<{ id: string }[]>(
    `select id from cell_batches where cell_specification_id = ? and lower(name) = lower(?)`,
    [specId, name],
  );
  if (clash && clash.id !== selfId)
    throw conflict(`a cell batch named "${name}" already exists for this specification`, { existing_id: clash.id });
}

export async function createBatch(ctx: RequestContext, specId: string, body: RequestBody<'createCellBatch'>) {
  const spec = await requireSpec(ctx, specId, 'cell_instance:create');
  await assertNameFree(ctx, specId, body.name);
  const id = randomUUID();
  return orConflict(
    async () => {
      await insertRow(
        ctx.em,
        'cell_batches',
        {
          ...pick(body),
          id,
          organization_id: spec.organization_id,
          project_id: spec.project_id,
          cell_specification_id: specId,
          created_by: ctx.caller.userId,
        },
        'id',
      );
      return (await find(ctx, id))!;
    },
    () => assertNameFree(ctx, specId, body.name),
  );
}

export async function listBatches(ctx: RequestContext, specId: string, query: Record<string, unknown>) {
  await requireSpec(ctx, specId, 'cell_instance:read');
  return page<BatchRow>(ctx.em, {
    select: SELECT,
    from: 'cell_batches',
    scope: [{ sql: 'cell_specification_id = ?', params: [specId] }],
    list: parseList(query, LIST),
  });
}

export async function updateBatch(ctx: RequestContext, id: string, body: RequestBody<'updateCellBatch'>) {
  const batch = await requireBatch(ctx, id, 'cell_instance:update');
  if (typeof body.name === 'string') await assertNameFree(ctx, batch.cell_specification_id, body.name, id);
  return orConflict(
    async () => {
      await updateRow(ctx.em, 'cell_batches', id, pick(body));
      return (await find(ctx, id))!;
    },
    () => assertNameFree(ctx, batch.cell_specification_id, String(body.name ?? batch.name), id),
  );
}

/** Its instances stay, without a batch. */
export async function deleteBatch(ctx: RequestContext, id: string) {
  await requireBatch(ctx, id, 'cell_instance:delete');
  await ctx.em.execute(`delete from cell_batches where id = ?`, [id]);
  return { id, deleted: true };
}

/** An instance's batch_id must name a lot of the instance's own specification. */
export async function checkInstanceBatch(ctx: RequestContext, specId: string, batchId: unknown) {
  if (batchId === undefined || batchId === null) return;
  const [row] = await ctx.em.execute<{ cell_specification_id: string; organization_id: string }[]>(
    `select cell_specification_id, organization_id from cell_batches where id = ?`,
    [batchId],
  );
  if (!row || row.organization_id !== ctx.caller.organizationId || row.cell_specification_id !== specId) {
    throw invalid(['body', 'batch_id'], 'is not a cell batch of this cell specification', 'value_error', batchId);
  }
}

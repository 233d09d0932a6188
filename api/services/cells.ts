// Cell specifications (names unique per project) and cell instances (unique per specification).
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { conflict } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import { parseList, type ListSpec } from '../listQuery.ts';
import { insertRow, orConflict, page, updateRow } from '../../db/repositories/sqlRows.ts';
import * as repo from '../../db/repositories/cells.ts';
import { readableProjectsSql, requireProjectPermission } from './access.ts';
import { recordMeasurementPurges } from './measurementPurges.ts';
import { startRecorded } from '../../db/workflowStarts.ts';
import { indexEntity, unindexAnalysesOf, unindexEntity } from './searchIndex.ts';
import { checkInstanceBatch } from './cellBatches.ts';
import { requireInstance, requireSpec } from './cellAccess.ts';

// The project's create and get answers list its cell specifications.

const SPEC_FIELDS = [
  'name',
  'description',
  'manufacturer',
  'form_factor',
  'chemistry',
  'ratings',
  'anode',
  'cathode',
  'electrolyte',
  'separator',
  'properties',
  'source',
  'notes',
] as const;
// The JSON columns a PATCH merges into (the client documents a nested upsert): keys sent are
// set, objects recursively, null removes a key; everything not sent stays.
const SPEC_MERGED = ['ratings', 'anode', 'cathode', 'electrolyte', 'separator', 'properties'] as const;
const INSTANCE_FIELDS = [
  'name',
  'serial_number',
  'batch',
  'batch_id',
  'notes',
  'properties',
  'date_manufactured',
  'measured_properties',
] as const;
// Who made a row, for the created_by_email filter the client sends.
const CREATOR_EMAIL = { kind: 'text', sql: '(select u.email from users u where u.id = created_by)' } as const;
// The client's Navigator pages with 200.
const CELL_MAX_LIMIT = 1000;

const SPEC_LIST: ListSpec = {
  columns: {
    name: { kind: 'text' },
    description: { kind: 'text' },
    manufacturer: { kind: 'text' },
    form_factor: { kind: 'text' },
    chemistry: { kind: 'text' },
    project_id: { kind: 'id' },
    created_by: { kind: 'id' },
    created_by_email: CREATOR_EMAIL,
    created_at: { kind: 'date' },
    updated_at: { kind: 'date' },
  },
  sortable: ['name', 'manufacturer', 'form_factor', 'chemistry', 'created_at', 'updated_at'],
  defaultOrderBy: 'name',
  maxLimit: CELL_MAX_LIMIT,
};

const INSTANCE_LIST: ListSpec = {
  columns: {
    name: { kind: 'text' },
    serial_number: { kind: 'text' },
    batch: { kind: 'text' },
    batch_id: { kind: 'id' },
    notes: { kind: 'text' },
    created_by: { kind: 'id' },
    created_by_email: CREATOR_EMAIL,
    created_at: { kind: 'date' },
    updated_at: { kind: 'date' },
  },
  sortable: ['name', 'serial_number', 'batch', 'created_at', 'updated_at'],
  defaultOrderBy: 'name',
  maxLimit: CELL_MAX_LIMIT,
};

type SpecCreate = RequestBody<'createCellSpecification'>;
type SpecUpdate = RequestBody<'updateCellSpecification'>;
type InstanceCreate = RequestBody<'createCellInstance'>;
type InstanceUpdate = RequestBody<'updateCellInstance'>;
const pick = <B extends object>(body: B, names: readonly (keyof B & string)[]): Record<string, unknown> =>
  Object.fromEntries(names.map((n) => [n, body[n]]));

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `patch` merged into `base`: objects recursively, null deletes a key, anything else replaces. */
export function mergeJson(base: unknown, patch: unknown): unknown {
  if (!isObject(patch) || !isObject(base)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergeJson(base[k], v);
  }
  return out;
}

function indexSpec(ctx: RequestContext, s: repo.SpecRow) {
  return indexEntity(ctx.em, {
    entity_type: 'cell_specification',
    entity_id: s.id,
    organization_id: s.organization_id,
    project_id: s.project_id,
    name: s.name,
    body: [s.manufacturer, s.form_factor, s.chemistry, s.description].filter(Boolean).join(' '),
  });
}

function indexInstance(ctx: RequestContext, i: repo.InstanceRow) {
  return indexEntity(ctx.em, {
    entity_type: 'cell_instance',
    entity_id: i.id,
    organization_id: i.organization_id,
    project_id: i.project_id,
    parent_id: i.cell_specification_id,
    name: i.name,
    body: [i.serial_number, i.batch, i.notes].filter(Boolean).join(' '),
  });
}

async function assertSpecNameFree(ctx: RequestContext, projectId: string, name: string, selfId?: string) {
  const clash = await repo.findSpecByName(ctx.em, projectId, name);
  if (clash && clash.id !== selfId)
    throw conflict(`a cell specification named "${name}" already exists in the project`, { existing_id: clash.id });
}

async function assertInstanceNameFree(ctx: RequestContext, specId: string, name: string, selfId?: string) {
  const clash = await repo.findInstanceByName(ctx.em, specId, name);
  if (clash && clash.id !== selfId)
    throw conflict(`a cell instance named "${name}" already exists for this specification`, { existing_id: clash.id });
}

export async function createSpec(ctx: RequestContext, body: SpecCreate) {
  const project = await requireProjectPermission(ctx, body.project_id, 'cell_specification:create');
  await assertSpecNameFree(ctx, project.id, body.name);
  const id = randomUUID();
  return orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        await insertRow(
          em,
          'cell_specifications',
          {
            ...pick(body, SPEC_FIELDS),
            id,
            organization_id: project.organization_id,
            project_id: project.id,
            created_by: ctx.caller.userId,
          },
          'id',
        );
        const row = (await repo.findSpec(em, id))!;
        await indexSpec({ ...ctx, em }, row);
        return row;
      }),
    () => assertSpecNameFree(ctx, project.id, body.name),
  );
}

export async function getSpec(ctx: RequestContext, specId: string) {
  return requireSpec(ctx, specId, 'cell_specification:read');
}

export async function listSpecs(ctx: RequestContext, query: Record<string, unknown>) {
  const list = parseList(query, SPEC_LIST);
  return page<repo.SpecRow>(ctx.em, {
    select: '*',
    from: 'cell_specifications',
    scope: [readableProjectsSql(ctx.caller, 'project_id')],
    list,
  });
}

export async function updateSpec(ctx: RequestContext, specId: string, body: SpecUpdate) {
  const spec = await requireSpec(ctx, specId, 'cell_specification:update');
  if (typeof body.name === 'string') await assertSpecNameFree(ctx, spec.project_id, body.name, specId);
  return orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        const changes = pick(body, SPEC_FIELDS);
        const [stored] = await em.execute<repo.SpecRow[]>(`select * from cell_specifications where id = ? for update`, [
          specId,
        ]);
        for (const f of SPEC_MERGED) if (isObject(body[f])) changes[f] = mergeJson(stored![f], body[f]);
        await updateRow(em, 'cell_specifications', specId, changes);
        const row = (await repo.findSpec(em, specId))!;
        await indexSpec({ ...ctx, em }, row);
        return row;
      }),
    () => assertSpecNameFree(ctx, spec.project_id, String(body.name ?? spec.name), specId),
  );
}

/** Deletes the specification with its instances and their measurements. */
export async function deleteSpec(ctx: RequestContext, specId: string) {
  await requireSpec(ctx, specId, 'cell_specification:delete');
  const purges = await ctx.em.transactional(async (em) => {
    const measurements = await repo.measurementsUnder(em, { specId });
    const purges = await recordMeasurementPurges(em, ctx.config, measurements);
    await unindexAnalysesOf(
      em,
      measurements.map((m) => m.id),
    );
    await repo.unindexUnderSpec(em, specId);
    await em.execute(`delete from cell_specifications where id = ?`, [specId]);
    return purges;
  });
  await startRecorded(ctx, purges);
  return { id: specId, deleted: true };
}

export async function createInstance(ctx: RequestContext, specId: string, body: InstanceCreate) {
  const spec = await requireSpec(ctx, specId, 'cell_instance:create');
  await checkInstanceBatch(ctx, specId, body.batch_id);
  await assertInstanceNameFree(ctx, specId, body.name);
  const id = randomUUID();
  return orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        await insertRow(
          em,
          'cell_instances',
          {
            ...pick(body, INSTANCE_FIELDS),
            id,
            organization_id: spec.organization_id,
            project_id: spec.project_id,
            cell_specification_id: specId,
            created_by: ctx.caller.userId,
          },
          'id',
        );
        const row = (await repo.findInstance(em, id))!;
        await indexInstance({ ...ctx, em }, row);
        return row;
      }),
    () => assertInstanceNameFree(ctx, specId, body.name),
  );
}

export async function listInstances(ctx: RequestContext, specId: string, query: Record<string, unknown>) {
  await requireSpec(ctx, specId, 'cell_instance:read');
  const list = parseList(query, INSTANCE_LIST);
  return page<repo.InstanceRow>(ctx.em, {
    select: repo.INSTANCE_SELECT,
    from: 'cell_instances',
    scope: [{ sql: 'cell_specification_id = ?', params: [specId] }],
    list,
  });
}

export async function getInstance(ctx: RequestContext, instanceId: string) {
  return requireInstance(ctx, instanceId, 'cell_instance:read');
}

export async function updateInstance(ctx: RequestContext, instanceId: string, body: InstanceUpdate) {
  const instance = await requireInstance(ctx, instanceId, 'cell_instance:update');
  await checkInstanceBatch(ctx, instance.cell_specification_id, body.batch_id);
  if (typeof body.name === 'string')
    await assertInstanceNameFree(ctx, instance.cell_specification_id, body.name, instanceId);
  return orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        await updateRow(em, 'cell_instances', instanceId, pick(body, INSTANCE_FIELDS));
        const row = (await repo.findInstance(em, instanceId))!;
        await indexInstance({ ...ctx, em }, row);
        return row;
      }),
    () => assertInstanceNameFree(ctx, instance.cell_specification_id, String(body.name ?? instance.name), instanceId),
  );
}

export async function deleteInstance(ctx: RequestContext, instanceId: string) {
  await requireInstance(ctx, instanceId, 'cell_instance:delete');
  const purges = await ctx.em.transactional(async (em) => {
    const measurements = await repo.measurementsUnder(em, { instanceId });
    const purges = await recordMeasurementPurges(em, ctx.config, measurements);
    await unindexAnalysesOf(
      em,
      measurements.map((m) => m.id),
    );
    await em.execute(`delete from search_documents where entity_type = 'cell_measurement' and parent_id = ?`, [
      instanceId,
    ]);
    await unindexEntity(em, 'cell_instance', instanceId);
    await em.execute(`delete from cell_instances where id = ?`, [instanceId]);
    return purges;
  });
  await startRecorded(ctx, purges);
  return { id: instanceId, deleted: true };
}

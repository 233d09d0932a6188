// Rules for studies: named groups of simulations and measurements in a project. Links are
// idempotent: linking twice or unlinking something not linked both succeed.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import { namedRecordList, parseList } from '../listQuery.ts';
import * as repo from '../../db/repositories/studies.ts';
import { orConflict } from '../../db/repositories/sqlRows.ts';
import { requireProjectPermission } from './access.ts';
import { indexEntity, unindexEntity } from './searchIndex.ts';
import { listMeasurementsWhere } from './measurementLists.ts';

const STUDY_LIST = namedRecordList(
  { description: { kind: 'text', sql: 'st.description' }, created_by: { kind: 'id', sql: 'st.created_by' } },
  { alias: 'st', tieBreak: 'st.id' },
);

function indexStudy(ctx: RequestContext, s: repo.StudyRow) {
  return indexEntity(ctx.em, {
    entity_type: 'study',
    entity_id: s.id,
    organization_id: s.organization_id,
    project_id: s.project_id,
    name: s.name,
    body: s.description,
  });
}

async function loadStudy(ctx: RequestContext, projectId: string, studyId: string, permission: string) {
  await requireProjectPermission(ctx, projectId, permission);
  const study = await repo.findStudy(ctx.em, studyId);
  if (!study || study.project_id !== projectId) throw notFound('study', studyId);
  return study;
}

export async function createStudy(ctx: RequestContext, projectId: string, body: RequestBody<'createStudy'>) {
  await requireProjectPermission(ctx, projectId, 'study:create');
  await assertNameFree(ctx, projectId, body.name);
  // A concurrent create of the same name (a client's retry) loses at the unique key: the same 409.
  return orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        const row = await repo.insertStudy(em, {
          id: randomUUID(),
          organization_id: ctx.caller.organizationId,
          project_id: projectId,
          name: body.name,
          description: body.description ?? null,
          created_by: ctx.caller.userId,
        });
        await indexStudy({ ...ctx, em }, row);
        return row;
      }),
    () => assertNameFree(ctx, projectId, body.name),
  );
}

async function assertNameFree(ctx: RequestContext, projectId: string, name: string, selfId?: string) {
  const clash = await repo.findStudyByName(ctx.em, projectId, name);
  if (clash && clash.id !== selfId)
    throw conflict(`a study named "${name}" already exists in the project`, { existing_id: clash.id });
}

export async function listStudies(ctx: RequestContext, projectId: string, query: Record<string, unknown>) {
  await requireProjectPermission(ctx, projectId, 'study:read');
  const list = parseList(query, STUDY_LIST);
  const { items, total } = await repo.listStudies(ctx.em, projectId, list);
  return { items, count: items.length, total };
}

export async function getStudy(ctx: RequestContext, projectId: string, studyId: string) {
  const study = await loadStudy(ctx, projectId, studyId, 'study:read');
  return { ...study, ...(await repo.studyLinks(ctx.em, studyId)) };
}

export async function updateStudy(
  ctx: RequestContext,
  projectId: string,
  studyId: string,
  body: RequestBody<'updateStudy'>,
) {
  await loadStudy(ctx, projectId, studyId, 'study:update');
  const name = body.name;
  if (name !== undefined) await assertNameFree(ctx, projectId, name, studyId);
  const row = await orConflict(
    () =>
      ctx.em.transactional(async (em) => {
        const r = await repo.updateStudy(em, studyId, body);
        await indexStudy({ ...ctx, em }, r);
        return r;
      }),
    async () => {
      if (name !== undefined) await assertNameFree(ctx, projectId, name, studyId);
    },
  );
  return { ...row, ...(await repo.studyLinks(ctx.em, studyId)) };
}

export async function deleteStudy(ctx: RequestContext, projectId: string, studyId: string) {
  await loadStudy(ctx, projectId, studyId, 'study:delete');
  await ctx.em.transactional(async (em) => {
    await unindexEntity(em, 'study', studyId);
    await repo.deleteStudy(em, studyId);
  });
  return { id: studyId, deleted: true };
}

/** The study's measurements (a study belongs to one project, and so do they). */
export async function listStudyMeasurements(
  ctx: RequestContext,
  projectId: string,
  studyId: string,
  query: Record<string, unknown>,
) {
  await loadStudy(ctx, projectId, studyId, 'study:read');
  await requireProjectPermission(ctx, projectId, 'cell_measurement:read');
  return listMeasurementsWhere(
    ctx,
    { sql: 'm.id in (select measurement_id from study_measurements where study_id = ?)', params: [studyId] },
    query,
  );
}

export async function setLink(
  ctx: RequestContext,
  projectId: string,
  studyId: string,
  kind: repo.LinkKind,
  targetId: string,
  linked: boolean,
) {
  await loadStudy(ctx, projectId, studyId, 'study:update');
  const what = kind === 'simulations' ? 'simulation' : 'measurement';
  if (linked) {
    const target = await repo.findLinkTarget(ctx.em, kind, targetId);
    if (!target || target.organization_id !== ctx.caller.organizationId) throw notFound(what, targetId);
    if (target.project_id !== null && target.project_id !== projectId) {
      throw invalid(['path', `${what}_id`], `the ${what} belongs to another project`, 'value_error', targetId);
    }
    await repo.link(ctx.em, kind, studyId, targetId);
  } else {
    await repo.unlink(ctx.em, kind, studyId, targetId);
  }
  return { study_id: studyId, [`${what}_id`]: targetId, linked };
}

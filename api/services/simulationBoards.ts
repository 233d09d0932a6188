// Simulation boards: saved views of a study's simulations (which simulations, which variables
// on which axes). Every simulation on a board must be linked to the board's study.
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import type { RequestBody } from '../schemas.ts';
import { conflict, notFound, ValidationFailed } from '../errors.ts';
import { namedRecordList, parseList } from '../listQuery.ts';
import * as repo from '../../db/repositories/simulationBoards.ts';
import { requireProjectPermission } from './access.ts';

type BoardInput = RequestBody<'updateSimulationBoard'>;

const BOARD_LIST = namedRecordList({});

async function loadStudy(ctx: RequestContext, projectId: string, studyId: string, permission: string) {
  await requireProjectPermission(ctx, projectId, permission);
  const [study] = await ctx.em.execute<{ id: string; project_id: string }[]>(
    `select id, project_id from studies where id = ?`,
    [studyId],
  );
  if (!study || study.project_id !== projectId) throw notFound('study', studyId);
}

async function loadBoard(ctx: RequestContext, projectId: string, studyId: string, boardId: string, permission: string) {
  await loadStudy(ctx, projectId, studyId, permission);
  const board = await repo.findBoard(ctx.em, boardId);
  if (!board || board.study_id !== studyId) throw notFound('simulation board', boardId);
  return board;
}

async function checkInput(ctx: RequestContext, studyId: string, boardId: string | null, body: BoardInput) {
  if (body.name !== undefined) {
    const clash = await repo.findBoardByName(ctx.em, studyId, body.name);
    if (clash && clash.id !== boardId)
      throw conflict(`a board named "${body.name}" already exists in this study`, { existing_id: clash.id });
  }
  if (body.simulation_ids?.length) {
    const linked = await repo.studySimulations(ctx.em, studyId, body.simulation_ids);
    const issues = body.simulation_ids.flatMap((id, i) =>
      linked.has(id.toLowerCase())
        ? []
        : [
            {
              loc: ['body', 'simulation_ids', i],
              msg: `simulation ${id} is not in this study`,
              type: 'value_error',
              input: id,
            },
          ],
    );
    if (issues.length) throw new ValidationFailed(issues);
  }
}

export async function createBoard(
  ctx: RequestContext,
  projectId: string,
  studyId: string,
  body: RequestBody<'createSimulationBoard'>,
) {
  await loadStudy(ctx, projectId, studyId, 'study:update');
  const simulationIds = [...new Set((body.simulation_ids ?? []).map((s) => s.toLowerCase()))];
  await checkInput(ctx, studyId, null, { ...body, simulation_ids: simulationIds });
  const row = await repo.insertBoard(ctx.em, {
    id: randomUUID(),
    organization_id: ctx.caller.organizationId,
    project_id: projectId,
    study_id: studyId,
    name: body.name,
    description: body.description ?? null,
    simulation_ids: simulationIds,
    plots: body.plots ?? [],
    created_by: ctx.caller.userId,
  });
  return row;
}

export async function listBoards(
  ctx: RequestContext,
  projectId: string,
  studyId: string,
  query: Record<string, unknown>,
) {
  await loadStudy(ctx, projectId, studyId, 'study:read');
  const { items, count, total } = await repo.listBoards(ctx.em, studyId, parseList(query, BOARD_LIST));
  return { items, count, total };
}

export async function getBoard(ctx: RequestContext, projectId: string, studyId: string, boardId: string) {
  return loadBoard(ctx, projectId, studyId, boardId, 'study:read');
}

export async function updateBoard(
  ctx: RequestContext,
  projectId: string,
  studyId: string,
  boardId: string,
  body: BoardInput,
) {
  await loadBoard(ctx, projectId, studyId, boardId, 'study:update');
  const changes = {
    ...body,
    ...(body.simulation_ids ? { simulation_ids: [...new Set(body.simulation_ids.map((s) => s.toLowerCase()))] } : {}),
  };
  await checkInput(ctx, studyId, boardId, changes);
  return repo.updateBoard(ctx.em, boardId, changes);
}

export async function deleteBoard(ctx: RequestContext, projectId: string, studyId: string, boardId: string) {
  await loadBoard(ctx, projectId, studyId, boardId, 'study:update');
  await repo.deleteBoard(ctx.em, boardId);
  return { id: boardId, deleted: true };
}

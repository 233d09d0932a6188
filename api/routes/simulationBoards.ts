// /projects/{project_id}/studies/{study_id}/simulation_boards: saved views of a study's simulations.
import { Router } from 'express';
import * as boards from '../services/simulationBoards.ts';

const BASE = '/projects/:project_id/studies/:study_id/simulation_boards';

export function simulationBoardRoutes(): Router {
  const r = Router();
  r.post(BASE, async (req, res) => {
    const { project_id, study_id } = req.params as Record<string, string>;
    const board = await boards.createBoard(req.ctx, project_id!, study_id!, req.body);
    res
      .status(201)
      .setHeader('Location', `/projects/${project_id}/studies/${study_id}/simulation_boards/${board.id}`)
      .json(board);
  });
  r.get(BASE, async (req, res) => {
    const { project_id, study_id } = req.params as Record<string, string>;
    res.json(await boards.listBoards(req.ctx, project_id!, study_id!, req.query));
  });
  r.get(`${BASE}/:board_id`, async (req, res) => {
    const { project_id, study_id, board_id } = req.params as Record<string, string>;
    res.json(await boards.getBoard(req.ctx, project_id!, study_id!, board_id!));
  });
  r.patch(`${BASE}/:board_id`, async (req, res) => {
    const { project_id, study_id, board_id } = req.params as Record<string, string>;
    res.json(await boards.updateBoard(req.ctx, project_id!, study_id!, board_id!, req.body));
  });
  r.delete(`${BASE}/:board_id`, async (req, res) => {
    const { project_id, study_id, board_id } = req.params as Record<string, string>;
    res.json(await boards.deleteBoard(req.ctx, project_id!, study_id!, board_id!));
  });
  return r;
}

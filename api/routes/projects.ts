// /projects and project members: parse, delegate, answer.
import { Router } from 'express';
import * as projects from '../services/projects.ts';

export function projectRoutes(): Router {
  const r = Router();
  r.post('/projects', async (req, res) => {
    const project = await projects.createProject(req.ctx, req.body);
    res.status(201).setHeader('Location', `/projects/${project.id}`).json(project);
  });
  r.get('/projects', async (req, res) => {
    res.json(await projects.listProjects(req.ctx, req.query));
  });
  r.get('/projects/:project_id', async (req, res) => {
    res.json(await projects.getProject(req.ctx, req.params.project_id));
  });
  r.patch('/projects/:project_id', async (req, res) => {
    res.json(await projects.updateProject(req.ctx, req.params.project_id, req.body));
  });
  r.delete('/projects/:project_id', async (req, res) => {
    res.json(await projects.deleteProject(req.ctx, req.params.project_id));
  });
  r.post('/projects/:project_id/members', async (req, res) => {
    res.status(201).json(await projects.addMember(req.ctx, req.params.project_id, req.body));
  });
  r.patch('/projects/:project_id/members/:user_id', async (req, res) => {
    res.json(await projects.changeMember(req.ctx, req.params.project_id, req.params.user_id, req.body));
  });
  r.delete('/projects/:project_id/members/:user_id', async (req, res) => {
    res.json(await projects.removeMember(req.ctx, req.params.project_id, req.params.user_id));
  });
  return r;
}

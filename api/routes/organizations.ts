// /organizations: the caller's organizations and their member administration.
import { Router } from 'express';
import * as orgs from '../services/organizations.ts';

export function organizationRoutes(): Router {
  const r = Router();
  const users = '/organizations/:org_id/users';
  r.get('/organizations', async (req, res) => {
    res.json(await orgs.listOrganizations(req.ctx));
  });
  r.post('/projects/:project_id/invites', async (req, res) => {
    res.json(await orgs.inviteToProject(req.ctx, req.params.project_id, req.body));
  });
  r.get(users, async (req, res) => {
    res.json(await orgs.listMembers(req.ctx, req.params.org_id));
  });
  r.post(`${users}/by-email`, async (req, res) => {
    res.json(await orgs.inviteByEmail(req.ctx, req.params.org_id, req.body));
  });
  r.patch(`${users}/:user_id/role`, async (req, res) => {
    res.json(await orgs.setRole(req.ctx, req.params.org_id, req.params.user_id, req.body));
  });
  r.post(`${users}/:user_id/resend-invite`, async (req, res) => {
    res.json(await orgs.resendInvite(req.ctx, req.params.org_id, req.params.user_id));
  });
  r.patch(`${users}/:user_id`, async (req, res) => {
    res.json(await orgs.setActive(req.ctx, req.params.org_id, req.params.user_id, req.body));
  });
  r.delete(`${users}/:user_id`, async (req, res) => {
    res.json(await orgs.removeMember(req.ctx, req.params.org_id, req.params.user_id));
  });
  return r;
}

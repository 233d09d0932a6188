// /experiment_templates: saved protocols.
import { Router } from 'express';
import * as templates from '../services/experimentTemplates.ts';

export function experimentTemplateRoutes(): Router {
  const r = Router();
  r.get('/experiment_templates', async (req, res) => {
    res.json(await templates.listTemplates(req.ctx, req.query));
  });
  r.post('/experiment_templates', async (req, res) => {
    const { template, created } = await templates.createTemplate(req.ctx, req.body);
    res
      .status(created ? 201 : 200)
      .setHeader('Location', `/experiment_templates/${template.id}`)
      .json(template);
  });
  r.get('/experiment_templates/:template_id/human_readable', async (req, res) => {
    res.type('text/plain').send(await templates.humanReadable(req.ctx, req.params.template_id));
  });
  r.get('/experiment_templates/:template_id/source_protocol', async (req, res) => {
    res.type('text/plain').send(await templates.sourceProtocol(req.ctx, req.params.template_id));
  });
  r.get('/experiment_templates/:template_id', async (req, res) => {
    res.json(await templates.getTemplate(req.ctx, req.params.template_id));
  });
  r.patch('/experiment_templates/:template_id', async (req, res) => {
    res.json(await templates.updateTemplate(req.ctx, req.params.template_id, req.body));
  });
  r.delete('/experiment_templates/:template_id', async (req, res) => {
    res.json(await templates.deleteTemplate(req.ctx, req.params.template_id));
  });
  return r;
}

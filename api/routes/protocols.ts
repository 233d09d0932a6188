// /protocols operations and the protocol JSON Schema.
import { Router } from 'express';
import { UCP_SCHEMA } from '../services/protocols/index.ts';
import * as templates from '../services/experimentTemplates.ts';
import { CAPABILITIES, cellDataSchema } from '../services/discovery.ts';

export function protocolRoutes(): Router {
  const r = Router();
  r.get('/discovery/schemas/protocol', (_req, res) => {
    res.json(UCP_SCHEMA);
  });
  r.get('/discovery/schemas/data', (_req, res) => {
    res.json(cellDataSchema());
  });
  r.get('/discovery/capabilities', (_req, res) => {
    res.json(CAPABILITIES);
  });
  r.post('/protocols/validate', (req, res) => {
    res.json(templates.validateProtocol(req.body));
  });
  r.post('/protocols/input_references', (req, res) => {
    res.json(templates.protocolInputReferences(req.body));
  });
  r.post('/protocols/parse-to-template', async (req, res) => {
    res.json(await templates.parseToTemplate(req.ctx, req.body));
  });
  return r;
}

// /models, /parameterized_models and the discovery documents of the simulation engine.
import { Router } from 'express';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../stack/config.ts';
import * as models from '../services/models.ts';
import { serializeModel } from '../services/modelSerialize.ts';
import { addCustomVariable } from '../services/modelCustomVariables.ts';
import { CHEMISTRIES, PYBAMM_MODELS, validatePybammModel } from '../services/simulationWorker.ts';

// The Python client's view of the same models: classes by module, and the engine's version
// (the pin the Python worker is installed from).
const PYBAMM_DISCOVERY = {
  pybamm_models: {
    'pybamm.lithium_ion': PYBAMM_MODELS.filter((m) => m.family === 'lithium_ion').map((m) => m.type),
    'pybamm.equivalent_circuit': PYBAMM_MODELS.filter((m) => m.family === 'equivalent_circuit').map((m) => m.type),
  },
  ionworks_models: {},
  options: {},
  pybamm_version:
    /^pybamm==(\S+)$/m.exec(fs.readFileSync(path.join(ROOT, 'pyworker', 'requirements.txt'), 'utf8'))?.[1] ?? 'unknown',
};

export function modelRoutes(): Router {
  const r = Router();
  r.get('/models', async (req, res) => {
    res.json(await models.listModels(req.ctx, req.query));
  });
  r.post('/models', async (req, res) => {
    const m = await models.createModel(req.ctx, req.body);
    res.status(201).setHeader('Location', `/models/${m.id}`).json(m);
  });
  r.post('/models/upload-custom', async (req, res) => {
    const m = await models.uploadCustomModel(
      req.ctx,
      req.body,
      req.files as { fieldname: string; buffer: Buffer }[] | undefined,
    );
    res.status(201).setHeader('Location', `/models/${m.id}`).json(m);
  });
  r.post('/models/:model_id/custom-variables', async (req, res) => {
    res.json(await addCustomVariable(req.ctx, req.params.model_id, req.body));
  });
  r.get('/models/:model_id', async (req, res) => {
    res.json(await models.loadModel(req.ctx, req.params.model_id));
  });
  r.patch('/models/:model_id', async (req, res) => {
    res.json(await models.updateModel(req.ctx, req.params.model_id, req.body));
  });
  r.delete('/models/:model_id', async (req, res) => {
    res.json(await models.deleteModel(req.ctx, req.params.model_id));
  });

  r.post('/parameterized_models', async (req, res) => {
    const pm = await models.createParameterizedModel(req.ctx, req.body);
    res.status(201).setHeader('Location', `/parameterized_models/${pm.id}`).json(pm);
  });
  r.post('/cells/:cell_spec_id/parameterized_models', async (req, res) => {
    const pm = await models.createParameterizedModel(req.ctx, req.body, req.params.cell_spec_id);
    res.status(201).setHeader('Location', `/parameterized_models/${pm.id}`).json(pm);
  });
  r.get('/cells/:cell_spec_id/parameterized_models', async (req, res) => {
    res.json(await models.listParameterizedModels(req.ctx, req.query, req.params.cell_spec_id));
  });
  r.patch('/cells/:cell_spec_id/parameterized_models/:parameterized_model_id', async (req, res) => {
    await models.requireOfCellSpec(req.ctx, req.params.cell_spec_id, req.params.parameterized_model_id);
    res.json(await models.updateParameterizedModel(req.ctx, req.params.parameterized_model_id, req.body));
  });
  r.delete('/cells/:cell_spec_id/parameterized_models/:parameterized_model_id', async (req, res) => {
    await models.requireOfCellSpec(req.ctx, req.params.cell_spec_id, req.params.parameterized_model_id);
    res.json(await models.deleteParameterizedModel(req.ctx, req.params.parameterized_model_id));
  });
  r.get('/parameterized_models/:parameterized_model_id/parameter-values', async (req, res) => {
    res.json(
      (await models.loadParameterizedModel(req.ctx, req.params.parameterized_model_id, 'parameterized_model:read'))
        .parameters ?? {},
    );
  });
  r.get('/parameterized_models', async (req, res) => {
    res.json(await models.listParameterizedModels(req.ctx, req.query));
  });
  r.get('/parameterized_models/:parameterized_model_id', async (req, res) => {
    res.json(
      await models.loadParameterizedModel(req.ctx, req.params.parameterized_model_id, 'parameterized_model:read'),
    );
  });
  r.patch('/parameterized_models/:parameterized_model_id', async (req, res) => {
    res.json(await models.updateParameterizedModel(req.ctx, req.params.parameterized_model_id, req.body));
  });
  r.delete('/parameterized_models/:parameterized_model_id', async (req, res) => {
    res.json(await models.deleteParameterizedModel(req.ctx, req.params.parameterized_model_id));
  });
  r.get('/parameterized_models/:parameterized_model_id/variable-names', async (req, res) => {
    res.json(
      await models.parameterizedModelVariableNames(
        req.ctx,
        req.params.parameterized_model_id,
        req.query.detail === 'true',
      ),
    );
  });

  r.get('/discovery/pybamm_models', (_req, res) => {
    res.json({ ...PYBAMM_DISCOVERY, items: PYBAMM_MODELS, count: PYBAMM_MODELS.length, total: PYBAMM_MODELS.length });
  });
  r.post('/discovery/pybamm_models/validate', async (req, res) => {
    res.json(await validatePybammModel(req.ctx, req.ctx.em, req.body));
  });
  r.post('/discovery/ionworks_models/serialize', async (req, res) => {
    res.json(await serializeModel(req.ctx, req.body));
  });
  r.get('/discovery/chemistries', (_req, res) => {
    res.json(CHEMISTRIES);
  });
  return r;
}

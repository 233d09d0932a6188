// POST /discovery/ionworks_models/serialize: a model type the engine builds (GET
// /discovery/pybamm_models), with options, as pybamm's Serialise document, which the Python
// client loads with Serialise.load_custom_model. Built by the Python worker as a simulation
// builds it; compressed, since an electrochemical model's plain document is megabytes.
import type { Services } from '../context.ts';
import { invalid } from '../errors.ts';
import { checkWorkerArg } from './workLimits.ts';
import { callWorker, canonicalJson, PYBAMM_MODELS, sha256, WorkerRejected } from './simulationWorker.ts';

export async function serializeModel(services: Services, body: { name: string; options?: Record<string, unknown> }) {
  if (!PYBAMM_MODELS.some((m) => m.type === body.name)) {
    throw invalid(
      ['body', 'name'],
      `${JSON.stringify(body.name)} is not a model Cellar's engine builds; it builds ` +
        PYBAMM_MODELS.map((m) => m.type).join(', '),
      'enum',
      body.name,
    );
  }
  const request = { name: body.name, options: body.options ?? {} };
  checkWorkerArg(request.options, ['body', 'options'], 'the options');
  try {
    return await callWorker<Record<string, unknown>>(
      services,
      'serializeModel',
      request,
      sha256(canonicalJson(request)).slice(0, 32),
    );
  } catch (err) {
    // The worker's message names model.options (or model.type) as the spec it built.
    if (err instanceof WorkerRejected) throw invalid(['body', 'options'], err.message, 'model_error', request.options);
    throw err;
  }
}

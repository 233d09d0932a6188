// POST /models/{id}/custom-variables: a named expression over the model's variables, added to
// its config once the Python worker has built the model with it (pyworker's custom_variables.py
// parses and applies it), so simulations of the model solve it like its own variables.
import type { RequestContext } from '../context.ts';
import { invalid, ValidationFailed } from '../errors.ts';
import type { RequestBody } from '../schemas.ts';
import * as repo from '../../db/repositories/models.ts';
import { requirePermissionInSomeProject } from './access.ts';
import { assertModelOwner, loadModel } from './models.ts';
import { validateCustomModel } from './simulationWorker.ts';

type Body = RequestBody<'addModelCustomVariable'>;

export async function addCustomVariable(ctx: RequestContext, modelId: string, body: Body) {
  const model = await loadModel(ctx, modelId);
  assertModelOwner(ctx, model);
  await requirePermissionInSomeProject(ctx, 'model:update');
  const config = model.config as Record<string, unknown>;
  const existing = (config.custom_variables ?? []) as Body[];
  if (existing.some((v) => v.name === body.name))
    throw invalid(['body', 'name'], `${JSON.stringify(body.name)} is already a custom variable of this model`);
  const next = { ...config, custom_variables: [...existing, { name: body.name, expression: body.expression }] };
  let checked: Awaited<ReturnType<typeof validateCustomModel>>;
  try {
    checked = await validateCustomModel(ctx, next, ['body', 'expression']);
  } catch (err) {
    // The worker's message names the field of the spec it built ("custom_variables[3].name: ...").
    if (err instanceof ValidationFailed && /^model\.custom_variables\[\d+\]\.name: /.test(err.issues[0]!.msg))
      throw invalid(['body', 'name'], err.issues[0]!.msg, 'value_error', body.name);
    throw err;
  }
  return ctx.em.transactional((em) => repo.updateModelConfig(em, modelId, checked.model, checked.simulator_version));
}

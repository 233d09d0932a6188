// A design optimization's config (POST /optimizations with config.type "design"): checked here
// and stored as the optimization's one element, of type design_optimization, run by the Python
// worker's optimizeDesign (pyworker cellar_worker/design/) on the fits' queue. openapi.yaml
// states the shapes and the metric names; what needs the model or compares fields is here.
import type { RequestContext } from '../context.ts';
import type { Schema } from '../schemas.ts';
import { ValidationFailed, invalid, type ValidationIssue } from '../errors.ts';
import { protocolAt } from './experimentTemplates.ts';
import { parameterValueProblem } from './parameterValues.ts';
import { describeModel } from './simulationWorker.ts';
import { resolveModel } from './simulations/models.ts';

type DesignConfig = Schema<'DesignOptimizationConfig'>;
const LOC = ['body', 'config'];

function checkParameters(config: DesignConfig, known: Set<string>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [name, p] of Object.entries(config.parameters)) {
    const loc = [...LOC, 'parameters', name];
    const [lo, hi] = p.bounds as [number, number];
    if (!known.has(name)) {
      issues.push({ loc, msg: 'is not a parameter of this model', type: 'value_error', input: name });
    } else if (!(lo < hi)) {
      issues.push({ loc: [...loc, 'bounds'], msg: 'the lower bound must be below the upper', type: 'value_error' });
    } else if (parameterValueProblem(name, lo)) {
      issues.push({
        loc: [...loc, 'bounds', 0],
        msg: `${lo} ${parameterValueProblem(name, lo)!}`,
        type: 'value_error',
        input: lo,
      });
    } else if (p.initial < lo || p.initial > hi) {
      issues.push({
        loc: [...loc, 'initial'],
        msg: `must lie within the bounds [${lo}, ${hi}]`,
        type: 'value_error',
        input: p.initial,
      });
    } else if (p.scale === 'log' && lo <= 0) {
      issues.push({ loc: [...loc, 'scale'], msg: 'log needs a positive lower bound', type: 'value_error' });
    }
  }
  for (const [i, c] of (config.constraints ?? []).entries()) {
    if (c.min !== undefined && c.max !== undefined && c.min > c.max)
      issues.push({ loc: [...LOC, 'constraints', i], msg: 'min must not exceed max', type: 'value_error' });
  }
  return issues;
}

/** The element config to store: the model resolved to its spec, the protocol to UCP. */
export async function designElement(
  ctx: RequestContext,
  config: DesignConfig,
  projectId: string,
  parameterizedModelId: string | null | undefined,
): Promise<Record<string, unknown>> {
  const given = parameterizedModelId ?? config.model;
  const modelLoc = parameterizedModelId ? ['body', 'parameterized_model_id'] : [...LOC, 'model'];
  if (parameterizedModelId && config.model !== undefined)
    throw invalid([...LOC, 'model'], 'give either a model or parameterized_model_id, not both');
  if (given === undefined || given === null)
    throw invalid([...LOC, 'model'], 'required (or parameterized_model_id)', 'missing');
  const model = await resolveModel(ctx, given, modelLoc);
  if (model.projectId !== null && model.projectId !== projectId)
    throw invalid(modelLoc, 'is a parameterized model of another project', 'value_error', given);
  const protocol = protocolAt(config.protocol, [...LOC, 'protocol']).ucp;
  const described = await describeModel(ctx, ctx.em, model.spec, modelLoc, model.parameterLoc);
  const issues = checkParameters(config, new Set(described.parameter_names));
  if (issues.length) throw new ValidationFailed(issues);
  const { model: _m, protocol: _p, ...rest } = config;
  return { element_type: 'design_optimization', ...rest, model: model.spec, protocol };
}

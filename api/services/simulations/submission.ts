// Submitting a batch of simulations, in either form (a protocol, or a saved experiment
// template): everything that can be checked is checked before anything is written, then every
// simulation and job is written in one transaction with the batch workflow's start, and the
// answer does not wait for any simulation.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../context.ts';
import { AppError, invalid } from '../../errors.ts';
import * as repo from '../../../db/repositories/simulations.ts';
import type { RequestBody } from '../../schemas.ts';
import {
  CellarBatch,
  CellarOrganization,
  CellarProject,
  statusAttribute,
} from '../../../workflows/searchAttributes.ts';
import { simulationWorkflowIds } from '../../../workflows/simulationIds.ts';
import type { SimulationBatchInput } from '../../../workflows/simulationBatch.ts';
import type { ModelDescription } from '../../../activities/simulations.ts';
import { requireProjectPermission } from '../access.ts';
import type { DoeRequest } from '../doe.ts';
import { loadTemplate, protocolAt } from '../experimentTemplates.ts';
import {
  DEFAULT_MAX_BACKWARD_JUMPS,
  JumpLimitError,
  parseProtocol,
  ProtocolError,
  type Ucp,
} from '../protocols/index.ts';
import { canonicalJson, describeModel, ENGINE_BUILD, sha256 } from '../simulationWorker.ts';
import { recordStarts, startRecorded, type RecordedStart } from '../../../db/workflowStarts.ts';
import { resolveModel, type ResolvedModel } from './models.ts';
import { checkExtraVariables, checkInputs, designPoints, projectOf, type ParameterSets } from './submissionChecks.ts';

interface Submission {
  ucp: Ucp;
  name: string;
  parameterizedModel: unknown;
  /** Experiment parameter sets (each with where it came from), one or more. */
  sets: ParameterSets;
  doe?: DoeRequest | null;
  maxBackwardJumps?: number | null;
  studyId?: string | null;
  extraVariables?: string[] | null;
  forceRerun?: boolean;
  projectId?: string | null;
  templateId?: string | null;
  /** The Idempotency-Key the client sent, recorded with the batch. */
  key?: SubmissionKey;
}

export type ProtocolBatchBody = RequestBody<'submitProtocolBatch'>;

/** What both batch forms take from their body as it is. */
function sharedFields(body: ProtocolBatchBody | TemplateBatchBody) {
  return {
    parameterizedModel: body.parameterized_model,
    doe: body.design_parameters_doe,
    maxBackwardJumps: body.max_backward_jumps,
    studyId: body.study_id,
    extraVariables: body.extra_variables,
    forceRerun: body.force_rerun,
    projectId: body.project_id,
  };
}

export function submitProtocolBatch(ctx: RequestContext, body: ProtocolBatchBody, idempotencyKey?: string) {
  return once(ctx, 'protocol', body, idempotencyKey, (key) => {
    // The loops are counted against this batch's max_backward_jumps, as the worker will.
    const parsed = protocolAt(
      body.protocol_experiment.protocol,
      ['body', 'protocol_experiment', 'protocol'],
      body.max_backward_jumps ?? DEFAULT_MAX_BACKWARD_JUMPS,
    );
    return submit(ctx, {
      ucp: parsed.ucp,
      name: body.protocol_experiment.name || parsed.ucp.name || 'Simulation',
      sets: [{ values: body.experiment_parameters ?? {}, loc: ['body', 'experiment_parameters'] }],
      ...sharedFields(body),
      key,
    });
  });
}

export type TemplateBatchBody = RequestBody<'submitTemplateBatch'>;

export function submitTemplateBatch(ctx: RequestContext, body: TemplateBatchBody, idempotencyKey?: string) {
  return once(ctx, 'template', body, idempotencyKey, (key) => submitFromTemplate(ctx, body, key));
}

async function submitFromTemplate(ctx: RequestContext, body: TemplateBatchBody, key?: SubmissionKey) {
  await requireProjectPermission(ctx, body.project_id, 'simulation:create');
  const template = await loadTemplate(ctx, body.experiment_template_id, 'experiment_template:read');
  if (template.project_id !== body.project_id)
    throw invalid(
      ['body', 'experiment_template_id'],
      'belongs to another project than project_id',
      'value_error',
      body.experiment_template_id,
    );
  try {
    // Checked again: against this batch's max_backward_jumps (the template was counted
    // against the default), and by any rule newer than the template.
    parseProtocol(template.protocol_config, body.max_backward_jumps ?? DEFAULT_MAX_BACKWARD_JUMPS);
  } catch (err) {
    if (err instanceof JumpLimitError)
      throw invalid(
        ['body', 'max_backward_jumps'],
        `the template's ${err.message}`,
        'protocol_error',
        body.max_backward_jumps ?? DEFAULT_MAX_BACKWARD_JUMPS,
      );
    if (err instanceof ProtocolError)
      throw invalid(
        ['body', 'experiment_template_id'],
        `the template's ${err.message}`,
        'protocol_error',
        body.experiment_template_id,
      );
    throw err;
  }
  const base = template.experiment_parameters ?? {};
  const given = body.experiment_parameter_sets?.length ? body.experiment_parameter_sets : [{}];
  return submit(ctx, {
    ucp: template.protocol_config as unknown as Ucp,
    name: template.name,
    sets: given.map((values, i) => ({
      values: { ...base, ...values },
      loc: body.experiment_parameter_sets?.length
        ? ['body', 'experiment_parameter_sets', i]
        : ['body', 'experiment_template_id'],
    })),
    ...sharedFields(body),
    templateId: template.id,
    key,
  });
}

type SubmissionAnswer = { simulation_id: string; job_id: string }[];
interface SubmissionKey {
  key: string;
  requestHash: string;
}

/**
 * A submission sent again with the same Idempotency-Key (a client that lost the answer) is
 * answered the batch the first one made, and starts and counts nothing; the same key with
 * another request is 409. Without a key every submission is a new batch.
 */
async function once(
  ctx: RequestContext,
  operation: string,
  body: unknown,
  idempotencyKey: string | undefined,
  run: (key?: SubmissionKey) => Promise<SubmissionAnswer>,
): Promise<SubmissionAnswer> {
  if (idempotencyKey === undefined) return run();
  const key = { key: idempotencyKey, requestHash: sha256(`${operation}|${canonicalJson(body)}`) };
  const prior = async () => {
    const row = await repo.findSubmissionKey(ctx.em, ctx.caller.organizationId, ctx.caller.userId, key.key);
    if (!row) return undefined;
    if (row.request_hash !== key.requestHash) {
      throw new AppError(
        'CONFLICT',
        'this Idempotency-Key was sent with another submission; use a new key for a new batch',
        { idempotency_key: key.key, batch_id: row.batch_id },
      );
    }
    return repo.batchAnswer(ctx.em, row.batch_id);
  };
  const first = await prior();
  if (first) return first;
  try {
    return await run(key);
  } catch (err) {
    // The same request, sent twice at once: the other one committed its batch (and key) first.
    const other = err instanceof UniqueConstraintViolationException ? await prior() : undefined;
    if (other) return other;
    throw err;
  }
}

async function submit(ctx: RequestContext, s: Submission): Promise<SubmissionAnswer> {
  const model = await resolveModel(ctx, s.parameterizedModel, ['body', 'parameterized_model']);
  const projectId = await projectOf(ctx, s.projectId, model, s.studyId, s.parameterizedModel);
  const points = designPoints(s.doe, s.sets.length);
  const described = await describeModel(ctx, ctx.em, model.spec, ['body', 'parameterized_model'], model.parameterLoc);
  checkExtraVariables(s.extraVariables ?? [], described);
  checkInputs(s.ucp, s.doe, s.sets, points, model, described);

  const batch = batchRows(ctx, s, model, described, points, projectId);
  const recorded = await ctx.em.transactional((em) => recordBatch(ctx, em, s, batch));
  await startRecorded(ctx, recorded);
  return batch.sims.map((sim) => ({ simulation_id: sim.id, job_id: sim.job_id }));
}

interface BatchRows {
  batch: repo.BatchInsert;
  sims: repo.SimulationInsert[];
  input: SimulationBatchInput;
}

/**
 * The batch and one simulation per parameter set and design point. The content hash decides reuse of stored results.
 */
function batchRows(
  ctx: RequestContext,
  s: Submission,
  model: ResolvedModel,
  described: ModelDescription,
  points: Record<string, number>[],
  projectId: string | null,
): BatchRows {
  const { name: _n, description: _d, ...protocolBody } = s.ucp;
  const extra = s.extraVariables ?? [];
  const common = sha256(
    canonicalJson({
      model: model.spec,
      protocol: protocolBody,
      extra_variables: extra,
      max_backward_jumps: s.maxBackwardJumps ?? null,
      engine: [described.simulator_version, ENGINE_BUILD],
    }),
  );
  const total = points.length * s.sets.length;
  const sims: repo.SimulationInsert[] = [];
  for (const set of s.sets) {
    for (const point of points) {
      const seq = sims.length + 1;
      sims.push({
        id: randomUUID(),
        seq,
        job_id: randomUUID(),
        name: total === 1 ? s.name : `${s.name} #${seq}`,
        parameterized_model_id: model.parameterizedModelId,
        design_parameters: point,
        experiment_parameters: set.values,
        content_hash: sha256(`${common}|${canonicalJson({ ...set.values, ...point })}`),
      });
    }
  }
  const org = ctx.caller.organizationId;
  const batchId = randomUUID();
  return {
    batch: {
      id: batchId,
      organization_id: org,
      project_id: projectId,
      name: s.name,
      model_config: model.spec,
      protocol: protocolBody,
      extra_variables: extra,
      max_backward_jumps: s.maxBackwardJumps ?? null,
      force_rerun: s.forceRerun ?? false,
      experiment_template_id: s.templateId ?? null,
      simulator_version: described.simulator_version,
      size: total,
      created_by: ctx.caller.userId,
    },
    sims,
    input: {
      batchId,
      organizationId: org,
      projectId,
      simulationTaskQueue: ctx.config.simulationTaskQueue,
      afterSeq: 0,
      size: total,
      slots: ctx.config.sweepSlots,
    },
  };
}

/**
 * Counts the simulations against the monthly limit, writes the batch, its simulations and
 * jobs, and records the batch workflow's start: if Temporal cannot take it now, the
 * dispatcher starts it later.
 */
async function recordBatch(
  ctx: RequestContext,
  em: EntityManager,
  s: Submission,
  rows: BatchRows,
): Promise<RecordedStart[]> {
  const { batch, sims, input } = rows;
  const org = batch.organization_id;
  const usage = await repo.addSimulationUsage(em, org, batch.size, ctx.config.simulationMonthlyLimit);
  if (usage.usage > usage.limit) {
    const before = usage.usage - batch.size;
    throw new AppError(
      'USAGE_LIMIT_EXCEEDED',
      `the organization's monthly simulation limit is ${usage.limit}; ${before} used this month, ` +
        `so ${batch.size} more would exceed it`,
      {
        limit: usage.limit,
        usage: before,
        requested: batch.size,
      },
    );
  }
  await repo.insertBatch(em, batch, sims, org, batch.project_id, ctx.caller.userId);
  if (s.studyId) await repo.linkBatchToStudy(em, batch.id, s.studyId);
  if (s.key)
    await repo.insertSubmissionKey(em, {
      organizationId: org,
      userId: ctx.caller.userId,
      key: s.key.key,
      requestHash: s.key.requestHash,
      batchId: batch.id,
    });
  return recordStarts(em, [
    {
      workflowType: 'simulationBatch',
      workflowId: simulationWorkflowIds.batch(batch.id),
      taskQueue: ctx.config.taskQueue,
      args: [input],
      reusePolicy: 'REJECT_DUPLICATE',
      searchAttributes: [
        { key: CellarOrganization, value: org },
        { key: CellarBatch, value: batch.id },
        statusAttribute('running'),
        ...(batch.project_id ? [{ key: CellarProject, value: batch.project_id }] : []),
      ],
    },
  ]);
}

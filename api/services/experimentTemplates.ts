// Protocol checks and experiment templates: saved protocols in their canonical UCP form,
// content-addressed per project (the same body always gives the same template).
import type { RequestBody } from '../schemas.ts';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import YAML from 'yaml';
import { conflict, invalid, notFound } from '../errors.ts';
import { namedRecordList, parseList } from '../listQuery.ts';
import * as repo from '../../db/repositories/experimentTemplates.ts';
import { assertSameOrganization, readableProjectsSql, requireProjectPermission } from './access.ts';
import { inputReferences, parseProtocol, ProtocolError, type ParsedProtocol } from './protocols/index.ts';
import { indexEntity, unindexEntity } from './searchIndex.ts';
import { canonicalJson, sha256 } from './simulationWorker.ts';

/**
 * Parses a protocol given at `loc`; a mistake is a 422 whose loc goes down to the field.
 * `maxBackwardJumps`: the loops' cap (the worker's default unless the caller knows better).
 */
export function protocolAt(input: unknown, loc: (string | number)[], maxBackwardJumps?: number): ParsedProtocol {
  try {
    return parseProtocol(input, maxBackwardJumps);
  } catch (err) {
    if (err instanceof ProtocolError) throw invalid([...loc, ...err.path], err.message, 'protocol_error', input);
    throw err;
  }
}

export function validateProtocol(body: RequestBody<'validateProtocol'>) {
  try {
    const parsed = parseProtocol(body.protocol);
    return { valid: true, format: parsed.format, protocol: parsed.ucp, input_references: inputReferences(parsed.ucp) };
  } catch (err) {
    if (err instanceof ProtocolError) return { valid: false, error: err.message, loc: err.path };
    throw err;
  }
}

export function protocolInputReferences(body: RequestBody<'protocolInputReferences'>): string[] {
  return inputReferences(protocolAt(body.protocol, ['body', 'protocol']).ucp);
}

const HEAVY = ['protocol_config', 'parameters_schema', 'source_protocol', 'experiment_parameters'] as const;

// Columns the Python client may ask for that Cellar does not keep: answered as null.
const NOT_KEPT = ['time_series_spec', 'metrics_spec', 'plot_options'] as const;

const TEMPLATE_LIST = namedRecordList({
  project_id: { kind: 'id' },
  description: { kind: 'text' },
  created_by: { kind: 'id' },
  created_by_email: { kind: 'text', sql: '(select u.email from users u where u.id = created_by)' },
});

function indexTemplate(ctx: RequestContext, t: repo.TemplateRow) {
  return indexEntity(ctx.em, {
    entity_type: 'experiment_template',
    entity_id: t.id,
    organization_id: t.organization_id,
    project_id: t.project_id,
    name: t.name,
    body: t.description,
  });
}

export type ParseToTemplateBody = RequestBody<'parseProtocolToTemplate'>;

export async function parseToTemplate(ctx: RequestContext, body: ParseToTemplateBody) {
  const pe = body.protocol_experiment;
  const { id } = await storeTemplate(ctx, {
    projectId: body.project_id,
    name: pe.name,
    protocol: pe.protocol,
    loc: ['body', 'protocol_experiment', 'protocol'],
    parametersSchema: pe.parameters_schema ?? null,
    experimentParameters: body.experiment_parameters ?? {},
    description: body.description ?? null,
  });
  return { template_id: id };
}

interface TemplateInput {
  projectId: string;
  name: string;
  protocol: unknown;
  loc: (string | number)[];
  parametersSchema: Record<string, unknown> | null;
  experimentParameters: Record<string, number>;
  description: string | null;
  sourceProtocol?: string;
}

/** The same content in a project is one template: an identical one is answered, not made again. */
async function storeTemplate(ctx: RequestContext, t: TemplateInput): Promise<{ id: string; created: boolean }> {
  await requireProjectPermission(ctx, t.projectId, 'experiment_template:create');
  // A template's loops are capped by each batch's own max_backward_jumps (a long ageing
  // protocol may need more than the default); the unrolled size still counts here.
  const parsed = protocolAt(t.protocol, t.loc, Infinity);
  const hash = sha256(
    canonicalJson({
      protocol: parsed.ucp,
      name: t.name,
      experiment_parameters: t.experimentParameters,
      parameters_schema: t.parametersSchema,
    }),
  );
  const existing = await repo.findTemplateByHash(ctx.em, t.projectId, hash);
  if (existing) return { id: existing.id, created: false };
  return ctx.em.transactional(async (em) => {
    const row = await repo.insertTemplate(em, {
      id: randomUUID(),
      organization_id: ctx.caller.organizationId,
      project_id: t.projectId,
      content_hash: hash,
      name: t.name,
      description: t.description,
      source_protocol: t.sourceProtocol ?? parsed.source,
      protocol_config: parsed.ucp as unknown as Record<string, unknown>,
      parameters_schema: t.parametersSchema,
      experiment_parameters: t.experimentParameters,
      input_references: inputReferences(parsed.ucp),
      created_by: ctx.caller.userId,
    });
    // A concurrent identical request won the insert: answer its template.
    if (!row) return { id: (await repo.findTemplateByHash(em, t.projectId, hash))!.id, created: false };
    await indexTemplate({ ...ctx, em }, row);
    return { id: row.id, created: true };
  });
}

export type TemplateCreateBody = RequestBody<'createExperimentTemplate'>;

/**
 * POST /experiment_templates (the Python client's protocol.create): an identical protocol
 * already saved is answered as it is (created false), or 409 with force_create.
 */
export async function createTemplate(ctx: RequestContext, body: TemplateCreateBody) {
  const { id, created } = await storeTemplate(ctx, {
    projectId: body.project_id,
    name: body.name,
    protocol: body.protocol_config,
    loc: ['body', 'protocol_config'],
    parametersSchema:
      body.parameters_schema && Object.keys(body.parameters_schema).length ? body.parameters_schema : null,
    experimentParameters: {},
    description: body.description ?? null,
    sourceProtocol: body.source_protocol,
  });
  if (!created && body.force_create)
    throw conflict('an identical protocol is already saved in this project', { existing_id: id });
  return { template: await loadTemplate(ctx, id, 'experiment_template:read'), created };
}

/** The protocol as YAML text, headed by its name (the client's human_readable). */
export async function humanReadable(ctx: RequestContext, id: string): Promise<string> {
  const t = await loadTemplate(ctx, id, 'experiment_template:read');
  return `# ${t.name}\n${YAML.stringify(t.protocol_config)}`;
}

export async function sourceProtocol(ctx: RequestContext, id: string): Promise<string> {
  return (await loadTemplate(ctx, id, 'experiment_template:read')).source_protocol ?? '';
}

export async function loadTemplate(ctx: RequestContext, id: string, permission: string): Promise<repo.TemplateRow> {
  const t = await repo.findTemplate(ctx.em, id);
  if (!t) throw notFound('experiment template', id);
  assertSameOrganization(ctx.caller, t.organization_id, 'experiment template');
  await requireProjectPermission(ctx, t.project_id, permission);
  return t;
}

export async function listTemplates(ctx: RequestContext, query: Record<string, unknown>) {
  const raw = query.include;
  const requested = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const allowed: readonly string[] = [...HEAVY, ...NOT_KEPT];
  const unknown = requested.filter((c) => !allowed.includes(c));
  if (unknown.length)
    throw invalid(
      ['query', 'include'],
      `unknown column(s) ${unknown.join(', ')}; allowed: ${allowed.join(', ')}`,
      'enum',
      raw,
    );
  const list = parseList(query, TEMPLATE_LIST);
  const kept = requested.filter((c) => (HEAVY as readonly string[]).includes(c));
  const absent = Object.fromEntries(requested.filter((c) => !kept.includes(c)).map((c) => [c, null]));
  const { items, total } = await repo.listTemplates(ctx.em, readableProjectsSql(ctx.caller, 'project_id'), list, kept);
  return { items: items.map((t) => ({ ...t, ...absent })), count: items.length, total };
}

export async function getTemplate(ctx: RequestContext, id: string) {
  return loadTemplate(ctx, id, 'experiment_template:read');
}

export async function updateTemplate(ctx: RequestContext, id: string, body: RequestBody<'updateExperimentTemplate'>) {
  await loadTemplate(ctx, id, 'experiment_template:update');
  return ctx.em.transactional(async (em) => {
    const row = await repo.updateTemplate(em, id, body);
    await indexTemplate({ ...ctx, em }, row);
    return row;
  });
}

export async function deleteTemplate(ctx: RequestContext, id: string) {
  await loadTemplate(ctx, id, 'experiment_template:delete');
  await ctx.em.transactional(async (em) => {
    await unindexEntity(em, 'experiment_template', id);
    await repo.deleteTemplate(em, id);
  });
  return { id, deleted: true };
}

// Protocol checks and experiment templates: saved protocols in their canonical UCP form,
// content-addressed per project (the same body always gives the same template).
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../context.ts';
import { invalid, notFound } from '../errors.ts';
import { namedRecordList, parseList } from '../listQuery.ts';
import * as repo from '../repositories/experimentTemplates.ts';
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

export function validateProtocol(body: { protocol: unknown }) {
  try {
    const parsed = parseProtocol(body.protocol);
    return { valid: true, format: parsed.format, protocol: parsed.ucp, input_references: inputReferences(parsed.ucp) };
  } catch (err) {
    if (err instanceof ProtocolError) return { valid: false, error: err.message, loc: err.path };
    throw err;
  }
}

export function protocolInputReferences(body: { protocol: unknown }): string[] {
  return inputReferences(protocolAt(body.protocol, ['body', 'protocol']).ucp);
}

const HEAVY = ['protocol_config', 'parameters_schema', 'source_protocol', 'experiment_parameters'] as const;

// Columns the Python client may ask for that Cellar does not keep: answered as null.
const NOT_KEPT = ['time_series_spec', 'metrics_spec', 'plot_options'] as const;

const TEMPLATE_LIST = namedRecordList({
  project_id: { kind: 'id' }, description: { kind: 'text' }, created_by: { kind: 'id' },
  created_by_email: { kind: 'text', sql: '(select u.email from users u where u.id = created_by)' },
});

function indexTemplate(ctx: RequestContext, t: repo.TemplateRow) {
  return indexEntity(ctx.em, { entity_type: 'experiment_template', entity_id: t.id, organization_id: t.organization_id, project_id: t.project_id, name: t.name, body: t.description });
}

export interface ParseToTemplateBody {
  protocol_experiment: { protocol: unknown; name: string; parameters_schema?: Record<string, unknown> | null; additional_content_files?: Record<string, unknown> | null };
  experiment_parameters?: Record<string, number> | null;
  project_id: string;
  description?: string | null;
}

export async function parseToTemplate(ctx: RequestContext, body: ParseToTemplateBody) {
  await requireProjectPermission(ctx, body.project_id, 'experiment_template:create');
  const pe = body.protocol_experiment;
  // A template's loops are capped by each batch's own max_backward_jumps (a long ageing
  // protocol may need more than the default); the unrolled size still counts here.
  const parsed = protocolAt(pe.protocol, ['body', 'protocol_experiment', 'protocol'], Infinity);
  const experimentParameters = body.experiment_parameters ?? {};
  const hash = sha256(canonicalJson({ protocol: parsed.ucp, name: pe.name, experiment_parameters: experimentParameters, parameters_schema: pe.parameters_schema ?? null }));
  const existing = await repo.findTemplateByHash(ctx.em, body.project_id, hash);
  if (existing) return { template_id: existing.id };
  const id = await ctx.em.transactional(async (em) => {
    const row = await repo.insertTemplate(em, {
      id: randomUUID(), organization_id: ctx.caller.organizationId, project_id: body.project_id, content_hash: hash, name: pe.name,
      description: body.description ?? null, source_protocol: parsed.source, protocol_config: parsed.ucp as unknown as Record<string, unknown>, parameters_schema: pe.parameters_schema ?? null,
      experiment_parameters: experimentParameters, input_references: inputReferences(parsed.ucp), created_by: ctx.caller.userId,
    });
    // A concurrent identical request won the insert: answer its template.
    if (!row) return (await repo.findTemplateByHash(em, body.project_id, hash))!.id;
    await indexTemplate({ ...ctx, em }, row);
    return row.id;
  });
  return { template_id: id };
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
  const requested = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean);
  const allowed: readonly string[] = [...HEAVY, ...NOT_KEPT];
  const unknown = requested.filter((c) => !allowed.includes(c));
  if (unknown.length) throw invalid(['query', 'include'], `unknown column(s) ${unknown.join(', ')}; allowed: ${allowed.join(', ')}`, 'enum', raw);
  const list = parseList(query, TEMPLATE_LIST);
  const kept = requested.filter((c) => (HEAVY as readonly string[]).includes(c));
  const absent = Object.fromEntries(requested.filter((c) => !kept.includes(c)).map((c) => [c, null]));
  const { items, total } = await repo.listTemplates(ctx.em, readableProjectsSql(ctx.caller, 'project_id'), list, kept);
  return { items: items.map((t) => ({ ...t, ...absent })), count: items.length, total };
}

export async function getTemplate(ctx: RequestContext, id: string) {
  return loadTemplate(ctx, id, 'experiment_template:read');
}

export async function updateTemplate(ctx: RequestContext, id: string, body: { name?: string; description?: string | null }) {
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

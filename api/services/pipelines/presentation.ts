// Pipelines and their elements as answered: times as ISO strings, terminal and failed flags,
// and the error strings the Python client reads.
import type * as repo from '../../../db/repositories/pipelines.ts';
import { isTerminal } from '../../../workflows/statuses.ts';

/** An optimization is a pipeline of one fit, served under /optimizations. */
export type PipelineKind = 'pipeline' | 'simple' | 'optimization';

const isFailed = (status: string) => status === 'failed' || status === 'canceled';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function presentPipeline(p: repo.PipelineRow) {
  const { kind: _k, started_at, finished_at, canceled_at, ...rest } = p;
  return {
    ...rest,
    started_at: iso(started_at),
    finished_at: iso(finished_at),
    canceled_at: iso(canceled_at),
    is_terminal: isTerminal(p.status),
    is_failed: isFailed(p.status),
    ...errorStrings(p.error_detail),
  };
}

/**
 * The Python client reports a failure with `error` and `error_code` strings: what failed and
 * where its diagnostic is (like error_detail, never the exception's message).
 */
function errorStrings(detail: unknown): { error: string | null; error_code: string | null } {
  if (!detail || typeof detail !== 'object') return { error: null, error_code: null };
  const d = detail as {
    exception_type?: string;
    error_code?: string;
    element_name?: string | null;
    diagnostic_url?: string;
  };
  const where = d.element_name ? ` in element ${d.element_name}` : '';
  const diagnostic = d.diagnostic_url ? ` (diagnostic: ${d.diagnostic_url})` : '';
  return { error: `${d.exception_type ?? 'error'}${where}${diagnostic}`, error_code: d.error_code ?? null };
}

export function presentElement(e: repo.ElementRow) {
  return {
    ...e,
    started_at: iso(e.started_at),
    finished_at: iso(e.finished_at),
    is_terminal: isTerminal(e.status),
    is_failed: isFailed(e.status),
  };
}

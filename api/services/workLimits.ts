// Bounds on what a request can hand to the workers. Temporal refuses a payload over 2 MB (and the
// request that carried it would fail late, as a 500 or a failed job), so whatever a request puts
// into a workflow or activity argument is measured here and refused at its field when too large.
import { invalid, type ValidationIssue } from '../errors.ts';

/** What a request may put into one workflow or activity argument: room is left for the envelope. */
export const MAX_WORKER_ARG_BYTES = 1_500_000;
/**
 * Mesh points per spatial variable; PyBaMM's defaults are 20-30, and 200 already gives a DFN 80,000 particle states.
 */
export const MAX_VAR_PTS = 200;
/** A drive cycle's [time, value] pairs: a 1 Hz cycle of almost 28 hours. */
export const MAX_DRIVE_CYCLE_POINTS = 100_000;

type Loc = (string | number)[];

/** JSON size in bytes of what a request sends to a worker, or an issue at `loc` when over the budget. */
export function workerArgIssue(value: unknown, loc: Loc, what: string): ValidationIssue | null {
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '');
  if (bytes <= MAX_WORKER_ARG_BYTES) return null;
  return {
    loc,
    type: 'too_long',
    ctx: { max_bytes: MAX_WORKER_ARG_BYTES, bytes },
    msg: `${what} is ${bytes} bytes as JSON; at most ${MAX_WORKER_ARG_BYTES} can be sent to the worker`,
  };
}

export function checkWorkerArg(value: unknown, loc: Loc, what: string): void {
  const issue = workerArgIssue(value, loc, what);
  if (issue) throw invalid(issue.loc, issue.msg, issue.type, undefined, issue.ctx);
}

/** The first var_pts count out of 1..MAX_VAR_PTS, as an issue at its spatial variable. */
export function varPtsIssue(varPts: Record<string, unknown>, loc: Loc): ValidationIssue | null {
  for (const [name, count] of Object.entries(varPts)) {
    if (!Number.isInteger(count) || (count as number) < 1) {
      return {
        loc: [...loc, name],
        msg: 'must be a positive integer',
        type: 'greater_than_equal',
        input: count,
        ctx: { ge: 1 },
      };
    }
    if ((count as number) > MAX_VAR_PTS) {
      return {
        loc: [...loc, name],
        msg: `must be at most ${MAX_VAR_PTS} mesh points`,
        type: 'less_than_equal',
        input: count,
        ctx: { le: MAX_VAR_PTS },
      };
    }
  }
  return null;
}

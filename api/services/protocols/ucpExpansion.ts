// The protocol's loops unrolled as the worker unrolls them (ucp_expand.py expand), counted without
// building the list: refused past max_backward_jumps or MAX_EXPANDED_STEPS.
import { ProtocolError, stepWhere, type Ucp } from './ucpValues.ts';

/** The worker's default cap on backward jumps and its limit on the unrolled protocol (ucp_expand.py). */
export const DEFAULT_MAX_BACKWARD_JUMPS = 1000;
export const MAX_EXPANDED_STEPS = 50_000;

/** The jumps past max_backward_jumps; `step` is the Goto that made one too many. */
export class JumpLimitError extends ProtocolError {
  readonly step: number;
  constructor(step: number, maxBackwardJumps: number) {
    super(
      ['steps', step, 'Goto', 'repeat'],
      `${stepWhere(step, 'Goto')}.repeat: ` +
        `the protocol needs more than max_backward_jumps=${maxBackwardJumps} backward jumps in total (nested loops ` +
        `included)`,
    );
    this.step = step;
  }
}

/**
 * Counts what ucp_expand.py expand() unrolls, step for step, without building the list, and
 * refuses what it refuses: more than `maxBackwardJumps` jumps (JumpLimitError) or more than
 * MAX_EXPANDED_STEPS simulated steps, whichever the walk meets first. A Goto jumps back
 * `repeat` times and re-arms when passed, so nested loops multiply. Each jump lands on a
 * non-Goto step, and each Goto is passed only after one of its jumps, so the walk stays
 * within a few times MAX_EXPANDED_STEPS iterations.
 */
export function countExpansion(
  ucp: Ucp,
  maxBackwardJumps: number = DEFAULT_MAX_BACKWARD_JUMPS,
): { steps: number; jumps: number } {
  const gotos = ucp.steps.map((s) =>
    s.Goto ? { step: s.Goto.step as number, repeat: s.Goto.repeat as number } : undefined,
  );
  const remaining = new Map<number, number>();
  let planned = 0;
  let jumps = 0;
  let position = 0;
  while (position < gotos.length) {
    const goto = gotos[position];
    if (!goto) {
      planned += 1;
      if (planned > MAX_EXPANDED_STEPS)
        throw new ProtocolError(['steps'], `steps: the loops unroll into more than ${MAX_EXPANDED_STEPS} steps`);
      position += 1;
      continue;
    }
    const left = remaining.get(position) ?? goto.repeat;
    if (left === 0) {
      remaining.delete(position);
      position += 1;
      continue;
    }
    remaining.set(position, left - 1);
    jumps += 1;
    if (jumps > maxBackwardJumps) throw new JumpLimitError(position, maxBackwardJumps);
    position = goto.step;
  }
  return { steps: planned, jumps };
}

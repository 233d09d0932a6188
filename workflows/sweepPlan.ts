// The arithmetic of a sweep, apart from Temporal: how many points the next chunk gets, and
// what the batch has done so far. Pure functions, so the workflow and the tests share them.

/** A point that failed, as operators see it in the workflow's query and result. */
export interface SweepFailure {
  simulation_id: string;
  error_code: string;
  error: string;
}

/** What one chunk activity answers (the Python worker's `solveChunk`). */
export interface ChunkOutcome {
  completed: number;
  failed: number;
  /** Points skipped because their jobs were canceled before or while they ran. */
  canceled: number;
  /** Wall seconds per point the chunk ran (solved or failed), model builds left out; null when it ran none. */
  point_seconds: number | null;
  /** The first failures of the chunk (the counts are complete, the list is bounded). */
  failures: SweepFailure[];
}

export interface SweepCounts {
  completed: number;
  failed: number;
  canceled: number;
  /** Completed at once from an identical stored result (`force_rerun: false`). */
  reused: number;
}

/** Carried from run to run across continue-as-new; small whatever the batch size. */
export interface SweepState {
  /** Chunks started so far: the next chunk's number. */
  chunks: number;
  /** Measured seconds per point, smoothed; null until a chunk has reported. */
  pointSeconds: number | null;
  counts: SweepCounts;
  /** The first MAX_FAILURES_KEPT failures; `counts.failed` has them all. */
  failures: SweepFailure[];
}

/** Work per chunk: long enough that scheduling is a small share, short enough to balance. */
export const TARGET_CHUNK_SECONDS = 1.5;
/** A chunk whose cost is not known yet: a few points to measure it on. */
export const PROBE_POINTS = 2;
/** Ids travel in the activity's input: 2,000 of them are about 80 KB, far below Temporal's 2 MB. */
export const MAX_CHUNK_POINTS = 2000;
export const MAX_FAILURES_KEPT = 100;

export function initialSweepState(): SweepState {
  return { chunks: 0, pointSeconds: null, counts: { completed: 0, failed: 0, canceled: 0, reused: 0 }, failures: [] };
}

/**
 * Points for the next chunk. Unmeasured: a probe. Measured: about TARGET_CHUNK_SECONDS of work,
 * but never more than an even share of what is left among the slots, so the last chunks end
 * together instead of one core finishing alone.
 */
export function nextChunkSize(state: SweepState, remaining: number, slots: number): number {
  if (remaining <= 0) return 0;
  if (state.pointSeconds === null) return Math.min(PROBE_POINTS, remaining);
  const target = Math.max(1, Math.floor(TARGET_CHUNK_SECONDS / Math.max(state.pointSeconds, 1e-6)));
  const share = Math.ceil(remaining / Math.max(1, slots));
  return Math.max(1, Math.min(target, share, MAX_CHUNK_POINTS, remaining));
}

/** The state once a chunk has reported. */
export function recordChunk(state: SweepState, outcome: ChunkOutcome): SweepState {
  const measured = outcome.point_seconds;
  const pointSeconds =
    measured === null || !(measured > 0)
      ? state.pointSeconds
      : state.pointSeconds === null
        ? measured
        : 0.5 * state.pointSeconds + 0.5 * measured;
  return {
    chunks: state.chunks,
    pointSeconds,
    counts: {
      ...state.counts,
      completed: state.counts.completed + outcome.completed,
      failed: state.counts.failed + outcome.failed,
      canceled: state.counts.canceled + outcome.canceled,
    },
    failures: [...state.failures, ...outcome.failures].slice(0, MAX_FAILURES_KEPT),
  };
}

/** The batch's live summary in the Web UI (Temporal markdown). */
export function sweepDetails(state: SweepState, size: number): string {
  const { completed, failed, canceled, reused } = state.counts;
  const done = completed + reused;
  const remaining = Math.max(0, size - done - failed - canceled);
  const rate = state.pointSeconds === null ? '' : `, about ${(state.pointSeconds * 1000).toFixed(1)} ms per point`;
  const lines = [
    `**${done} done** (${reused} reused) · **${failed} failed** · ` +
      `${canceled} canceled · ${remaining} remaining of ` +
      `${size}${rate}`,
  ];
  if (state.failures.length) {
    lines.push('', 'First failures (query `failures` for the list):');
    for (const f of state.failures.slice(0, 5))
      lines.push(`- \`${f.simulation_id}\` ${f.error_code}: ${f.error.slice(0, 200)}`);
  }
  return lines.join('\n');
}

// A batch of simulations as one workflow: its design points are solved in chunks, each chunk
// one activity on the Python worker's queue that solves its points one after another on a
// built model and records their outcomes in bulk. Chunks are sized by measured cost (about
// 1.5 s of work each, after a small probe), as many at once as the workers have slots.
//
// Operators follow it in the Web UI: search attributes (organization, project, batch,
// status), a live summary (done / failed / remaining), each chunk labelled with its points, and
// the query `failures` (or the result) naming the simulations that failed and why.
import {
  ActivityCancellationType,
  CancellationScope,
  condition,
  continueAsNew,
  defineQuery,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { SimulationActivities, SweepWorkerActivities } from '../activities/simulations.ts';
import { legacyBatch } from './legacy/simulationBatchChildren.ts';
import { statusAttribute } from './searchAttributes.ts';
import { LOCAL_DATABASE_STEP, UNTIL_DONE } from './retryPolicies.ts';
import {
  initialSweepState,
  nextChunkSize,
  recordChunk,
  sweepDetails,
  type SweepFailure,
  type SweepState,
} from './sweepPlan.ts';

const db = proxyLocalActivities<SimulationActivities>(LOCAL_DATABASE_STEP);

export interface SimulationBatchInput {
  batchId: string;
  organizationId: string;
  projectId: string | null;
  simulationTaskQueue: string;
  /** Position (seq) of the last simulation handed to a chunk by earlier runs. */
  afterSeq: number;
  /** Simulations in the batch (for the summary). */
  size?: number;
  /** Chunks in flight at once: the Python worker slots this batch may use. */
  slots?: number;
  /** Carried across continue-as-new. */
  sweep?: SweepState;
  /** Chunks a run starts before it continues as new (tests make it small). */
  chunksPerRun?: number;
  /** Legacy runs only (one child workflow per simulation). */
  window?: number;
  perRun?: number;
}

export interface SimulationBatchResult {
  completed: number;
  failed: number;
  canceled: number;
  reused: number;
  /** The first failures (simulation, code, message); `failed` counts them all. */
  failures: SweepFailure[];
}

export const failuresQuery = defineQuery<{ failed: number; failures: SweepFailure[] }>('failures');
export const progressQuery = defineQuery<SimulationBatchResult & { remaining: number }>('progress');

/** Points fetched from the database at a time (ids only). */
const PAGE = 2000;
/** Chunks one run starts before it continues as new, so that history stays small. */
const CHUNKS_PER_RUN = 400;

export async function simulationBatch(input: SimulationBatchInput): Promise<unknown> {
  try {
    // Batches begun before sweeps ran in chunks finish the way they began.
    return patched('chunked-sweep') ? await sweep(input) : await legacyBatch(input);
  } catch (err) {
    if (isCancellation(err)) upsertSearchAttributes([statusAttribute('canceled')]);
    throw err;
  }
}

async function sweep(input: SimulationBatchInput): Promise<SimulationBatchResult> {
  const size = input.size ?? 0;
  const slots = Math.max(1, input.slots ?? 2);
  let state = input.sweep ?? initialSweepState();
  const result = (): SimulationBatchResult => ({ ...state.counts, failures: state.failures });
  const remainingCount = () =>
    Math.max(0, size - state.counts.completed - state.counts.reused - state.counts.failed - state.counts.canceled);
  setHandler(failuresQuery, () => ({ failed: state.counts.failed, failures: state.failures }));
  setHandler(progressQuery, () => ({ ...result(), remaining: remainingCount() }));
  const show = () => setCurrentDetails(sweepDetails(state, size));

  if (input.afterSeq === 0 && !input.sweep) await db.indexBatchSimulations(input.batchId);
  show();

  // Ids waiting for a chunk, in seq order, and whether the database has more after them.
  const buffer: { id: string; seq: number }[] = [];
  let afterSeq = input.afterSeq;
  let fetchedSeq = input.afterSeq;
  let more = true;
  let pending = 0; // points after the buffer not yet fetched, as last counted
  let inFlight = 0;
  let startedThisRun = 0;
  let prefix = '';

  const fill = async (wanted: number) => {
    while (more && buffer.length < wanted) {
      const page = await db.claimSweepPoints(input.batchId, fetchedSeq, PAGE);
      prefix = page.outputPrefix;
      if (page.reused) {
        state = { ...state, counts: { ...state.counts, reused: state.counts.reused + page.reused } };
        show();
      }
      buffer.push(...page.points);
      if (page.lastSeq !== null) fetchedSeq = page.lastSeq;
      pending = page.pendingAfter;
      more = page.pendingAfter > 0;
    }
  };

  const startChunk = (ids: string[], first: number, last: number) => {
    const chunk = state.chunks;
    state = { ...state, chunks: chunk + 1 };
    inFlight++;
    startedThisRun++;
    const worker = proxyActivities<SweepWorkerActivities>({
      taskQueue: input.simulationTaskQueue,
      // Liveness is the heartbeat: a worker that dies is noticed within this.
      heartbeatTimeout: '12 seconds',
      startToCloseTimeout: '7 days',
      cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
      // A retry resumes with the points not yet recorded. Per-point failures never fail the
      // chunk; what does fail it (storage or database down, a worker killed) is retried.
      retry: { ...UNTIL_DONE, nonRetryableErrorTypes: ['CONFIGURATION_ERROR'] },
      summary: `chunk ${chunk}: ${ids.length} point${ids.length === 1 ? '' : 's'}, #${first}–#${last}`,
    });
    void worker.solveChunk({ batch_id: input.batchId, chunk, output_prefix: prefix, simulation_ids: ids }).then(
      (outcome) => {
        inFlight--;
        state = recordChunk(state, outcome);
        show();
      },
      () => {
        inFlight--; // canceled with the batch: the cancellation itself is handled below
      },
    );
  };

  try {
    for (;;) {
      await fill(PAGE);
      const left = buffer.length + pending;
      if (!left) break;
      if (startedThisRun >= (input.chunksPerRun ?? CHUNKS_PER_RUN) || workflowInfo().continueAsNewSuggested) break;
      const n = nextChunkSize(state, left, slots);
      const taken = buffer.splice(0, n);
      afterSeq = taken[taken.length - 1]!.seq;
      startChunk(
        taken.map((p) => p.id),
        taken[0]!.seq,
        afterSeq,
      );
      // Wait for a free slot, and after a probe for its measurement before sizing the next.
      await condition(
        () => inFlight < slots && (state.pointSeconds !== null || inFlight === 0 || state.chunks < slots),
      );
    }
    await condition(() => inFlight === 0);
    if (more || buffer.length) {
      await continueAsNew<typeof simulationBatch>({ ...input, afterSeq, sweep: state });
    }
    const end = await db.finishSweep(input.batchId, 'completed');
    // The jobs' own count: points canceled before any chunk took them were never reported.
    const { completed, failed, canceled } = end.outcomes;
    state = {
      ...state,
      counts: {
        completed: Math.max(0, completed - state.counts.reused),
        failed,
        canceled,
        reused: state.counts.reused,
      },
    };
    show();
    upsertSearchAttributes([statusAttribute(state.counts.failed ? 'completed_with_failures' : 'completed')]);
    return result();
  } catch (err) {
    if (isCancellation(err)) {
      // Every open job ends canceled at once (a chunk then records none of its later outcomes);
      // once every chunk has acknowledged the cancel (or its worker was found dead), nothing
      // writes any more, and packs that no simulation names are removed.
      await CancellationScope.nonCancellable(async () => {
        await db.settleSweepJobs(input.batchId);
        await condition(() => inFlight === 0);
        await db.finishSweep(input.batchId, 'canceled');
      });
    }
    throw err;
  }
}

// The sweep workflow's logic with stub activities (no database, no Python): how it sizes and
// hands out chunks, continues as new, reports failures, and settles a cancel. The real
// Temporal server runs it; end-to-end suites (simulation*.test.ts) cover the real activities.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { Context } from '@temporalio/activity';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { ChunkRequest, SweepEnd } from '../activities/simulations.ts';
import type { ClaimedPage } from '../db/sweeps.ts';
import type { SimulationBatchInput, SimulationBatchResult } from '../workflows/simulationBatch.ts';
import { PROBE_POINTS, type ChunkOutcome } from '../workflows/sweepPlan.ts';

/** An in-memory batch: its points and what stub chunks did with them. */
class FakeBatch {
  status = new Map<string, string>();
  solvedTimes = new Map<string, number>();
  chunks: { chunk: number; size: number }[] = [];
  finished: string[] = [];
  chunksRunning = 0;
  settledAt = 0;
  readonly ids: string[];
  readonly failing: Set<string>;
  constructor(ids: string[], failing = new Set<string>()) {
    this.ids = ids;
    this.failing = failing;
    for (const id of ids) this.status.set(id, 'pending');
  }

  claim(afterSeq: number, limit: number): ClaimedPage {
    const open = this.ids
      .map((id, i) => ({ id, seq: i + 1 }))
      .filter((p) => p.seq > afterSeq && this.status.get(p.id) === 'pending');
    const page = open.slice(0, limit);
    return {
      points: page,
      lastSeq: page.at(-1)?.seq ?? null,
      reused: 0,
      pendingAfter: open.length - page.length,
      outputPrefix: 'orgs/x/simulation-batches/b/',
    };
  }

  solve(request: ChunkRequest, pointSeconds: number): ChunkOutcome {
    this.chunks.push({ chunk: request.chunk, size: request.simulation_ids.length });
    const outcome: ChunkOutcome = { completed: 0, failed: 0, canceled: 0, point_seconds: pointSeconds, failures: [] };
    for (const id of request.simulation_ids) {
      this.solvedTimes.set(id, (this.solvedTimes.get(id) ?? 0) + 1);
      if (this.failing.has(id)) {
        this.status.set(id, 'failed');
        outcome.failed++;
        outcome.failures.push({ simulation_id: id, error_code: 'SOLVER_ERROR', error: 'the solver failed' });
      } else {
        this.status.set(id, 'completed');
        outcome.completed++;
      }
    }
    return outcome;
  }

  end(how: string): SweepEnd {
    this.finished.push(how);
    const count = (s: string) => [...this.status.values()].filter((v) => v === s).length;
    for (const [id, s] of this.status)
      if (s === 'pending') this.status.set(id, how === 'completed' ? 'failed' : 'canceled');
    return {
      settled: 0,
      orphanPacks: 0,
      outcomes: { completed: count('completed'), failed: count('failed'), canceled: count('canceled') },
    };
  }
}

let connection: NativeConnection;
let client: Client;
const batches = new Map<string, FakeBatch>();
let pointSeconds = 0.001;
let blockChunks = false;
const queue = `sweep-wf-${randomUUID().slice(0, 8)}`;
const solverQueue = `${queue}-py`;
let workers: Worker[] = [];
let running: Promise<void>[] = [];

beforeAll(async () => {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // installed by another suite in this process
  }
  connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
  const orchestration = await Worker.create({
    connection,
    taskQueue: queue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities: {
      indexBatchSimulations: async () => undefined,
      claimSweepPoints: async (batchId: string, afterSeq: number, limit: number) =>
        batches.get(batchId)!.claim(afterSeq, limit),
      finishSweep: async (batchId: string, how: string) => batches.get(batchId)!.end(how),
      settleSweepJobs: async (batchId: string) => {
        const batch = batches.get(batchId)!;
        batch.settledAt = Date.now();
        batch.end('settled');
        return 0;
      },
    },
  });
  const solver = await Worker.create({
    connection,
    taskQueue: solverQueue,
    maxHeartbeatThrottleInterval: '1 second', // as the Python worker: a cancel arrives within a second
    activities: {
      solveChunk: async (request: ChunkRequest): Promise<ChunkOutcome> => {
        if (blockChunks) {
          // A worker that dies while solving: it heartbeats, then falls silent and never
          // answers (the heartbeat timeout notices it).
          const batch = batches.get(request.batch_id)!;
          batch.chunksRunning++;
          Context.current().heartbeat({ job_id: null });
          await new Promise((r) => setTimeout(r, 15_000));
          batch.chunksRunning--;
          throw new Error('a dead worker');
        }
        return batches.get(request.batch_id)!.solve(request, pointSeconds);
      },
    },
  });
  workers = [orchestration, solver];
  running = workers.map((w) => w.run());
});

afterAll(async () => {
  for (const w of workers) w.shutdown();
  await Promise.allSettled(running);
  await connection?.close();
  await client?.connection.close();
});

async function startBatch(points: number, extra: Partial<SimulationBatchInput> = {}, failing: string[] = []) {
  const batchId = randomUUID();
  const ids = Array.from({ length: points }, () => randomUUID());
  const batch = new FakeBatch(ids, new Set(failing.length ? failing : []));
  batches.set(batchId, batch);
  const input: SimulationBatchInput = {
    batchId,
    organizationId: randomUUID(),
    projectId: null,
    simulationTaskQueue: solverQueue,
    afterSeq: 0,
    size: points,
    slots: 2,
    ...extra,
  };
  const handle = await client.workflow.start('simulationBatch', {
    taskQueue: queue,
    workflowId: `batch-${batchId}`,
    args: [input],
  });
  return { batch, handle, ids };
}

describe('the sweep workflow', () => {
  const solvesEveryPointOnceTitle =
    'solves every point once: two probes, then chunks sized by the measured cost and shared ' + 'among the slots';
  it(solvesEveryPointOnceTitle, async () => {
    pointSeconds = 0.001;
    const { batch, handle, ids } = await startBatch(1000, {}, []);
    const result = (await handle.result()) as SimulationBatchResult;
    expect(result).toMatchObject({ completed: 1000, failed: 0, canceled: 0, reused: 0, failures: [] });
    expect([...batch.solvedTimes.values()].every((n) => n === 1)).toBe(true);
    expect(batch.solvedTimes.size).toBe(ids.length);
    const sizes = batch.chunks.sort((a, b) => a.chunk - b.chunk).map((c) => c.size);
    expect(sizes.slice(0, 2)).toEqual([PROBE_POINTS, PROBE_POINTS]);
    // 1 ms a point targets 1,500-point chunks; no chunk takes more than half of what was left.
    expect(sizes[2]).toBe(Math.ceil((1000 - 2 * PROBE_POINTS) / 2));
    // Then each free slot takes at most half of what is left, so the last chunks end together.
    for (let i = 3; i < sizes.length; i++) expect(sizes[i]).toBeLessThanOrEqual(sizes[i - 1]!);
    expect(sizes.length).toBeLessThan(16);
    expect(batch.finished).toEqual(['completed']);
    // The Web UI's live summary of the batch (its "current details").
    const meta = await handle.query<{ currentDetails: string }>('__temporal_workflow_metadata');
    expect(meta.currentDetails).toContain('**1000 done**');
    expect(meta.currentDetails).toContain('0 remaining of 1000');
  });

  it('keeps history small by continuing as new, and carries counts and failures across runs', async () => {
    pointSeconds = 2; // slower than a chunk's target: one point per chunk
    const failing: string[] = [];
    const { batch, handle, ids } = await startBatch(30, { chunksPerRun: 8 }, failing);
    failing.push(ids[3]!, ids[17]!);
    for (const id of failing) batch.failing.add(id);
    const result = (await handle.result()) as SimulationBatchResult;
    expect(result).toMatchObject({ completed: 28, failed: 2, canceled: 0 });
    expect(result.failures.map((f) => f.simulation_id).sort()).toEqual([...failing].sort());
    expect(batch.chunks).toHaveLength(2 + (30 - 2 * PROBE_POINTS)); // two probes, then one point a chunk
    expect([...batch.solvedTimes.values()].every((n) => n === 1)).toBe(true);
    // Four runs of at most eight chunks each.
    const first = await client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
  });

  it('answers the failures query while it runs and when done', async () => {
    pointSeconds = 0.001;
    const { batch, handle, ids } = await startBatch(50);
    batch.failing.add(ids[10]!);
    await handle.result();
    const failures = await handle.query<{ failed: number; failures: { simulation_id: string }[] }>('failures');
    expect(failures.failed).toBe(1);
    expect(failures.failures[0]!.simulation_id).toBe(ids[10]);
  });

  const onCancelEndsEveryTitle =
    'on cancel ends every job at once, then waits for its chunks (even from a dead worker) ' + 'before cleaning up';
  it(onCancelEndsEveryTitle, async () => {
    blockChunks = true;
    try {
      const { batch, handle } = await startBatch(20);
      await expect.poll(() => batch.chunksRunning, { timeout: 20_000 }).toBe(2);
      const canceledAt = Date.now();
      await handle.cancel();
      // Every job ended within seconds, though the chunks' worker never answers.
      await expect.poll(() => batch.settledAt, { timeout: 5_000 }).toBeGreaterThan(0);
      expect(batch.settledAt - canceledAt).toBeLessThan(5_000);
      expect([...batch.status.values()].every((s) => s === 'canceled')).toBe(true);
      // The clean-up waits until the heartbeat timeout has declared the chunks lost.
      expect(batch.finished).toEqual(['settled']);
      const err = await handle.result().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect(batch.finished).toEqual(['settled', 'canceled']);
      expect(Date.now() - canceledAt).toBeGreaterThan(10_000);
    } finally {
      blockChunks = false;
    }
  });
});

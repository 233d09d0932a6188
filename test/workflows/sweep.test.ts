// The sweep workflow (simulationBatch) with stub activities on the test server: a chunk whose
// worker dies is retried once its 12 s heartbeat timeout passes (real time: the test server
// does not skip time while an activity runs), and a cancel (the batch cancel) settles the jobs
// first and cleans up once the chunks have acknowledged it. test/simulationBatchWorkflow.test.ts
// covers scheduling, continue-as-new and a cancel with a dead worker on the dev server (it
// asserts that real time passes for the heartbeat timeout, so it stays there).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WorkflowFailedError } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import type { ChunkRequest, SimulationActivities, SweepWorkerActivities } from '../../activities/simulations.ts';
import type { SimulationBatchResult } from '../../workflows/simulationBatch.ts';
import { simulationWorkflowIds } from '../../workflows/simulationIds.ts';
import { workflowCall } from '../../workflows/registry.ts';
import { useTimeSkipping, withWorker } from './timeSkipping.ts';

const server = useTimeSkipping();

describe('the sweep workflow', () => {
  const retriesAChunkWhoseTitle =
    'retries a chunk whose worker fell silent once its heartbeat timeout passes, and solves ' + 'each point once';
  it(retriesAChunkWhoseTitle, async () => {
    const batchId = randomUUID();
    const ids: string[] = Array.from({ length: 12 }, () => randomUUID());
    const solved = new Map<string, number>();
    const pending = new Set(ids);
    let silent = 0;
    const db: Pick<
      SimulationActivities,
      'indexBatchSimulations' | 'claimSweepPoints' | 'finishSweep' | 'settleSweepJobs'
    > = {
      indexBatchSimulations: async () => undefined,
      claimSweepPoints: async (_batch, afterSeq, limit) => {
        const open = ids.map((id, i) => ({ id, seq: i + 1 })).filter((p) => p.seq > afterSeq && pending.has(p.id));
        const page = open.slice(0, limit);
        return {
          points: page,
          lastSeq: page.at(-1)?.seq ?? null,
          reused: 0,
          pendingAfter: open.length - page.length,
          outputPrefix: 'orgs/o/b/',
        };
      },
      finishSweep: async () => ({
        settled: 0,
        orphanPacks: 0,
        outcomes: { completed: solved.size, failed: 0, canceled: 0 },
      }),
      settleSweepJobs: async () => 0,
    };
    const solver: SweepWorkerActivities = {
      solveChunk: async (request: ChunkRequest) => {
        // The first attempt of the first chunk: a worker that heartbeats once, then dies.
        if (request.chunk === 0 && Context.current().info.attempt === 1) {
          silent++;
          Context.current().heartbeat();
          await Context.current().cancelled.catch(() => undefined);
          throw new Error('a dead worker');
        }
        for (const id of request.simulation_ids) {
          solved.set(id, (solved.get(id) ?? 0) + 1);
          pending.delete(id);
        }
        return { completed: request.simulation_ids.length, failed: 0, canceled: 0, point_seconds: 0.01, failures: [] };
      },
    };
    const solverQueue = `solver-${randomUUID().slice(0, 8)}`;
    const result = await withWorker(
      server.env,
      db,
      async (taskQueue) => {
        const { workflowType, args } = workflowCall('simulationBatch', {
          batchId,
          organizationId: randomUUID(),
          projectId: null,
          simulationTaskQueue: solverQueue,
          afterSeq: 0,
          size: ids.length,
          slots: 2,
        });
        return server.env.client.workflow.execute(workflowType, {
          taskQueue,
          workflowId: simulationWorkflowIds.batch(batchId),
          args,
        });
      },
      [{ taskQueue: solverQueue, activities: solver }],
    );
    expect(silent).toBe(1);
    expect(result as SimulationBatchResult).toMatchObject({ completed: 12, failed: 0, canceled: 0 });
    expect([...solved.values()]).toEqual(Array(12).fill(1));
    expect(solved.size).toBe(12);
  });

  it('on cancel ends every job at once, waits for each running chunk to acknowledge, then cleans up', async () => {
    const batchId = randomUUID();
    const ids: string[] = Array.from({ length: 20 }, () => randomUUID());
    const events: string[] = [];
    let running = 0;
    const db: Pick<
      SimulationActivities,
      'indexBatchSimulations' | 'claimSweepPoints' | 'finishSweep' | 'settleSweepJobs'
    > = {
      indexBatchSimulations: async () => undefined,
      claimSweepPoints: async (_batch, afterSeq, limit) => {
        const open = ids.map((id, i) => ({ id, seq: i + 1 })).filter((p) => p.seq > afterSeq);
        const page = open.slice(0, limit);
        return {
          points: page,
          lastSeq: page.at(-1)?.seq ?? null,
          reused: 0,
          pendingAfter: open.length - page.length,
          outputPrefix: 'orgs/o/b/',
        };
      },
      settleSweepJobs: async () => {
        events.push('jobs settled');
        return ids.length;
      },
      finishSweep: async (_batch, how) => {
        events.push(`finished ${how}`);
        return { settled: 0, orphanPacks: 0, outcomes: { completed: 0, failed: 0, canceled: ids.length } };
      },
    };
    const solver: SweepWorkerActivities = {
      // Chunks that solve until they hear of the cancel at a heartbeat.
      solveChunk: async (request) => {
        running++;
        try {
          for (;;) {
            Context.current().heartbeat();
            await Context.current().sleep(100);
          }
        } catch (err) {
          events.push(`chunk ${request.chunk} acknowledged`);
          throw err;
        } finally {
          running--;
        }
      },
    };
    const solverQueue = `solver-${randomUUID().slice(0, 8)}`;
    const err = await withWorker(
      server.env,
      db,
      async (taskQueue) => {
        const { workflowType, args } = workflowCall('simulationBatch', {
          batchId,
          organizationId: randomUUID(),
          projectId: null,
          simulationTaskQueue: solverQueue,
          afterSeq: 0,
          size: ids.length,
          slots: 2,
        });
        const handle = await server.env.client.workflow.start(workflowType, {
          taskQueue,
          workflowId: simulationWorkflowIds.batch(batchId),
          args,
        });
        await expect.poll(() => running, { timeout: 20_000 }).toBe(2);
        await handle.cancel();
        return handle.result().catch((e: unknown) => e);
      },
      [{ taskQueue: solverQueue, activities: solver }],
    );
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect((err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
    expect(events[0]).toBe('jobs settled');
    expect(events.slice(1, 3).sort()).toEqual(['chunk 0 acknowledged', 'chunk 1 acknowledged']);
    expect(events.slice(3)).toEqual(['finished canceled']);
  });
});

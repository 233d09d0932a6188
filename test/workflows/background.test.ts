// The background workflows with stub activities: the bulk pipeline cancel, the scheduled retry
// of failed elements, the purge of stored objects and the stop of a deleted project's work.
// Their waits (the purge's 150 s for stragglers, the stop's 3 s for visibility) pass on the
// test server's clock.
import { describe, expect, it } from 'vitest';
import type { PipelineActivities } from '../../activities/pipelines.ts';
import type { ProjectActivities } from '../../activities/projects.ts';
import type { StorageActivities } from '../../activities/storage.ts';
import { workflowCall, type WorkflowCall, type WorkflowName } from '../../workflows/registry.ts';
import { useTimeSkipping, withWorker } from './timeSkipping.ts';

const server = useTimeSkipping();

/** Runs one workflow by name to its result on a worker with these activities. */
function execute<N extends WorkflowName>({ workflowType, args }: WorkflowCall<N>, activities: object) {
  return withWorker(server.env, activities, (taskQueue) =>
    server.env.client.workflow.execute(workflowType, {
      taskQueue,
      workflowId: `${workflowType}-${crypto.randomUUID()}`,
      args,
    }),
  );
}

const ids = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}-${i}`);

describe('the bulk pipeline cancel', () => {
  it('stops the pipelines in slices of 50 and counts the element workflows it terminated', async () => {
    const slices: string[][] = [];
    const activities: Pick<PipelineActivities, 'stopPipelineWorkflows'> = {
      stopPipelineWorkflows: async (pipelineIds) => {
        slices.push(pipelineIds);
        return { terminated: pipelineIds.length % 7 };
      },
    };
    const pipelineIds = ids(120, 'p');
    const result = await execute(workflowCall('cancelPipelines', { pipelineIds }), activities);
    expect(result).toEqual({ pipelines: 120, terminated: (50 % 7) + (50 % 7) + (20 % 7) });
    expect(slices.map((s) => s.length).sort()).toEqual([20, 50, 50]);
    expect(slices.flat().sort()).toEqual([...pipelineIds].sort());
  });

  it('retries a slice whose activity failed, so every pipeline is stopped', async () => {
    let calls = 0;
    const activities: Pick<PipelineActivities, 'stopPipelineWorkflows'> = {
      stopPipelineWorkflows: async () => {
        if (++calls < 3) throw new Error('Temporal unreachable');
        return { terminated: 1 };
      },
    };
    expect(await execute(workflowCall('cancelPipelines', { pipelineIds: ['a'] }), activities)).toEqual({
      pipelines: 1,
      terminated: 1,
    });
    expect(calls).toBe(3);
  });
});

describe('the scheduled retry of failed elements', () => {
  it('claims and restarts pages of 200 until a page comes back short', async () => {
    const claims: unknown[][] = [];
    const pages = [200, 200, 13];
    const activities: Pick<PipelineActivities, 'claimAndRestartPipelines'> = {
      claimAndRestartPipelines: async (...args) => {
        claims.push(args);
        return pages.shift()!;
      },
    };
    const result = await execute(
      workflowCall('retryFailedElements', { taskQueue: 'q', maxAttempts: 3, backoffSeconds: 60 }),
      activities,
    );
    expect(result).toEqual({ restarted: 413 });
    expect(claims).toEqual([
      [3, 60, 200],
      [3, 60, 200],
      [3, 60, 200],
    ]);
  });
});

describe('the purge of stored objects', () => {
  function storage(terminated: number) {
    const calls: string[] = [];
    const activities: Pick<StorageActivities, 'deleteObjectsUnder'> & Pick<ProjectActivities, 'terminateWorkflows'> = {
      deleteObjectsUnder: async (prefix) => {
        calls.push(`delete ${prefix} at ${Math.round((await server.env.currentTimeMs()) / 1000)}`);
        return 3;
      },
      terminateWorkflows: async (workflowIds, reason) => {
        calls.push(`terminate ${workflowIds.join(',')} (${reason})`);
        return { terminated };
      },
    };
    return { calls, activities };
  }

  it('deletes once when nothing is writing there', async () => {
    const s = storage(0);
    expect(await execute(workflowCall('purgeObjects', { prefix: 'orgs/o/projects/p/' }), s.activities)).toEqual({
      deleted: 3,
    });
    expect(s.calls).toHaveLength(1);
  });

  it('ends the writers first, and deletes again once a terminated writer can no longer write', async () => {
    const s = storage(1);
    const result = await execute(
      workflowCall('purgeObjects', { prefix: 'orgs/o/m/', stopWorkflowIds: ['measurement-m-upload'] }),
      s.activities,
    );
    expect(result).toEqual({ deleted: 6 });
    expect(s.calls[0]).toBe('terminate measurement-m-upload (its data was deleted)');
    const seconds = s.calls.slice(1).map((c) => Number(/at (\d+)$/.exec(c)![1]));
    expect(seconds).toHaveLength(2);
    // The second sweep waits out the straggler window (150 s of the server's clock).
    expect(seconds[1]! - seconds[0]!).toBeGreaterThanOrEqual(150);
  });

  it('deletes once when the writers had already ended', async () => {
    const s = storage(0);
    expect(
      await execute(
        workflowCall('purgeObjects', { prefix: 'orgs/o/m/', stopWorkflowIds: ['measurement-m-upload'] }),
        s.activities,
      ),
    ).toEqual({ deleted: 3 });
    expect(s.calls).toHaveLength(2);
  });
});

describe("the stop of a deleted project's work", () => {
  it('terminates the named workflows in slices of 100, then what Temporal still lists for the project', async () => {
    const terminated: string[][] = [];
    const activities: Pick<ProjectActivities, 'terminateWorkflows' | 'runningProjectWorkflows'> = {
      terminateWorkflows: async (workflowIds, reason) => {
        expect(reason).toBe('project deleted');
        terminated.push(workflowIds);
        return { terminated: workflowIds.length };
      },
      runningProjectWorkflows: async (projectId) => (projectId === 'p1' ? ['late-child'] : []),
    };
    const workflowIds = ids(250, 'wf');
    const result = await execute(workflowCall('stopProjectWork', { projectId: 'p1', workflowIds }), activities);
    expect(result).toEqual({ terminated: 251 });
    expect(terminated.map((s) => s.length)).toEqual([100, 100, 50, 1]);
    expect(terminated.flat()).toEqual([...workflowIds, 'late-child']);
  });
});

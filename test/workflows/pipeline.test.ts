// The pipeline workflow and its element child workflows with stub activities: elements run in
// order, each given the values produced before it; completed ones are not run again; a
// failure stops the pipeline; worker failures are retried before the element fails; a cancel
// ends it at once.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { FitRequest, FitWorkerActivities, PipelineElementState } from '../../activities/pipelineRequests.ts';
import type { PipelineActivities } from '../../activities/pipelines.ts';
import type { pipeline } from '../../workflows/pipeline.ts';
import { CANCEL_SIGNAL, fitTaskQueue, pipelineWorkflowIds, type PipelineInput } from '../../workflows/pipelineIds.ts';
import type { WorkStatus } from '../../workflows/statuses.ts';
import { useTimeSkipping, withWorker } from './timeSkipping.ts';

const server = useTimeSkipping();

type Db = Pick<
  PipelineActivities,
  'beginPipeline' | 'beginElement' | 'completeElement' | 'failElement' | 'cancelElement' | 'finishPipeline'
>;

/** An in-memory pipeline: what the workflows asked of the database, in order. */
function fakePipeline(elements: PipelineElementState[]) {
  const calls: string[] = [];
  const given: Record<string, unknown> = {};
  const finished: unknown[] = [];
  const failures: Record<string, string> = {};
  const db: Db = {
    beginPipeline: async () => ({ kind: 'run', elements }),
    beginElement: async (id, values) => {
      calls.push(`begin ${id}`);
      given[id] = values;
      const el = elements.find((e) => e.id === id)!;
      if (el.element_type === 'entry')
        return { kind: 'run', run: { type: 'entry', parameter_values: { [`from_${id}`]: 1 } } };
      return {
        kind: 'run',
        run: {
          type: 'data_fit',
          request: { element_name: el.name, pipeline_id: 'p', job_id: `job-${id}` } as FitRequest,
        },
      };
    },
    completeElement: async (id) => {
      calls.push(`complete ${id}`);
      return { status: 'completed' };
    },
    failElement: async (id, failure) => {
      calls.push(`fail ${id}`);
      failures[id] = failure.error_code;
      return { status: 'failed', error_code: failure.error_code };
    },
    cancelElement: async (id) => {
      calls.push(`cancel ${id}`);
    },
    finishPipeline: async (_id, outcome) => {
      finished.push(outcome);
      return { status: outcome.status };
    },
  };
  return { db, calls, given, finished, failures };
}

const element = (
  id: string,
  element_type: string,
  status: WorkStatus = 'pending',
  parameter_values?: Record<string, number>,
): PipelineElementState => ({
  id,
  name: `element ${id}`,
  element_type,
  status,
  ...(parameter_values ? { parameter_values } : {}),
});

async function run(db: Db, fit: FitWorkerActivities['fitParameters'], during?: (pipelineId: string) => Promise<void>) {
  const env = server.env;
  const simulationQueue = `sim-${randomUUID().slice(0, 8)}`;
  return withWorker(
    env,
    db,
    async (taskQueue) => {
      const pipelineId = randomUUID();
      const input: PipelineInput = {
        pipelineId,
        pipelineName: 'p',
        organizationId: randomUUID(),
        projectId: randomUUID(),
        simulationTaskQueue: simulationQueue,
        heartbeatTimeoutSeconds: 60,
      };
      const handle = await env.client.workflow.start<typeof pipeline>('pipeline', {
        taskQueue,
        workflowId: pipelineWorkflowIds.pipeline(pipelineId),
        args: [input],
      });
      await during?.(pipelineId);
      return { result: await handle.result(), pipelineId };
    },
    [{ taskQueue: fitTaskQueue(simulationQueue), activities: { fitParameters: fit } }],
  );
}

describe('the pipeline workflow', () => {
  it('runs its elements in order, each with the values before it, and skips completed ones', async () => {
    const p = fakePipeline([
      element('a', 'entry', 'completed', { kept: 7 }),
      element('b', 'entry'),
      element('c', 'data_fit'),
    ]);
    const fits: string[] = [];
    const { result } = await run(p.db, async (request) => {
      fits.push(request.job_id);
      return { parameter_values: { fitted: 2 }, cost: 0.1, iterations: 3, converged: true };
    });
    expect(result).toEqual({ status: 'completed' });
    expect(p.calls).toEqual(['begin b', 'complete b', 'begin c', 'complete c']);
    expect(p.given).toEqual({ b: { kept: 7 }, c: { kept: 7, from_b: 1 } });
    expect(fits).toEqual(['job-c']);
    expect(p.finished).toEqual([
      { status: 'completed', result: { parameter_values: { kept: 7, from_b: 1, fitted: 2 } } },
    ]);
  });

  it('stops at a failed element: the solver failure is not retried, and later elements never begin', async () => {
    const p = fakePipeline([element('a', 'data_fit'), element('b', 'entry')]);
    let attempts = 0;
    const { result } = await run(p.db, async () => {
      attempts++;
      throw ApplicationFailure.create({ type: 'SOLVER_ERROR', message: 'did not converge' });
    });
    expect(result).toEqual({ status: 'failed' });
    expect(attempts).toBe(1);
    expect(p.calls).toEqual(['begin a', 'fail a']);
    expect(p.failures).toEqual({ a: 'SOLVER_ERROR' });
    expect(p.finished).toEqual([{ status: 'failed', failed_element_id: 'a' }]);
  });

  it('retries a worker failure (five attempts, backing off) before the element fails with WORKER_ERROR', async () => {
    const p = fakePipeline([element('a', 'data_fit')]);
    const at: number[] = [];
    const { result } = await run(p.db, async () => {
      at.push(Date.now());
      throw new Error('the worker lost its connection');
    });
    expect(result).toEqual({ status: 'failed' });
    expect(at).toHaveLength(5);
    expect(p.failures).toEqual({ a: 'WORKER_ERROR' });
  });

  it('ends canceled at once on the cancel signal, recording nothing itself (the API did)', async () => {
    const p = fakePipeline([element('a', 'data_fit'), element('b', 'entry')]);
    let fitStarted!: () => void;
    const fitting = new Promise<void>((resolve) => (fitStarted = resolve));
    const { result } = await run(
      p.db,
      async () => {
        fitStarted();
        // A fit that runs until it hears (at a heartbeat) that its workflow has ended.
        for (;;) {
          Context.current().heartbeat();
          await Context.current().sleep(100);
        }
      },
      async (pipelineId) => {
        await fitting;
        await server.env.client.workflow.getHandle(pipelineWorkflowIds.pipeline(pipelineId)).signal(CANCEL_SIGNAL);
      },
    );
    expect(result).toEqual({ status: 'canceled' });
    expect(p.calls).toEqual(['begin a']);
    expect(p.finished).toEqual([]);
    // Ending the running element is the parent-close policy's and the cancel workflow's part:
    // the test server does not apply parent-close policies, so pipelineCancel.test.ts checks it.
  });

  it('records the cancel itself when an element was canceled on its own', async () => {
    const p = fakePipeline([element('a', 'entry'), element('b', 'entry')]);
    p.db.completeElement = async (id) => {
      p.calls.push(`complete ${id}`);
      return { status: 'canceled' };
    };
    const { result } = await run(p.db, async () => {
      throw new Error('not called');
    });
    expect(result).toEqual({ status: 'canceled' });
    expect(p.calls).toEqual(['begin a', 'complete a']);
    expect(p.finished).toEqual([{ status: 'canceled' }]);
  });
});

// Bulk cancellation, in one run on this machine: N pipelines (default 500), each with a
// running data_fit element (no Python worker listens, so every fit stays running), canceled by
// one POST /pipelines/cancel. Prints the answer latency (target < 300 ms) and the time until
// the last element workflow is terminated (target < 10 s), next to baselines measured in the
// same run: the answer latency of canceling one pipeline, and of an authenticated GET.
// Run: bash stack/node.sh bench/pipeline-cancel.ts [pipelines]
import os from 'node:os';
import { cancelWorkflowId } from '../api/services/pipelines/cancellation.ts';
import { startBenchStack } from './benchStack.ts';

const N = Number(process.argv[2] ?? 500);

const stack = await startBenchStack('cancel', { SIMULATION_TASK_QUEUE: 'bench-sim-nobody-listens' });
const { orm, client, url } = stack;

const { key } = stack;
const headers = { 'X-API-Key': key, 'Content-Type': 'application/json', Accept: 'application/json' };
async function call(method: string, p: string, body?: unknown): Promise<{ status: number; body: any; ms: number }> {
  const t = performance.now();
  const res = await fetch(url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  return { status: res.status, body: json, ms: performance.now() - t };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const FIT = {
  element_type: 'data_fit',
  model: { kind: 'quick', capacity: 2.0, chemistry: 'NMC/Graphite' },
  parameters: { 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.05 } },
  data: { 'Time [s]': [0, 1, 2], 'Current [A]': [2, 2, 2], 'Voltage [V]': [4.1, 4.09, 4.08] },
};

async function makeRunning(projectId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const i = next++;
        const r = await call('POST', '/pipelines', {
          project_id: projectId,
          name: `bench ${i}`,
          elements: { start: { element_type: 'entry', values: { 'Ambient temperature [K]': 298.15 } }, fit: FIT },
        });
        if (r.status !== 201) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
        ids.push(r.body.id);
      }
    }),
  );
  const em = orm.em.fork();
  for (;;) {
    const [row] = await em.execute<{ n: string }[]>(
      `select count(*) as n from pipeline_elements
        where pipeline_id in (select jsonb_array_elements_text(?::jsonb)::uuid) and name = 'fit'
          and status = 'running'`,
      [JSON.stringify(ids)],
    );
    if (Number(row!.n) === ids.length) return ids;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Closing time of the last element workflow, once none is running. */
async function lastTermination(ids: string[]): Promise<number> {
  await client.workflow.getHandle(cancelWorkflowId(ids)).result();
  let last = 0;
  for (const id of ids) {
    const d = await client.workflow.getHandle(`pipeline-${id}-element-fit`).describe();
    if (d.status.name === 'RUNNING')
      throw new Error(`element of ${id} still running after the cancel workflow completed`);
    last = Math.max(last, d.closeTime!.getTime());
  }
  return last;
}

try {
  const project = (await call('POST', '/projects', { name: 'cancel bench' })).body;
  console.log(`Node ${process.version}, ${os.cpus().length} cores; ${N} pipelines with a running data_fit each\n`);

  const gets: number[] = [];
  for (let i = 0; i < 20; i++) gets.push((await call('GET', '/pipelines?limit=1')).ms);

  const singles: number[] = [];
  for (let i = 0; i < 5; i++) {
    const [one] = await makeRunning(project.id, 1);
    singles.push((await call('POST', '/pipelines/cancel', { pipeline_ids: [one] })).ms);
  }

  const t = Date.now();
  const ids = await makeRunning(project.id, N);
  console.log(`created and started ${N} pipelines in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const startedAt = Date.now();
  const res = await call('POST', '/pipelines/cancel', { pipeline_ids: ids });
  if (res.status !== 200 || res.body.canceled_pipeline_ids.length !== N)
    throw new Error(`cancel failed: ${res.status}`);
  const last = await lastTermination(ids);
  const outcome = await client.workflow.getHandle(cancelWorkflowId(ids)).result();
  const cancelClosed = (await client.workflow.getHandle(cancelWorkflowId(ids)).describe()).closeTime!.getTime();

  console.log(`authenticated GET /pipelines (median of 20)      ${median(gets).toFixed(1)} ms`);
  console.log(`cancel 1 pipeline, answer (median of 5)          ${median(singles).toFixed(1)} ms`);
  console.log(
    `cancel ${N} pipelines, answer                      ${res.ms.toFixed(1)} ms   (target < 300 ms; ` +
      `${(res.ms / median(singles)).toFixed(1)}x one pipeline)`,
  );
  console.log(
    `cancel ${N} pipelines, ` +
      `last element terminated     ${((last - startedAt) / 1000).toFixed(2)} s after the request   (target < 10 s)`,
  );
  console.log(
    `cancel workflow completed                         ${((cancelClosed - startedAt) / 1000).toFixed(2)} s after ` +
      `the request`,
  );
  console.log(`element workflows terminated by the cancel workflow: ${outcome.terminated}`);
  console.log(
    JSON.stringify({
      pipelines: N,
      answer_ms: Math.round(res.ms),
      single_answer_ms: Math.round(median(singles)),
      get_ms: Math.round(median(gets)),
      last_terminated_s: (last - startedAt) / 1000,
    }),
  );
} finally {
  await stack.stop();
}

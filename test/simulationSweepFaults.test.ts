// A sweep whose Python worker is killed (SIGKILL, solver processes too) in the middle of its
// chunks: a new worker takes the chunks over once their heartbeats stop, and every point ends
// completed exactly once, with no pack left over and compute time counted once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ManagedProcess } from '../stack/processes.ts';
import { simulationWorkflowIds } from '../workflows/simulationIds.ts';
import {
  batchOf,
  client,
  eventually,
  killPythonWorker,
  newOrg,
  startApi,
  startPythonWorker,
  startWorker,
  type TestApi,
} from './harness.ts';

vi.setConfig({ testTimeout: 300_000 });

let api: TestApi;
let worker: Awaited<ReturnType<typeof startWorker>>;
let python: ManagedProcess | undefined;
beforeAll(async () => {
  api = await startApi();
  worker = await startWorker(api);
});
afterAll(async () => {
  await python?.stop();
  await worker?.stop();
  await api?.close();
});

describe('sweep faults', () => {
  it('survives a SIGKILL of the Python worker mid-chunk: every point once, no orphan packs, usage once', async () => {
    python = startPythonWorker(api.config);
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const project = (await c.post('/projects', { name: 'faults' })).body;
    const points = 300;
    const res = await c.post('/simulations/protocol/batch', {
      parameterized_model: { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } },
      project_id: project.id,
      protocol_experiment: {
        protocol: 'Discharge at 1C until 2.5V\nRest for 10 minutes\nCharge at 1C until 4.2V\nHold at 4.2V until C/20',
      },
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.004, max: 0.012, count: points }],
      },
    });
    expect(res.status, res.text).toBe(200);
    const batchId = await batchOf(api.orm, res.body[0].simulation_id);
    const completed = async () => {
      const [row] = await api.orm.em.fork().execute<{ n: string }[]>(
        `select count(*) as n from simulations s join jobs j on j.id = s.job_id where s.batch_id = ?
            and j.status = 'completed'`,
        [batchId],
      );
      return Number(row!.n);
    };
    // Killed once some points are recorded and many are not.
    const before = await eventually(
      async () => {
        const n = await completed();
        return n >= 20 ? n : undefined;
      },
      { timeoutMs: 180_000, intervalMs: 50, what: 'some points recorded' },
    );
    killPythonWorker(python);
    await python.stop();
    const atKill = await completed();
    expect(atKill).toBeLessThan(points);
    const killedAt = Date.now();
    python = startPythonWorker(api.config);

    const result = await api.temporal.workflow.getHandle(simulationWorkflowIds.batch(batchId)).result();
    expect(result).toMatchObject({ completed: points, failed: 0, canceled: 0 });
    console.log(
      `sweep faults: ${before} points recorded when killed, ${atKill} after; ` +
        `batch done ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`,
    );

    const em = api.orm.em.fork();
    const sims = await em.execute<{ id: string; key: string | null; solve: number | null; status: string }[]>(
      `select s.id, s.result_pack ->> 'key' as key, (s.metrics ->> 'solve_time_s')::float as solve, j.status
         from simulations s join jobs j on j.id = s.job_id where s.batch_id = ?`,
      [batchId],
    );
    expect(sims.filter((s) => s.status === 'completed' && s.key)).toHaveLength(points);
    // Every pack in the batch's folder is named by a simulation: the killed attempt's last
    // pack (written, never recorded) is gone.
    const folder = (await c.get(`/simulations/${sims[0]!.id}`)).body.storage_folder as string;
    const stored = (await api.storage.list(folder)).sort();
    expect(stored).toEqual(
      [...new Set(sims.map((s) => s.key!))].flatMap((k) => [`${k}-steps.parquet`, `${k}-time_series.parquet`]).sort(),
    );
    // Compute time counted once per point: the usage counter is the sum of the stored solve times.
    const [usage] = await em.execute<{ simulations: number; compute: number }[]>(
      `select simulations, compute_seconds as compute from usage_counters where organization_id = ?`,
      [org.organization_id],
    );
    expect(usage!.simulations).toBe(points);
    const solved = sims.reduce((sum, s) => sum + (s.solve ?? 0), 0);
    expect(Number(usage!.compute)).toBeCloseTo(solved, 6);
    // A download still reads its file out of its pack.
    const file = await fetch(`${api.url}/simulations/${sims[points - 1]!.id}/steps/download`, {
      headers: { 'X-API-Key': org.api_key },
    });
    expect(file.status).toBe(200);
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('PAR1');
  });
});

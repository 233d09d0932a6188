// Sweeps solved in chunks: every point once and downloadable, a failing point among completing
// siblings, and one point of a chunk canceled while the chunk goes on.
import { expect, it } from 'vitest';
import { parquetReadObjects } from 'hyparquet';
import { eventually, jobFinished, type TestApi } from '../harness.ts';
import { DISCHARGE_1C, QUICK, longBatch, simulationHelpers } from './helpers.ts';

export function sweepChunkCases(api: TestApi) {
  const { setup, batchWorkflow } = simulationHelpers(api);

  const runsABatchInTitle =
    'runs a batch in several chunks: every point once, correct per point, downloadable, ' + 'visible to operators';
  it(runsABatchInTitle, async () => {
    const { org, c, project } = await setup();
    const points = 40;
    const res = await c.post('/simulations/protocol/batch', {
      parameterized_model: QUICK,
      protocol_experiment: { protocol: DISCHARGE_1C, name: 'R0 sweep' },
      project_id: project.id,
      design_parameters_doe: {
        sampling: 'grid',
        rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.004, max: 0.012, count: points }],
      },
    });
    expect(res.status, res.text).toBe(200);
    const handle = await batchWorkflow(res.body[0].simulation_id);
    const result = await handle.result();
    expect(result).toMatchObject({ completed: points, failed: 0, canceled: 0, reused: 0, failures: [] });
    const sims = (await c.get(`/simulations?project_id=${project.id}&limit=100`)).body.items as {
      id: string;
      job_id: string;
      design_parameters: Record<string, number>;
      metrics: Record<string, number>;
      storage_folder: string;
    }[];
    expect(sims).toHaveLength(points);
    // Each point its own result: capacity falls as the resistance rises.
    const byR0 = [...sims].sort((a, b) => a.design_parameters['R0 [Ohm]']! - b.design_parameters['R0 [Ohm]']!);
    for (let i = 1; i < byR0.length; i++)
      expect(byR0[i]!.metrics.discharge_capacity_ah).toBeLessThan(byR0[i - 1]!.metrics.discharge_capacity_ah!);
    for (const sim of sims) expect(sim.storage_folder).toBeTruthy();
    // Downloads read each simulation's own files out of its chunk's pack.
    for (const sim of [byR0[0]!, byR0[points - 1]!]) {
      const file = await fetch(`${api.url}/simulations/${sim.id}/time_series/download`, {
        headers: { 'X-API-Key': org.api_key },
      });
      expect(file.status).toBe(200);
      const rows = await parquetReadObjects({ file: await file.arrayBuffer(), columns: ['Time [s]', 'Current [A]'] });
      expect((Number(rows.at(-1)!['Time [s]']) * Number(rows[0]!['Current [A]'])) / 3600).toBeCloseTo(
        sim.metrics.discharge_capacity_ah!,
        1,
      );
      const steps = await fetch(`${api.url}/simulations/${sim.id}/steps/download`, {
        headers: { 'X-API-Key': org.api_key },
      });
      const stepRows = await parquetReadObjects({ file: await steps.arrayBuffer() });
      expect(stepRows).toHaveLength(1);
      expect(Number(stepRows[0]!['Discharge capacity [A.h]'])).toBeCloseTo(sim.metrics.discharge_capacity_ah!, 6);
    }
    // The Web UI: the batch with its search attributes, its chunks labelled with their points,
    // and a live summary of what is done.
    const described = await handle.describe();
    expect(described.searchAttributes).toMatchObject({
      CellarBatch: [expect.any(String)],
      CellarProject: [project.id],
      CellarStatus: ['completed'],
    });
    const history = await handle.fetchHistory();
    const chunks = history.events!.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'solveChunk',
    );
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(chunks.every((e) => e.userMetadata?.summary)).toBe(true);
    const meta = await handle.query<{ currentDetails: string }>('__temporal_workflow_metadata');
    expect(meta.currentDetails).toContain(`**${points} done**`);
    // One pack (two files) per flush, all named by the batch's simulations: nothing left over.
    const files = await api.storage.list(sims[0]!.storage_folder);
    const named = await api.orm.em.fork().execute<{ key: string }[]>(
      `select distinct result_pack ->> 'key' as key from simulations where batch_id = (select batch_id
          from simulations where id = ?)`,
      [sims[0]!.id],
    );
    expect(files.sort()).toEqual(
      named.flatMap((r) => [`${r.key}-steps.parquet`, `${r.key}-time_series.parquet`]).sort(),
    );
  });

  it('fails a point with its own code inside a chunk while its siblings complete', async () => {
    const { c, project } = await setup();
    const template = await c.post('/protocols/parse-to-template', {
      protocol_experiment: { protocol: 'Charge at 1C until 4.2V', name: 'charge' },
      project_id: project.id,
    });
    expect(template.status, template.text).toBe(200);
    const res = await c.post('/simulations/with-template/batch', {
      parameterized_model: QUICK,
      experiment_template_id: template.body.template_id,
      project_id: project.id,
      experiment_parameter_sets: [
        { 'Initial SOC [%]': 50 },
        // Full already: the end condition holds when the step starts.
        { 'Initial SOC [%]': 100 },
        // A zero thermal mass: the solver fails, also with tighter tolerances.
        { 'Initial SOC [%]': 50, 'Cell thermal mass [J/K]': 0 },
        { 'Initial SOC [%]': 60 },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const jobs = await Promise.all(res.body.map((r: { job_id: string }) => jobFinished(c, r.job_id)));
    expect(jobs.map((j) => j.status)).toEqual(['completed', 'failed', 'failed', 'completed']);
    expect(jobs.map((j) => j.error_code ?? null)).toEqual([null, 'CONFIGURATION_ERROR', 'SOLVER_ERROR', null]);
    expect(jobs[1].error).toMatch(/steps\[0\]/);
    const result = await (await batchWorkflow(res.body[0].simulation_id)).result();
    expect(result).toMatchObject({ completed: 2, failed: 2 });
  });

  it('cancels one running point of a chunk: the chunk goes on with the next', async () => {
    const { c, project } = await setup();
    const res = await c.post(
      '/simulations/protocol/batch',
      longBatch(project.id, {
        design_parameters_doe: {
          sampling: 'grid',
          rows: [{ type: 'discrete', name: 'R0 [Ohm]', values: [0.004, 0.005] }],
        },
      }),
    );
    expect(res.status, res.text).toBe(200);
    // Both points share the first (probe) chunk: the first runs, the second waits.
    const [first, second] = res.body as { job_id: string; simulation_id: string }[];
    await eventually(async () => (await c.get(`/jobs/${first!.job_id}`)).body.progress?.steps_done > 0, {
      timeoutMs: 120_000,
      what: 'the first point running',
    });
    expect((await c.get(`/jobs/${second!.job_id}`)).body.status).toBe('pending');
    expect((await c.post(`/jobs/${first!.job_id}/cancel`)).status).toBe(200);
    expect(await jobFinished(c, first!.job_id, 5_000)).toMatchObject({ status: 'canceled' });
    // The chunk stops that solve at its next step and goes on with its sibling.
    await eventually(async () => (await c.get(`/jobs/${second!.job_id}`)).body.progress?.steps_done > 0, {
      timeoutMs: 60_000,
      what: 'the second point running',
    });
    const batch = (await c.get(`/simulations/${second!.simulation_id}`)).body.batch_id;
    expect((await c.post(`/simulations/batches/${batch}/cancel`)).status).toBe(200);
    expect(await jobFinished(c, second!.job_id, 5_000)).toMatchObject({ status: 'canceled' });
  });
}

// Working with pipelines once created: list, patch, delete and search; renaming a running one;
// the array fit's request to the worker; simple pipelines; bulk cancel.
import { expect, it } from 'vitest';
import { eventually, type TestApi } from '../harness.ts';
import { GEOMETRY, pipelineHelpers } from './helpers.ts';

export function pipelineOperationCases(api: TestApi) {
  const { setup } = pipelineHelpers(api);

  it('lists with limit/skip, patches, deletes, and joins search', async () => {
    const { c, project } = await setup();
    const ids: string[] = [];
    for (const name of ['alpha run', 'beta run', 'gamma run']) {
      ids.push((await c.post('/pipelines', { project_id: project.id, name, elements: { g: GEOMETRY } })).body.id);
    }
    const page = await c.get(`/pipelines?limit=2&skip=1&project_id=${project.id}`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(3);
    expect(page.body.pipelines.map((p: { name: string }) => p.name)).toEqual(['beta run', 'alpha run']);
    const negative = await c.get('/pipelines?skip=-1');
    expect(negative.status).toBe(422);
    expect(negative.body.detail[0].loc).toEqual(['query', 'skip']);

    const patched = await c.patch(`/pipelines/${ids[0]}`, { name: 'alpha renamed', description: 'now described' });
    expect(patched.body).toMatchObject({ name: 'alpha renamed', description: 'now described' });
    const found = await c.get('/search?q=renamed');
    expect(found.body.results.map((x: { id: string }) => x.id)).toContain(ids[0]);

    expect((await c.delete(`/pipelines/${ids[1]}`)).body).toEqual({ id: ids[1], deleted: true });
    expect((await c.get(`/pipelines/${ids[1]}`)).status).toBe(404);
    expect((await c.get('/search?q=beta')).body.results.map((x: { id: string }) => x.id)).not.toContain(ids[1]);
  });

  const renamesARunningPipelineTitle =
    "renames a running pipeline's workflow memo and its running element's (PATCH under " +
    '/pipelines and /simple_pipelines)';
  it(renamesARunningPipelineTitle, async () => {
    const { c, project } = await setup();
    // No Python worker listens in this suite: the fit stays running.
    const fit = {
      element_type: 'data_fit',
      model: { kind: 'quick', capacity: 2.0, chemistry: 'NMC/Graphite' },
      parameters: { 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.05 } },
      data: { 'Time [s]': [0, 1, 2], 'Current [A]': [2, 2, 2], 'Voltage [V]': [4.1, 4.09, 4.08] },
    };
    const full = (
      await c.post('/pipelines', { project_id: project.id, name: 'before', elements: { fit, after: GEOMETRY } })
    ).body;
    const simple = (
      await c.post('/simple_pipelines', { project_id: project.id, name: 'simple before', elements: { fit } })
    ).body;
    const memo = async (workflowId: string) =>
      (await api.temporal.workflow.getHandle(workflowId).describe()).memo ?? {};
    for (const [id, path, name] of [
      [full.id, 'pipelines', 'after rename'],
      [simple.id, 'simple_pipelines', 'simple after rename'],
    ] as const) {
      await eventually(async () => (await c.get(`/pipelines/${id}/elements`)).body[0].status === 'running', {
        what: 'the fit to run',
      });
      const patched = await c.patch(`/${path}/${id}`, { name });
      expect(patched.status).toBe(200);
      expect(patched.body.name).toBe(name);
      await eventually(async () => (await memo(`pipeline-${id}`)).pipeline_name === name, {
        what: 'the pipeline memo to follow',
      });
      await eventually(async () => (await memo(`pipeline-${id}-element-fit`)).pipeline_name === name, {
        what: 'the element memo to follow',
      });
      expect((await memo(`pipeline-${id}-element-fit`)).element_name).toBe('fit');
    }
    // A description-only PATCH leaves the memo alone; a finished pipeline is renamed in the database only.
    expect((await c.patch(`/pipelines/${full.id}`, { description: 'described' })).status).toBe(200);
    expect((await memo(`pipeline-${full.id}`)).pipeline_name).toBe('after rename');
    expect((await c.post('/pipelines/cancel', { pipeline_ids: [full.id, simple.id] })).status).toBe(200);
    await eventually(
      async () => (await api.temporal.workflow.getHandle(`pipeline-${full.id}`).describe()).status.name !== 'RUNNING',
      { what: 'the pipeline to end' },
    );
    const late = await c.patch(`/pipelines/${full.id}`, { name: 'renamed after the end' });
    expect(late.status).toBe(200);
    expect((await memo(`pipeline-${full.id}`)).pipeline_name).toBe('after rename');
  });

  it("passes an array_data_fit's per_dataset mode to the Python worker's fitParametersArray", async () => {
    const { c, project } = await setup();
    // No Python worker listens in this suite: the fit stays scheduled, and its request can be read.
    const data = { 'Time [s]': [0, 1, 2], 'Current [A]': [2, 2, 2], 'Voltage [V]': [4.1, 4.09, 4.08] };
    const fits = {
      element_type: 'array_data_fit',
      model: { kind: 'quick', capacity: 2.0, chemistry: 'NMC/Graphite' },
      mode: 'per_dataset',
      parameters: { 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.05 } },
      independent_variable: 'Cycle number',
      datasets: [
        { value: 0, data },
        { value: 500, data },
      ],
    };
    const created = await c.post('/pipelines', { project_id: project.id, name: 'per data set', elements: { fits } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await c.get(`/pipelines/${id}/elements`)).body[0].config.mode).toBe('per_dataset');
    const scheduled = async () => {
      const history = await api.temporal.workflow.getHandle(`pipeline-${id}-element-fits`).fetchHistory();
      const event = history.events?.find(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'fitParametersArray',
      );
      const payload = event?.activityTaskScheduledEventAttributes?.input?.payloads?.[0];
      return payload?.data ? JSON.parse(Buffer.from(payload.data).toString('utf8')) : undefined;
    };
    const request = await eventually(scheduled, { what: 'the array fit to be scheduled' });
    expect(request).toMatchObject({ mode: 'per_dataset', independent_variable: 'Cycle number' });
    expect(request.datasets.map((d: { value: number }) => d.value)).toEqual([0, 500]);
    expect((await c.post(`/pipelines/${id}/cancel`, {})).status).toBe(200);
  });

  it('serves simple pipelines: 202 pending, newest first with limit 10, PATCH, cancel, DELETE', async () => {
    const { c, project } = await setup();
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await c.post('/simple_pipelines', {
        project_id: project.id,
        name: `simple ${i}`,
        elements: { g: GEOMETRY },
      });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({
        status: 'pending',
        project_id: project.id,
        organization_id: project.organization_id,
      });
      made.push(r.body.id);
    }
    const list = await c.get('/simple_pipelines');
    expect(list.body).toMatchObject({ count: 10, total: 12 });
    expect(list.body.items[0].id).toBe(made[11]);
    const filtered = await c.get(`/simple_pipelines?name=eq.simple%203`);
    expect(filtered.body.items.map((p: { id: string }) => p.id)).toEqual([made[3]]);
    expect((await c.patch(`/simple_pipelines/${made[0]}`, { name: 'renamed' })).body.name).toBe('renamed');
    const canceled = await c.post(`/simple_pipelines/${made[1]}/cancel`);
    expect(canceled.body).toMatchObject({ status: 'canceled', is_terminal: true, is_failed: true });
    expect((await c.delete(`/simple_pipelines/${made[2]}`)).status).toBe(200);
    // A regular pipeline is not a simple one.
    const regular = (await c.post('/pipelines', { project_id: project.id, name: 'regular', elements: { g: GEOMETRY } }))
      .body;
    expect((await c.get(`/simple_pipelines/${regular.id}`)).status).toBe(404);
  });

  it('bulk cancel validates its body and reports unknown and foreign ids without touching them', async () => {
    const { c, project } = await setup();
    const other = await setup();
    expect((await c.post('/pipelines/cancel', { pipeline_ids: [] })).status).toBe(422);
    expect((await c.post('/pipelines/cancel', { pipeline_ids: ['not-a-uuid'] })).status).toBe(422);
    const tooMany = Array.from({ length: 1001 }, () => crypto.randomUUID());
    expect((await c.post('/pipelines/cancel', { pipeline_ids: tooMany })).status).toBe(422);

    const foreign = (
      await other.c.post('/pipelines', { project_id: other.project.id, name: 'theirs', elements: { g: GEOMETRY } })
    ).body;
    await eventually(async () => (await other.c.get(`/pipelines/${foreign.id}`)).body.status === 'completed');
    const mine = (await c.post('/pipelines', { project_id: project.id, name: 'mine', elements: { g: GEOMETRY } })).body;
    await eventually(async () => (await c.get(`/pipelines/${mine.id}`)).body.status === 'completed');
    const unknown = crypto.randomUUID();
    const r = await c.post('/pipelines/cancel', { pipeline_ids: [mine.id, foreign.id, unknown] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      canceled_pipeline_ids: [mine.id],
      not_found_pipeline_ids: [foreign.id, unknown],
      forbidden_pipeline_ids: [],
    });
    expect((await other.c.get(`/pipelines/${foreign.id}`)).body.status).toBe('completed');
    // From any state: the completed pipeline is canceled, its completed element keeps its result.
    expect((await c.get(`/pipelines/${mine.id}`)).body.status).toBe('canceled');
    const els = (await c.get(`/pipelines/${mine.id}/elements`)).body;
    expect(els[0]).toMatchObject({ status: 'completed', result: { parameter_values: GEOMETRY.values } });
  });
}

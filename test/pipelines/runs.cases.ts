// Pipelines that run: entry and calculations in order, each element its own job and workflow, a
// later pipeline starting from an earlier one's values; and an element that fails, with its
// diagnostic for admins only.
import { expect, it } from 'vitest';
import { client, eventually, newMember, newOrg, type TestApi } from '../harness.ts';
import { PROJECT_ROLES } from '../../db/roles.ts';
import { CellarElementType, CellarProject, CellarStatus } from '../../workflows/searchAttributes.ts';
import { GEOMETRY, pipelineHelpers } from './helpers.ts';

export function pipelineRunCases(api: TestApi) {
  const { setup } = pipelineHelpers(api);

  it('runs entry + calculations in order, each receiving the values before it, with one job per element', async () => {
    const { c, project } = await setup();
    const res = await c.post('/pipelines', {
      project_id: project.id,
      name: 'NMC geometry',
      description: 'volume fraction then capacity',
      elements: {
        geometry: GEOMETRY,
        volume_fraction: {
          element_type: 'calculation',
          type: 'electrode_volume_fraction',
          electrode: 'positive',
          mass_loading: 20,
          active_material_mass_fraction: 0.95,
          active_material_density: 4700,
        },
        capacity: {
          element_type: 'calculation',
          type: 'electrode_capacity',
          electrode: 'positive',
          max_concentration: 51765,
          stoichiometry_window: 0.7,
        },
      },
      options: { note: 'kept' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'NMC geometry',
      status: 'pending',
      is_terminal: false,
      is_failed: false,
      options: { note: 'kept' },
    });
    expect(res.body.workflow_id).toBe(`pipeline-${res.body.id}`);
    const done = await eventually(
      async () => {
        const r = await c.get(`/pipelines/${res.body.id}`);
        return r.body.is_terminal ? r.body : null;
      },
      { what: 'pipeline to finish' },
    );
    expect(done).toMatchObject({ status: 'completed', is_failed: false });

    // ε = 20 mg/cm² · 0.01 · 0.95 / (4700 kg/m³ · 75 µm) = 0.539; Q = F·c·ε·L·A·Δx/3600.
    const eps = (20 * 0.01 * 0.95) / (4700 * 75e-6);
    const q = (96485.33212 * 51765 * eps * 75e-6 * 0.065 * 1.58 * 0.7) / 3600;
    const result = await c.get(`/pipelines/${res.body.id}/result`);
    expect(result.status).toBe(200);
    expect(Object.keys(result.body.element_results)).toEqual(['geometry', 'volume_fraction', 'capacity']);
    expect(result.body.element_results.geometry.parameter_values).toEqual(GEOMETRY.values);
    expect(
      result.body.element_results.volume_fraction.parameter_values[
        'Positive electrode active material volume fraction'
      ],
    ).toBeCloseTo(eps, 10);
    expect(result.body.element_results.capacity.parameter_values['Positive electrode capacity [A.h]']).toBeCloseTo(
      q,
      8,
    );
    expect(result.body.result.parameter_values).toMatchObject({
      ...GEOMETRY.values,
      'Positive electrode capacity [A.h]': expect.any(Number),
    });

    const elements = await c.get(`/pipelines/${res.body.id}/elements`);
    expect(elements.body.map((e: { name: string }) => e.name)).toEqual(['geometry', 'volume_fraction', 'capacity']);
    for (const e of elements.body) {
      expect(e).toMatchObject({ status: 'completed', attempts: 1, is_terminal: true });
      expect(e.workflow_id).toBe(`pipeline-${res.body.id}-element-${e.name}`);
      const job = await c.get(`/jobs/${e.job_id}`);
      expect(job.status).toBe(200);
      expect(job.body).toMatchObject({
        job_id: e.job_id,
        status: 'completed',
        job_type: 'pipeline_element',
        is_terminal: true,
      });
    }

    // Operators see it in Temporal: search attributes and memo.
    const desc = await api.temporal.workflow.getHandle(`pipeline-${res.body.id}`).describe();
    expect(await desc.memo).toMatchObject({ pipeline_name: 'NMC geometry' });
    expect(desc.typedSearchAttributes.get(CellarProject)).toBe(project.id);
    const child = await api.temporal.workflow.getHandle(`pipeline-${res.body.id}-element-capacity`).describe();
    expect(child.typedSearchAttributes.get(CellarElementType)).toBe('calculation');
    expect(child.typedSearchAttributes.get(CellarStatus)).toBe('completed');

    // A later pipeline starts from this one's values.
    const next = await c.post('/pipelines', {
      project_id: project.id,
      name: 'from previous',
      elements: {
        previous: { element_type: 'entry', pipeline_id: res.body.id },
        mass: {
          element_type: 'calculation',
          type: 'initial_soc_from_voltage',
          voltage: 3.7,
          ocv: { soc: [0, 0.5, 1], voltage: [3.0, 3.6, 4.2] },
        },
      },
    });
    expect(next.status).toBe(201);
    await eventually(async () => (await c.get(`/pipelines/${next.body.id}`)).body.status === 'completed', {
      what: 'second pipeline',
    });
    const r2 = await c.get(`/pipelines/${next.body.id}/result`);
    expect(r2.body.element_results.previous.parameter_values['Positive electrode capacity [A.h]']).toBeCloseTo(q, 8);
    expect(r2.body.element_results.mass.parameter_values['Initial SOC [%]']).toBeCloseTo(
      100 * (0.5 + (0.1 / 0.6) * 0.5),
      8,
    );
  });

  const failsAnElementWithTitle =
    'fails an element with the exception type and a diagnostic link, never the message; ' +
    'admins read the diagnostic';
  it(failsAnElementWithTitle, async () => {
    const { org, c, project } = await setup();
    const res = await c.post('/pipelines', {
      project_id: project.id,
      name: 'missing input',
      elements: {
        cap: { element_type: 'calculation', type: 'electrode_capacity', electrode: 'negative' },
        after: GEOMETRY,
      },
    });
    const done = await eventually(async () => {
      const r = await c.get(`/pipelines/${res.body.id}`);
      return r.body.is_terminal ? r.body : null;
    });
    expect(done).toMatchObject({ status: 'failed', is_failed: true });
    expect(done.error_detail).toMatchObject({
      exception_type: 'CalculationError',
      error_code: 'CONFIGURATION_ERROR',
      element_name: 'cap',
    });
    expect(JSON.stringify(done.error_detail)).not.toContain('missing input');
    const elements = (await c.get(`/pipelines/${res.body.id}/elements`)).body;
    expect(elements[0]).toMatchObject({ status: 'failed', error_code: 'CONFIGURATION_ERROR', attempts: 1 });
    expect(elements[0].attempt_log[0]).toMatchObject({
      attempt: 1,
      status: 'failed',
      error_code: 'CONFIGURATION_ERROR',
    });
    // A configuration error is not retried: the element after it will never run, and says so.
    expect(elements[1]).toMatchObject({ status: 'canceled', is_terminal: true });
    expect((await c.get(`/jobs/${elements[1].job_id}`)).body).toMatchObject({
      status: 'canceled',
      is_terminal: true,
      error: 'not run: an earlier element ("cap") failed',
    });
    const job = await c.get(`/jobs/${elements[0].job_id}`);
    expect(job.body).toMatchObject({ status: 'failed', error_code: 'CONFIGURATION_ERROR', is_failed: true });
    expect(job.body.error).not.toContain('missing input');

    const diag = await c.get(done.error_detail.diagnostic_url);
    expect(diag.status).toBe(200);
    expect(diag.body).toMatchObject({ exception_type: 'CalculationError', error_code: 'CONFIGURATION_ERROR' });
    expect(diag.body.message).toContain('missing input');
    expect(diag.body.stack_trace).toContain('CalculationError');

    // A contributor may read the pipeline but not the diagnostic; another organization gets 403.
    const member = await newMember(api.orm, org.organization_id);
    await c.post(`/projects/${project.id}/members`, { user_id: member.user_id, project_role_id: PROJECT_ROLES[1].id });
    const mc = client(api.url, member.api_key);
    expect((await mc.get(`/pipelines/${res.body.id}`)).status).toBe(200);
    expect((await mc.get(done.error_detail.diagnostic_url)).status).toBe(403);
    const other = client(api.url, (await newOrg(api.orm)).api_key);
    expect((await other.get(done.error_detail.diagnostic_url)).status).toBe(403);
    expect((await other.get(`/pipelines/${res.body.id}`)).status).toBe(403);
  });
}

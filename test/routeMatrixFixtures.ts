// The records the route matrix (routeMatrix.test.ts) names in paths: one of each kind of id in
// openapi.yaml, all of one organization. Made through the API where that is quick; rows the API
// makes only through the Python worker's solves or that the client never creates (simulations,
// an organization's own material, a diagnostic event) are written as the services write them.
import { randomUUID } from 'node:crypto';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { expect } from 'vitest';
import { insertBatch } from '../db/repositories/simulations.ts';
import { client, eventually, newMember, newOrg, type TestApi } from './harness.ts';
import { type Client, labFixture, measurement, ok } from './inventoryHelpers.ts';

/**
 * The kind of id a path parameter names: its name, except where one name means two kinds
 * (a simulation batch's batch_id is not a cell batch's; a simple pipeline's id is not a pipeline's;
 * an upload's measurement_id is not yet a measurement's), or where two operations delete one record.
 */
export function idKind(path: string, name: string): string {
  if (name === 'batch_id' && path.startsWith('/simulations/batches/')) return 'simulation_batch_id';
  if (name === 'pipeline_id' && path.startsWith('/simple_pipelines/')) return 'simple_pipeline_id';
  // The client's paths under a cell specification delete the record too: they get one of their own.
  if (name === 'parameterized_model_id' && path.startsWith('/cells/')) return 'spec_parameterized_model_id';
  // Confirming names a measurement whose upload was initiated and not yet confirmed.
  if (path === '/cell_measurements/{measurement_id}/confirm-upload') return 'uploading_measurement_id';
  return name;
}

const TABLE = new Uint8Array(
  parquetWriteBuffer({
    columnData: [
      { name: 'x', data: [0, 0.5, 1], type: 'DOUBLE' },
      { name: 'y', data: [1, 2, 3], type: 'DOUBLE' },
    ],
  }),
);

/** A multipart create with a small Parquet table, as the client sends one. */
async function upload(api: TestApi, key: string, path: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([TABLE]), 'table.parquet');
  const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body;
}

/** Records only the Python worker's solves or the operators make, inserted as their services insert them. */
async function insertedRows(
  api: TestApi,
  org: { organization_id: string; user_id: string },
  projectId: string,
  specId: string,
) {
  const em = api.orm.em.fork();
  const sql = (text: string, params: unknown[]) => em.execute(text, params);
  const model_id = randomUUID();
  await sql(
    `insert into models (id, organization_id, user_id, name, config, simulator_version) values (?, ?, ?, ?, ?, ?)`,
    [model_id, org.organization_id, org.user_id, 'Matrix model', JSON.stringify({ type: 'SPM' }), 'matrix'],
  );
  // Two: DELETE /parameterized_models/{id} and DELETE /cells/{cell_spec_id}/parameterized_models/{id} each remove one.
  const [parameterized_model_id, spec_parameterized_model_id] = [randomUUID(), randomUUID()];
  for (const id of [parameterized_model_id, spec_parameterized_model_id])
    await sql(
      `insert into parameterized_models (id, organization_id, project_id, model_id, cell_spec_id, name, created_by)
       values (?, ?, ?, ?, ?, ?, ?)`,
      [id, org.organization_id, projectId, model_id, specId, `Matrix parameterized ${id.slice(0, 8)}`, org.user_id],
    );
  const simulation_batch_id = randomUUID();
  const simulation_id = randomUUID();
  await insertBatch(
    em,
    {
      id: simulation_batch_id,
      organization_id: org.organization_id,
      project_id: projectId,
      name: 'Matrix batch',
      model_config: { kind: 'quick', chemistry: 'NMC' },
      protocol: { steps: [] },
      extra_variables: [],
      max_backward_jumps: null,
      force_rerun: false,
      experiment_template_id: null,
      simulator_version: 'matrix',
      size: 1,
      created_by: org.user_id,
    },
    [
      {
        id: simulation_id,
        seq: 0,
        job_id: randomUUID(),
        name: 'Matrix simulation',
        parameterized_model_id: null,
        design_parameters: {},
        experiment_parameters: {},
        content_hash: randomUUID(),
      },
    ],
    org.organization_id,
    projectId,
    org.user_id,
  );
  const material_id = randomUUID();
  await sql(`insert into materials (id, organization_id, name, category) values (?, ?, ?, ?)`, [
    material_id,
    org.organization_id,
    `Matrix material ${material_id.slice(0, 8)}`,
    'anode',
  ]);
  const event_id = randomUUID();
  await sql(
    `insert into diagnostic_events (id, organization_id, project_id, source_type, source_id, exception_type, message)
     values (?, ?, ?, 'pipeline_element', ?, 'RuntimeError', 'matrix')`,
    [event_id, org.organization_id, projectId, randomUUID()],
  );
  return {
    model_id,
    parameterized_model_id,
    spec_parameterized_model_id,
    simulation_batch_id,
    simulation_id,
    material_id,
    event_id,
  };
}

async function pipelines(owner: Client, projectId: string) {
  const elements = { start: { element_type: 'entry', values: { x: 1 } } };
  const pipeline = await ok(owner.post('/pipelines', { project_id: projectId, elements }), 201);
  const simple = await ok(owner.post('/simple_pipelines', { project_id: projectId, elements }), 202);
  const optimization = await ok(
    owner.post('/optimizations', {
      project_id: projectId,
      config: {
        element_type: 'data_fit',
        model: { type: 'SPM' },
        parameters: { 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.01 } },
        data: { 'Time [s]': [0, 10, 20], 'Current [A]': [1, 1, 1], 'Voltage [V]': [4, 3.99, 3.98] },
      },
    }),
    201,
  );
  // Its fit is not what is tested, and would take the Python worker's time from the matrix.
  await ok(owner.post(`/optimizations/${optimization.id}/cancel`, {}));
  const element = await eventually(
    async () => (await owner.get(`/pipelines/${pipeline.id}/elements`)).body.find((e: any) => e.job_id),
    { what: 'the pipeline element job' },
  );
  return {
    pipeline_id: pipeline.id,
    simple_pipeline_id: simple.id,
    optimization_id: optimization.id,
    job_id: element.job_id,
  };
}

/**
 * One organization's records, an id of each kind, and the keys of its owner, a member and another
 * organization's owner.
 */
export async function matrixFixtures(api: TestApi) {
  const a = await newOrg(api.orm);
  const owner = client(api.url, a.api_key);
  const lab = await labFixture(owner, { channels: 1 });
  const projectId = lab.project.id;
  const m = await measurement(owner, lab.instance.id);
  const study = await ok(owner.post(`/projects/${projectId}/studies`, { name: 'Matrix study' }), 201);
  const template = await ok(
    owner.post('/protocols/parse-to-template', {
      protocol_experiment: { protocol: 'Rest for 1 hour', name: 'Matrix rest' },
      project_id: projectId,
      experiment_parameters: {},
    }),
  );
  const planned = await ok(
    owner.post(`/projects/${projectId}/planned_measurements`, {
      name: 'Matrix plan',
      protocol_id: template.template_id,
      cell_specification_id: lab.spec.id,
      estimated_duration_seconds: 3600,
    }),
    201,
  );
  const cellBatch = await ok(
    owner.post(`/cell_specifications/${lab.spec.id}/cell_batches`, { name: 'Matrix lot' }),
    201,
  );
  const board = await ok(
    owner.post(`/projects/${projectId}/studies/${study.id}/simulation_boards`, { name: 'Matrix board' }),
    201,
  );
  const rawBody = { project_id: projectId, filename: 'matrix.csv', content_type: 'text/csv' };
  const rawInit = await ok(owner.post('/raw_data/initiate-upload', rawBody));
  expect((await fetch(rawInit.uploads[0].signed_url, { method: 'PUT', body: 'a,b\n1,2\n' })).ok).toBe(true);
  await ok(owner.post(`/raw_data/${rawInit.raw_data_id}/confirm-upload`, { ...rawBody, size_bytes: 8 }), 201);
  // Attached, so that the owner's DELETE /cell_measurements/{id}/raw_data/{raw_data_id} has a link to remove.
  await ok(owner.post(`/cell_measurements/${m.id}/raw_data`, { raw_data_ids: [rawInit.raw_data_id] }));
  const uploading = await ok(
    owner.post(`/cell_instances/${lab.instance.id}/cell_measurements/initiate-upload`, {
      measurement: { name: 'Matrix upload' },
    }),
  );
  const rows = await insertedRows(api, a, projectId, lab.spec.id);
  const graphite = (await ok(owner.get(`/materials?name=Graphite`))).items[0];
  const dataset = await upload(api, a.api_key, '/material_property_datasets', {
    material_id: graphite.id,
    project_id: projectId,
    name: 'Matrix dataset',
  });
  const analysis = await upload(api, a.api_key, '/analyses', {
    measurement_id: m.id,
    name: 'Matrix analysis',
    analysis_type: 'features',
  });
  // A model builder, in a project of its own so that the lab specification's builder_readiness
  // has no builder to check.
  const builderProject = await ok(
    owner.post('/projects', { name: `Matrix builders ${randomUUID().slice(0, 8)}` }),
    201,
  );
  const builder = await ok(
    owner.post('/model_builders', {
      project_id: builderProject.id,
      model_id: rows.model_id,
      name: 'Matrix builder',
      config: { elements: { spec: { element_type: 'entry', mapping: { 'Electrode area [m2]': 'properties.area' } } } },
    }),
    201,
  );
  const member = await newMember(api.orm, a.organization_id);
  // The user the user routes act on: not the member whose rights are checked (the owner's calls
  // change that user's role, and may remove them).
  const target = await newMember(api.orm, a.organization_id);
  const b = await newOrg(api.orm);
  const ids: Record<string, string> = {
    project_id: projectId,
    site_id: lab.site.id,
    cycler_id: lab.cycler.id,
    channel_id: lab.channels[0].id,
    spec_id: lab.spec.id,
    cell_spec_id: lab.spec.id,
    instance_id: lab.instance.id,
    cell_instance_id: lab.instance.id,
    measurement_id: m.id,
    uploading_measurement_id: uploading.measurement_id,
    org_id: a.organization_id,
    user_id: target.user_id,
    study_id: study.id,
    template_id: template.template_id,
    planned_measurement_id: planned.id,
    batch_id: cellBatch.id,
    board_id: board.id,
    raw_data_id: rawInit.raw_data_id,
    model_builder_id: builder.id,
    dataset_id: dataset.id,
    analysis_id: analysis.id,
    ...rows,
    ...(await pipelines(owner, projectId)),
  };
  return { keys: { owner: a.api_key, member: member.api_key, foreign: b.api_key }, ids };
}

// Bad input to the measurement-data flow: each is refused up front or ends `failed` with an
// actionable reason and its issues, and nothing half-written is ever served. (Each validation
// rule is covered in depth by pyworker's pytest; here a few codes go end to end.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, newOrg, startApi, testConfig, type TestApi } from './harness.ts';
import { labFixture, ok } from './inventoryHelpers.ts';
import {
  dataEnv,
  generatedSeries,
  initiate,
  put,
  readParquet,
  settled,
  toCsv,
  uploadSeries,
  type Columns,
  type DataEnv,
} from './measurementDataHelpers.ts';

const ROWS = 2000; // within the first cycle: rest, then CC charge

function withColumns(cols: Columns, edit: (c: Columns) => void): Columns {
  const copy: Columns = Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, [...v]]));
  edit(copy);
  return copy;
}

const CUMULATIVE = [
  'Discharge capacity [A.h]',
  'Charge capacity [A.h]',
  'Discharge energy [W.h]',
  'Charge energy [W.h]',
];
const withoutCumulative = (cols: Columns) => Object.keys(cols).filter((c) => !CUMULATIVE.includes(c));

describe('measurement data: bad input and validation', () => {
  let env: DataEnv;
  let cols: Columns;

  beforeAll(async () => {
    env = await dataEnv('fs');
    cols = await readParquet(await generatedSeries(20_000, 4));
  });
  afterAll(async () => env?.close());

  async function processed(series: Uint8Array | string, measurement: Record<string, unknown> = {}) {
    const id = await uploadSeries(env, series, { measurement });
    const report = await settled(env, id);
    return { id, report, codes: report.issues.map((i: { code: string }) => i.code) as string[] };
  }

  async function expectFailed(series: Uint8Array | string, code: string) {
    const { id, report, codes } = await processed(series);
    expect(report.processing_status, JSON.stringify(report.issues)).toBe('failed');
    expect(codes).toContain(code);
    const issue = report.issues.find((i: { code: string }) => i.code === code);
    expect(issue.severity).toBe('error');
    expect(report.processing_error).toBeTruthy();
    const record = await ok(env.c.get(`/cell_measurements/${id}`));
    expect(record.processing_status).toBe('failed');
    expect(record.processing_error).toBe(report.processing_error);
    // The record carries the same issues in its processing report.
    expect(record.processing_report.issues.map((i: { code: string }) => i.code)).toEqual(codes);
    // Nothing is served from a failed upload.
    for (const p of ['time_series/download', 'steps/download', 'steps_and_cycles', 'cycles', 'time_series']) {
      const r = await env.c.get(`/cell_measurements/${id}/${p}`);
      expect(r.status, p).toBe(409);
      expect(r.body.detail.processing_status).toBe('failed');
    }
    return issue;
  }

  it('a valid CSV series is ready with no errors', async () => {
    const { report } = await processed(toCsv(cols, 0, ROWS));
    expect(report.processing_status).toBe('ready');
    expect(report.error_count).toBe(0);
  });

  it('corrupt or truncated Parquet fails as unreadable_file', async () => {
    const parquet = await generatedSeries(20_000, 4);
    await expectFailed(parquet.subarray(0, Math.floor(parquet.length / 2)), 'unreadable_file');
    await expectFailed(
      Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(5000, 7), Buffer.from('PAR1')]),
      'unreadable_file',
    );
  });

  it('a CSV without Time [s] fails as time_column_missing', async () => {
    const issue = await expectFailed(
      toCsv(
        cols,
        0,
        ROWS,
        Object.keys(cols).filter((c) => c !== 'Time [s]'),
      ),
      'time_column_missing',
    );
    expect(issue.payload.available_columns).toContain('Voltage [V]');
  });

  it('text in a numeric column fails as column_not_numeric', async () => {
    const issue = await expectFailed(
      toCsv(
        withColumns(cols, (c) => {
          c['Voltage [V]']![50] = 'abc';
        }),
        0,
        ROWS,
      ),
      'column_not_numeric',
    );
    expect(issue.payload.column).toBe('Voltage [V]');
  });

  it('a file with no rows fails as empty_file', async () => {
    await expectFailed(toCsv(cols, 0, 0), 'empty_file');
    await expectFailed('', 'empty_file');
  });

  it('time going backwards fails as time_not_monotonic, naming the row', async () => {
    const issue = await expectFailed(
      toCsv(
        withColumns(cols, (c) => {
          [c['Time [s]']![100], c['Time [s]']![101]] = [c['Time [s]']![101]!, c['Time [s]']![100]!];
        }),
        0,
        ROWS,
      ),
      'time_not_monotonic',
    );
    expect(issue.payload.row_index).toBe(101);
  });

  it('reversed current sign fails as current_sign_reversed', async () => {
    const reversed = withColumns(cols, (c) => {
      c['Current [A]'] = c['Current [A]']!.map((v) => (v === null ? null : -(v as number)));
    });
    const issue = await expectFailed(toCsv(reversed, 0, ROWS, withoutCumulative(cols)), 'current_sign_reversed');
    expect(issue.payload.charge_fraction).toBeGreaterThanOrEqual(0.75);
  });

  it('a strict check fails by default and passes when skipped; warnings are kept', async () => {
    // A 6 h gap inside the first rest step, and a column outside the canonical set.
    const gapped = withColumns(cols, (c) => {
      c['Time [s]'] = c['Time [s]']!.map((t, i) => (i >= 200 ? (t as number) + 21_600 : t));
      c['Operator'] = c['Time [s]']!.map(() => 7);
    });
    const names = [...withoutCumulative(cols), 'Operator'];
    const strict = await processed(toCsv(gapped, 0, ROWS, names));
    expect(strict.report.processing_status).toBe('failed');
    expect(strict.codes).toContain('time_gap_too_large');
    expect(strict.report.issues.find((i: { code: string }) => i.code === 'time_gap_too_large').payload.row_index).toBe(
      200,
    );

    const relaxed = await processed(toCsv(gapped, 0, ROWS, names), { validation: { skip_checks: ['TIME_GAPS'] } });
    expect(relaxed.report.processing_status, JSON.stringify(relaxed.report.issues)).toBe('ready');
    expect(relaxed.codes).not.toContain('time_gap_too_large');
    const dropped = relaxed.report.issues.find((i: { code: string }) => i.code === 'unknown_columns_dropped');
    expect(dropped.severity).toBe('warning');
    expect(dropped.payload.columns).toEqual(['Operator']);
    expect(relaxed.report.warning_count).toBeGreaterThan(0);
  });

  it('refuses confirm with nothing uploaded, with a mismatched body, and for another organization', async () => {
    const init = await initiate(env);
    const missing = await env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
      cell_instance_id: env.lab.instance.id,
    });
    expect(missing.status).toBe(409);
    expect(missing.body.message).toMatch(/nothing was uploaded for time_series\.parquet/);
    expect(missing.body.detail.missing[0].path).toBe(init.uploads[0].path);

    await put(init.uploads[0].signed_url, toCsv(cols, 0, 100));
    const wrongCell = await env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
      cell_instance_id: env.org.organization_id,
    });
    expect(wrongCell.status).toBe(422);
    expect(wrongCell.body.detail[0].loc).toEqual(['body', 'cell_instance_id']);

    const other = await newOrg(env.api.orm);
    const stranger = client(env.api.url, other.api_key);
    const foreign = await stranger.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
      cell_instance_id: env.lab.instance.id,
    });
    expect(foreign.status).toBe(403);
    expect(JSON.stringify(foreign.body)).not.toContain(env.lab.instance.id);
    expect(
      (
        await stranger.post(`/cell_instances/${env.lab.instance.id}/cell_measurements/initiate-upload`, {
          measurement: { name: 'x' },
        })
      ).status,
    ).toBe(403);
    expect((await env.c.get(`/cell_measurements/${init.measurement_id}`)).status).toBe(404); // nothing was created

    expect(
      (await env.c.post(`/cell_measurements/not-a-uuid/confirm-upload`, { cell_instance_id: env.lab.instance.id }))
        .status,
    ).toBe(422);
    expect(
      (
        await env.c.post(`/cell_measurements/${crypto.randomUUID()}/confirm-upload`, {
          cell_instance_id: env.lab.instance.id,
        })
      ).status,
    ).toBe(404);
  });

  it('refuses bad initiate bodies with the field named', async () => {
    const base = `/cell_instances/${env.lab.instance.id}/cell_measurements/initiate-upload`;
    const noFiles = await env.c.post(base, { measurement: { name: 'F' }, measurement_type: 'file' });
    expect(noFiles.status).toBe(422);
    expect(noFiles.body.detail[0].loc).toEqual(['body', 'filenames']);
    const dup = await env.c.post(base, {
      measurement: { name: 'F' },
      measurement_type: 'file',
      filenames: ['a.csv', 'a.csv'],
    });
    expect(dup.body.detail[0].loc).toEqual(['body', 'filenames', 1]);
    const path = await env.c.post(base, {
      measurement: { name: 'F' },
      measurement_type: 'file',
      filenames: ['../etc/passwd'],
    });
    expect(path.status).toBe(422);
    const type = await env.c.post(base, { measurement: { name: 'F' }, measurement_type: 'video' });
    expect(type.status).toBe(422);
    expect((await env.c.post(base, {})).status).toBe(422);
    expect(
      (
        await env.c.post(`/cell_instances/${crypto.randomUUID()}/cell_measurements/initiate-upload`, {
          measurement: { name: 'x' },
        })
      ).status,
    ).toBe(404);
  });

  it('a replayed signed PUT is refused', async () => {
    const init = await initiate(env);
    expect((await put(init.uploads[0].signed_url, toCsv(cols, 0, 100))).status).toBe(200);
    expect((await put(init.uploads[0].signed_url, 'Time [s]\n0\n')).status).toBe(409);
  });
});

describe('measurement data: expiry, size limits and reads while processing', () => {
  const apis: TestApi[] = [];
  afterAll(async () => {
    await Promise.allSettled(apis.map((a) => a.close()));
  });

  async function bare(storage: 'fs' | 's3', env: Record<string, string>) {
    const api = await startApi({ config: testConfig(storage, env) });
    apis.push(api);
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    return { api, c, lab: await labFixture(c, { channels: 1 }) };
  }

  it('an expired target is refused, and confirming it says to initiate again', async () => {
    const { c, lab } = await bare('fs', { SIGNED_URL_TTL_SECONDS: '1' });
    const init = await ok(
      c.post(`/cell_instances/${lab.instance.id}/cell_measurements/initiate-upload`, { measurement: { name: 'Late' } }),
    );
    await new Promise((r) => setTimeout(r, 2100));
    expect((await put(init.uploads[0].signed_url, 'Time [s]\n0\n')).status).toBe(403);
    const confirm = await c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
      cell_instance_id: lab.instance.id,
    });
    expect(confirm.status).toBe(409);
    expect(confirm.body.detail.expired).toBe(true);
    expect(confirm.body.message).toMatch(/initiate a new upload/);
  });

  it.each(['fs', 's3'] as const)('an upload larger than its %s target is refused and not kept', async (storage) => {
    const { api, c, lab } = await bare(storage, { UPLOAD_MAX_BYTES: '1000' });
    const init = await ok(
      c.post(`/cell_instances/${lab.instance.id}/cell_measurements/initiate-upload`, { measurement: { name: 'Big' } }),
    );
    const big = 'x'.repeat(5000);
    const res = await put(init.uploads[0].signed_url, big);
    if (storage === 'fs') {
      expect(res.status).toBe(413); // the signature carries the limit
    } else {
      expect(res.status).toBe(200); // a presigned S3 PUT cannot carry a limit: confirm enforces it
      const confirm = await c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
        cell_instance_id: lab.instance.id,
      });
      expect(confirm.status).toBe(413);
      expect(confirm.body.detail).toMatchObject({ size: 5000, max_bytes: 1000 });
    }
    expect(await api.storage.head(init.uploads[0].path)).toBeNull();
    expect((await c.get(`/cell_measurements/${init.measurement_id}`)).status).toBe(404);
  });

  it('reads and extends of a measurement still processing answer 409 with processing_status', async () => {
    // No worker polls this API's task queues: the measurement stays pending.
    const { c, lab } = await bare('fs', {});
    const init = await ok(
      c.post(`/cell_instances/${lab.instance.id}/cell_measurements/initiate-upload`, { measurement: { name: 'Busy' } }),
    );
    await put(init.uploads[0].signed_url, 'Time [s],Current [A],Voltage [V],Step count\n0,0,3.5,0\n1,0,3.5,0\n');
    const confirmed = await ok(
      c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, { cell_instance_id: lab.instance.id }),
      201,
    );
    expect(confirmed).toMatchObject({ processing_status: 'pending', steps_created: 0 });
    for (const p of ['time_series/download', 'steps/download', 'steps_and_cycles', 'cycles', 'time_series']) {
      const r = await c.get(`/cell_measurements/${init.measurement_id}/${p}`);
      expect(r.status, p).toBe(409);
      expect(r.body.detail.processing_status).toBe('pending');
    }
    const extend = await c.post(`/cell_measurements/${init.measurement_id}/initiate-extend`);
    expect(extend.status).toBe(409);
    expect(extend.body.detail.processing_status).toBe('pending');
    const report = await ok(c.get(`/cell_measurements/${init.measurement_id}/validation`));
    expect(report).toMatchObject({ processing_status: 'pending', issues: [] });
  });
});

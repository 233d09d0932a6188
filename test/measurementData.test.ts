// Measurement data end to end on both storage drivers: initiate → PUT → confirm → ready →
// downloads equal the upload; extend success and failure; files byte for byte.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMeasurement } from '../db/repositories/measurementData.ts';
import { workflowIdOf } from '../api/services/measurementProcessing.ts';
import { MAX_SERIES_CELLS } from '../api/services/measurementReads.ts';
import { downsample, openParquet } from '../api/services/parquetColumns.ts';
import { overviewKey } from '../storage/measurementKeys.ts';
import { ok } from './inventoryHelpers.ts';
import {
  dataEnv,
  download,
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

const ROWS = 20_000;
const CYCLES = 4;
const SPLIT = 12_345; // inside a step: the extension continues it
const LONG_ROWS = 120_000; // long enough for processing to store a plot overview

function expectSameColumns(actual: Columns, expected: Columns, names = Object.keys(expected)) {
  for (const name of names) {
    expect(actual[name], `column ${name}`).toBeDefined();
    expect(actual[name]!.length, `rows of ${name}`).toBe(expected[name]!.length);
    const mismatch = actual[name]!.findIndex((v, i) => v !== expected[name]![i]);
    expect(
      mismatch,
      `${name} differs at row ${mismatch}: ${actual[name]![mismatch]} vs ${expected[name]![mismatch]}`,
    ).toBe(-1);
  }
}

describe.each(['fs', 's3'] as const)('measurement data on %s storage', (storage) => {
  let env: DataEnv;
  let original: Buffer;
  let columns: Columns;

  beforeAll(async () => {
    env = await dataEnv(storage);
    original = await generatedSeries(ROWS, CYCLES);
    columns = await readParquet(original);
  });
  afterAll(async () => env?.close());

  it('initiate offers a time_series and a steps target with signed PUT URLs', async () => {
    const init = await initiate(env);
    expect(init.measurement_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(init.uploads.map((u: { filename: string }) => u.filename)).toEqual(['time_series.parquet', 'steps.parquet']);
    for (const u of init.uploads) {
      expect(u.path).toContain(`/measurements/${init.measurement_id}/`);
      expect(u.token).toBeTruthy();
      expect(u.multipart).toBeNull(); // neither test server mints scoped credentials
    }
    // No record exists until confirm.
    expect((await env.c.get(`/cell_measurements/${init.measurement_id}`)).status).toBe(404);
  });

  it('confirm-upload links the protocol by protocol_id; an unknown one is 422 and creates nothing', async () => {
    const template = await ok(
      env.c.post('/protocols/parse-to-template', {
        protocol_experiment: { protocol: 'Discharge at 1C until 2.5 V', name: '1C' },
        project_id: env.lab.project.id,
        experiment_parameters: {},
      }),
    );
    const init = await initiate(env);
    expect((await put(init.uploads[0].signed_url, original)).ok).toBe(true);
    const confirm = (protocolId: string) =>
      env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
        cell_instance_id: env.lab.instance.id,
        measurement: { name: 'With protocol', protocol_id: protocolId },
      });
    const unknown = await confirm('00000000-0000-4000-8000-00000000beef');
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'measurement', 'protocol_id']);
    expect((await env.c.get(`/cell_measurements/${init.measurement_id}`)).status).toBe(404);
    const confirmed = await confirm(template.template_id);
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.protocol_id).toBe(template.template_id);
  });

  it('processes a gzip-compressed upload (Content-Encoding: gzip) as the series it holds', async () => {
    const init = await initiate(env);
    const compressed = gzipSync(toCsv(columns));
    const res = await fetch(init.uploads[0].signed_url, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/csv', 'Content-Encoding': 'gzip' },
      body: compressed,
    });
    expect(res.ok, await res.text()).toBe(true);
    await ok(
      env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
        cell_instance_id: env.lab.instance.id,
        measurement: {},
      }),
      201,
    );
    const report = await settled(env, init.measurement_id);
    expect(report.processing_status, JSON.stringify(report.issues)).toBe('ready');
    expectSameColumns(
      await readParquet(await download(env, `/cell_measurements/${init.measurement_id}/time_series/download`)),
      columns,
    );
  });

  it('processes an uploaded Parquet series and serves it back value for value', async () => {
    const id = await uploadSeries(env, original);
    const report = await settled(env, id);
    expect(report.processing_status, JSON.stringify(report.issues)).toBe('ready');
    expect(report.error_count).toBe(0);

    const stored = await readParquet(await download(env, `/cell_measurements/${id}/time_series/download`));
    expectSameColumns(stored, columns);

    const steps = await readParquet(await download(env, `/cell_measurements/${id}/steps/download`));
    expect(steps['Step count']).toEqual([...Array(5 * CYCLES).keys()]);
    expect(new Set(steps['Step type'])).toEqual(
      new Set(['Rest', 'Constant current charge', 'Constant voltage charge', 'Constant current discharge']),
    );

    const sc = await ok(env.c.get(`/cell_measurements/${id}/steps_and_cycles`));
    expect(sc.steps['Step count']).toEqual(steps['Step count']);
    expect(sc.cycles['Cycle count']).toEqual([...Array(CYCLES).keys()]);
    expect(await ok(env.c.get(`/cell_measurements/${id}/cycles`))).toEqual({ cycles: sc.cycles });

    const record = await ok(env.c.get(`/cell_measurements/${id}`));
    expect(record.processing_status).toBe('ready');
    expect(Number(record.row_count)).toBe(ROWS);
    // Storage keys and the raw report stay internal; the list answers the same record.
    for (const internal of ['time_series_key', 'steps_key', 'cycles_key', 'validation_report', 'extending_version']) {
      expect(record).not.toHaveProperty(internal);
    }
    const listed = await ok(env.c.get(`/cell_instances/${record.cell_instance_id}/cell_measurements`));
    expect(listed.items.find((m: { id: string }) => m.id === id)).toEqual(record);

    // The plot endpoint: LTTB keeps the first and last rows and at most max_points rows.
    const plot = await ok(
      env.c.get(
        `/cell_measurements/${id}/time_series?columns=${encodeURIComponent('Time [s],Voltage [V]')}&max_points=500`,
      ),
    );
    expect(plot).toMatchObject({ row_count: ROWS, point_count: 500, downsampled: true, method: 'lttb' });
    expect(plot.columns['Time [s]'][0]).toBe(columns['Time [s]']![0]);
    expect(plot.columns['Time [s]'].at(-1)).toBe(columns['Time [s]']!.at(-1));
    const times: number[] = plot.columns['Time [s]'];
    expect(times.every((t, i) => i === 0 || t > times[i - 1]!)).toBe(true);
    // Every returned point is a stored row, voltage and time together.
    const byTime = new Map(columns['Time [s]']!.map((t, i) => [t, columns['Voltage [V]']![i]]));
    expect(times.every((t, i) => byTime.get(t) === plot.columns['Voltage [V]'][i])).toBe(true);
    // Below max_points every row comes back as stored.
    const all = await ok(
      env.c.get(`/cell_measurements/${id}/time_series?columns=${encodeURIComponent('Current [A]')}&max_points=1000000`),
    );
    expect(all.downsampled).toBe(false);
    expect(all.columns['Current [A]']).toEqual(columns['Current [A]']);

    // A repeated key names a list as the comma form does (wire conventions).
    const repeated = await ok(
      env.c.get(
        `/cell_measurements/${id}/time_series?columns=${encodeURIComponent('Time [s]')}` +
          `&columns=${encodeURIComponent('Voltage [V]')}&max_points=500`,
      ),
    );
    expect(repeated.columns).toEqual(plot.columns);

    const bad = await env.c.get(
      `/cell_measurements/${id}/time_series?columns=${encodeURIComponent('Voltage [V],Nope')}`,
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'columns']);
  });

  it('serves plots of a long series from the overview that processing stores next to it', async () => {
    const id = await uploadSeries(env, await generatedSeries(LONG_ROWS, 20));
    expect((await settled(env, id)).processing_status).toBe('ready');
    const stored = (await findMeasurement(env.api.orm.em.fork(), id))!;
    const overview = await openParquet(env.api.storage, overviewKey(stored.time_series_key!));
    expect(overview.rowCount).toBe(20_000);

    const names = ['Time [s]', 'Voltage [V]', 'Current [A]'];
    const plot = await ok(
      env.c.get(`/cell_measurements/${id}/time_series?columns=${encodeURIComponent(names.join(','))}&max_points=1000`),
    );
    expect(plot).toMatchObject({ row_count: LONG_ROWS, point_count: 1000, downsampled: true, method: 'lttb' });
    // The overview's own LTTB at 1,000 points: rows of the series, its first and last among them.
    const fromOverview = await downsample(overview, names, 1000, { x: 'Time [s]', y: 'Voltage [V]' });
    expect(plot.columns).toEqual(fromOverview.columns);
    const series = await readParquet(await download(env, `/cell_measurements/${id}/time_series/download`));
    expect(plot.columns['Time [s]'][0]).toBe(series['Time [s]']![0]);
    expect(plot.columns['Time [s]'].at(-1)).toBe(series['Time [s]']!.at(-1));
    const row = new Map(series['Time [s]']!.map((t, i) => [t, i]));
    const times: number[] = plot.columns['Time [s]'];
    expect(times.every((t, k) => names.every((c) => series[c]![row.get(t)!] === plot.columns[c][k]))).toBe(true);

    // More points than the overview holds come from the series itself.
    const fine = await ok(
      env.c.get(`/cell_measurements/${id}/time_series?columns=${encodeURIComponent('Time [s]')}&max_points=30000`),
    );
    expect(fine).toMatchObject({ row_count: LONG_ROWS, point_count: 30_000, downsampled: true });

    // Every column of every row would be more values than one answer may hold: refused at
    // max_points, naming the most it may be for these columns, which is then answered.
    const columnCount = Object.keys(series).length;
    expect(columnCount * LONG_ROWS).toBeGreaterThan(MAX_SERIES_CELLS);
    const whole = await env.c.get(`/cell_measurements/${id}/time_series?max_points=1000000`);
    expect(whole.status, whole.text).toBe(422);
    expect(whole.body.detail[0]).toMatchObject({
      loc: ['query', 'max_points'],
      ctx: { le: Math.floor(MAX_SERIES_CELLS / columnCount) },
    });
    const most = await ok(env.c.get(`/cell_measurements/${id}/time_series?max_points=${whole.body.detail[0].ctx.le}`));
    expect(most.point_count).toBe(Math.floor(MAX_SERIES_CELLS / columnCount));
    expect(Object.keys(most.columns)).toHaveLength(columnCount);
  });

  const extendingALongSeriesTitle =
    'extending a long series writes the new version its overview and retires the previous ' + 'one with its series';
  it(extendingALongSeriesTitle, async () => {
    const long = await readParquet(await generatedSeries(LONG_ROWS, 20));
    const split = 110_000;
    const id = await uploadSeries(env, toCsv(long, 0, split), {
      measurement: { name: 'Long', start_time: new Date().toISOString() },
    });
    expect((await settled(env, id)).processing_status).toBe('ready');
    const first = (await findMeasurement(env.api.orm.em.fork(), id))!.time_series_key!;
    expect(await env.api.storage.head(overviewKey(first))).not.toBeNull();

    const extend = await ok(env.c.post(`/cell_measurements/${id}/initiate-extend`), 201);
    expect((await put(extend.uploads[0].signed_url, toCsv(long, split, LONG_ROWS))).ok).toBe(true);
    await ok(env.c.post(`/cell_measurements/${id}/confirm-extend`));
    expect((await settled(env, id)).processing_status).toBe('ready');
    const second = (await findMeasurement(env.api.orm.em.fork(), id))!;
    expect(second.time_series_key).not.toBe(first);
    expect(await env.api.storage.head(overviewKey(second.time_series_key!))).not.toBeNull();
    const plot = await ok(
      env.c.get(`/cell_measurements/${id}/time_series?columns=${encodeURIComponent('Time [s]')}&max_points=500`),
    );
    expect(plot).toMatchObject({ row_count: LONG_ROWS, point_count: 500 });
    expect(plot.columns['Time [s]'].at(-1)).toBe(long['Time [s]']!.at(-1));

    // The extend's workflow deletes the previous version after a grace period: its overview too.
    const history = await env.api.temporal.workflow
      .getHandle(workflowIdOf(id, 'extend', second.data_version))
      .fetchHistory();
    const scheduled = history.events!.find(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'finishMeasurementProcessing',
    )!;
    const completed = history.events!.find(
      (e) => e.activityTaskCompletedEventAttributes?.scheduledEventId?.toString() === scheduled.eventId?.toString(),
    )!;
    const result = JSON.parse(
      Buffer.from(completed.activityTaskCompletedEventAttributes!.result!.payloads![0]!.data!).toString('utf8'),
    );
    expect(result.obsoleteKeys).toEqual(expect.arrayContaining([first, overviewKey(first)]));
  });

  it('confirming twice is idempotent and starts processing once', async () => {
    const init = await initiate(env);
    expect((await put(init.uploads[0].signed_url, toCsv(columns, 0, 2000))).ok).toBe(true);
    const body = { cell_instance_id: env.lab.instance.id, measurement: { name: 'Twice' } };
    const [a, b] = await Promise.all([
      env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, body),
      env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, body),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.id).toBe(init.measurement_id);
    expect((await settled(env, init.measurement_id)).processing_status).toBe('ready');
    const again = await ok(env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, body), 200);
    expect(again.processing_status).toBe('ready');
    const list = await ok(env.c.get(`/cell_instances/${env.lab.instance.id}/cell_measurements?name=eq.Twice`));
    expect(list.total).toBe(1);
  });

  it('extends a running measurement atomically, and a refused extension leaves the series as it was', async () => {
    const id = await uploadSeries(env, toCsv(columns, 0, SPLIT), {
      measurement: { name: 'Extended', start_time: new Date().toISOString() },
    });
    expect((await settled(env, id)).processing_status).toBe('ready');
    const before = await ok(env.c.get(`/cell_measurements/${id}`));

    // A delta that starts before the last stored sample is refused.
    const bad = await ok(env.c.post(`/cell_measurements/${id}/initiate-extend`), 201);
    expect(bad.uploads).toHaveLength(1);
    expect(bad.uploads[0].filename).toBe('time_series_extend.parquet');
    // One extend in flight: a second initiate is 409, and offers the in-flight target again
    // (a script that lost the first answer finishes that extend with it).
    const again = await env.c.post(`/cell_measurements/${id}/initiate-extend`);
    expect(again.status).toBe(409);
    expect(again.body.detail.uploads).toHaveLength(1);
    expect(again.body.detail.uploads[0]).toMatchObject({
      filename: 'time_series_extend.parquet',
      path: bad.uploads[0].path,
    });
    expect((await put(again.body.detail.uploads[0].signed_url, toCsv(columns, SPLIT - 10, ROWS))).ok).toBe(true);
    const pending = await ok(env.c.post(`/cell_measurements/${id}/confirm-extend`));
    expect(pending.processing_status).toBe('pending');
    // While it processes, the stored series stays readable.
    expect((await env.c.get(`/cell_measurements/${id}/steps_and_cycles`)).status).toBe(200);
    const refused = await settled(env, id);
    expect(refused.processing_status).toBe('ready');
    expect(refused.mode).toBe('extend');
    expect(refused.issues.map((i: { code: string }) => i.code)).toContain('extend_not_after_last_sample');
    const afterRefusal = await ok(env.c.get(`/cell_measurements/${id}`));
    expect(afterRefusal.processing_error).toMatch(/after|last/i);
    expect(afterRefusal.data_version).toBe(0);
    const storedAfterRefusal = await readParquet(await download(env, `/cell_measurements/${id}/time_series/download`));
    expect(storedAfterRefusal['Time [s]']).toEqual(columns['Time [s]']!.slice(0, SPLIT));

    // An extend initiated and abandoned (its target expired) gives its version up: the next
    // one takes a new version, neither the refused one's nor the abandoned one's.
    const abandoned = await ok(env.c.post(`/cell_measurements/${id}/initiate-extend`), 201);
    expect(abandoned.uploads[0].path).toContain('/extend-v2/');
    await env.api.orm.em.fork().execute(
      `update measurement_upload_sessions set expires_at = now() - interval '1 second' where measurement_id = ?
          and version = 2`,
      [id],
    );

    // The right delta is appended; processing_error clears; data_updated_at moves on.
    const good = await ok(env.c.post(`/cell_measurements/${id}/initiate-extend`), 201);
    expect(good.uploads[0].path).toContain('/extend-v3/');
    expect((await put(good.uploads[0].signed_url, toCsv(columns, SPLIT, ROWS))).ok).toBe(true);
    const started = await ok(env.c.post(`/cell_measurements/${id}/confirm-extend`));
    expect(started.processing_error).toBeNull();
    expect((await settled(env, id)).processing_status).toBe('ready');
    const after = await ok(env.c.get(`/cell_measurements/${id}`));
    expect(after.processing_error).toBeNull();
    expect(after.data_version).toBeGreaterThan(0);
    expect(new Date(after.data_updated_at).getTime()).toBeGreaterThan(new Date(before.data_updated_at).getTime());
    expectSameColumns(await readParquet(await download(env, `/cell_measurements/${id}/time_series/download`)), columns);
    const steps = await ok(env.c.get(`/cell_measurements/${id}/steps_and_cycles`));
    expect(steps.steps['Step count']).toEqual([...Array(5 * CYCLES).keys()]);

    // Confirming the same extend again changes nothing.
    expect((await ok(env.c.post(`/cell_measurements/${id}/confirm-extend`))).processing_status).toBe('ready');
    // An ended measurement cannot be extended.
    await ok(env.c.patch(`/cell_measurements/${id}`, { end_time: new Date().toISOString() }));
    const ended = await env.c.post(`/cell_measurements/${id}/initiate-extend`);
    expect(ended.status).toBe(409);
    expect(ended.body.message).toMatch(/end_time/);
  });

  it('stores files byte for byte, in the order given', async () => {
    const names = ['cycler export.csv', 'notes ü.txt', 'raw.bin'];
    const contents = [
      Buffer.from('a,b\n1,2\n'),
      Buffer.from('Grüße\n'),
      Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 37) % 256)),
    ];
    const init = await initiate(env, { measurement_type: 'file', filenames: names });
    expect(init.uploads.map((u: { filename: string }) => u.filename)).toEqual(names);
    for (let i = 0; i < names.length; i++) expect((await put(init.uploads[i].signed_url, contents[i]!)).ok).toBe(true);
    const confirmed = await ok(
      env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
        cell_instance_id: env.lab.instance.id,
        measurement_type: 'file',
        filenames: names,
        measurement: { name: 'Files' },
      }),
      201,
    );
    expect(confirmed.processing_status).toBe('pending');
    expect((await settled(env, init.measurement_id)).processing_status).toBe('ready');
    expect(await ok(env.c.get(`/cell_measurements/${init.measurement_id}/files`))).toEqual({ filenames: names });
    for (let i = 0; i < names.length; i++) {
      const bytes = await download(
        env,
        `/cell_measurements/${init.measurement_id}/files/${encodeURIComponent(names[i]!)}`,
      );
      expect(bytes.equals(contents[i]!)).toBe(true);
    }
    expect((await env.c.get(`/cell_measurements/${init.measurement_id}/files/missing.txt`)).status).toBe(404);
    expect((await env.c.get(`/cell_measurements/${init.measurement_id}/time_series/download`)).status).toBe(409);
  });

  it('deleting a measurement removes its stored objects in the background', async () => {
    const id = await uploadSeries(env, toCsv(columns, 0, 1000));
    expect((await settled(env, id)).processing_status).toBe('ready');
    const prefix = `orgs/${env.org.organization_id}/projects/${env.lab.project.id}/measurements/${id}/`;
    expect((await env.api.storage.list(prefix)).length).toBeGreaterThan(0);
    await ok(env.c.delete(`/cell_measurements/${id}`));
    await expect.poll(() => env.api.storage.list(prefix), { timeout: 30_000 }).toEqual([]);
    const gone = await env.c.post(`/cell_measurements/${id}/confirm-upload`, { cell_instance_id: env.lab.instance.id });
    expect(gone.status).toBe(410);
  });
});

// What is confirmed cannot be rewritten: the signed PUT URLs of an upload stay valid after its
// confirm (S3 cannot revoke a presigned URL), so confirm copies each upload to a key no URL or
// scoped credential names, and processing and downloads read that copy. Both storage drivers;
// the S3 one against the test stack's S3-compatible server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  type Columns,
  type DataEnv,
} from './measurementDataHelpers.ts';

describe.each(['fs', 's3'] as const)('confirmed uploads on %s storage', (storage) => {
  let env: DataEnv;
  let columns: Columns;
  beforeAll(async () => {
    env = await dataEnv(storage);
    columns = await readParquet(await generatedSeries(2000, 1));
  });
  afterAll(async () => env?.close());

  it('serves a confirmed file as confirmed after a rewrite through its still-valid signed URL', async () => {
    const init = await initiate(env, { measurement_type: 'file', filenames: ['run.txt'] });
    const url = init.uploads[0].signed_url;
    expect((await put(url, 'the bytes confirmed\n')).ok).toBe(true);
    await ok(
      env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
        cell_instance_id: env.lab.instance.id,
        measurement_type: 'file',
        filenames: ['run.txt'],
      }),
      201,
    );
    // The filesystem driver refuses other bytes on a used target; S3 takes them, on the upload's own key.
    const rewrite = await put(url, 'bytes written after the confirm\n');
    expect(rewrite.status).toBe(storage === 'fs' ? 409 : 200);
    expect((await settled(env, init.measurement_id)).processing_status).toBe('ready');
    const served = await download(env, `/cell_measurements/${init.measurement_id}/files/run.txt`);
    expect(served.toString()).toBe('the bytes confirmed\n');
  });

  it('processes the series confirmed, not one written to its signed URL afterwards', async () => {
    const init = await initiate(env);
    const url = init.uploads[0].signed_url;
    expect((await put(url, toCsv(columns, 0, 300))).ok).toBe(true);
    await ok(
      env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, { cell_instance_id: env.lab.instance.id }),
      201,
    );
    const rewrite = await put(url, toCsv(columns, 1000, 1040));
    expect(rewrite.status).toBe(storage === 'fs' ? 409 : 200);
    const done = await settled(env, init.measurement_id);
    expect(done.processing_status, JSON.stringify(done).slice(0, 600)).toBe('ready');
    const record = await ok(env.c.get(`/cell_measurements/${init.measurement_id}`));
    expect(Number(record.row_count)).toBe(300);
    const plot = await ok(
      env.c.get(
        `/cell_measurements/${init.measurement_id}/time_series?columns=${encodeURIComponent('Time [s]')}` +
          `&max_points=1000`,
      ),
    );
    expect(plot.columns['Time [s]']).toEqual(columns['Time [s]']!.slice(0, 300));
  });
});

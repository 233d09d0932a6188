// Builders for the measurement-data suites: an API with both workers, generated series
// (the Python worker's generator), CSV crafting, signed PUTs and Parquet decoding.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parquetMetadata, parquetRead } from 'hyparquet';
import { expect, inject } from 'vitest';
import { ROOT, type Config } from '../stack/config.ts';
import {
  client,
  eventually,
  newOrg,
  startApi,
  startPythonWorker,
  startWorker,
  type StorageKind,
  type TestApi,
} from './harness.ts';
import { labFixture, ok } from './inventoryHelpers.ts';

export type Columns = Record<string, (number | string | null)[]>;

export interface DataEnv {
  api: TestApi;
  c: ReturnType<typeof client>;
  org: Awaited<ReturnType<typeof newOrg>>;
  lab: Awaited<ReturnType<typeof labFixture>>;
  close(): Promise<void>;
}

/** The API, the TypeScript and Python workers, an organization and a cell to measure. */
export async function dataEnv(storage: StorageKind, opts: { config?: Config } = {}): Promise<DataEnv> {
  const api = await startApi(opts.config ? { config: opts.config } : { storage });
  const worker = await startWorker(api);
  const python = startPythonWorker(api.config);
  const org = await newOrg(api.orm);
  const c = client(api.url, org.api_key);
  const lab = await labFixture(c, { channels: 1 });
  return {
    api,
    c,
    org,
    lab,
    async close() {
      await Promise.allSettled([worker.stop(), python.stop()]);
      await api.close();
    },
  };
}

const run = promisify(execFile);

// Generated series are cached per test file, inside the run's directory, which the global
// teardown removes.
let cacheDir: string | undefined;
function seriesDir(): string {
  cacheDir ??= fs.mkdtempSync(path.join(inject('runDir'), 'series-'));
  return cacheDir;
}

/** A realistic cycling series written by pyworker's generator (Parquet, or CSV for a .csv name). */
export async function generatedSeries(
  rows: number,
  cycles: number,
  name = `series-${rows}-${cycles}.parquet`,
): Promise<Buffer> {
  const file = path.join(seriesDir(), name);
  if (!fs.existsSync(file)) {
    await run(
      path.join(ROOT, '.tools', 'venv', 'bin', 'python'),
      ['-m', 'cellar_worker.measurements.generate', file, String(rows), String(cycles)],
      {
        cwd: path.join(ROOT, 'pyworker'),
      },
    );
  }
  return fs.readFileSync(file);
}

export async function readParquet(bytes: Uint8Array): Promise<Columns> {
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const metadata = parquetMetadata(buf);
  const names = metadata.schema.slice(1).map((s) => s.name);
  const out: Columns = Object.fromEntries(names.map((n) => [n, []]));
  await parquetRead({
    file: buf,
    metadata,
    rowFormat: 'object',
    onComplete(rows) {
      for (const row of rows)
        for (const n of names) out[n]!.push(typeof row[n] === 'bigint' ? Number(row[n]) : (row[n] ?? null));
    },
  });
  return out;
}

/** Rows [from, to) as CSV with the given header; JS number text round-trips float64 exactly. */
export function toCsv(cols: Columns, from = 0, to = Infinity, names = Object.keys(cols)): string {
  const n = Math.min(to, cols[names[0]!]!.length);
  const lines = [names.map((h) => (h.includes(',') ? `"${h}"` : h)).join(',')];
  for (let i = from; i < n; i++)
    lines.push(names.map((h) => (cols[h]![i] == null ? '' : String(cols[h]![i]))).join(','));
  return `${lines.join('\n')}\n`;
}

export async function put(url: string, body: Uint8Array | string): Promise<Response> {
  return fetch(url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body });
}

export async function initiate(env: DataEnv, body: Record<string, unknown> = {}) {
  return ok(
    env.c.post(`/cell_instances/${env.lab.instance.id}/cell_measurements/initiate-upload`, {
      measurement: { name: `Run ${Date.now()}` },
      ...body,
    }),
  );
}

/** initiate → PUT the series (and steps) → confirm; returns the measurement id. */
export async function uploadSeries(
  env: DataEnv,
  series: Uint8Array | string,
  opts: { measurement?: Record<string, unknown>; steps?: Uint8Array } = {},
): Promise<string> {
  const init = await initiate(env);
  expect((await put(init.uploads[0].signed_url, series)).ok).toBe(true);
  if (opts.steps) expect((await put(init.uploads[1].signed_url, opts.steps)).ok).toBe(true);
  const confirmed = await ok(
    env.c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
      cell_instance_id: env.lab.instance.id,
      measurement: opts.measurement ?? {},
    }),
    201,
  );
  expect(confirmed.processing_status).toBe('pending');
  return init.measurement_id;
}

/** Polls the validation report until processing has finished (confirm sets pending synchronously). */
export async function settled(env: DataEnv, id: string, timeoutMs = 90_000) {
  return eventually(
    async () => {
      const r = await env.c.get(`/cell_measurements/${id}/validation`);
      return ['ready', 'failed'].includes(r.body.processing_status) ? r.body : null;
    },
    { timeoutMs, intervalMs: 300, what: `measurement ${id} to finish processing` },
  );
}

/** Follows a download redirect (no API key sent to storage) and returns the bytes. */
export async function download(env: DataEnv, p: string): Promise<Buffer> {
  const res = await fetch(env.api.url + p, { headers: { 'X-API-Key': env.org.api_key }, redirect: 'manual' });
  expect(res.status, await res.clone().text()).toBe(302);
  const target = await fetch(res.headers.get('location')!);
  expect(target.status).toBe(200);
  return Buffer.from(await target.arrayBuffer());
}

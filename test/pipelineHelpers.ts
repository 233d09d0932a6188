// Helpers of the pipeline suites: a "measured" discharge made by the Python worker's own
// simulation code (the quick equivalent-circuit model, R0 = 0.02 Ω), as inline columns.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import type { Client } from '@temporalio/client';
import { ROOT } from '../stack/config.ts';
import type { Orm } from '../db/orm.ts';
import { eventually } from './harness.ts';

export const QUICK_MODEL = { kind: 'quick', capacity: 2.0, chemistry: 'NMC/Graphite' };
export const R0 = 'R0 [Ohm]';
export const TRUE_R0 = 0.02;

const SCRIPT = `
import copy, io, json, os, sys, tempfile
os.environ["STORAGE_DRIVER"] = "fs"; os.environ["STORAGE_DIR"] = tempfile.mkdtemp(prefix="fit-data-", dir=sys.argv[3])
import pyarrow.parquet as pq
from cellar_worker import storage
from cellar_worker.simulation import run_simulation
protocol = {"global": {"initial_state_type": "soc_percentage", "initial_state_value": 100},
  "steps": [{"Discharge": {"mode": "C-rate", "value": 1.0, "ends": ["Voltage < 3.3"]}}, {"Rest": {"duration": 600}}]}
run_simulation({"simulation_id": "synthetic", "model": json.loads(sys.argv[1]), "protocol": protocol,
  "inputs": {"R0 [Ohm]": float(sys.argv[2])}, "output_prefix": "synthetic/"})
with storage.open_read("synthetic/time_series.parquet") as h:
    t = pq.read_table(io.BytesIO(h.read()), columns=["Time [s]", "Current [A]", "Voltage [V]"])
cols = {n: t.column(n).to_pylist() for n in t.column_names}
step = max(1, -(-len(cols["Time [s]"]) // 1000))
sys.stdout.write(json.dumps({k: v[::step] for k, v in cols.items()}))
sys.stdout.flush()
# Skip interpreter teardown: a native solver thread can abort it ("terminate called without
# an active exception") after the answer is already written.
os._exit(0)
`;

/** Time [s], Current [A], Voltage [V] of a 1C discharge and rest, at most 1,000 rows (cached per run). */
export async function quickDischarge(): Promise<Record<string, number[]>> {
  const cache = path.join(inject('runDir'), 'quick-discharge.json');
  if (fs.existsSync(cache)) return JSON.parse(fs.readFileSync(cache, 'utf8'));
  const { stdout } = await promisify(execFile)(
    path.join(ROOT, '.tools', 'venv', 'bin', 'python'),
    ['-c', SCRIPT, JSON.stringify(QUICK_MODEL), String(TRUE_R0), inject('runDir')],
    {
      cwd: path.join(ROOT, 'pyworker'),
      env: { ...process.env, PYTHONPATH: '.', PYBAMM_DISABLE_TELEMETRY: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  fs.writeFileSync(cache, stdout);
  return JSON.parse(stdout);
}

/** A fit of the quick model that keeps the Python worker busy until it is canceled. */
export async function endlessFit() {
  return {
    element_type: 'data_fit',
    model: QUICK_MODEL,
    data: await quickDischarge(),
    parameters: { [R0]: { bounds: [0.001, 0.1], initial_value: 0.05 } },
    // Many evaluations and a negligible tolerance: it outlasts any test (200 iterations did not, on an idle host).
    optimizer: { method: 'differential_evolution', max_iterations: 100_000, tolerance: 1e-300 },
  };
}

/** Waits until the element workflow's activity runs in the Python worker: it has heartbeated. */
export async function untilHeartbeating(temporal: Client, elementWorkflowId: string): Promise<void> {
  await eventually(
    async () => {
      const { raw } = await temporal.workflow.getHandle(elementWorkflowId).describe();
      return (raw.pendingActivities ?? []).some((a) => a.heartbeatDetails?.payloads?.length);
    },
    { what: 'the element to run in the Python worker', timeoutMs: 120_000, intervalMs: 250 },
  );
}

/**
 * A cell measurement row with a time series in the given processing state (a db: fit source without processing one).
 */
export async function insertMeasurement(
  orm: Orm,
  orgId: string,
  projectId: string,
  userId: string,
  status: string,
): Promise<string> {
  const em = orm.em.fork();
  const [id, spec, inst] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  await em.execute(
    `insert into cell_specifications (id, organization_id, project_id, name, created_by) values (?, ?, ?, ?, ?)`,
    [spec, orgId, projectId, `spec ${spec}`, userId],
  );
  await em.execute(
    `insert into cell_instances (id, organization_id, project_id, cell_specification_id, name, created_by)
      values (?, ?, ?, ?, ?, ?)`,
    [inst, orgId, projectId, spec, `cell ${inst}`, userId],
  );
  await em.execute(
    `insert into cell_measurements (id, organization_id, project_id, cell_instance_id, name, measurement_type,
      processing_status, time_series_key, created_by)
     values (?, ?, ?, ?, ?, 'time_series', ?, ?, ?)`,
    [
      id,
      orgId,
      projectId,
      inst,
      'm',
      status,
      `orgs/${orgId}/projects/${projectId}/measurements/${id}/time_series.parquet`,
      userId,
    ],
  );
  return id;
}

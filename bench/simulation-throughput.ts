// Sweep throughput against the loops a modeller would write instead, in one run on this
// machine, same PyBaMM (bench/sweep_baselines.py has the loops):
// - 1,000-point quick-model grid (1C discharges of a 5 A.h NMC cell, R0 [Ohm] 0.004-0.012):
//   Cellar against the plain loop (model built per point; timed on a 200-point subset of the
//   same grid, it is slow) and the expert loop (one build, inputs, solutions kept in memory).
//   Targets: >= 10x the plain loop, >= 0.8x the expert loop.
// - 200-point SPMe grid (negative particle diffusivity): >= 0.8x the expert loop.
// - 500 points of a 4-step cycle (discharge, rest, charge, CV hold) on the quick model.
// Each Cellar run sits between two baseline runs and is compared with their mean; the median
// of ROUNDS rounds is reported. The rounds run with the Temporal dev server's state in its
// SQLite file (as `npm start` keeps it), then in memory (as the tests run it).
// Then: CPU per point by process, each process's peak RSS through a 10,000-point sweep, the
// submission latency of a 10,000-point grid (< 2 s), cancel of a running 10,000-point batch
// (answer < 300 ms, every job ended < 5 s), a 1-point batch's latency, and a kill -9 of the
// Python worker at 30 % of a 1,000-point sweep.
// Run: bash stack/node.sh bench/simulation-throughput.ts [rounds]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../stack/config.ts';
import { descendants, processTable } from '../stack/processes.ts';
import { simulationWorkflowIds } from '../workflows/simulationIds.ts';
import { cpuSeconds, PYTHON, startBenchStack } from './benchStack.ts';

const ROUNDS = Number(process.argv[2] ?? 3);
const cores = os.availableParallelism();
const ENV = { SIMULATION_MONTHLY_LIMIT: '100000000' };
const QUICK = { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } };
const ONE_C = 'Discharge at 1C until 2.5V';
const CYCLE = 'Discharge at 1C until 2.5V\nRest for 10 minutes\nCharge at 1C until 4.2V\nHold at 4.2V until C/20';

interface Sweep {
  name: string;
  baseline: 'quick' | 'spme' | 'cycling';
  points: number;
  parameter: string;
  min: number;
  max: number;
  protocol: string;
}
const QUICK_SWEEP: Sweep = {
  name: 'quick',
  baseline: 'quick',
  points: 1000,
  parameter: 'R0 [Ohm]',
  min: 0.004,
  max: 0.012,
  protocol: ONE_C,
};
const SPME_SWEEP: Sweep = {
  name: 'SPMe',
  baseline: 'spme',
  points: 200,
  parameter: 'Negative particle diffusivity [m2.s-1]',
  min: 2e-14,
  max: 6e-14,
  protocol: ONE_C,
};
const CYCLE_SWEEP: Sweep = { ...QUICK_SWEEP, name: '4-step cycle', baseline: 'cycling', points: 500, protocol: CYCLE };
const PLAIN_POINTS = 200;

type Loop = { wall: number; cpu: number; points: number; capacity: number };
const loop = (kind: 'plain' | 'expert', sweep: Sweep, points = sweep.points): Loop =>
  JSON.parse(
    execFileSync(PYTHON, [path.join(ROOT, 'bench', 'sweep_baselines.py'), kind, sweep.baseline, String(points)], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .pop()!,
  );

let stack = await startBenchStack('sweep', ENV, 'file');
const post = async (p: string, body: unknown = {}) => {
  const res = await fetch(stack.url + p, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': stack.key },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${p}: ${res.status} ${text}`);
  return JSON.parse(text);
};
const em = () => stack.orm.em.fork();
let project = await post('/projects', { name: 'Bench' });
const batchOf = async (simulationId: string) =>
  (await em().execute<{ batch_id: string }[]>(`select batch_id from simulations where id = ?`, [simulationId]))[0]!
    .batch_id;

async function submit(model: unknown, sweep: Sweep, points = sweep.points) {
  return post('/simulations/protocol/batch', {
    parameterized_model: model,
    protocol_experiment: { protocol: sweep.protocol, name: sweep.name },
    project_id: project.id,
    force_rerun: true,
    design_parameters_doe: {
      sampling: 'grid',
      rows: [{ type: 'range', name: sweep.parameter, min: sweep.min, max: sweep.max, count: points }],
    },
  }) as Promise<{ simulation_id: string; job_id: string }[]>;
}

/** A batch from submission to its workflow's end (no polling); checks that every job completed. */
async function throughCellar(model: unknown, sweep: Sweep) {
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  const sims = await submit(model, sweep);
  const batchId = await batchOf(sims[0]!.simulation_id);
  await stack.client.workflow.getHandle(simulationWorkflowIds.batch(batchId)).result();
  const wall = (performance.now() - t0) / 1000;
  const cpu1 = cpuSeconds();
  const [row] = await em().execute<{ done: string; capacity: number }[]>(
    `select count(*) filter (where j.status = 'completed') as done,
      avg((s.metrics->>'discharge_capacity_ah')::float) as capacity
       from simulations s join jobs j on j.id = s.job_id where s.batch_id = ?`,
    [batchId],
  );
  if (Number(row!.done) !== sweep.points) throw new Error(`${sweep.name}: ${row!.done} of ${sweep.points} completed`);
  const cpuMs = Object.fromEntries(
    Object.keys(cpu1).map((k) => [k, ((cpu1[k]! - (cpu0[k] ?? 0)) * 1000) / sweep.points]),
  );
  return { wall, capacity: Number(row!.capacity), cpuMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const print = (k: string, v: string) => console.log(`${k.padEnd(70)} ${v}`);
const perPoint = (wall: number, points: number) => `${((wall / points) * 1000).toFixed(2)} ms/point`;

/** ROUNDS Cellar runs, each between two baseline runs; ratios of per-point throughput. */
async function rounds(label: string, model: unknown, sweep: Sweep, withPlain: boolean) {
  await throughCellar(model, { ...sweep, points: 20 }); // builds the model in every solver process
  const baseline = () => ({
    expert: loop('expert', sweep),
    plain: withPlain ? loop('plain', sweep, PLAIN_POINTS) : undefined,
  });
  let before = baseline();
  const vsExpert: number[] = [];
  const vsPlain: number[] = [];
  const cpu: Record<string, number>[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const cellar = await throughCellar(model, sweep);
    const after = baseline();
    const rate = sweep.points / cellar.wall;
    const expertRate = (2 * sweep.points) / (before.expert.wall + after.expert.wall);
    vsExpert.push(rate / expertRate);
    let plainText = '';
    if (before.plain && after.plain) {
      const plainRate = (2 * PLAIN_POINTS) / (before.plain.wall + after.plain.wall);
      vsPlain.push(rate / plainRate);
      plainText = `, plain ${perPoint(1 / plainRate, 1)}`;
    }
    cpu.push(cellar.cpuMs);
    print(
      `  ${label} round ${i + 1}: Cellar ${perPoint(cellar.wall, sweep.points)}`,
      `expert ${perPoint(1 / expertRate, 1)}${plainText}; ` +
        `capacity ${cellar.capacity.toFixed(3)} / ${after.expert.capacity.toFixed(3)} A.h`,
    );
    before = after;
  }
  const cpuLine = Object.keys(cpu[0]!)
    .map((k) => [k, cpu.reduce((s, c) => s + (c[k] ?? 0), 0) / cpu.length] as const)
    .filter(([, v]) => v >= 0.05)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(', ');
  print(`${label}: CPU per point by process (ms)`, cpuLine);
  print(`${label}: Cellar / expert loop, median of ${ROUNDS}`, median(vsExpert).toFixed(2));
  if (vsPlain.length) print(`${label}: Cellar / plain loop, median of ${ROUNDS}`, median(vsPlain).toFixed(2));
}

async function physicsModel() {
  const spmeModel = await post('/models', { name: 'SPMe', config: { type: 'SPMe' } });
  return (
    await post('/parameterized_models', {
      project_id: project.id,
      model_id: spmeModel.id,
      name: 'SPMe',
      parameters: {},
    })
  ).id;
}

/** Peak resident memory of this process and every process it started (VmHWM), by program. */
function peakRss(): Record<string, number> {
  const table = processTable();
  const out: Record<string, number> = {};
  for (const pid of [process.pid, ...descendants(process.pid, table)]) {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      const name = pid === process.pid ? 'node (API + worker)' : `${table.get(pid)!.comm}[${pid}]`;
      if (hwm) out[name] = Number(hwm[1]) / 1024;
    } catch {
      // gone
    }
  }
  return out;
}

let python = stack.startPython({ SIMULATION_CONCURRENCY: String(cores) });
console.log(`sweep throughput on ${cores} cores; Temporal state in its SQLite file (as npm start keeps it)`);
await rounds('quick 1,000 (file)', QUICK, QUICK_SWEEP, true);
const spme = await physicsModel();
await rounds('SPMe 200 (file)', spme, SPME_SWEEP, false);
await rounds('quick 4-step cycle 500 (file)', QUICK, CYCLE_SWEEP, false);

// A 1-point batch with a warm worker, submission to completion.
const single: number[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  const [sim] = await submit(QUICK, { ...QUICK_SWEEP, min: 0.004 + i * 0.001 }, 1);
  await stack.client.workflow.getHandle(simulationWorkflowIds.batch(await batchOf(sim!.simulation_id))).result();
  single.push((performance.now() - t0) / 1000);
}
print('1-point batch, submission to completion, median of 5 (target <= 0.5 s)', `${median(single).toFixed(3)} s`);

// 10,000 points: submission latency, peak memory of every process through the sweep.
const big = { ...QUICK_SWEEP, points: 10_000 };
let t0 = performance.now();
const bigSims = await submit(QUICK, big);
const submitted = (performance.now() - t0) / 1000;
await stack.client.workflow.getHandle(simulationWorkflowIds.batch(await batchOf(bigSims[0]!.simulation_id))).result();
const sweepWall = (performance.now() - t0) / 1000;
print('10,000-point grid: submission latency (target < 2 s)', `${submitted.toFixed(2)} s`);
print('10,000-point grid: submission to last point', `${sweepWall.toFixed(1)} s (${perPoint(sweepWall, 10_000)})`);
print(
  'peak RSS by process through the 10,000-point sweep (MB)',
  Object.entries(peakRss())
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', '),
);

// Cancel of a running 10,000-point batch.
const doomed = await submit(QUICK, big);
const doomedBatch = await batchOf(doomed[0]!.simulation_id);
await new Promise((r) => setTimeout(r, 1500));
t0 = performance.now();
await post(`/simulations/batches/${doomedBatch}/cancel`);
const cancelAnswer = (performance.now() - t0) / 1000;
for (;;) {
  const [open] = await em().execute<{ n: string }[]>(
    `select count(*) as n from simulations s join jobs j on j.id = s.job_id where s.batch_id = ?
      and j.status in ('pending', 'running')`,
    [doomedBatch],
  );
  if (Number(open!.n) === 0) break;
  await new Promise((r) => setTimeout(r, 20));
}
print(
  'cancel of a running 10,000-point batch: answer (target < 0.3 s), all jobs ended (< 5 s)',
  `${cancelAnswer.toFixed(3)} s, ${((performance.now() - t0) / 1000).toFixed(3)} s`,
);
await stack.client.workflow
  .getHandle(simulationWorkflowIds.batch(doomedBatch))
  .result()
  .catch(() => undefined);

// kill -9 of the Python worker (its solver processes too) at 30 % of a 1,000-point sweep.
async function completed(batchId: string) {
  const [row] = await em().execute<{ n: string }[]>(
    `select count(*) as n from simulations s join jobs j on j.id = s.job_id where s.batch_id = ?
      and j.status = 'completed'`,
    [batchId],
  );
  return Number(row!.n);
}
const undisturbed = await throughCellar(QUICK, QUICK_SWEEP);
t0 = performance.now();
const victims = await submit(QUICK, QUICK_SWEEP);
const victimBatch = await batchOf(victims[0]!.simulation_id);
while ((await completed(victimBatch)) < 300) await new Promise((r) => setTimeout(r, 5));
for (const pid of descendants(python.child.pid!)) process.kill(pid, 'SIGKILL');
python.child.kill('SIGKILL');
await python.stop();
python = stack.startPython({ SIMULATION_CONCURRENCY: String(cores) });
await stack.client.workflow.getHandle(simulationWorkflowIds.batch(victimBatch)).result();
const killedWall = (performance.now() - t0) / 1000;
// A job moves to completed once, in the statement that names its pack (a duplicate cannot be
// recorded); the killed attempt's unrecorded pack is removed when the batch ends.
const [check] = await em().execute<{ done: string; named: string }[]>(
  `select count(*) filter (where j.status = 'completed') as done,
    count(*) filter (where s.result_pack is not null) as named
     from simulations s join jobs j on j.id = s.job_id where s.batch_id = ?`,
  [victimBatch],
);
const folder = (
  await em().execute<{ f: string }[]>(`select storage_folder as f from simulations where batch_id = ? limit 1`, [
    victimBatch,
  ])
)[0]!.f;
const packsNamed = (
  await em().execute<{ k: string }[]>(`select distinct result_pack->>'key' as k from simulations where batch_id = ?`, [
    victimBatch,
  ])
).length;
print(
  'kill -9 at 30 % of 1,000 points: seconds lost against an undisturbed run',
  `${(killedWall - undisturbed.wall).toFixed(1)} s (${killedWall.toFixed(1)} s against ` +
    `${undisturbed.wall.toFixed(1)} s)`,
);
const packsStored = new Set(
  (await stack.storage.list(folder)).map((k) => k.replace(/-(time_series|steps)\.parquet$/, '')),
).size;
print(
  '    points lost; points with a result; packs stored / named',
  `${1000 - Number(check!.done)}; ${check!.named}; ${packsStored} / ${packsNamed}`,
);
await python.stop();

// The quick rounds again with the dev server's state in memory, for comparison.
await stack.stop();
stack = await startBenchStack('sweep-memory', ENV, 'memory');
project = await post('/projects', { name: 'Bench' });
python = stack.startPython({ SIMULATION_CONCURRENCY: String(cores) });
await rounds('quick 1,000 (memory)', QUICK, QUICK_SWEEP, false);
await python.stop();
await stack.stop();

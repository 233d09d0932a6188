// Simulation throughput and submission latency, in one run on this machine, same PyBaMM:
// (a) a 200-point grid of 1C discharges of a 5 A.h quick model, submitted through the API
//     and run to completion by one Python worker process, with one activity at a time (like
//     (b)) and with its default concurrency (one per core);
// (b) the same 200 solves in a plain Python loop that builds the PyBaMM model per point;
// then the throughput of (a) over (b) (target >= 1.0), the per-simulation overhead of (a) over
// its pure solve time, the CPU per simulation of (a) over all its processes against (b)'s, and
// the submission latency of a 10,000-point grid (target < 2 s).
// For comparison, (a) and (b) also run a 50-point grid of a physics model (SPMe), whose build
// costs far more than its solve.
// (a) at default concurrency and (b) alternate for ROUNDS rounds, each (a) between two runs of
// (b), and the median ratio is reported: a shared machine's speed drifts within a run, so each
// (a) is compared with the mean of the (b) just before and just after it.
// The rounds run twice: with the Temporal dev server's state in memory (as the tests run it),
// then in its SQLite file (as `npm start` keeps it, durable: each commit is synced).
// Run: bash stack/node.sh bench/simulation-throughput.ts [points] [rounds]
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../stack/config.ts';
import { simulationWorkflowIds } from '../workflows/simulationIds.ts';
import { cpuSeconds, PYTHON, startBenchStack } from './benchStack.ts';

const POINTS = Number(process.argv[2] ?? 200);
const ROUNDS = Number(process.argv[3] ?? 5);
const R0 = { min: 0.004, max: 0.012 };

const ENV = { SIMULATION_MONTHLY_LIMIT: '1000000' };
// The stack being measured: Temporal in memory first, then in its SQLite file (see the top).
let stack = await startBenchStack('sim', ENV, 'memory');
const startPython = (concurrency: number) => stack.startPython({ SIMULATION_CONCURRENCY: String(concurrency) });

const post = async (p: string, body: unknown) => {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json', 'X-API-Key': stack.key };
  const res = await fetch(stack.url + p, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${p}: ${res.status} ${text}`);
  return JSON.parse(text);
};
let project = await post('/projects', { name: 'Bench' });
const em = () => stack.orm.em.fork();
const quick = { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } };
const protocol = { protocol: 'Discharge at 1C until 2.5V', name: '1C' };

/** The workflow of the batch a simulation belongs to. */
async function batchWorkflow(simulationId: string) {
  const [row] = await em().execute<{ batch_id: string }[]>(`select batch_id from simulations where id = ?`, [simulationId]);
  return { batchId: row!.batch_id, handle: stack.client.workflow.getHandle(simulationWorkflowIds.batch(row!.batch_id)) };
}

/** Waits for the batch's workflow to end (no polling, which would take CPU from the run), then checks that every job has ended. */
async function waitForBatch(firstSimulation: string): Promise<void> {
  const { batchId, handle } = await batchWorkflow(firstSimulation);
  await handle.result();
  const [row] = await em().execute<{ open: string }[]>(
    `select count(*) filter (where j.status not in ('completed', 'failed', 'canceled')) as open
       from simulations s join jobs j on j.id = s.job_id where s.batch_id = ?`,
    [batchId],
  );
  if (Number(row!.open) !== 0) throw new Error(`batch ${batchId} ended with ${row!.open} jobs still open`);
}

/**
 * Runs a small batch of `model` to completion: the Python worker then has the model built and
 * cached, and the API and the TypeScript worker have been through a batch of many children once, so
 * the first measured round does not also pay for code V8 has not optimized yet.
 */
async function warmUp(model: unknown, grid?: { name: string; min: number; max: number }): Promise<void> {
  const warm = await post('/simulations/protocol/batch', {
    parameterized_model: model, protocol_experiment: protocol, project_id: project.id, force_rerun: true,
    ...(grid ? { design_parameters_doe: { sampling: 'grid', rows: [{ type: 'range', ...grid, count: 20 }] } } : {}),
  });
  await waitForBatch(warm[0].simulation_id);
}

/** A Python worker running `concurrency` activities at once, warmed up: it has imported PyBaMM and the quick model is cached. */
async function startWarmPython(concurrency: number) {
  const python = startPython(concurrency);
  await warmUp(quick, { name: 'R0 [Ohm]', ...R0 });
  return python;
}

/**
 * A grid of 1C discharges over one parameter: how (a) submits its model, and how (b) builds
 * it in plain PyBaMM (Python expressions).
 */
interface Sweep {
  points: number;
  model: unknown;
  parameter: string;
  min: number;
  max: number;
  plain: { imports: string; values: string; model: string; capacity: string };
}
const QUICK_SWEEP: Sweep = {
  points: POINTS, model: quick, parameter: 'R0 [Ohm]', ...R0,
  plain: {
    imports: 'from cellar_worker.simulation.quick_model import quick_parameter_values',
    values: 'quick_parameter_values(5.0, "NMC/Graphite")',
    model: 'pybamm.equivalent_circuit.Thevenin()',
    capacity: '5.0 * float(solution["Time [s]"].entries[-1]) / 3600', // 1C of 5 A.h is 5 A
  },
};

/** What each simulation added to counters read before and after a run, times `scale`. */
const perSimulation = (points: number, before: Record<string, number>, after: Record<string, number>, scale = 1): Record<string, number> =>
  Object.fromEntries(Object.keys(after).map((k) => [k, ((after[k]! - (before[k] ?? 0)) * scale) / points]));

/** (a): the batch from submission to its last job. */
async function throughAPI(sweep: Sweep = QUICK_SWEEP) {
  const requests0 = await stack.temporalPersistenceRequests();
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  const submitted = await post('/simulations/protocol/batch', {
    parameterized_model: sweep.model, protocol_experiment: protocol, project_id: project.id, force_rerun: true,
    design_parameters_doe: { sampling: 'grid', rows: [{ type: 'range', name: sweep.parameter, min: sweep.min, max: sweep.max, count: sweep.points }] },
  });
  await waitForBatch(submitted[0].simulation_id);
  const wall = (performance.now() - t0) / 1000;
  const cpu1 = cpuSeconds();
  const cpuMs = perSimulation(sweep.points, cpu0, cpu1, 1000);
  const requests = perSimulation(sweep.points, requests0, await stack.temporalPersistenceRequests());
  const [stats] = await em().execute<{ done: string; solve: number; capacity: number }[]>(
    `select count(*) filter (where j.status = 'completed') as done, avg((s.metrics->>'solve_time_s')::float) as solve,
            avg((s.metrics->>'discharge_capacity_ah')::float) as capacity
       from simulations s join jobs j on j.id = s.job_id where s.batch_id = (select batch_id from simulations where id = ?)`,
    [submitted[0].simulation_id],
  );
  return { wall, done: Number(stats!.done), solve: Number(stats!.solve), capacity: Number(stats!.capacity), cpuMs, requests };
}

const cores = os.cpus().length;
let python = await startWarmPython(1);
const a1 = await throughAPI();
await python.stop();
python = await startWarmPython(cores);

// (b) a plain Python loop, building the model for every point.
const plainScript = (sweep: Sweep) => `
import json, time, pybamm
${sweep.plain.imports}
n, lo, hi = ${sweep.points}, ${sweep.min}, ${sweep.max}
capacities = []
t0, c0 = time.perf_counter(), time.process_time()
for i in range(n):
    values = ${sweep.plain.values}
    values["${sweep.parameter}"] = lo + (hi - lo) * i / max(n - 1, 1)
    sim = pybamm.Simulation(${sweep.plain.model}, parameter_values=values,
                            experiment=pybamm.Experiment(["Discharge at 1C until 2.5 V"]))
    solution = sim.solve()
    capacities.append(${sweep.plain.capacity})
print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0, "capacity": sum(capacities) / n}))
`;
const plainLoop = (sweep: Sweep = QUICK_SWEEP): { wall: number; cpu: number; capacity: number } =>
  JSON.parse(execFileSync(PYTHON, ['-c', plainScript(sweep)], { cwd: path.join(ROOT, 'pyworker'), env: { ...process.env, PYBAMM_DISABLE_TELEMETRY: 'true' }, encoding: 'utf8' }).trim().split('\n').pop()!);

type Plain = ReturnType<typeof plainLoop>;
/** One (a) and the runs of (b) just before and just after it (the next round's `before`). */
type Round = { a: Awaited<ReturnType<typeof throughAPI>>; before: Plain; after: Plain };
async function measureRounds(sweep: Sweep = QUICK_SWEEP): Promise<Round[]> {
  const out: Round[] = [];
  let before = plainLoop(sweep);
  for (let i = 0; i < ROUNDS; i++) {
    const a = await throughAPI(sweep);
    const after = plainLoop(sweep);
    out.push({ a, before, after });
    before = after;
  }
  return out;
}
const rounds = await measureRounds();

// The physics model: SPMe with its default parameter set (Chen2020, 5 A.h), warmed up like the quick model.
const spmeModel = await post('/models', { name: 'SPMe', config: { type: 'SPMe' } });
const spme = await post('/parameterized_models', { project_id: project.id, model_id: spmeModel.id, name: 'SPMe', parameters: {} });
const SPME_SWEEP: Sweep = {
  points: 50, model: spme.id, parameter: 'Negative particle diffusivity [m2.s-1]', min: 2e-14, max: 6e-14,
  plain: { imports: '', values: 'pybamm.ParameterValues("Chen2020")', model: 'pybamm.lithium_ion.SPMe()', capacity: 'float(solution["Discharge capacity [A.h]"].entries[-1])' },
};
await warmUp(spme.id);
const spmeRounds = await measureRounds(SPME_SWEEP);
await python.stop();

// (c) submission latency of a 10,000-point grid; the batches are stopped before they run.
const latencies: number[] = [];
for (let i = 0; i < 3; i++) {
  const s = performance.now();
  const big = await post('/simulations/protocol/batch', {
    parameterized_model: quick, protocol_experiment: protocol, project_id: project.id,
    design_parameters_doe: { sampling: 'grid', rows: [
      { type: 'range', name: 'R0 [Ohm]', min: R0.min, max: R0.max, count: 100 },
      { type: 'range', name: 'Initial SOC [%]', min: 50, max: 100 - i, count: 100 },
    ] },
  });
  latencies.push((performance.now() - s) / 1000);
  await (await batchWorkflow(big[0].simulation_id)).handle.terminate('benchmark: submission latency only');
  await new Promise((r) => setTimeout(r, 2000)); // the terminated batch's children settle before the next submission
  if (big.length !== 10_000) throw new Error(`expected 10000 simulations, got ${big.length}`);
}

// The same rounds with Temporal's state in its SQLite file.
await stack.stop();
stack = await startBenchStack('sim-file', ENV, 'file');
project = await post('/projects', { name: 'Bench' });
python = await startWarmPython(cores);
const fileRounds = await measureRounds();
await python.stop();

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
const print = (k: string, v: string) => console.log(`${k.padEnd(62)} ${v}`);
/** Each key's mean over the rounds' records. */
const meanByKey = (records: Record<string, number>[]) => Object.keys(records[0]!).map((k) => [k, mean(records.map((r) => r[k] ?? 0))] as const);
const cpuLine = (cpu: Record<string, number>[]) =>
  meanByKey(cpu).filter(([, v]) => v >= 0.5).map(([k, v]) => `${k} ${v.toFixed(1)} ms`).join(', ');
/** The total and the four most frequent operations, averaged over the rounds. */
const requestsLine = (requests: Record<string, number>[]) => {
  const ops = meanByKey(requests).sort((x, y) => y[1] - x[1]);
  const total = ops.reduce((sum, [, v]) => sum + v, 0);
  return `${total.toFixed(1)} (${ops.slice(0, 4).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')})`;
};
const overhead = (a: { wall: number; solve: number }, points: number, concurrency: number) => (a.wall / points) * concurrency * 1000 - a.solve * 1000;

print('points (1C discharges of a 5 A.h NMC quick model, R0 grid)', String(POINTS));
print('(a) API + Temporal + Python worker, 1 activity at a time', `${a1.wall.toFixed(2)} s, ${(a1.done / a1.wall).toFixed(2)} sim/s, ${a1.done} completed`);
print('    mean solve time per simulation (worker metrics)', `${(a1.solve * 1000).toFixed(1)} ms`);
print('    overhead per simulation over its solve time', `${overhead(a1, POINTS, 1).toFixed(1)} ms`);
print('    CPU per simulation by process', cpuLine([a1.cpuMs]));
print('    Temporal persistence requests per simulation', requestsLine([a1.requests]));
/** Prints the rounds of one store and their median ratio. */
function printRounds(title: string, measured: Round[], points = POINTS, target = ' (target >= 1.0)') {
  print(`${title}: rounds of (a) between two (b), ${cores} activities at once`, String(measured.length));
  const ratios: number[] = [];
  for (const [i, { a, before, after }] of measured.entries()) {
    const bWall = (before.wall + after.wall) / 2;
    const ratio = a.done / a.wall / (points / bWall);
    ratios.push(ratio);
    print(`  round ${i + 1}: (b) plain Python loop, model built per point, before and after`,
      `${before.wall.toFixed(2)} s, ${after.wall.toFixed(2)} s: ${(points / bWall).toFixed(2)} sim/s`);
    print(`  round ${i + 1}: (a) through the API`, `${a.wall.toFixed(2)} s, ${(a.done / a.wall).toFixed(2)} sim/s, ${a.done} completed; (a) / (b) ${ratio.toFixed(2)}`);
  }
  const plains = [measured[0]!.before, ...measured.map((r) => r.after)];
  const as = measured.map((r) => r.a);
  print('    mean solve time per simulation (worker metrics)', `${(mean(as.map((a) => a.solve)) * 1000).toFixed(1)} ms`);
  print('    overhead per simulation over its solve time', `${mean(as.map((a) => overhead(a, points, cores))).toFixed(1)} ms`);
  print('    CPU per simulation by process', cpuLine(as.map((a) => a.cpuMs)));
  // Less noisy than the throughputs: (b) runs on one core, (a) on all of them, so (a) keeps up
  // with (b) only if its CPU per simulation, over all its processes, is at most `cores` times (b)'s.
  const aCpu = mean(as.map((a) => Object.values(a.cpuMs).reduce((x, y) => x + y, 0)));
  const bCpu = (mean(plains.map((b) => b.cpu)) / points) * 1000;
  print('    CPU per simulation, all processes: (a), (b), (a) / (b)', `${aCpu.toFixed(1)} ms, ${bCpu.toFixed(1)} ms, ${(aCpu / bCpu).toFixed(2)} (at most ${cores} to keep up on ${cores} cores)`);
  print('    Temporal persistence requests per simulation', requestsLine(as.map((a) => a.requests)));
  print('    mean discharge capacity (a) / (b) [A.h]', `${mean(as.map((a) => a.capacity)).toFixed(3)} / ${mean(plains.map((b) => b.capacity)).toFixed(3)}`);
  print(`throughput (a) / (b), median of the rounds${target}`, median(ratios).toFixed(2));
}
printRounds('Temporal state in memory (as the tests run it)', rounds);
printRounds('Temporal state in its SQLite file (as npm start keeps it)', fileRounds);
print('for comparison, a physics model: SPMe 1C discharges, grid of points', String(SPME_SWEEP.points));
printRounds('Temporal state in memory', spmeRounds, SPME_SWEEP.points, '');
print('10,000-point submission latency, 3 runs (target < 2 s)', latencies.map((l) => `${l.toFixed(2)} s`).join(', '));

await stack.stop();

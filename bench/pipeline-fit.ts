// A pipeline of entry + calculation + a one-parameter data_fit (SPMe, Chen2020, 1,000-row 1C
// discharge, Nelder-Mead) timed from POST /pipelines to `completed`, against the same fit done
// by a plain PyBaMM + SciPy script with the same optimizer settings (pyworker/bench_fit.py,
// run in the same session). Target: pipeline ≤ 1.2× the script. Three pipelines: the first in
// a fresh worker the moment it polls (its fit waits for the worker's background warm-up,
// pyworker/cellar_worker/fitting/warmup.py); the first in a second fresh worker once its
// warm-up is done ("cold": a new worker in service); the second in that worker, which reuses
// the first's build of the same data ("warm").
// Run: bash stack/node.sh bench/pipeline-fit.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../stack/config.ts';
import { PYTHON, startBenchStack } from './benchStack.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-fit-bench-'));
fs.chmodSync(tmp, 0o755);

// The baseline first, alone on the machine.
console.log('running the baseline script (pyworker/bench_fit.py)...');
const baselineOut = execFileSync(PYTHON, ['bench_fit.py', '--out', path.join(tmp, 'fit'), '--repeat', '3'], {
  cwd: path.join(ROOT, 'pyworker'),
  env: { ...process.env, PYBAMM_DISABLE_TELEMETRY: 'true' },
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
const baseline = JSON.parse(baselineOut.trim().split('\n').pop()!) as {
  baseline_script_s: number;
  baseline_evaluations: number;
  baseline_value: number;
  module_cold_s: number;
  module_warm_s: number;
  fit_element: string;
};
const fitElement = JSON.parse(fs.readFileSync(baseline.fit_element, 'utf8'));

const stack = await startBenchStack('fit', { BODY_LIMIT_BYTES: String(64 * 1024 * 1024) });
const { config, client, url } = stack;
const pythonEnv = { LOG_LEVEL: 'info' };
const firstPython = stack.startPython(pythonEnv);
const pythonStartedAt = performance.now();

const { key } = stack;
const headers = { 'X-API-Key': key, 'Content-Type': 'application/json', Accept: 'application/json' };
const call = async (method: string, p: string, body?: unknown) => {
  const res = await fetch(url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

/** The Python worker is ready once it polls its activity queue. */
async function pythonReady() {
  for (;;) {
    const r = await client.workflowService.describeTaskQueue({
      namespace: config.temporalNamespace,
      taskQueue: { name: config.simulationTaskQueue },
      taskQueueType: 2, // TASK_QUEUE_TYPE_ACTIVITY
    });
    if (r.pollers?.length) return;
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** Seconds until the n-th "fit warm-up done" line of the Python workers' log. */
async function warmedUp(n: number, since: number): Promise<number> {
  for (;;) {
    const lines = fs
      .readFileSync(path.join(stack.tmp, 'servers.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('fit warm-up done'));
    if (lines.length >= n) return (performance.now() - since) / 1000;
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function runPipeline(projectId: string, name: string): Promise<{ seconds: number; fit: any }> {
  const started = performance.now();
  const created = await call('POST', '/pipelines', {
    project_id: projectId,
    name,
    elements: {
      conditions: { element_type: 'entry', values: { 'Ambient temperature [K]': 298.15 } },
      capacity: {
        element_type: 'calculation',
        type: 'electrode_capacity',
        electrode: 'positive',
        max_concentration: 63104,
        active_material_volume_fraction: 0.665,
        thickness: 75.6e-6,
        electrode_area: 0.065 * 1.58,
      },
      fit: fitElement,
    },
  });
  if (created.status !== 201)
    throw new Error(`create failed: ${created.status} ${JSON.stringify(created.body).slice(0, 500)}`);
  for (;;) {
    const p = await call('GET', `/pipelines/${created.body.id}`);
    if (p.body.is_terminal) {
      const seconds = (performance.now() - started) / 1000;
      if (p.body.status !== 'completed')
        throw new Error(`pipeline ${p.body.status}: ${JSON.stringify(p.body.error_detail)}`);
      const result = await call('GET', `/pipelines/${created.body.id}/result`);
      return { seconds, fit: result.body.element_results.fit };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

try {
  await pythonReady();
  const pollingAfter = (performance.now() - pythonStartedAt) / 1000;
  const project = (await call('POST', '/projects', { name: 'fit bench' })).body;
  const atPoll = await runPipeline(project.id, 'at first poll');
  await firstPython.stop();
  const secondStartedAt = performance.now();
  stack.startPython(pythonEnv);
  const warmedAfter = await warmedUp(2, secondStartedAt);
  const cold = await runPipeline(project.id, 'cold');
  const warm = await runPipeline(project.id, 'warm');
  const parameter = Object.keys(fitElement.parameters)[0]!;
  console.log(
    `\nNode ${process.version}, ${os.cpus().length} cores; SPMe 1C discharge, ` +
      `${fitElement.data['Time [s]'].length} rows, fitting ${parameter}`,
  );
  console.log(
    `baseline script (median of 3 processes)     ${baseline.baseline_script_s.toFixed(2)} s   ` +
      `${baseline.baseline_evaluations} evaluations, fitted ${baseline.baseline_value.toPrecision(4)}`,
  );
  console.log(
    `worker's fit_parameters alone, ` +
      `cold / warm      ${baseline.module_cold_s.toFixed(2)} s / ${baseline.module_warm_s.toFixed(2)} s (same fit, ` +
      `no pipeline around it)`,
  );
  console.log(
    `fresh worker: polling after ${pollingAfter.toFixed(1)} s, ` +
      `warm-up done ${warmedAfter.toFixed(1)} s after start (second worker)`,
  );
  for (const [label, run] of [
    ['pipeline, first fit at the first poll', atPoll],
    ['pipeline, first fit after warm-up (cold)', cold],
    ['pipeline, second fit (warm)', warm],
  ] as const) {
    console.log(
      `${label.padEnd(44)}${run.seconds.toFixed(2)} s   ${run.fit.evaluations} evaluations, ` +
        `fitted ${Number(run.fit.parameter_values[parameter]).toPrecision(4)}   ratio ` +
        `${(run.seconds / baseline.baseline_script_s).toFixed(2)}x (target <= 1.2x)`,
    );
  }
  console.log(
    JSON.stringify({
      baseline_script_s: baseline.baseline_script_s,
      module_cold_s: baseline.module_cold_s,
      module_warm_s: baseline.module_warm_s,
      pipeline_at_poll_s: +atPoll.seconds.toFixed(3),
      pipeline_cold_s: +cold.seconds.toFixed(3),
      pipeline_warm_s: +warm.seconds.toFixed(3),
      ratio_at_poll: +(atPoll.seconds / baseline.baseline_script_s).toFixed(3),
      ratio_cold: +(cold.seconds / baseline.baseline_script_s).toFixed(3),
      ratio_warm: +(warm.seconds / baseline.baseline_script_s).toFixed(3),
    }),
  );
} finally {
  await stack.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

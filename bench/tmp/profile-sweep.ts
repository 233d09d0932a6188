import { execFile } from 'node:child_process';
import { startBenchStack } from '../benchStack.ts';
import { simulationWorkflowIds } from '../../workflows/simulationIds.ts';
const protocol = process.argv[2] ?? 'Discharge at 1C until 2.5V';
const stack = await startBenchStack('prof', { SIMULATION_MONTHLY_LIMIT: '100000000' }, 'file');
const post = async (p: string, body: unknown = {}) => {
  const res = await fetch(stack.url + p, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-API-Key': stack.key }, body: JSON.stringify(body) });
  return JSON.parse(await res.text());
};
const project = await post('/projects', { name: 'P' });
const python = stack.startPython({ SIMULATION_CONCURRENCY: '1' });
const run = async (n: number) => {
  const sims = await post('/simulations/protocol/batch', { parameterized_model: { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } }, protocol_experiment: { protocol }, project_id: project.id, force_rerun: true,
    design_parameters_doe: { sampling: 'grid', rows: [{ type: 'range', name: 'R0 [Ohm]', min: 0.004, max: 0.012, count: n }] } });
  const [row] = await stack.orm.em.fork().execute<{ b: string }[]>(`select batch_id as b from simulations where id = ?`, [sims[0].simulation_id]);
  await stack.client.workflow.getHandle(simulationWorkflowIds.batch(row!.b)).result();
};
await run(20);
const spy = execFile('/tmp/pyv/bin/py-spy', ['record', '-p', String(python.child.pid), '-o', '/tmp/prof.txt', '--format', 'raw', '-r', '200', '-d', '30', '--idle']);
const t0 = performance.now();
await run(2000);
console.log('2000 points', ((performance.now() - t0) / 2000).toFixed(2), 'ms/pt');
spy.kill('SIGINT');
await new Promise((r) => setTimeout(r, 1500));
await python.stop();
await stack.stop();

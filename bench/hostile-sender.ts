// The client side of bench/hostile-inputs.ts, in a worker thread so that building and sending
// the bodies does not count as time the API's event loop was blocked.
import { parentPort, workerData } from 'node:worker_threads';
import { hostileInputs, type HostileTarget } from '../test/hostileInputs.ts';

const target = workerData as HostileTarget;
const inputs = await hostileInputs();
const prepared = await Promise.all(inputs.map((i) => i.prepare(target)));
parentPort!.on('message', async (index: number) => {
  const started = performance.now();
  const res = await prepared[index]!();
  await res.arrayBuffer();
  parentPort!.postMessage({ status: res.status, ms: performance.now() - started });
});
parentPort!.postMessage({ ready: inputs.map((i) => ({ name: i.name, status: i.status })) });

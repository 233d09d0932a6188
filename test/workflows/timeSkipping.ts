// Workflow unit tests: the real workflow code on Temporal's time-skipping test server, with
// stub activities (no database, no storage, no Python). Timers and retry backoffs pass in
// moments. The server is the Java SDK's, installed by stack/provision.sh --tests.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker, makeTelemetryFilterString } from '@temporalio/worker';
import { ROOT } from '../../stack/config.ts';
import { freePort, startProcess, waitForPort, type ManagedProcess } from '../../stack/processes.ts';
import { SEARCH_ATTRIBUTE_NAMES } from '../../workflows/searchAttributes.ts';

export const TEST_SERVER =
  process.env.CELLAR_TEMPORAL_TEST_SERVER ?? path.join(ROOT, '.tools', 'bin', 'temporal-test-server');

// The SDK can start the server itself (`existing-path`), but gives a JVM only 5 s to listen,
// which two suites starting at once on a loaded machine miss. So the suite starts it, and the
// SDK's own constructor for a running server (private: its public one turns time skipping
// off) connects with time skipping on.
const connectTimeSkipping = (address: string) =>
  (TestWorkflowEnvironment as unknown as { create(opts: object): Promise<TestWorkflowEnvironment> }).create({
    server: { type: 'existing' },
    supportsTimeSkipping: true,
    address,
    namespace: 'default',
  });

/** One time-skipping server for the file's tests, started before them and stopped after. */
export function useTimeSkipping(): { readonly env: TestWorkflowEnvironment } {
  const holder = {} as { env: TestWorkflowEnvironment };
  let proc: ManagedProcess | undefined;
  beforeAll(async () => {
    if (!fs.existsSync(TEST_SERVER))
      throw new Error(`no Temporal test server at ${TEST_SERVER}: run bash stack/provision.sh --tests`);
    try {
      // Stub activities fail on purpose: only errors are worth printing.
      Runtime.install({
        logger: new DefaultLogger('ERROR'),
        telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }) } },
      });
    } catch {
      // installed by another suite in this process
    }
    const port = await freePort();
    proc = startProcess(TEST_SERVER, [String(port)]);
    await waitForPort(port, 'Temporal test server', 60_000, proc.child);
    holder.env = await connectTimeSkipping(`127.0.0.1:${port}`);
    // The workflows label themselves for the Web UI: the server must know the labels.
    await holder.env.connection.operatorService.addSearchAttributes({
      namespace: 'default',
      searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((n) => [n, 2 /* KEYWORD */])),
    });
  });
  afterAll(async () => {
    await holder.env?.teardown();
    await proc?.stop();
  });
  return holder;
}

/**
 * Workers for the workflows (with `activities`) and for `more` queues; runs `fn` on the workflows' queue while they
 * run.
 */
export async function withWorker<T>(
  env: TestWorkflowEnvironment,
  activities: object,
  fn: (taskQueue: string) => Promise<T>,
  more: { taskQueue: string; activities: object }[] = [],
): Promise<T> {
  const taskQueue = `wf-${randomUUID().slice(0, 8)}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities,
  });
  // Activity-only workers stand for the Python worker, which hears of a cancel within a second.
  const others = await Promise.all(
    more.map((m) =>
      Worker.create({
        connection: env.nativeConnection,
        taskQueue: m.taskQueue,
        activities: m.activities,
        maxHeartbeatThrottleInterval: '1 second',
      }),
    ),
  );
  const run = () => worker.runUntil(fn(taskQueue));
  return others.reduce<() => Promise<T>>((inner, w) => () => w.runUntil(inner()), run)();
}

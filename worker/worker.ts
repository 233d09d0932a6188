// Creates the TypeScript worker: the workflow bundle plus activities built from their clients.
import path from 'node:path';
import {
  type NativeConnection,
  Worker,
  bundleWorkflowCode,
  type WorkflowBundleOption,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { ROOT } from '../stack/config.ts';
import { createActivities, type ActivityDeps } from '../activities/index.ts';

export const WORKFLOWS_PATH = path.join(ROOT, 'workflows', 'index.ts');

export async function bundleWorkflows(): Promise<WorkflowBundleWithSourceMap> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietBundlerLogger });
}

const noop = () => {};
const quietBundlerLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: console.error, log: noop };

export async function createWorker(opts: {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  workflowBundle?: WorkflowBundleOption;
}): Promise<Worker> {
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities(opts.deps),
    shutdownGraceTime: opts.deps.config.workerShutdownGraceSeconds * 1000,
  });
}

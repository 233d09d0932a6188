// The TypeScript worker process. Stops gracefully on SIGINT/SIGTERM.
import { DefaultLogger, Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { Connection } from '@temporalio/client';
import { loadConfig } from '../stack/config.ts';
import { createStorage } from '../storage/index.ts';
import { logger } from '../stack/logger.ts';
import { SEARCH_ATTRIBUTE_NAMES } from '../workflows/searchAttributes.ts';
import { createWorker } from './worker.ts';
import { connectWorker } from './temporalConnection.ts';
import { sdkLogFields } from './sdkLog.ts';
import { openOrm } from '../db/orm.ts';
import { temporalClient } from '../stack/temporalClient.ts';
import { ensurePipelineRetrySchedule } from '../activities/pipelineRetries.ts';
import { ensureUploadExpirySchedule } from '../activities/uploads.ts';
import { runStartDispatcher } from '../db/workflowStarts.ts';

/** Custom search attributes must exist on the server; the dev server gets them at start. */
async function registerSearchAttributes(address: string, namespace: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = SEARCH_ATTRIBUTE_NAMES.filter((n) => !customAttributes?.[n]);
    if (missing.length) {
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(missing.map((n) => [n, 2 /* KEYWORD */])),
      });
      logger.info({ added: missing }, 'registered search attributes');
    }
  } finally {
    await connection.close();
  }
}

async function main() {
  const config = loadConfig();
  const address = config.temporalAddress ?? `127.0.0.1:${config.temporalPort}`;
  // SDK messages (bundling, state changes) go to the JSON log at warn and above.
  const sdkLogger = new DefaultLogger('WARN', (entry) =>
    logger[entry.level === 'ERROR' ? 'error' : 'warn'](sdkLogFields(entry.meta), entry.message),
  );
  Runtime.install({
    logger: sdkLogger,
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) } },
  });
  await registerSearchAttributes(address, config.temporalNamespace);
  if (!config.databaseUrl) throw new Error('DATABASE_URL is required (npm start sets it for the embedded database)');
  const storage = await createStorage(config);
  const orm = await openOrm(config.databaseUrl);
  const temporal = temporalClient({ ...config, temporalAddress: address });
  const connection = await connectWorker(address);
  const worker = await createWorker({
    connection,
    namespace: config.temporalNamespace,
    taskQueue: config.taskQueue,
    deps: { config, orm, storage, temporal },
  });
  // Pipeline retries: a Temporal Schedule (visible and pausable in the Web UI), created idempotently.
  const retrySchedule = await ensurePipelineRetrySchedule(temporal, config);
  logger.info({ schedule_id: retrySchedule }, 'pipeline retry schedule ready');
  const expirySchedule = await ensureUploadExpirySchedule(temporal, config);
  logger.info({ schedule_id: expirySchedule }, 'upload expiry schedule ready');

  // Workflow starts that a request recorded but could not make (it stopped, or Temporal was down).
  const dispatcher = runStartDispatcher({ orm, temporal });

  logger.info({ task_queue: config.taskQueue }, 'worker started');
  await worker.run(); // returns after SIGINT/SIGTERM once in-flight tasks finish (the SDK handles the signals)
  await dispatcher.stop();
  await connection.close();
  await temporal.connection.close();
  await orm.close();
  logger.info('worker stopped');
}

main().catch((err) => {
  logger.fatal({ err: err instanceof Error ? err.message : err }, 'worker failed');
  process.exit(1);
});

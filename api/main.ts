// The API process: config, database, Temporal client, storage, HTTP server.
import type { Server } from 'node:http';
import { loadConfig } from '../stack/config.ts';
import { openOrm } from '../db/orm.ts';
import { createStorage } from '../storage/index.ts';
import { createApp, warmValidatorsOf } from './app.ts';
import { createApiServer } from './httpServer.ts';
import { logger } from '../stack/logger.ts';
import { temporalClient } from '../stack/temporalClient.ts';

async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('DATABASE_URL is required (npm start sets it for the embedded database)');
  const orm = await openOrm(config.databaseUrl);
  const temporal = temporalClient(config);
  const storage = await createStorage(config);
  const app = createApp({ config, orm, temporal, storage });
  // Validators built now, so that no request waits for its operation's build.
  const warm = await warmValidatorsOf(app);
  logger.info({ shapes: warm.shapes, ms: Math.round(warm.ms) }, 'request validators built');
  const server: Server = createApiServer(app).listen(config.port, config.host, () => {
    logger.info({ url: `http://${config.host}:${config.port}` }, 'API listening');
  });
  const stop = async () => {
    // Running requests finish against the database and Temporal, for up to the shutdown grace
    // the workers have (WORKER_SHUTDOWN_GRACE_S; the supervisor kills a little later).
    await closeServer(server, config.workerShutdownGraceSeconds * 1000);
    await (app.locals.stop as () => Promise<void>)();
    await orm.close();
    await temporal.connection.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/**
 * Stops accepting connections and waits for the running requests to end; connections still
 * busy after `graceMs` are cut.
 */
async function closeServer(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections (kept 65 s) would hold close() open once their request is answered.
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearInterval(sweep);
  clearTimeout(cut);
}

main().catch((err) => {
  logger.fatal({ err: err instanceof Error ? err.message : String(err) }, 'API failed to start');
  process.exit(1);
});

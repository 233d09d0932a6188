// The API process: config, database, Temporal client, storage, HTTP server.
import type { Server } from 'node:http';
import { loadConfig } from '../stack/config.ts';
import { openOrm } from '../db/orm.ts';
import { createStorage } from '../storage/index.ts';
import { createApp } from './app.ts';
import { createApiServer } from './httpServer.ts';
import { logger } from './logger.ts';
import { temporalClient } from './temporal.ts';

async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) throw new Error('DATABASE_URL is required (npm start sets it for the embedded database)');
  const orm = await openOrm(config.databaseUrl);
  const temporal = temporalClient(config);
  const storage = await createStorage(config);
  const app = createApp({ config, orm, temporal, storage });
  const server: Server = createApiServer(app).listen(config.port, config.host, () => {
    logger.info({ url: `http://${config.host}:${config.port}` }, 'API listening');
  });
  const stop = async () => {
    await (app.locals.stop as () => Promise<void>)();
    server.close();
    server.closeIdleConnections();
    await orm.close();
    await temporal.connection.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  logger.fatal({ err: err instanceof Error ? err.message : String(err) }, 'API failed to start');
  process.exit(1);
});

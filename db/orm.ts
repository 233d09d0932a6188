// Opens the MikroORM instance shared by the API, the worker's activities and the admin command.
import { MikroORM } from '@mikro-orm/postgresql';
import { PostgresDialect } from 'kysely';
import pg from 'pg';
import { Migrator } from '@mikro-orm/migrations';
import { allEntities } from './entities/index.ts';
import { migrations } from './migrations/index.ts';
import { logger } from '../stack/logger.ts';

export type Orm = MikroORM;

export async function openOrm(databaseUrl: string, options: { poolMax?: number } = {}): Promise<Orm> {
  // pg's standard type parsers (timestamps as Date) instead of MikroORM's string ones, so raw
  // queries and entities alike serialize timestamps as ISO 8601.
  const pool = new pg.Pool({ connectionString: databaseUrl, min: 0, max: options.poolMax ?? 10 });
  // An idle connection the server drops (PostgreSQL restarted, a backend terminated) is emitted
  // as 'error' on the pool, which drops that connection; unheard, the event ended the process.
  pool.on('error', (err) => logger.warn({ err: err.message }, 'database connection lost; the pool opens a new one'));
  return MikroORM.init({
    clientUrl: databaseUrl,
    driverOptions: new PostgresDialect({ pool }),
    entities: allEntities,
    extensions: [Migrator],
    migrations: {
      migrationsList: migrations,
      transactional: true,
      allOrNothing: true,
      silent: true,
      snapshot: false,
      snapshotOnMigrate: false,
    },
    // Entities are plain definitions; no reflection or discovery of files at run time.
    discovery: { warnWhenNoEntities: false },
    debug: false,
    allowGlobalContext: false,
  });
}

/** Applies every committed migration that has not run yet. Safe to call concurrently with readers. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}

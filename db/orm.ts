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
  guardCheckedOutClients(pool);
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

/**
 * A connection that is checked out (in a transaction, between statements) emits its loss on the
 * client itself, where the pool does not listen: unheard, that ended the process. Heard, it must
 * still go back to the pool, or its slot is lost for good: Kysely releases a transaction's
 * connection only after a rollback that succeeds, which on a dead connection never does. So a
 * checked-out client that loses its connection is released (and dropped) at once, and the
 * release its user makes later does nothing.
 */
function guardCheckedOutClients(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (cb?: unknown) => Promise<pg.PoolClient> | void;
  pool.connect = ((cb?: unknown) => {
    if (cb) return connect(cb); // pool.query's own form: it releases the client itself
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      const release = client.release.bind(client);
      let released = false;
      const finish = (err?: Error | boolean) => {
        if (released) return;
        released = true;
        client.off('error', lost);
        release(err);
      };
      const lost = (err: Error) => {
        logger.warn({ err: err.message }, 'database connection lost while in use; it leaves the pool');
        finish(err);
      };
      client.on('error', lost);
      client.release = finish;
      return client;
    });
  }) as typeof pool.connect;
}

/** Applies every committed migration that has not run yet. Safe to call concurrently with readers. */
export async function migrate(orm: Orm): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}

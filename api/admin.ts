// The admin command: npm run admin -- <command> [options]. Uses the same configuration as
// `npm start`; while the service runs it talks to its database, otherwise it starts the
// embedded database for the duration of the command.
import { parseArgs } from 'node:util';
import path from 'node:path';
import { loadConfig, ConfigError } from '../stack/config.ts';
import { embeddedDatabaseUrl, runningPostmasterPort, startEmbeddedPostgres } from '../stack/postgres.ts';
import { portInUse } from '../stack/processes.ts';
import { migrate, openOrm } from '../db/orm.ts';
import { addMember, bootstrap, createApiKey, revokeApiKey, setOrganizationSetting } from './services/bootstrap.ts';

const USAGE = `usage: npm run admin -- <command> [options]
  migrate                                        apply committed database migrations
  bootstrap --org <name> --email <email>        create the organization and user when missing, and a new API key
  add-member --org <name> --email <email>       add a user (created when missing) to an organization as a member, not
                                                 an owner (project roles decide what they may do), and a new API key
  create-api-key --email <email> [--org <name>] a new API key for an existing user
  revoke-api-key --prefix <prefix>               revoke a key by its prefix
  set-simulation-limit --org <name> --limit <n>  monthly simulation limit of an organization ("default" to reset)
  set-stale-window --org <name> --hours <n>      hours without updates before a running channel shows stale
Keys are printed once, as JSON on stdout; only a hash is stored.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      org: { type: 'string' },
      email: { type: 'string' },
      prefix: { type: 'string' },
      limit: { type: 'string' },
      hours: { type: 'string' },
    },
    strict: true,
  });
  const config = loadConfig();
  let stopEmbedded: (() => Promise<void>) | undefined;
  let url = config.databaseUrl;
  if (!url) {
    // The service's own PostgreSQL when it runs, whatever POSTGRES_PORT this shell has: a
    // second start on the same data would stop the running one as a leftover.
    const dataDir = path.join(config.dataDir, 'postgres');
    const running = runningPostmasterPort(dataDir);
    const port = running ?? config.postgresPort;
    url = embeddedDatabaseUrl(port);
    if (running === undefined && !(await portInUse(port))) {
      const pg = await startEmbeddedPostgres({ dataDir, port, database: 'cellar' });
      stopEmbedded = pg.stop;
    }
  }
  const orm = await openOrm(url, { poolMax: 2 });
  try {
    const applied = await migrate(orm);
    const em = orm.em.fork();
    const need = (name: keyof typeof values) => values[name] ?? fail(`${command} needs --${name}\n${USAGE}`);
    switch (command) {
      case 'migrate':
        process.stdout.write(`${JSON.stringify({ applied })}\n`);
        break;
      case 'bootstrap': {
        const issued = await bootstrap(em, need('org') as string, need('email') as string);
        const out = { organization_id: issued.organization_id, user_id: issued.user_id, api_key: issued.api_key };
        process.stdout.write(`${JSON.stringify(out)}\n`);
        break;
      }
      case 'add-member': {
        const added = await addMember(em, need('org') as string, need('email') as string);
        const out = {
          organization_id: added.organization_id,
          user_id: added.user_id,
          role: added.role,
          api_key: added.api_key,
        };
        process.stdout.write(`${JSON.stringify(out)}\n`);
        break;
      }
      case 'create-api-key': {
        const issued = await createApiKey(em, need('email') as string, values.org);
        const out = { organization_id: issued.organization_id, user_id: issued.user_id, api_key: issued.api_key };
        process.stdout.write(`${JSON.stringify(out)}\n`);
        break;
      }
      case 'revoke-api-key': {
        const prefix = need('prefix') as string;
        if (!(await revokeApiKey(em, prefix))) fail(`no active key with prefix ${prefix}`);
        process.stdout.write(`${JSON.stringify({ revoked: prefix })}\n`);
        break;
      }
      case 'set-simulation-limit':
      case 'set-stale-window': {
        const isLimit = command === 'set-simulation-limit';
        const raw = need(isLimit ? 'limit' : 'hours') as string;
        // The ranges of SIMULATION_MONTHLY_LIMIT and STALE_AFTER_HOURS (stack/config.ts).
        const [min, max] = isLimit ? [0, 1_000_000_000] : [1, 24 * 365];
        const value = raw === 'default' ? null : /^\d+$/.test(raw) ? Number(raw) : NaN;
        if (value !== null && !(value >= min && value <= max)) {
          fail(`--${isLimit ? 'limit' : 'hours'} takes a whole number from ${min} to ${max}, or "default"`);
        }
        const org = need('org') as string;
        if (
          !(await setOrganizationSetting(em, org, isLimit ? 'simulation_monthly_limit' : 'stale_after_hours', value))
        ) {
          fail(`no organization ${org}`);
        }
        const setting = isLimit ? 'simulation_monthly_limit' : 'stale_after_hours';
        process.stdout.write(`${JSON.stringify({ organization: org, [setting]: value })}\n`);
        break;
      }
      default:
        fail(`unknown command ${command}\n${USAGE}`);
    }
  } finally {
    await orm.close();
    await stopEmbedded?.();
  }
}

main().catch((err) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : `admin: ${err instanceof Error ? err.message : String(err)}`}\n`,
  );
  process.exit(1);
});

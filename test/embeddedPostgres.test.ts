// The embedded PostgreSQL module as npm start and the admin command use it: exit codes and
// signals left to the importer, a running service's database shared, leftovers stopped.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject, describe, expect, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { startEmbeddedPostgres, stopLeftover } from '../stack/postgres.ts';
import { freePort, portInUse, processAlive } from '../stack/processes.ts';
import { NODE, baseEnv } from './processHelpers.ts';

describe('embedded PostgreSQL module', () => {
  it('leaves the exit code and signals to the importing process (the test runner relies on it)', () => {
    const script = `await import(${JSON.stringify(path.join(ROOT, 'stack/postgres.ts'))}); process.exitCode = 3;`;
    const res = spawnSync(NODE[0], [NODE[1], '--input-type=module', '-e', script], {
      env: baseEnv(),
      encoding: 'utf8',
    });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(3);
  });

  const letsTheAdminCommandTitle =
    "lets the admin command use the running service's PostgreSQL, whatever POSTGRES_PORT it " +
    'is given, without stopping it';
  it(letsTheAdminCommandTitle, async () => {
    const dataDir = path.join(inject('runDir'), `admin-beside-${Date.now()}`);
    fs.mkdirSync(dataDir, { recursive: true });
    fs.chmodSync(inject('runDir'), 0o755); // PostgreSQL runs as its own OS user when we are root
    const server = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, 'postgres'),
      port: await freePort(),
      database: 'cellar',
    });
    try {
      const postmaster = Number(
        fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      // As when the service was started with its own ports and the admin command without them.
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        POSTGRES_PORT: String(await freePort()),
      };
      const res = spawnSync(
        NODE[0],
        [NODE[1], path.join(ROOT, 'api/admin.ts'), 'bootstrap', '--org', 'Beside', '--email', 'b@lab.test'],
        { env, encoding: 'utf8' },
      );
      expect(res.status, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout).api_key).toMatch(/^cellar_/);
      expect(processAlive(postmaster)).toBe(true);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from organizations where name = 'Beside'`,
      );
      await client.end();
      expect(rows[0]!.n).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('stops a server that Ctrl-C already stopped (the signal reaches the whole process group)', async () => {
    const dataDir = path.join(inject('runDir'), `pg-stopped-${Date.now()}`);
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    fs.chmodSync(inject('runDir'), 0o755); // PostgreSQL runs as its own OS user when we are root
    const port = await freePort();
    const server = await startEmbeddedPostgres({ dataDir, port, database: 'stopped' });
    const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(postmaster, 'SIGINT');
    for (let i = 0; i < 100 && (await portInUse(port)); i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 500)); // the exit reaches the parent
    const stopped = await Promise.race([
      server.stop().then(() => 'stopped'),
      new Promise((r) => setTimeout(() => r('still waiting'), 10_000)),
    ]);
    expect(stopped).toBe('stopped');
  });

  it('stops a PostgreSQL left running on its data dir before starting', async () => {
    const dataDir = path.join(inject('runDir'), `pg-leftover-${Date.now()}`);
    fs.chmodSync(inject('runDir'), 0o755); // PostgreSQL runs as its own OS user when we are root
    const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'leftover' });
    const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    try {
      await stopLeftover(dataDir);
      expect(processAlive(postmaster)).toBe(false);
    } finally {
      await server.stop();
    }
  });

  const leavesAloneAProcessTitle =
    'leaves alone a process that took the pid of a stale postmaster.pid (after a reboot), ' + 'and removes the file';
  it(leavesAloneAProcessTitle, async () => {
    const dataDir = fs.mkdtempSync(path.join(inject('runDir'), 'pg-stale-'));
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    const pidFile = path.join(dataDir, 'postmaster.pid');
    try {
      await new Promise((r) => other.once('spawn', r));
      // The first lines of a real postmaster.pid: pid, data dir, start time, port.
      fs.writeFileSync(pidFile, `${other.pid}\n${dataDir}\n1700000000\n55432\n`);
      const lines: string[] = [];
      await stopLeftover(dataDir, (line) => lines.push(line));
      await new Promise((r) => setTimeout(r, 300)); // a signal would have ended it by now
      expect(other.exitCode).toBeNull();
      expect(other.signalCode).toBeNull();
      expect(processAlive(other.pid!)).toBe(true);
      expect(fs.existsSync(pidFile)).toBe(false); // PostgreSQL would refuse to start while that pid lives
      expect(lines.join('\n')).toContain(`pid ${other.pid}`);
    } finally {
      other.kill('SIGKILL');
    }
  });
});

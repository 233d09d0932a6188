// Configuration is read and checked once; docker-compose.yml wires the same variables.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, REQUIRED_RUNTIME_VARIABLES, ROOT } from '../stack/config.ts';
import { signingSecret } from '../storage/index.ts';

const NODE = [process.execPath, '--disable-warning=ExperimentalWarning'] as const;

describe('loadConfig', () => {
  it('has working defaults: embedded parts on fixed local ports, filesystem storage', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8000,
      host: '127.0.0.1',
      postgresPort: 25432,
      temporalPort: 7233,
      temporalUiPort: 8233,
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.temporalAddress).toBeUndefined();
    expect(c.storage.driver).toBe('fs');
    expect(c.publicUrl).toBe('http://127.0.0.1:8000');
    // Signed URLs name an address a client reaches: loopback for a wildcard host, IPv6 in brackets.
    expect(loadConfig({ HOST: '0.0.0.0' }).publicUrl).toBe('http://127.0.0.1:8000');
    expect(loadConfig({ HOST: '::' }).publicUrl).toBe('http://[::1]:8000');
    expect(loadConfig({ HOST: 'fd00::5', PORT: '9000' }).publicUrl).toBe('http://[fd00::5]:9000');
    expect(c.workerShutdownGraceSeconds).toBe(20);
  });

  it('names the variable at fault', () => {
    const bad: [Record<string, string>, string][] = [
      [{ PORT: 'eighty' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
      [{ TEMPORAL_ADDRESS: 'nowhere' }, 'TEMPORAL_ADDRESS'],
      [{ S3_ENDPOINT: 'http://s3:7070' }, 'S3_BUCKET'],
      [{ S3_ENDPOINT: 'http://s3:7070', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' }, 'S3_SECRET_ACCESS_KEY'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      [{ SIGNING_SECRET: 'short' }, 'SIGNING_SECRET'],
      [{ WORKER_SHUTDOWN_GRACE_S: 'soon' }, 'WORKER_SHUTDOWN_GRACE_S'],
      // Read by the Python worker, checked here too so that npm start stops at once.
      [{ SIMULATION_CONCURRENCY: '0' }, 'SIMULATION_CONCURRENCY'],
      [{ SIMULATION_CONCURRENCY: '-2' }, 'SIMULATION_CONCURRENCY'],
      [{ MEASUREMENT_CONCURRENCY: 'many' }, 'MEASUREMENT_CONCURRENCY'],
    ];
    for (const [env, variable] of bad) {
      let err: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variable).toBe(variable);
      expect((err as Error).message).toContain(variable);
    }
  });

  it('takes an empty variable as unset', () => {
    const c = loadConfig({ LOG_LEVEL: '', SIMULATION_CONCURRENCY: '', MEASUREMENT_CONCURRENCY: '', PORT: '' });
    expect(c).toMatchObject({
      logLevel: 'info',
      simulationConcurrency: undefined,
      measurementConcurrency: undefined,
      port: 8000,
    });
    expect(loadConfig({ SIMULATION_CONCURRENCY: '3' }).simulationConcurrency).toBe(3);
  });

  it('keeps as many chunks of a sweep in flight as there are solver processes unless told', () => {
    expect(loadConfig({}).sweepSlots).toBe(os.availableParallelism());
    expect(loadConfig({ SIMULATION_CONCURRENCY: '3' }).sweepSlots).toBe(3);
    expect(loadConfig({ SIMULATION_CONCURRENCY: '3', SWEEP_SLOTS: '12' }).sweepSlots).toBe(12);
    expect(() => loadConfig({ SWEEP_SLOTS: '0' })).toThrow(/SWEEP_SLOTS must be between 1 and 10000, got 0/);
  });
});

describe('the logger, imported before the configuration is read', () => {
  const levelWith = (value: string) => {
    const script =
      `const { logger } = await import(${JSON.stringify(path.join(ROOT, 'stack/logger.ts'))}); ` +
      `process.stdout.write(logger.level);`;
    return spawnSync(NODE[0], [NODE[1], '--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH, LOG_LEVEL: value },
      encoding: 'utf8',
    });
  };

  it('never fails on a bad or empty LOG_LEVEL (loadConfig reports it), and uses a good one', () => {
    for (const [value, level] of [
      ['loud', 'info'],
      ['', 'info'],
      ['debug', 'debug'],
      ['silent', 'silent'],
      ['toString', 'info'],
    ]) {
      const res = levelWith(value!);
      expect(res.stderr, value).toBe('');
      expect(res.status, value).toBe(0);
      expect(res.stdout, value).toBe(level);
    }
  });
});

describe('the local signing secret', () => {
  const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-secret-'));

  it('is made once, whole and private, and kept', () => {
    const dataDir = path.join(tempDir(), 'data');
    const secret = signingSecret({ signingSecret: undefined, dataDir });
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dataDir, 'signing-secret');
    expect(fs.readFileSync(file, 'utf8')).toBe(secret);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dataDir)).toEqual(['signing-secret']); // no temporary file left
    expect(signingSecret({ signingSecret: undefined, dataDir })).toBe(secret);
    fs.rmSync(path.dirname(dataDir), { recursive: true });
  });

  it('is refused when the kept one is empty or shorter than 32 characters', () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'signing-secret');
    for (const content of ['', '\n', 'short-secret\n', 'x'.repeat(31)]) {
      fs.writeFileSync(file, content);
      expect(() => signingSecret({ signingSecret: undefined, dataDir }), JSON.stringify(content)).toThrow(
        /signing secret in .*signing-secret has \d+ characters, fewer than 32.*SIGNING_SECRET/,
      );
      expect(fs.readFileSync(file, 'utf8')).toBe(content); // left for the operator to look at
    }
    fs.writeFileSync(file, `${'x'.repeat(32)}\n`);
    expect(signingSecret({ signingSecret: undefined, dataDir })).toBe('x'.repeat(32));
    // SIGNING_SECRET (checked by loadConfig) wins over the file.
    expect(signingSecret({ signingSecret: 'y'.repeat(40), dataDir })).toBe('y'.repeat(40));
    fs.rmSync(dataDir, { recursive: true });
  });

  it('is the same for processes making it at once (the API and the worker on a first start)', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const script = `const { signingSecret } = await import(${JSON.stringify(path.join(ROOT, 'storage/index.ts'))});
      process.stdout.write(signingSecret({ signingSecret: undefined, dataDir: ${JSON.stringify(dataDir)} }));`;
    const run = () =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(NODE[0], [NODE[1], '--input-type=module', '-e', script], {
          env: { PATH: process.env.PATH },
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.once('close', (code) => resolve({ code, out, err }));
      });
    const results = await Promise.all(Array.from({ length: 6 }, run));
    for (const r of results) expect(r.code, r.err).toBe(0);
    const secrets = new Set(results.map((r) => r.out));
    expect(secrets.size).toBe(1);
    expect([...secrets][0]!.length).toBeGreaterThanOrEqual(32);
    expect(fs.readFileSync(path.join(dataDir, 'signing-secret'), 'utf8')).toBe([...secrets][0]);
    expect(fs.readdirSync(dataDir)).toEqual(['signing-secret']);
    fs.rmSync(path.dirname(dataDir), { recursive: true });
  });
});

describe('docker-compose.yml', () => {
  const text = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
  const compose = YAML.parse(text, { merge: true });
  // The .env of a first run, made by the script the README names.
  const envDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cellar-compose-env-'));
  const envFile = path.join(envDir, '.env');
  expect(spawnSync('bash', [path.join(ROOT, 'stack', 'compose-env.sh'), envFile]).status).toBe(0);
  const dotEnv = Object.fromEntries(
    fs
      .readFileSync(envFile, 'utf8')
      .split('\n')
      .filter((l) => /^\w+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  fs.rmSync(envDir, { recursive: true });
  /** Compose's interpolation of ${NAME}, ${NAME:-default} and ${NAME:?error}; a missing required one throws. */
  const interpolate = (value: string, vars: Record<string, string>) =>
    value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind?: string, arg?: string) => {
      if (vars[name]) return vars[name];
      if (kind === '?') throw new Error(`${name}: ${arg}`);
      return kind === '-' ? arg! : '';
    });
  const envOf = (name: string, vars = dotEnv) =>
    Object.fromEntries(
      Object.entries(compose.services[name].environment as Record<string, string>).map(([k, v]) => [
        k,
        interpolate(String(v), vars),
      ]),
    );

  it.each(['api', 'worker', 'pyworker'])('sets every variable the %s service needs', (name) => {
    const env = envOf(name);
    for (const v of REQUIRED_RUNTIME_VARIABLES) expect(env[v], `${name}.${v}`).toBeTruthy();
    const config = loadConfig(env); // throws, naming the variable, if anything is missing or malformed
    expect(config.storage.driver).toBe('s3');
    expect(new URL(config.databaseUrl!).hostname).toBe('postgres');
    expect(new URL(config.databaseUrl!).password).toBe(dotEnv.POSTGRES_PASSWORD);
    expect(config.temporalAddress).toBe('temporal:7233');
    expect(config.signingSecret!.length).toBeGreaterThanOrEqual(32);
  });

  it('runs PostgreSQL 18, Temporal with its Web UI, and an S3-compatible store', () => {
    expect(compose.services.postgres.image).toBe('postgres:18');
    expect(compose.services.temporal.environment.DB).toBe('postgres12');
    expect(compose.services['temporal-ui'].environment.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(compose.services.s3.image).toMatch(/versitygw/);
  });

  it('commits no secret: every one comes from the .env that compose-env.sh writes once', () => {
    expect(Object.keys(dotEnv).sort()).toEqual([
      'POSTGRES_PASSWORD',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
      'SIGNING_SECRET',
    ]);
    for (const v of Object.values(dotEnv)) expect(v.length).toBeGreaterThanOrEqual(16);
    const secretName = /PASSWORD|PWD|SECRET|ACCESS_KEY/;
    for (const [service, def] of Object.entries(
      compose.services as Record<string, { environment?: Record<string, string> }>,
    )) {
      for (const [name, value] of Object.entries(def.environment ?? {})) {
        if (secretName.test(name)) expect(String(value), `${service}.${name}`).toMatch(/^\$\{\w+:\?[^}]+\}$/);
        // Without .env nothing starts: compose stops at the first required variable.
        if (secretName.test(name))
          expect(() => interpolate(String(value), {}), `${service}.${name}`).toThrow(/compose-env\.sh/);
      }
    }
    expect(
      new URL(interpolate(compose.services.api.environment.DATABASE_URL, { POSTGRES_PASSWORD: 'p' })).password,
    ).toBe('p');
    expect(() => interpolate(compose.services.api.environment.DATABASE_URL, {})).toThrow(/POSTGRES_PASSWORD/);
    // The keys of the earlier file, and anything that reads like a literal key, are gone.
    expect(text).not.toMatch(/change-me|cellar-local-secret|:cellar@/);
    for (const ignore of ['.gitignore', '.dockerignore']) {
      expect(fs.readFileSync(path.join(ROOT, ignore), 'utf8').split('\n'), ignore).toContain('.env');
    }
  });

  it('publishes only the API on every interface; the rest on 127.0.0.1 or the compose network', () => {
    const published: string[] = [];
    for (const [service, def] of Object.entries(compose.services as Record<string, { ports?: string[] }>)) {
      for (const port of def.ports ?? []) {
        const mapping = interpolate(String(port), {});
        const parts = mapping.split(':');
        if (parts.length !== 3 || parts[0] !== '127.0.0.1') published.push(`${service} ${mapping}`);
      }
    }
    expect(published).toEqual(['api 8000:8000']);
    expect(compose.services.postgres.ports).toBeUndefined();
  });
});

describe('secrets in configuration errors', () => {
  it('never quotes the password of DATABASE_URL', () => {
    for (const given of [
      'postgres://cellar:s3cr3t-pw@db host/cellar',
      'mysql://cellar:s3cr3t-pw@db/cellar',
      'cellar:s3cr3t-pw@db',
      'postgres://cellar:s3cr3t@pw@db:x/cellar',
    ]) {
      let message = '';
      try {
        loadConfig({ DATABASE_URL: given });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message, given).toMatch(/DATABASE_URL/);
      expect(message, given).not.toMatch(/s3cr3t|pw@/);
      expect(message, given).toContain(':***@');
    }
  });
});

// Configuration of every Cellar process, read from the environment once at start-up.
// A bad value stops start-up with a message that names the variable.
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export interface S3Config {
  endpoint: string;
  /** The endpoint clients reach (S3_PUBLIC_ENDPOINT): signed URLs and multipart blocks name it. */
  publicEndpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** STS endpoint able to mint scoped, short-lived upload credentials; unset means none. */
  stsEndpoint: string | undefined;
  /** Role assumed for scoped upload credentials (S3_STS_ROLE_ARN). */
  stsRoleArn: string;
}

export interface Config {
  host: string;
  port: number;
  /** Base URL clients use to reach the API (signed URLs point here in filesystem mode). */
  publicUrl: string;
  dataDir: string;
  /** Unset means "start embedded PostgreSQL". */
  databaseUrl: string | undefined;
  postgresPort: number;
  /** Unset means "start the embedded Temporal dev server". */
  temporalAddress: string | undefined;
  temporalPort: number;
  temporalUiPort: number;
  temporalNamespace: string;
  taskQueue: string;
  simulationTaskQueue: string;
  measurementTaskQueue: string;
  storage: { driver: 'fs'; dir: string } | { driver: 's3'; s3: S3Config };
  /** HMAC key for filesystem signed URLs; unset means generated once and kept in the data dir. */
  signingSecret: string | undefined;
  signedUrlTtlSeconds: number;
  bodyLimitBytes: number;
  logLevel: string;
  /** Default channel staleness window when an organization sets none. */
  staleAfterHours: number;
  /** Default monthly simulation limit of an organization. */
  simulationMonthlyLimit: number;
  /** Largest object one signed PUT may carry; larger uploads go through `multipart`. */
  uploadMaxBytes: number;
  /** Rows of a stored series a fit or validation may use (FIT_MAX_ROWS, read by the Python worker too). */
  fitMaxRows: number;
  /** How often the Temporal Schedule retries failed pipeline elements, and the base of their backoff. */
  pipelineRetryIntervalSeconds: number;
  /** Runs of one pipeline element at most (the first run included) before retries stop. */
  pipelineRetryMaxAttempts: number;
  /** A fit whose Python worker stops heartbeating for this long is retried on another worker. */
  pipelineHeartbeatTimeoutSeconds: number;
  /** How long a stopping worker (TypeScript or Python) lets its running tasks finish. */
  workerShutdownGraceSeconds: number;
  /**
   * Activities at once per queue of the Python worker, which reads these itself; checked here
   * too so that `npm start` stops at once on a bad value. Unset means the CPU count.
   */
  simulationConcurrency: number | undefined;
  measurementConcurrency: number | undefined;
  /**
   * Chunks of one batch in flight at once: the solver processes a sweep may keep busy
   * (SIMULATION_CONCURRENCY, else the CPU count). Raise it when more worker machines serve the queue.
   */
  sweepSlots: number;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`configuration: ${variable} ${problem}`);
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  return v;
}

function optional(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function optionalInt(env: Env, name: string, min: number, max: number): number | undefined {
  return optional(env, name) === undefined ? undefined : int(env, name, 0, min, max);
}

/**
 * `v` with the password of its user info replaced by ***, whether or not it parses as a URL:
 * errors quote what was given, and DATABASE_URL carries the database password.
 */
export function redactUrl(v: string): string {
  const at = v.lastIndexOf('@');
  if (at < 0) return v;
  const scheme = v.indexOf('://');
  const start = scheme >= 0 && scheme < at ? scheme + 3 : 0;
  const colon = v.indexOf(':', start);
  if (colon < 0 || colon > at) return v;
  return `${v.slice(0, colon)}:***${v.slice(at)}`;
}

function url(env: Env, name: string): string | undefined {
  const v = optional(env, name);
  if (v === undefined) return undefined;
  try {
    new URL(v);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${redactUrl(v)}"`);
  }
  return v;
}

function hostPort(env: Env, name: string): string | undefined {
  const v = optional(env, name);
  if (v !== undefined && !/^[\w.-]+:\d{1,5}$/.test(v))
    throw new ConfigError(name, `must look like host:port, got "${v}"`);
  return v;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** Shortest HMAC key of local signed URLs, given (SIGNING_SECRET) or kept in the data dir. */
export const MIN_SIGNING_SECRET_LENGTH = 32;

/** The address a local client reaches a server listening on `host` at: loopback for a wildcard. */
export function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

/** `host` as it stands in a URL: IPv6 literals in brackets. */
export const hostInUrl = (host: string) => (host.includes(':') ? `[${host}]` : host);

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 8000, 0, 65535);
  const host = str(env, 'HOST', '127.0.0.1');
  const dataDir = path.resolve(ROOT, str(env, 'DATA_DIR', '.data'));
  const databaseUrl = url(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:$/.test(new URL(databaseUrl).protocol)) {
    throw new ConfigError('DATABASE_URL', `must be a postgres:// URL, got "${redactUrl(databaseUrl)}"`);
  }
  const s3Endpoint = url(env, 'S3_ENDPOINT');
  let storage: Config['storage'];
  if (s3Endpoint) {
    const need = (name: string) => {
      const v = optional(env, name);
      if (!v) throw new ConfigError(name, 'is required when S3_ENDPOINT is set');
      return v;
    };
    storage = {
      driver: 's3',
      s3: {
        endpoint: s3Endpoint,
        publicEndpoint: url(env, 'S3_PUBLIC_ENDPOINT') ?? s3Endpoint,
        region: str(env, 'S3_REGION', 'us-east-1'),
        bucket: need('S3_BUCKET'),
        accessKeyId: need('S3_ACCESS_KEY_ID'),
        secretAccessKey: need('S3_SECRET_ACCESS_KEY'),
        stsEndpoint: url(env, 'S3_STS_ENDPOINT'),
        stsRoleArn: str(env, 'S3_STS_ROLE_ARN', 'arn:aws:iam::000000000000:role/cellar-upload'),
      },
    };
  } else {
    storage = { driver: 'fs', dir: path.resolve(ROOT, str(env, 'STORAGE_DIR', path.join(dataDir, 'storage'))) };
  }
  const logLevel = str(env, 'LOG_LEVEL', 'info');
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const signingSecret = optional(env, 'SIGNING_SECRET');
  if (signingSecret !== undefined && signingSecret.length < MIN_SIGNING_SECRET_LENGTH) {
    throw new ConfigError('SIGNING_SECRET', `must be at least ${MIN_SIGNING_SECRET_LENGTH} characters`);
  }
  const publicUrl = url(env, 'PUBLIC_URL') ?? `http://${hostInUrl(reachableHost(host))}:${port}`;
  return {
    host,
    port,
    publicUrl: publicUrl.replace(/\/$/, ''),
    dataDir,
    databaseUrl,
    postgresPort: int(env, 'POSTGRES_PORT', 25432, 1, 65535),
    temporalAddress: hostPort(env, 'TEMPORAL_ADDRESS'),
    temporalPort: int(env, 'TEMPORAL_PORT', 7233, 1, 65535),
    temporalUiPort: int(env, 'TEMPORAL_UI_PORT', 8233, 1, 65535),
    temporalNamespace: str(env, 'TEMPORAL_NAMESPACE', 'default'),
    taskQueue: str(env, 'TASK_QUEUE', 'cellar'),
    simulationTaskQueue: str(env, 'SIMULATION_TASK_QUEUE', 'cellar-simulations'),
    measurementTaskQueue: str(env, 'MEASUREMENT_TASK_QUEUE', 'cellar-measurements'),
    storage,
    signingSecret,
    signedUrlTtlSeconds: int(env, 'SIGNED_URL_TTL_SECONDS', 3600, 1, 7 * 24 * 3600),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 8 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    logLevel,
    staleAfterHours: int(env, 'STALE_AFTER_HOURS', 24, 1, 24 * 365),
    simulationMonthlyLimit: int(env, 'SIMULATION_MONTHLY_LIMIT', 100_000, 0, 1_000_000_000),
    uploadMaxBytes: int(env, 'UPLOAD_MAX_BYTES', 5 * 1024 ** 3, 1, 5 * 1024 ** 4),
    fitMaxRows: int(env, 'FIT_MAX_ROWS', 20_000, 3, 10_000_000),
    pipelineRetryIntervalSeconds: int(env, 'PIPELINE_RETRY_INTERVAL_SECONDS', 300, 1, 7 * 24 * 3600),
    pipelineRetryMaxAttempts: int(env, 'PIPELINE_RETRY_MAX_ATTEMPTS', 3, 1, 100),
    pipelineHeartbeatTimeoutSeconds: int(env, 'PIPELINE_HEARTBEAT_TIMEOUT_SECONDS', 60, 2, 3600),
    workerShutdownGraceSeconds: int(env, 'WORKER_SHUTDOWN_GRACE_S', 20, 0, 3600),
    // The same bounds as pyworker/cellar_worker/settings.py.
    simulationConcurrency: optionalInt(env, 'SIMULATION_CONCURRENCY', 1, 10_000),
    measurementConcurrency: optionalInt(env, 'MEASUREMENT_CONCURRENCY', 1, 10_000),
    sweepSlots: int(
      env,
      'SWEEP_SLOTS',
      optionalInt(env, 'SIMULATION_CONCURRENCY', 1, 10_000) ?? os.availableParallelism(),
      1,
      10_000,
    ),
  };
}

/** Variables a process needs once the embedded parts are resolved (what docker-compose must set). */
export const REQUIRED_RUNTIME_VARIABLES = ['DATABASE_URL', 'TEMPORAL_ADDRESS'] as const;

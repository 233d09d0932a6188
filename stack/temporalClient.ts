// The Temporal client used by the API, the admin command and the worker's own calls. The
// connection is lazy so the API can start (and report itself unhealthy) while Temporal is down.
import {
  Client,
  Connection,
  ServiceError,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
} from '@temporalio/client';
import type { Config } from './config.ts';

// A call retries an unreachable server for about a second, not the SDK's default of about 20:
// a request that needs Temporal answers 503 promptly when it is down, and the client (or the
// workflow start dispatcher) tries again.
const RETRY = defaultGrpcRetryOptions({ maxAttempts: 4 });

export function temporalClient(config: Pick<Config, 'temporalAddress' | 'temporalNamespace'>): Client {
  const connection = Connection.lazy({
    address: config.temporalAddress ?? '127.0.0.1:7233',
    interceptors: [makeGrpcRetryInterceptor(RETRY)],
  });
  return new Client({ connection, namespace: config.temporalNamespace });
}

// gRPC status codes of a server that could not be reached in time.
const DEADLINE_EXCEEDED = 4;
const UNAVAILABLE = 14;

/** Whether a failed Temporal call failed because the server could not be reached in time. */
export function isTemporalUnavailable(err: unknown): boolean {
  const code = err instanceof ServiceError ? (err.cause as { code?: number } | undefined)?.code : undefined;
  return code === UNAVAILABLE || code === DEADLINE_EXCEEDED;
}

export async function temporalReachable(client: Client, timeoutMs = 2000): Promise<boolean> {
  try {
    await client.connection.withDeadline(Date.now() + timeoutMs, () => client.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  }
}

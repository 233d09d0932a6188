// The Temporal client used by the API and the admin command. The connection is lazy so the
// API can start (and report itself unhealthy) while Temporal is down.
import { Client, Connection } from '@temporalio/client';
import type { Config } from '../stack/config.ts';

export function temporalClient(config: Pick<Config, 'temporalAddress' | 'temporalNamespace'>): Client {
  const connection = Connection.lazy({ address: config.temporalAddress ?? '127.0.0.1:7233' });
  return new Client({ connection, namespace: config.temporalNamespace });
}

export async function temporalReachable(client: Client, timeoutMs = 2000): Promise<boolean> {
  try {
    await client.connection.withDeadline(Date.now() + timeoutMs, () =>
      client.workflowService.getSystemInfo({}),
    );
    return true;
  } catch {
    return false;
  }
}

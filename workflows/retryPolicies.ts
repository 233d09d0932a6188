// How workflows retry their steps against PostgreSQL, object storage and the Temporal service.

/**
 * Until the step succeeds, as Temporal retries by default: an outage must delay work, never
 * end it. A workflow that gave up would leave its job, measurement or pipeline non-terminal
 * with nothing left to finish it (seen with PostgreSQL down for 15 minutes).
 */
export const UNTIL_DONE = { initialInterval: '1 second', maximumInterval: '30 seconds' } as const;

/**
 * A short database step run as a local activity. Once its next attempt is more than 10 s off,
 * it waits on a durable timer instead of holding its workflow task open (one heartbeat every
 * few seconds, each in history).
 */
export const LOCAL_DATABASE_STEP = {
  startToCloseTimeout: '1 minute',
  retry: UNTIL_DONE,
  localRetryThreshold: '10 seconds',
} as const;

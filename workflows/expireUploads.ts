// Started by the upload-expiry Temporal Schedule: removes lapsed unconfirmed uploads, a page
// at a time, until none is left.
import { proxyActivities } from '@temporalio/workflow';
import type { UploadActivities } from '../activities/uploads.ts';

const { expireUnconfirmedUploads } = proxyActivities<UploadActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});

const PAGE = 100;

export interface ExpireUploadsInput {
  /** Seconds after a session's expires_at before its objects are removed. */
  graceSeconds: number;
}

export async function expireUploads(input: ExpireUploadsInput): Promise<{ expired: number }> {
  let expired = 0;
  for (;;) {
    const n = await expireUnconfirmedUploads(input.graceSeconds, PAGE);
    expired += n;
    if (n < PAGE) return { expired };
  }
}

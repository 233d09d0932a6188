// Started by the pipeline-retry Temporal Schedule: claims pipelines whose failed element failed
// for a retryable cause (the solver or the infrastructure), has attempts left and has waited
// out its backoff, and restarts them. A restarted pipeline skips its completed elements.
import { patched, proxyActivities } from '@temporalio/workflow';
import type { PipelineActivities } from '../activities/pipelines.ts';
import type { RetryInput } from './pipelineIds.ts';

const db = proxyActivities<PipelineActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

const PAGE = 200;

export async function retryFailedElements(input: RetryInput): Promise<{ restarted: number }> {
  let restarted = 0;
  for (;;) {
    let claimed: number;
    // One activity claims and records the starts in one transaction: claimed pipelines never
    // stay pending without a workflow. Runs begun before it claim and start in two.
    if (patched('claim-records-starts')) {
      claimed = await db.claimAndRestartPipelines(input.maxAttempts, input.backoffSeconds, PAGE);
    } else {
      const ids = await db.claimRetryablePipelines(input.maxAttempts, input.backoffSeconds, PAGE);
      if (ids.length) await db.restartPipelines(ids);
      claimed = ids.length;
    }
    restarted += claimed;
    if (claimed < PAGE) return { restarted };
  }
}

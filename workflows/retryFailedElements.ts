// Started by the pipeline-retry Temporal Schedule: claims pipelines whose failed element failed
// for a retryable cause (the solver or the infrastructure), has attempts left and has waited
// out its backoff, and restarts them. A restarted pipeline skips its completed elements.
import { proxyActivities } from '@temporalio/workflow';
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
    const ids = await db.claimRetryablePipelines(input.maxAttempts, input.backoffSeconds, PAGE);
    if (ids.length) await db.restartPipelines(ids);
    restarted += ids.length;
    if (ids.length < PAGE) return { restarted };
  }
}

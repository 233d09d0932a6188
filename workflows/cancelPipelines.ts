// The background half of POST /pipelines/cancel: the database already says `canceled`; this
// workflow signals each pipeline workflow (it stops scheduling elements) and terminates its
// running element workflows, through activities holding a Temporal client (a workflow cannot
// terminate another). Ids go in slices, so each activity stays short and a retry repeats little.
import { proxyActivities } from '@temporalio/workflow';
import type { PipelineActivities } from '../activities/pipelines.ts';
import { UNTIL_DONE } from './retryPolicies.ts';

const temporalOps = proxyActivities<PipelineActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: UNTIL_DONE,
});

export interface CancelPipelinesInput {
  pipelineIds: string[];
}

const SLICE = 50;

export async function cancelPipelines(input: CancelPipelinesInput): Promise<{ pipelines: number; terminated: number }> {
  const slices: string[][] = [];
  for (let i = 0; i < input.pipelineIds.length; i += SLICE) slices.push(input.pipelineIds.slice(i, i + SLICE));
  const done = await Promise.all(slices.map((ids) => temporalOps.stopPipelineWorkflows(ids)));
  return { pipelines: input.pipelineIds.length, terminated: done.reduce((n, d) => n + d.terminated, 0) };
}

// Where stored objects live, and their durable removal. Every key starts with its
// organization and project, so deleting either removes everything under one prefix.
import type { Config } from '../../stack/config.ts';
import { workflowIds } from '../../worker/taskQueues.ts';
import type { WorkflowStart } from '../../db/workflowStarts.ts';

export const projectPrefix = (organizationId: string, projectId: string) => `orgs/${organizationId}/projects/${projectId}/`;
/** A pipeline's objects: its fits' and validations' series, one folder per element job. */
export const pipelinePrefix = (organizationId: string, projectId: string, pipelineId: string) => `${projectPrefix(organizationId, projectId)}pipelines/${pipelineId}/`;
export const pipelineSeriesPrefix = (organizationId: string, projectId: string, pipelineId: string, jobId: string) =>
  `${pipelinePrefix(organizationId, projectId, pipelineId)}series/${jobId}/`;

/**
 * The purge of everything under `prefix`: recorded in the deleting transaction, so a purge is
 * never started for a delete that rolled back. `stopWorkflowIds`: the workflows still writing
 * there (a measurement's processing), ended before anything is deleted.
 */
export function purgeStart(config: Config, prefix: string, stopWorkflowIds: string[] = []): WorkflowStart {
  return {
    workflowType: 'purgeObjects',
    taskQueue: config.taskQueue,
    workflowId: workflowIds.purgeObjects(prefix),
    args: [stopWorkflowIds.length ? { prefix, stopWorkflowIds } : { prefix }],
    reusePolicy: 'ALLOW_DUPLICATE',
  };
}

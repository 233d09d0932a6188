// Where stored objects live, and their durable removal. Every key starts with its
// organization and project, so deleting either removes everything under one prefix.
import { WorkflowIdReusePolicy } from '@temporalio/client';
import type { Services } from '../context.ts';
import { workflowIds } from '../../worker/taskQueues.ts';

export const projectPrefix = (organizationId: string, projectId: string) => `orgs/${organizationId}/projects/${projectId}/`;

export async function startPurge(services: Services, prefix: string): Promise<void> {
  await services.temporal.workflow.start('purgeObjects', {
    taskQueue: services.config.taskQueue,
    workflowId: workflowIds.purgeObjects(prefix),
    args: [{ prefix }],
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}

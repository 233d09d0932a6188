// How a pipeline's workflow is started, at creation and by the scheduled retry: one id per
// pipeline, so a second start of a running pipeline finds the first.
import type { Config } from '../stack/config.ts';
import { CellarOrganization, CellarPipeline, CellarProject, statusAttribute } from './searchAttributes.ts';
import { type WorkflowStart } from '../db/workflowStarts.ts';
import { pipelineWorkflowIds, type PipelineInput } from './pipelineIds.ts';

export interface PipelineRunRow {
  id: string;
  name: string;
  organization_id: string;
  project_id: string;
}

/**
 * The start of a pipeline's workflow, at creation and by the retry: the id is the pipeline's,
 * so a second start of a running pipeline finds the first.
 */
export function pipelineWorkflowStart(
  config: Config,
  p: PipelineRunRow,
  reusePolicy: WorkflowStart['reusePolicy'],
): WorkflowStart {
  const input: PipelineInput = {
    pipelineId: p.id,
    pipelineName: p.name,
    organizationId: p.organization_id,
    projectId: p.project_id,
    simulationTaskQueue: config.simulationTaskQueue,
    heartbeatTimeoutSeconds: config.pipelineHeartbeatTimeoutSeconds,
  };
  return {
    workflowType: 'pipeline',
    taskQueue: config.taskQueue,
    workflowId: pipelineWorkflowIds.pipeline(p.id),
    args: [input],
    reusePolicy,
    searchAttributes: [
      { key: CellarOrganization, value: p.organization_id },
      { key: CellarProject, value: p.project_id },
      { key: CellarPipeline, value: p.id },
      statusAttribute('pending'),
    ],
    memo: { pipeline_name: p.name },
  };
}

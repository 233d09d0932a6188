// A pipeline: its elements in order, each a child workflow, each receiving the parameter
// values produced before it. Completed elements are never run again (a retried pipeline
// resumes after them). The cancel signal stops scheduling: the workflow ends at once and the
// running element is terminated (by the cancel workflow, and by the parent-close policy).
import {
  ChildWorkflowFailure,
  ParentClosePolicy,
  condition,
  defineSignal,
  proxyLocalActivities,
  setHandler,
  startChild,
  upsertMemo,
  upsertSearchAttributes,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { PipelineActivities } from '../activities/pipelines.ts';
import { pipelineElement, describeFailure, renamePipelineSignal } from './pipelineElement.ts';
import {
  CANCEL_SIGNAL,
  pipelineWorkflowIds,
  type ElementOutcome,
  type ParameterValues,
  type PipelineInput,
} from './pipelineIds.ts';
import {
  CellarElementType,
  CellarOrganization,
  CellarPipeline,
  CellarProject,
  statusAttribute,
} from './searchAttributes.ts';
import type { RowStatus, SearchStatus } from './statuses.ts';
import { LOCAL_DATABASE_STEP } from './retryPolicies.ts';

// Short database steps run as local activities: no task-queue round trip per step, which is
// most of a pipeline's overhead around its fits.
const db = proxyLocalActivities<PipelineActivities>(LOCAL_DATABASE_STEP);

export const cancelPipelineSignal = defineSignal(CANCEL_SIGNAL);

function setStatus(status: SearchStatus) {
  upsertSearchAttributes([statusAttribute(status)]);
}

export async function pipeline(input: PipelineInput): Promise<{ status: RowStatus }> {
  // Set by the cancel signal (the API already recorded the cancellation), or when an element
  // was canceled on its own (POST /jobs/{id}/cancel), which this workflow then records.
  let canceled = false;
  let signaled = false;
  setHandler(cancelPipelineSignal, () => {
    canceled = signaled = true;
  });
  // PATCH renamed the pipeline: the memo (what the Web UI shows) follows, here and in the running element.
  let name = input.pipelineName;
  let running: ChildWorkflowHandle<typeof pipelineElement> | undefined;
  setHandler(renamePipelineSignal, (newName) => {
    name = newName;
    upsertMemo({ pipeline_name: name });
    // The element may end meanwhile; later ones start with the new name.
    running?.signal(renamePipelineSignal, name).catch(() => undefined);
  });
  const begin = await db.beginPipeline(input.pipelineId);
  if (begin.kind === 'skip') {
    setStatus(begin.status);
    return { status: begin.status };
  }
  setStatus('running');
  const labels = [
    { key: CellarOrganization, value: input.organizationId },
    { key: CellarProject, value: input.projectId },
    { key: CellarPipeline, value: input.pipelineId },
  ];
  let values: ParameterValues = {};
  for (const element of begin.elements) {
    if (canceled) break;
    if (element.status === 'completed') {
      values = { ...values, ...(element.parameter_values ?? {}) };
      continue;
    }
    const child = await startChild(pipelineElement, {
      workflowId: pipelineWorkflowIds.element(input.pipelineId, element.name),
      args: [
        {
          pipelineId: input.pipelineId,
          pipelineName: name,
          elementId: element.id,
          elementName: element.name,
          elementType: element.element_type,
          parameterValues: values,
          simulationTaskQueue: input.simulationTaskQueue,
          heartbeatTimeoutSeconds: input.heartbeatTimeoutSeconds,
        },
      ],
      parentClosePolicy: ParentClosePolicy.TERMINATE,
      typedSearchAttributes: [
        ...labels,
        { key: CellarElementType, value: element.element_type },
        statusAttribute('pending'),
      ],
      memo: { pipeline_name: name, element_name: element.name },
    });
    running = child;
    let outcome: ElementOutcome | null;
    try {
      outcome = await Promise.race([child.result(), condition(() => canceled).then(() => null)]);
    } catch (err) {
      if (canceled) break;
      // The element workflow itself ended abnormally (terminated or timed out from outside).
      const failure = describeFailure(err instanceof ChildWorkflowFailure && err.cause ? err.cause : err);
      outcome = await db.failElement(element.id, failure);
    }
    if (outcome === null) break;
    if (outcome.status === 'canceled') {
      canceled = true;
      break;
    }
    if (outcome.status !== 'completed') {
      const end = await db.finishPipeline(input.pipelineId, { status: 'failed', failed_element_id: element.id });
      setStatus(end.status);
      return end;
    }
    values = { ...values, ...(outcome.parameter_values ?? {}) };
  }
  if (canceled) {
    if (!signaled) await db.finishPipeline(input.pipelineId, { status: 'canceled' });
    setStatus('canceled');
    return { status: 'canceled' };
  }
  const end = await db.finishPipeline(input.pipelineId, { status: 'completed', result: { parameter_values: values } });
  setStatus(end.status);
  return end;
}

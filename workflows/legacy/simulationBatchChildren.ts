// LEGACY: how batches ran before sweeps ran in chunks. A batch whose history began under this
// code (no 'chunked-sweep' marker) replays and finishes here; new batches never come here.
//
// A batch of simulations: one child workflow per simulation, at most `window` running at
// once (a sliding window: the next starts as soon as any finishes). Each run starts up to
// `perRun` children, waits for them, and continues as new, so history stays small whatever
// the batch size.
import {
  condition,
  continueAsNew,
  executeChild,
  ParentClosePolicy,
  patched,
  proxyActivities,
  proxyLocalActivities,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { SimulationActivities } from '../../activities/simulations.ts';
import { CellarBatch, CellarOrganization, CellarProject, statusAttribute } from '../searchAttributes.ts';
import { simulation } from './simulation.ts';
import type { simulationBatch, SimulationBatchInput } from '../simulationBatch.ts';
import { simulationWorkflowIds } from '../simulationIds.ts';
import { LOCAL_DATABASE_STEP, UNTIL_DONE } from '../retryPolicies.ts';

// The batch's queries (index its search documents, read the next page of simulations) are
// short, so they run as local activities, inside the workflow task that starts the children:
// as activities, each cost two round trips through the server, and the first children began
// about 0.2 s later. Runs begun before this change replay with activities.
const localQueries = proxyLocalActivities<SimulationActivities>(LOCAL_DATABASE_STEP);
const activityQueries = proxyActivities<SimulationActivities>({ startToCloseTimeout: '1 minute', retry: UNTIL_DONE });

const PAGE = 200;

export async function legacyBatch(input: SimulationBatchInput): Promise<{ started: number }> {
  const window = input.window ?? 64;
  const perRun = input.perRun ?? 1000;
  const labels = [
    { key: CellarOrganization, value: input.organizationId },
    { key: CellarBatch, value: input.batchId },
    ...(input.projectId ? [{ key: CellarProject, value: input.projectId }] : []),
  ];
  const db = patched('batch-local-queries') ? localQueries : activityQueries;
  // The submission leaves the batch's search documents to its workflow (batches started
  // before this step existed were indexed at submission).
  if (input.afterSeq === 0 && patched('index-batch-search')) await db.indexBatchSimulations(input.batchId);
  // A counter and condition() rather than Promise.race over the running children: the SDK
  // records a stack trace for every promise a workflow creates, and a race over a full
  // window creates one per running child each time a slot frees.
  let running = 0;
  let afterSeq = input.afterSeq;
  let started = 0;
  let exhausted = false;
  while (started < perRun) {
    const page = await db.batchSimulationPage(input.batchId, afterSeq, Math.min(PAGE, perRun - started));
    if (!page.length) {
      exhausted = true;
      break;
    }
    for (const sim of page) {
      if (running >= window) await condition(() => running < window);
      running++;
      // A child records its own outcome on its job (and fails or is canceled with it); the
      // batch goes on either way.
      void executeChild(simulation, {
        workflowId: simulationWorkflowIds.simulation(input.batchId, sim.id),
        args: [{ simulationId: sim.id, simulationTaskQueue: input.simulationTaskQueue }],
        parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
        typedSearchAttributes: labels,
      }).then(
        () => running--,
        () => running--,
      );
      afterSeq = sim.seq;
      started++;
    }
  }
  await condition(() => running === 0);
  if (!exhausted) {
    // Children are all finished here, so continuing as new leaves none behind.
    await continueAsNew<typeof simulationBatch>({ ...input, afterSeq });
  }
  upsertSearchAttributes([statusAttribute('completed')]);
  return { started };
}

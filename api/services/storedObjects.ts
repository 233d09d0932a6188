// The durable removal of stored objects: everything under a prefix (storage/projectKeys.ts,
// storage/measurementKeys.ts) or some objects of one, by a workflow recorded with the delete.
import type { Config } from '../../stack/config.ts';
import { workflowIds } from '../../worker/taskQueues.ts';
import type { WorkflowStart } from '../../db/workflowStarts.ts';

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

/**
 * The purge of some objects of a folder (`name` names the purge, unique per set of keys): a
 * deleted simulation's result pack lies beside the packs of other simulations.
 */
export function purgeKeysStart(config: Config, folder: string, name: string, keys: string[]): WorkflowStart {
  return {
    workflowType: 'purgeObjects',
    taskQueue: config.taskQueue,
    workflowId: workflowIds.purgeObjects(`${folder}${name}/`),
    args: [{ prefix: folder, keys }],
    reusePolicy: 'ALLOW_DUPLICATE',
  };
}

// Where each kind of work runs. The Python worker serves the simulation and measurement queues.
export const workflowIds = {
  purgeObjects: (prefix: string) => `purge-${prefix.replace(/\/$/, '').replaceAll('/', '-')}`,
};

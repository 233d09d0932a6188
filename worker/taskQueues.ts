// Workflow ids derived from what a workflow works on, so a retried request starts it once.
export const workflowIds = {
  purgeObjects: (prefix: string) => `purge-${prefix.replace(/\/$/, '').replaceAll('/', '-')}`,
  stopProjectWork: (projectId: string) => `stop-project-${projectId}`,
};

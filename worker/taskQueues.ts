// Workflow ids derived from what a workflow works on, so a retried request starts it once.
export const workflowIds = {
  purgeObjects: (prefix: string) => `purge-${prefix.replace(/\/$/, '').replaceAll('/', '-')}`,
  stopProjectWork: (projectId: string) => `stop-project-${projectId}`,
  /** The processing of a measurement's upload (version 0) or of one of its extends. */
  measurementProcessing: (measurementId: string, mode: 'upload' | 'extend', version: number) =>
    mode === 'upload' ? `measurement-${measurementId}-upload` : `measurement-${measurementId}-extend-${version}`,
};

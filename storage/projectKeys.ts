// Where a project's objects live. Every key starts with its organization and project, so
// deleting either removes everything under one prefix.

export const projectPrefix = (organizationId: string, projectId: string) =>
  `orgs/${organizationId}/projects/${projectId}/`;
/** A pipeline's objects: its fits' and validations' series, one folder per element job. */
export const pipelinePrefix = (organizationId: string, projectId: string, pipelineId: string) =>
  `${projectPrefix(organizationId, projectId)}pipelines/${pipelineId}/`;
export const pipelineSeriesPrefix = (organizationId: string, projectId: string, pipelineId: string, jobId: string) =>
  `${pipelinePrefix(organizationId, projectId, pipelineId)}series/${jobId}/`;

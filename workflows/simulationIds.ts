// Workflow ids of simulation work, shared by the API (start, cancel, describe) and the
// workflows (children). Derived from database ids so that an id names its batch and simulation.
export const simulationWorkflowIds = {
  batch: (batchId: string) => `batch-${batchId}`,
  simulation: (batchId: string, simulationId: string) => `batch-${batchId}-sim-${simulationId}`,
  workerCall: (activity: string, key: string) => `simulation-worker-${activity}-${key}`,
  /** Whether a job's workflow is a per-simulation one (batches begun before sweeps ran in chunks). */
  isLegacySimulation: (workflowId: string | null) => workflowId !== null && /^batch-[^/]+-sim-/.test(workflowId),
};

/** Failure types of the Python simulation activities that a retry cannot fix. */
export const SIMULATION_ERROR_CODES = ['CONFIGURATION_ERROR', 'SOLVER_ERROR'] as const;

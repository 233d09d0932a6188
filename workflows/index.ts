// Every workflow the TypeScript worker runs. Deterministic code only.
export { purgeObjects } from './purgeObjects.ts';
export { processMeasurementData } from './processMeasurement.ts';
export { simulationWorkerCall } from './simulationWorkerCall.ts';
// Legacy: runs only for batches begun before sweeps ran in chunks.
export { simulation } from './legacy/simulation.ts';
export { simulationBatch } from './simulationBatch.ts';
export { pipeline } from './pipeline.ts';
export { pipelineElement } from './pipelineElement.ts';
export { cancelPipelines } from './cancelPipelines.ts';
export { retryFailedElements } from './retryFailedElements.ts';
export { stopProjectWork } from './stopProjectWork.ts';
export { expireUploads } from './expireUploads.ts';

// Pipelines and simple pipelines against the real API, database and Temporal server (the
// TypeScript worker runs entries and calculations; fits are in pipelineFaults.test.ts). One
// stack for the whole suite; the cases live in test/pipelines/, one module per concern.
import { describe } from 'vitest';
import { apiForSuite } from './harness.ts';
import { pipelineRunCases } from './pipelines/runs.cases.ts';
import { pipelineRefusalCases } from './pipelines/refusals.cases.ts';
import { pipelineOperationCases } from './pipelines/operations.cases.ts';
import { simulationBoardCases } from './pipelines/simulationBoards.cases.ts';

const api = apiForSuite();

describe('pipelines', () => {
  pipelineRunCases(api);
  pipelineRefusalCases(api);
  pipelineOperationCases(api);
});

describe('simulation boards', () => simulationBoardCases(api));

// Simulations end to end: the real API, the TypeScript worker, the Python worker running
// PyBaMM, and the Temporal server, PostgreSQL and storage of the test run. One stack for the
// whole suite; the cases live in test/simulation/, one module per concern.
import { describe, vi } from 'vitest';
import { apiForSuite } from './harness.ts';
import { batchRunCases } from './simulation/batchRuns.cases.ts';
import { batchCancelCases } from './simulation/batchCancels.cases.ts';
import { resultReuseCases } from './simulation/resultReuse.cases.ts';
import { sweepChunkCases } from './simulation/sweepChunks.cases.ts';
import {
  cancelAsSolveFinishesCases,
  cancelWhileStartingCases,
  queuedAndLegacyCases,
} from './simulation/cancelEdges.cases.ts';
import { submissionCheckCases } from './simulation/submissionChecks.cases.ts';

vi.setConfig({ testTimeout: 180_000 });

const api = apiForSuite({ python: true });

describe('simulation batches', () => {
  batchRunCases(api);
  batchCancelCases(api);
  resultReuseCases(api);
});

describe('sweeps in chunks', () => sweepChunkCases(api));

describe('legacy and queued work', () => queuedAndLegacyCases(api));

describe('canceled while its job is being started', () => cancelWhileStartingCases(api));

describe('canceled as its solve finishes', () => cancelAsSolveFinishesCases(api));

describe('submission checks', () => submissionCheckCases(api));

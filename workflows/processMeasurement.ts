// One workflow per measurement upload or extend: mark it running, let the Python worker
// validate and write canonical Parquet, record the outcome in one transaction, then remove
// the objects the new state no longer uses once nobody can still be reading them.
import { ApplicationFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { MeasurementActivities, MeasurementJob, PythonProcessInput } from '../activities/measurements.ts';
import type { ProcessingResult } from '../db/repositories/measurementData.ts';
import { UNTIL_DONE } from './retryPolicies.ts';

const db = proxyActivities<MeasurementActivities>({
  startToCloseTimeout: '1 minute',
  retry: UNTIL_DONE,
});

/** Signed download URLs live 5 minutes; objects they may point at outlive them. */
const READ_GRACE_MS = 10 * 60 * 1000;

export interface ProcessMeasurementInput extends MeasurementJob {
  /** The Python worker's task queue (config.measurementTaskQueue). */
  measurementTaskQueue: string;
}

export async function processMeasurementData(input: ProcessMeasurementInput): Promise<{ status: string }> {
  const job: MeasurementJob = { measurementId: input.measurementId, mode: input.mode, version: input.version };
  const params = await db.beginMeasurementProcessing(job);
  if (!params) return { status: 'stale' };

  const python = proxyActivities<{ processMeasurement(p: PythonProcessInput): Promise<ProcessingResult> }>({
    taskQueue: input.measurementTaskQueue,
    startToCloseTimeout: '6 hours',
    heartbeatTimeout: '2 minutes',
    retry: {
      initialInterval: '5 seconds',
      maximumInterval: '2 minutes',
      maximumAttempts: 5,
      nonRetryableErrorTypes: ['InvalidInput'],
    },
  });
  let result: ProcessingResult;
  try {
    result = await python.processMeasurement(params);
  } catch (err) {
    // Processing could not run at all (retries exhausted): the record must still leave "running".
    const reason =
      err instanceof ApplicationFailure || err instanceof Error
        ? ((err.cause as Error | undefined)?.message ?? err.message)
        : String(err);
    result = {
      status: 'failed',
      issues: [],
      processing_error: `Processing could not complete (${reason}); upload again or contact the administrator.`,
      time_series_key: null,
      steps_key: null,
      cycles_key: null,
      row_count: 0,
      columns: [],
      first_time: null,
      last_time: null,
      steps_created: 0,
    };
  }

  const { obsoleteKeys, deleteAfter } = await db.finishMeasurementProcessing({ ...job, result });
  if (obsoleteKeys.length) {
    const until = Math.max(deleteAfter ? Date.parse(deleteAfter) : 0, Date.now() + READ_GRACE_MS);
    await sleep(until - Date.now());
    await db.deleteStoredObjects(obsoleteKeys);
  }
  return { status: result.status };
}

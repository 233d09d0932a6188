// The processing workflow an upload or extend confirm starts, and the record it answers with.
import type { RequestContext, Services } from '../context.ts';
import type { Schema } from '../schemas.ts';
import { findMeasurement as findMeasurementRecord } from '../../db/repositories/cells.ts';
import type { WorkflowStart } from '../../db/workflowStarts.ts';
import type { ProcessMeasurementInput } from '../../workflows/processMeasurement.ts';
import { workflowIds } from '../../worker/taskQueues.ts';
import { serializeMeasurement } from './measurementRecords.ts';

export const workflowIdOf = workflowIds.measurementProcessing;

type ValidationOptions = Schema<'MeasurementValidationOptions'>;

/** Strict checks stay on unless turned off; the worker accepts check names and codes in any case. */
export function validationOptions(v: ValidationOptions | undefined): ValidationOptions | undefined {
  return v === undefined ? undefined : { strict: v.strict ?? true, skip_checks: v.skip_checks ?? [] };
}

/**
 * The processing workflow of an upload or extend: confirming again while it runs joins it; after a failed run it may
 * run again.
 */
export function processingStart(
  ctx: Services,
  m: { id: string },
  mode: 'upload' | 'extend',
  version: number,
): WorkflowStart {
  const args: ProcessMeasurementInput = {
    measurementId: m.id,
    mode,
    version,
    measurementTaskQueue: ctx.config.measurementTaskQueue,
  };
  return {
    workflowType: 'processMeasurementData',
    taskQueue: ctx.config.taskQueue,
    workflowId: workflowIdOf(m.id, mode, version),
    args: [args],
    reusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  };
}

/** The record as confirmed, answered before its processing can start. */
export async function answerMeasurement(ctx: RequestContext, measurementId: string) {
  return serializeMeasurement((await findMeasurementRecord(ctx.em, measurementId))!);
}

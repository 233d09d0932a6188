// The worker's JSON log keeps what the Temporal SDK says of a failure.
import { describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { sdkLogFields } from '../worker/sdkLog.ts';

describe('sdkLogFields', () => {
  it('turns errors into their class, message, failure type and cause', () => {
    const failure = ApplicationFailure.nonRetryable('steps[0]: the end condition already holds', 'CONFIGURATION_ERROR');
    const fields = sdkLogFields({ workflowId: 'batch-1-sim-2', error: failure, attempt: 1 });
    expect(JSON.parse(JSON.stringify(fields))).toEqual({
      workflowId: 'batch-1-sim-2',
      attempt: 1,
      error: {
        name: 'ApplicationFailure',
        message: 'steps[0]: the end condition already holds',
        type: 'CONFIGURATION_ERROR',
      },
    });
    const wrapped = sdkLogFields({
      error: new Error('Activity task failed', { cause: new TypeError('fetch failed') }),
    });
    expect(wrapped.error).toEqual({
      name: 'Error',
      message: 'Activity task failed',
      cause: { name: 'TypeError', message: 'fetch failed' },
    });
    expect(sdkLogFields(undefined)).toEqual({});
  });
});

// Temporal Schedules the worker keeps: created at its start, or brought in line with the
// configuration when they exist (a paused one stays paused), so every worker may call this.
import { type Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { AnyWorkflowCall } from '../workflows/registry.ts';

export interface KeptSchedule {
  scheduleId: string;
  every: string;
  /** The workflow it starts (workflowCall), with its id and task queue. */
  workflow: AnyWorkflowCall & { workflowId: string; taskQueue: string };
  /** What it does, shown in the Temporal Web UI. */
  description: string;
}

export async function ensureSchedule(client: Client, s: KeptSchedule): Promise<string> {
  const spec = { intervals: [{ every: s.every }] };
  const action = { type: 'startWorkflow' as const, ...s.workflow };
  try {
    await client.schedule.create({
      scheduleId: s.scheduleId,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      memo: { description: s.description },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(s.scheduleId).update((prev) => ({ ...prev, spec, action }));
  }
  return s.scheduleId;
}

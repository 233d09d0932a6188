// Workflows still running when Cellar is upgraded replay their history on the new code.
// Each fixture is the history of a run recorded by an earlier version (`temporal workflow
// show --output json`); replaying it must not hit a nondeterminism error.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Worker } from '@temporalio/worker';
import { WORKFLOWS_PATH } from '../worker/worker.ts';

interface HistoryJson {
  events: { eventType: string }[];
}
// Passed to the replay worker as JSON, which it converts with the SDK's protobufs (this needs
// one protobufjs for all @temporalio packages: package.json pins it for the hoisting).
const fixture = (name: string): HistoryJson =>
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8'));

describe('replay of histories recorded by earlier versions', () => {
  it('a simulation batch whose queries ran as activities (before they were local)', async () => {
    const history = fixture('simulationBatch-activities.history.json');
    const kinds = history.events.map((e) => e.eventType);
    // The recording is what it says: the batch's queries were scheduled as activities, and it
    // ran children to completion.
    expect(kinds.filter((k) => k === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED')).toHaveLength(2);
    expect(kinds.at(-1)).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
    await expect(
      Worker.runReplayHistory({ workflowsPath: WORKFLOWS_PATH, replayName: 'simulationBatch-activities' }, history),
    ).resolves.toBeUndefined();
  }, 180_000);

  it('a simulation batch solved in chunks (the sweep design of 2026-11-27)', async () => {
    const history = fixture('simulationBatch-chunks.history.json');
    const kinds = history.events.map((e) => e.eventType);
    // 12 points: two probe chunks and the rest, its database steps as local activities (markers).
    expect(kinds.filter((k) => k === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED').length).toBeGreaterThanOrEqual(3);
    expect(kinds.filter((k) => k === 'EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED')).toHaveLength(0);
    expect(kinds.at(-1)).toBe('EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
    await expect(
      Worker.runReplayHistory({ workflowsPath: WORKFLOWS_PATH, replayName: 'simulationBatch-chunks' }, history),
    ).resolves.toBeUndefined();
  }, 180_000);
});

// Deleting a measurement while it is being processed: the processing workflow is ended before
// the purge, and the purge removes every object under the measurement, partial files included.
// No Python worker runs here, so processing waits at its first Python activity for as long as
// the test needs.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { WorkflowExecutionStatusName } from '@temporalio/client';
import { apiForSuite, client, eventually, newOrg } from './harness.ts';
import { labFixture, ok } from './inventoryHelpers.ts';
import type { FsStorage } from '../storage/fsStorage.ts';
import { measurementPrefix } from '../storage/measurementKeys.ts';
import { workflowIds } from '../worker/taskQueues.ts';

const api = apiForSuite();

describe('deleting a measurement being processed', () => {
  it('ends its processing first, then purges every object it had, partial ones included', async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 1 });
    const init = await ok(
      c.post(`/cell_instances/${lab.instance.id}/cell_measurements/initiate-upload`, {
        measurement: { name: 'Doomed' },
      }),
    );
    const put = await fetch(init.uploads[0].signed_url, {
      method: 'PUT',
      body: 'Time [s],Current [A],Voltage [V]\n0,1,4.1\n1,1,4.0\n',
    });
    expect(put.ok).toBe(true);
    await ok(
      c.post(`/cell_measurements/${init.measurement_id}/confirm-upload`, {
        cell_instance_id: lab.instance.id,
        measurement: {},
      }),
      201,
    );
    const processing = api.temporal.workflow.getHandle(
      workflowIds.measurementProcessing(init.measurement_id, 'upload', 0),
    );
    // At its Python activity (which no worker takes here), past its first step: a delete before
    // that step would let processing end by itself, finding its measurement gone.
    await eventually(
      async () => {
        const described = await processing.describe();
        const pending = described.raw.pendingActivities ?? [];
        return (
          described.status.name === 'RUNNING' && pending.some((a) => a.activityType?.name === 'processMeasurement')
        );
      },
      { what: 'processing to wait at its Python activity' },
    );

    // A write in progress leaves a partial file, which readers never list.
    const storage = api.storage as FsStorage;
    const prefix = measurementPrefix(org.organization_id, lab.project.id, init.measurement_id);
    const partial = `${storage.pathOf(`${prefix}time_series.parquet`)}.part-0123`;
    fs.writeFileSync(partial, 'half a file');
    expect((await storage.list(prefix)).length).toBeGreaterThan(0);

    expect(await ok(c.delete(`/cell_measurements/${init.measurement_id}`))).toEqual({
      id: init.measurement_id,
      deleted: true,
    });
    const purgeHandle = api.temporal.workflow.getHandle(workflowIds.purgeObjects(prefix));
    const purgeState = async () =>
      (await purgeHandle.describe().catch((err: Error) => ({ status: { name: err.message } }))).status.name;
    await eventually(
      async () => (await processing.describe()).status.name === ('TERMINATED' satisfies WorkflowExecutionStatusName),
      {
        what: 'processing to be terminated',
        timeoutMs: 120_000,
      },
    ).catch(async (err: Error) => {
      throw new Error(
        `${err.message}; processing ${(await processing.describe()).status.name}, purge ${await purgeState()}`,
      );
    });
    await eventually(async () => (await storage.list(prefix)).length === 0 && !fs.existsSync(partial), {
      what: `the purge of ${prefix}`,
    });
    // It waits for a terminated activity's last write, then purges again.
    expect(await purgeState()).toBe('RUNNING');
  });
});

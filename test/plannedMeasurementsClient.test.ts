// The public Python client (ionworks-api 0.38, unmodified) through planned measurements and the
// lab: create, create_or_get, schedule, a collision, list, auto-schedule proposal and apply, a
// stale apply, cancel, delete, free_channels never offering an out-of-commission channel.
// Runs the client that `stack/provision.sh --tests` installs in .tools/client-venv (or CELLAR_CLIENT_PYTHON); skipped,
// saying so, without one.
import path from 'node:path';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../stack/config.ts';
import { client, newOrg, startApi, type TestApi } from './harness.ts';
import { labFixture, ok, uniq } from './inventoryHelpers.ts';

const PYTHON = process.env.CELLAR_CLIENT_PYTHON ?? path.join(ROOT, '.tools', 'client-venv', 'bin', 'python');
const probe = spawnSync(PYTHON, ['-c', 'import ionworks'], { encoding: 'utf8' });
const HAS_CLIENT = probe.status === 0;
if (!HAS_CLIENT)
  console.log(
    `[client] skipped: ${PYTHON} cannot import ionworks (pip install ionworks-api==0.38.0, ` +
      `or set CELLAR_CLIENT_PYTHON)`,
  );

let api: TestApi;
beforeAll(async () => {
  if (HAS_CLIENT) api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

describe.skipIf(!HAS_CLIENT)('planned measurements through ionworks-api', () => {
  it("runs the client's flows unmodified", async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 3 });
    const [ch1, ch2, ch3] = lab.channels;
    await ok(c.patch(`/channels/${ch3.id}`, { out_of_commission: true }));
    const template = await ok(
      c.post('/protocols/parse-to-template', {
        protocol_experiment: { protocol: 'Rest for 1 hour', name: uniq('Rest') },
        project_id: lab.project.id,
        experiment_parameters: {},
      }),
    );
    // Asynchronously: the API answers from this very process.
    const run = await promisify(execFile)(
      PYTHON,
      [
        path.join(ROOT, 'test', 'fixtures', 'planned_client.py'),
        api.url,
        org.api_key,
        lab.project.id,
        template.template_id,
        lab.spec.id,
        ch1.id,
        ch3.id,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    const seen = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    expect(seen).toMatchObject({
      created: 'requested',
      same: true,
      requested_by: org.email,
      scheduled: 'scheduled',
      scheduled_by: org.email,
      clash: { status: 409, code: 'CONFLICT' },
      stale: { status: 409, code: 'SCHEDULE_STALE' },
      cancelled: 'cancelled',
      ooc_offered: false,
      out_of_commission: 1,
    });
    expect(seen.listed).toHaveLength(1);
    expect(seen.proposed).toEqual([[expect.any(String), ch1.id, lab.cycler.name, true]]);
    expect(seen.applied).toEqual([[seen.proposed[0][0], 'scheduled']]);
    expect(seen.left).toEqual([seen.proposed[0][0]]);
    expect(seen.free.sort()).toEqual([ch1.id, ch2.id].sort());
  });
});

// The lab board in a real browser: Debian's Chromium driven by playwright-core against the real
// API. Skipped, saying why, where Chromium is not installed (stack/provision.sh --tests installs it).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { client, newOrg, startApi, type TestApi } from './harness.ts';
import { labFixture, measurement, ok, uniq } from './inventoryHelpers.ts';

function findChromium(): string | null {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
    } catch {
      // not this one
    }
  }
  return null;
}
const CHROMIUM = process.env.CHROMIUM_PATH ?? findChromium();
if (!CHROMIUM)
  console.log(
    "[labBoard] skipped: no Chromium (install Debian's chromium, as stack/provision.sh --tests does, " +
      'or set CHROMIUM_PATH)',
  );

/** The board's round trips take seconds on a loaded host, not the poll's default second. */
const POLL = { timeout: 15_000 };

let api: TestApi;
let browser: Browser;
beforeAll(async () => {
  if (!CHROMIUM) return;
  api = await startApi();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function signIn(page: Page, key: string) {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe.skipIf(!CHROMIUM)('lab board in Chromium', () => {
  const signsInShowsTheTitle =
    "signs in, shows the API's counts, follows a channel out of commission, finds a channel, " +
    'proposes and applies a schedule';
  it(signsInShowsTheTitle, async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 6 });
    const [ch1, ch2, ch3] = lab.channels;
    await measurement(c, lab.instance.id, {
      channel_id: ch1.id,
      protocol: 'CCCV 1C',
      estimated_end_time: new Date(Date.now() + 4 * 3600_000).toISOString(),
    });
    await measurement(c, lab.instance.id, { channel_id: ch2.id });
    const template = await ok(
      c.post('/protocols/parse-to-template', {
        protocol_experiment: { protocol: 'Rest for 1 hour', name: uniq('Rest') },
        project_id: lab.project.id,
        experiment_parameters: {},
      }),
    );
    const plans = `/projects/${lab.project.id}/planned_measurements`;
    const plan = await ok(
      c.post(plans, {
        name: uniq('Board plan'),
        protocol_id: template.template_id,
        cell_specification_id: lab.spec.id,
        estimated_duration_seconds: 7200,
      }),
      201,
    );

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${api.url}/lab?refresh=1000`);
    // A wrong key: the API's message, back at sign-in.
    await signIn(page, 'cellar_wrong_key');
    await expect.poll(() => page.locator('#signin-error').textContent(), POLL).toMatch(/\S/);
    await signIn(page, org.api_key);

    const status = await ok(c.get(`/projects/${lab.project.id}/lab/status`));
    const count = (k: string) => page.locator(`[data-count="${k}"]`).textContent();
    await expect.poll(() => count('occupied'), POLL).toBe(String(status.occupied));
    for (const k of ['stale', 'free', 'out_of_commission'] as const) expect(await count(k)).toBe(String(status[k]));
    // The counts and the channels come together, from the grid view.
    await expect.poll(() => page.locator('#grid .ch').count(), POLL).toBe(6);

    // Out of commission through the API: the board shows it within its refresh (1 s here).
    await ok(c.patch(`/channels/${ch3.id}`, { out_of_commission: true }));
    await expect
      .poll(() => page.locator(`.ch[data-id="${ch3.id}"]`).getAttribute('data-state'), { timeout: 10_000 })
      .toBe('out_of_commission');
    expect(await count('out_of_commission')).toBe('1');
    expect(await page.locator(`.ch[data-id="${ch3.id}"]`).getAttribute('aria-label')).toContain('out of commission');

    // The grid came from the grid view alone: no page of the full view until a channel is selected.
    expect(requests.filter((u) => u.includes('/lab/status?view=grid')).length).toBeGreaterThan(0);
    expect(requests.filter((u) => u.includes('cycler_offset='))).toEqual([]);
    // Before its details, a cell's label is what the grid view carries: name and state in words.
    const cell1 = page.locator(`.ch[data-id="${ch1.id}"]`);
    expect(await cell1.getAttribute('aria-label')).toMatch(/: occupied/);
    // A channel's details on click: its measurement (cell, protocol, requested by, estimated end, watched),
    // fetched from the full view of its cycler (a page of one cycler).
    await cell1.click();
    await expect.poll(() => page.locator('#details').textContent(), POLL).toContain('CCCV 1C');
    const details = (await page.locator('#details').textContent())!;
    for (const k of [
      'Cell',
      'Protocol',
      'Requested by',
      'Estimated end',
      'Watched',
      'Next reservation',
      'Upcoming plans',
    ])
      expect(details).toContain(k);
    expect(requests.filter((u) => u.includes('cycler_offset=0&cycler_limit=1'))).toHaveLength(1);
    // Then the cell's label and tooltip carry its full description.
    await expect.poll(() => cell1.getAttribute('aria-label'), POLL).toContain('CCCV 1C');
    expect(await cell1.getAttribute('title')).toContain('CCCV 1C');
    // By keyboard: an arrow to the next cell, and Enter opens its details.
    await cell1.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#details h2').textContent(), POLL).toContain(ch2.name);
    await expect.poll(() => page.locator('#details').textContent(), POLL).toContain('Upcoming plans');

    // Find a channel by ratings: the free ones that fit (3 free of 6; 11 A fits none).
    await page.getByLabel('Current (A)').fill('5');
    await page.getByLabel('Min voltage (V)').fill('2.5');
    await page.getByLabel('Max voltage (V)').fill('4.2');
    await page.getByRole('button', { name: 'Find free channels' }).click();
    expect(await page.locator('[data-found]').getAttribute('data-found')).toBe('3');
    await page.getByLabel('Current (A)').fill('11');
    await page.getByRole('button', { name: 'Find free channels' }).click();
    expect(await page.locator('[data-found]').getAttribute('data-found')).toBe('0');

    // Propose and apply: the requested plan goes onto a free channel.
    await expect.poll(() => page.locator('#requested').textContent(), POLL).toContain(plan.name);
    await page.getByRole('button', { name: 'Propose schedule' }).click();
    await expect.poll(() => page.locator('#proposal table').count(), POLL).toBe(1);
    await page.getByRole('button', { name: 'Apply proposal' }).click();
    await expect.poll(() => page.locator('[data-applied]').getAttribute('data-applied'), POLL).toBe('1');
    const scheduled = await ok(c.get(`${plans}/${plan.id}`));
    expect(scheduled.status).toBe('scheduled');
    await expect.poll(() => page.locator('#timeline').textContent(), POLL).toContain(plan.name);
    await expect
      .poll(() => page.locator(`.ch[data-id="${scheduled.channel_id}"]`).getAttribute('class'), POLL)
      .toContain('booked');

    // Unchanged lab: conditional requests answered 304 by the API.
    await expect
      .poll(
        () => page.evaluate(() => (globalThis as unknown as { __board: { notModified: number } }).__board.notModified),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
    // The key is never in a URL.
    expect(requests.filter((u) => u.includes(org.api_key))).toEqual([]);
    expect(errors).toEqual([]);

    const shot = path.join(inject('runDir'), 'lab-board.png');
    await page.screenshot({ path: shot, fullPage: true });
    if (process.env.CELLAR_BOARD_SCREENSHOT) fs.copyFileSync(shot, process.env.CELLAR_BOARD_SCREENSHOT);
    console.log(`[labBoard] screenshot: ${shot}`);
    expect(fs.statSync(shot).size).toBeGreaterThan(10_000);

    // A revoked key (signed out elsewhere) returns the board to sign-in.
    await api.orm.em.fork().execute(`delete from api_keys where user_id = ?`, [org.user_id]);
    await expect.poll(() => page.locator('#signin').count(), { timeout: 15_000 }).toBe(1);
    await page.close();
  });

  it("lists every requested plan and every reservation of the next 7 days, past the lists' page of 100", async () => {
    const org = await newOrg(api.orm);
    const c = client(api.url, org.api_key);
    const lab = await labFixture(c, { channels: 3 });
    const template = await ok(
      c.post('/protocols/parse-to-template', {
        protocol_experiment: { protocol: 'Rest for 1 hour', name: uniq('Rest') },
        project_id: lab.project.id,
        experiment_parameters: {},
      }),
    );
    // Written directly (the API's create is tested elsewhere): 130 requested plans, and 3 × 45 one-hour reservations.
    const sql = (q: string, params: unknown[]) => api.orm.em.fork().execute(q, params);
    const common = [org.organization_id, lab.project.id, template.template_id, lab.spec.id, org.user_id, org.user_id];
    await sql(
      `insert into planned_measurements (id, organization_id, project_id, name, status, protocol_id,
        cell_specification_id,
        estimated_duration_seconds, requested_by, created_by)
      select gen_random_uuid(), ?, ?, 'request ' || lpad(g::text, 3, '0'), 'requested', ?, ?, 3600, ?, ?
        from generate_series(1, 130) g`,
      common,
    );
    await sql(
      `insert into planned_measurements (id, organization_id, project_id, name, status, protocol_id,
        cell_specification_id, channel_id,
        planned_start_time, planned_end_time, requested_by, created_by)
      select gen_random_uuid(), ?, ?, 'reservation ' || ch.name || '-' || g, 'scheduled', ?, ?, ch.id,
             date_trunc('hour', now()) + g * interval '2 hours', date_trunc('hour',
               now()) + g * interval '2 hours' + interval '1 hour', ?, ?
        from channels ch cross join generate_series(1, 45) g where ch.cycler_id = ?`,
      [...common, lab.cycler.id],
    );

    // Two more cyclers of two channels: the whole grid arrives in one grid view, no pages.
    for (const name of ['Y', 'Z']) {
      const cy = await ok(
        c.post(`/sites/${lab.site.id}/cyclers`, { name: uniq(name), project_id: lab.project.id }),
        201,
      );
      for (const ch of ['1', '2']) await ok(c.post(`/cyclers/${cy.id}/channels`, { name: ch }), 201);
    }
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const pages: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('cycler_offset=')) pages.push(r.url());
    });
    await page.goto(`${api.url}/lab?project=${lab.project.id}`);
    await signIn(page, org.api_key);
    await expect.poll(() => page.locator('#grid .ch').count(), { timeout: 20_000 }).toBe(7);
    expect(pages).toEqual([]);
    await expect.poll(() => page.locator('#requested').getAttribute('data-plans'), { timeout: 20_000 }).toBe('130');
    expect(await page.locator('input[name=plan]').count()).toBe(130);
    expect(await page.locator('#requested').textContent()).toContain('request 130');
    expect(await page.locator('#slot-plan option').count()).toBe(130);
    await expect
      .poll(() => page.locator('#timeline').getAttribute('data-reservations'), { timeout: 20_000 })
      .toBe('135');
    expect(await page.locator('#timeline .bar').count()).toBe(135);
    // A channel's upcoming plans: all 45 of them; its details from the full view of its cycler, the first.
    await page.locator(`.ch[data-id="${lab.channels[0].id}"]`).click();
    await expect.poll(() => page.locator('#details li').count(), { timeout: 10_000 }).toBe(45);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('cycler_offset=0&cycler_limit=1');
    await page.close();
  });

  const servesALandingPageTitle =
    'serves a landing page linking the reference, the board and the Temporal Web UI, and the ' + 'bundle from the API';
  it(servesALandingPageTitle, async () => {
    const res = await fetch(`${api.url}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const href of ['/docs', '/lab', `:${api.config.temporalUiPort}`]) expect(html).toContain(href);
    const js = await fetch(`${api.url}/lab/assets/main.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    const board = await fetch(`${api.url}/lab`);
    expect(board.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await board.text()).not.toMatch(/https?:\/\//);
  });
});

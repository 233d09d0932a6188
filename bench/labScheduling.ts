// The scheduling half of bench/lab-status.ts: reservations at lab scale, conditional lab status,
// the auto-schedule proposal, concurrent schedule requests on one channel, and the board in Chromium.
import { execFileSync } from 'node:child_process';
import type { EntityManager } from '@mikro-orm/postgresql';
import { labHead } from '../db/repositories/lab.ts';
import { placePlans, proposalInputs } from '../api/services/autoSchedule.ts';
import { projectBlocks } from '../db/repositories/plannedMeasurements.ts';

/** The proposal's reads before 2026-11-27 (every channel and block column, as driver rows), the reads' baseline. */
const PREVIOUS_CHANNELS = `select ch.id, ch.name, ch.organization_id, ch.project_id, ch.cycler_id,
  cy.name as cycler_name, ch.out_of_commission, ch.service_event_id, ch.max_amps, ch.min_volts, ch.max_volts,
  (extract(epoch from cy.calibration_due_at) * 1000)::float8 as calibration_due_at
  from channels ch join cyclers cy on cy.id = ch.cycler_id join sites s on s.id = cy.site_id
  where ch.project_id = ? order by s.name, cy.name, ch.name, ch.id`;

type Exec = (sql: string, params?: unknown[]) => Promise<Record<string, any>[]>;
type Timer = (n: number, fn: () => Promise<unknown>) => Promise<number[]>;
type PairTimer = (n: number, a: () => Promise<unknown>, b: () => Promise<unknown>) => Promise<[number[], number[]]>;
export interface Ctx {
  exec: Exec;
  em: () => EntityManager;
  timePair: PairTimer;
  base: string;
  headers: Record<string, string>;
  project: string;
  org: string;
  user: string;
  apiKey: string;
  time: Timer;
  pct: (xs: number[], p: number) => number;
  fmt: (xs: number[]) => string;
}

/** 20,000 scheduled reservations over the next weeks, none overlapping on a channel, and a protocol to plan with. */
export async function seedReservations(
  ctx: Pick<Ctx, 'exec' | 'org' | 'project' | 'user'>,
  count: number,
): Promise<{ protocolId: string; specId: string }> {
  const { exec, org, project, user } = ctx;
  const [template] = await exec(
    `insert into experiment_templates (id, organization_id, project_id, content_hash, name, source_protocol,
      protocol_config, created_by)
    values (gen_random_uuid(), ?, ?, 'bench', 'Rest 1 h', 'Rest for 1 hour', '{}', ?) returning id`,
    [org, project, user],
  );
  const [spec] = await exec(`select id from cell_specifications where project_id = ?`, [project]);
  // Channel i % n gets its k-th reservation k days ahead (2 h long), after any run's estimated end.
  await exec(
    `with ch as (select id, row_number() over (order by id) - 1 as i, count(*) over () as n from channels
      where project_id = ? and not out_of_commission)
    insert into planned_measurements (id, organization_id, project_id, name, status, protocol_id,
      cell_specification_id, channel_id,
                                      planned_start_time, planned_end_time, requested_by, scheduled_by, created_by)
    select gen_random_uuid(), ?, ?, 'reservation ' || g, 'scheduled', ?, ?, ch.id,
           date_trunc('hour', now()) + (3 + g / ch.n) * interval '1 day', date_trunc('hour',
             now()) + (3 + g / ch.n) * interval '1 day' + interval '2 hours', ?, ?, ?
      from generate_series(0, ? - 1) g join ch on ch.i = g % ch.n`,
    [project, org, project, template!.id, spec!.id, user, user, user, count],
  );
  return { protocolId: template!.id, specId: spec!.id };
}

async function call(ctx: Ctx, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  const res = await fetch(ctx.base + path, {
    method,
    headers: { ...ctx.headers, ...extra },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), body: text ? JSON.parse(text) : null };
}

const ratio = (ctx: Ctx, a: number[], b: number[], p: number) => (ctx.pct(a, p) / ctx.pct(b, p)).toFixed(2);

/**
 * Conditional GETs of an unchanged lab, alternated with the baseline (GET /auth/health, the
 * cheapest authenticated call): every one 304; p95 printed (target < 5 ms) with its ratio to the
 * baseline, and the one statement the 304 costs beyond it (labHead, in-process).
 */
export async function conditionalStatus(ctx: Ctx, n: number): Promise<boolean> {
  const first = await call(ctx, 'GET', `/projects/${ctx.project}/lab/status`);
  let all304 = true;
  const [times, health] = await ctx.timePair(
    n,
    async () => {
      const r = await call(ctx, 'GET', `/projects/${ctx.project}/lab/status`, undefined, {
        'If-None-Match': first.etag!,
      });
      // The tag moves with the minute: a reply across it is a 200, fetched again.
      if (r.status !== 304 && r.etag === first.etag) all304 = false;
    },
    () => call(ctx, 'GET', '/auth/health'),
  );
  const head = await ctx.time(n, () => labHead(ctx.em(), ctx.project, ctx.user, 'channel:read'));
  console.log(
    `GET lab/status with a matching If-None-Match  ${ctx.fmt(times)}  (target p95 < 5 ms; every reply 304: ` +
      `${all304 ? 'yes' : 'NO'})`,
  );
  console.log(`  baseline GET /auth/health, alternated      ${ctx.fmt(health)}`);
  console.log(
    `  304 / baseline: p50 ${ratio(ctx, times, health, 50)}×  p95 ${ratio(ctx, times, health, 95)}×; ` +
      ` its one statement (labHead in-process) ${ctx.fmt(head)}`,
  );
  return all304;
}

/**
 * The proposal for `count` requested plans (target < 2 s), and where its time goes: its reads
 * (in-process) and the placement alone (in-process, no I/O), alternated with the endpoint.
 */
export async function proposal(ctx: Ctx, ids: { protocolId: string; specId: string }, count: number): Promise<void> {
  const rows = await ctx.exec(
    `insert into planned_measurements (id, organization_id, project_id, name, status, protocol_id,
      cell_specification_id,
      estimated_duration_seconds, requested_by, created_by)
    select gen_random_uuid(), ?, ?, 'request ' || g, 'requested', ?, ?, 3600 * (1 + g % 8), ?, ?
      from generate_series(0, ? - 1) g returning id`,
    [ctx.org, ctx.project, ids.protocolId, ids.specId, ctx.user, ctx.user, count],
  );
  const planIds = rows.map((r) => r.id as string);
  let scheduled = 0;
  const [times, reads] = await ctx.timePair(
    5,
    async () => {
      const r = await call(ctx, 'POST', `/projects/${ctx.project}/planned_measurements/auto_schedule_proposal`, {
        planned_measurement_ids: planIds,
      });
      if (r.status !== 200) throw new Error(`proposal: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      scheduled = r.body.assignments.filter((a: { channel_id: string | null }) => a.channel_id).length;
    },
    () => proposalInputs(ctx.em(), ctx.project, planIds),
  );
  const [reads2, previous] = await ctx.timePair(
    5,
    () => proposalInputs(ctx.em(), ctx.project, planIds),
    () => Promise.all([ctx.exec(PREVIOUS_CHANNELS, [ctx.project]), projectBlocks(ctx.em(), ctx.project)]),
  );
  const [plans, channels, blocks] = await proposalInputs(ctx.em(), ctx.project, planIds);
  const byId = new Map(plans.map((p) => [p.id, p]));
  const place = await ctx.time(5, async () =>
    placePlans(
      planIds.map((id) => byId.get(id)!),
      channels,
      blocks,
      Date.now(),
    ),
  );
  console.log(
    `auto-schedule proposal for ${count} requested plans  ${ctx.fmt(times)}  (target < 2 s; ${scheduled} placed)`,
  );
  console.log(
    `  its reads (${channels.length} channels, ${blocks.length} blocks), in-process  ${ctx.fmt(reads)}; ` +
      ` the placement alone  ${ctx.fmt(place)}`,
  );
  console.log(
    `  its reads again ${ctx.fmt(reads2)}, alternated with the previous reads (every column as driver rows) ` +
      `${ctx.fmt(previous)}: p50 ${ratio(ctx, reads2, previous, 50)}×`,
  );
  console.log(`  proposal / its reads: p50 ${ratio(ctx, times, reads, 50)}×  p95 ${ratio(ctx, times, reads, 95)}×`);
}

/**
 * Runs in the page: each lab status request's start, first byte (the server's build) and end
 * (transfer), when the board had it parsed and how long it drew it, then the frame after the last
 * page (style, layout, paint), from the board's timings and the browser's resource timings.
 */
function whereTimeWent(): string[] {
  const b = (
    globalThis as unknown as {
      __board: {
        signInAt: number;
        allDrawnAt: number;
        paintedAt: number;
        pages: { url: string; parsedAt: number; drawMs: number }[];
      };
    }
  ).__board;
  const at = (t: number) => (t - b.signInAt).toFixed(0);
  const lines: string[] = [];
  const resources = performance
    .getEntriesByType('resource')
    .filter((e) => e.name.includes('/lab/status') && e.startTime >= b.signInAt) as unknown as {
    name: string;
    startTime: number;
    responseStart: number;
    responseEnd: number;
    encodedBodySize: number;
  }[];
  for (const r of resources) {
    const url = new URL(r.name);
    const drawn = b.pages.find((p) => r.name.endsWith(p.url));
    lines.push(
      `${(url.search || '(whole)').padEnd(36)} asked ${at(r.startTime)}, first byte ${at(r.responseStart)}, ` +
        `received ${at(r.responseEnd)} (${(r.encodedBodySize / 1e6).toFixed(2)} MB)` +
        (drawn ? `, parsed ${at(drawn.parsedAt)}, drawn in ${drawn.drawMs.toFixed(0)}` : ''),
    );
  }
  lines.push(`all drawn ${at(b.allDrawnAt)}; the next frame (style, layout, paint) ${at(b.paintedAt)}`);
  return lines;
}

/** 50 concurrent schedule requests for overlapping windows on one channel: exactly one succeeds. */
export async function concurrentSchedules(
  ctx: Ctx,
  ids: { protocolId: string; specId: string },
  n: number,
): Promise<boolean> {
  const [channel] = await ctx.exec(
    `select id from channels where project_id = ? and not out_of_commission order by id desc limit 1`,
    [ctx.project],
  );
  const rows = await ctx.exec(
    `insert into planned_measurements (id, organization_id, project_id, name, status, protocol_id,
      cell_specification_id,
      estimated_duration_seconds, requested_by, created_by)
    select gen_random_uuid(), ?, ?, 'race ' || g, 'requested', ?, ?, 3600, ?, ? from generate_series(0, ? - 1) g
      returning id`,
    [ctx.org, ctx.project, ids.protocolId, ids.specId, ctx.user, ctx.user, n],
  );
  const start = Date.now() + 40 * 86400_000;
  const replies = await Promise.all(
    rows.map((r, i) =>
      call(ctx, 'PATCH', `/projects/${ctx.project}/planned_measurements/${r.id}`, {
        status: 'scheduled',
        channel_id: channel!.id,
        planned_start_time: new Date(start + i * 60_000).toISOString(),
        planned_end_time: new Date(start + 3600_000 + i * 60_000).toISOString(),
      }),
    ),
  );
  const won = replies.filter((r) => r.status === 200).length;
  const lost = replies.filter((r) => r.status === 409).length;
  console.log(
    `${n} concurrent overlapping schedule requests on one channel: ${won} succeeded, ` +
      `${lost} got 409 (${won === 1 && lost === n - 1 ? 'exactly one: OK' : 'WRONG'})`,
  );
  return won === 1 && lost === n - 1;
}

/**
 * The board in Chromium, from its own timings: every channel drawn from the grid view, from
 * sign-in (target < 2 s), against baselines of the same run in the same page: the whole status
 * (full view) fetched and parsed, and the grid view fetched and parsed; then a refresh with
 * changes the grid shows (drawing, target < 300 ms).
 */
export async function boardInChromium(ctx: Ctx): Promise<void> {
  let chromiumPath: string;
  try {
    chromiumPath = execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], {
      encoding: 'utf8',
    }).trim();
  } catch {
    console.log('board in Chromium: skipped (no chromium installed)');
    return;
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.goto(`${ctx.base}/lab?refresh=1000&project=${ctx.project}`);
    await page.getByLabel('API key').fill(ctx.apiKey);
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('body[data-first-view="1"]', { timeout: 120_000 });
    const firstView = Date.now() - t0;
    await page.waitForSelector('body[data-renders="1"]', { timeout: 120_000 });
    const all = Date.now() - t0;
    const drawn = await page.evaluate(
      () => (globalThis as unknown as { __board: { firstViewMs: number; firstRenderMs: number } }).__board,
    );
    const cells = await page.locator('#grid .ch').count();
    await page.waitForFunction(() => (globalThis as unknown as { __board: { paintedAt: number } }).__board.paintedAt);
    console.log(`  where the first render's time went (ms after sign-in, in the page):`);
    for (const line of await page.evaluate(whereTimeWent)) console.log(`    ${line}`);
    // Baselines: the whole tree (full view) and the grid view fetched and parsed in this page.
    const fetchParse = (path: string) =>
      page.evaluate(
        async ({ path, key }) => {
          const s = performance.now();
          const body = (await (
            await fetch(path, { headers: { 'X-API-Key': key, Accept: 'application/json' }, cache: 'no-store' })
          ).json()) as { free: number; occupied: number; stale: number; out_of_commission: number };
          return {
            ms: performance.now() - s,
            channels: body.free + body.occupied + body.stale + body.out_of_commission,
          };
        },
        { path, key: ctx.apiKey },
      );
    const whole = await fetchParse(`/projects/${ctx.project}/lab/status`);
    const gridOnly = await fetchParse(`/projects/${ctx.project}/lab/status?view=grid`);
    console.log(
      `board all ${cells} channels drawn in Chromium (grid view): ${all} ms from sign-in ` +
        `(${drawn.firstRenderMs.toFixed(0)} ms drawing; first view ${firstView} ms; target < 2 s)`,
    );
    console.log(
      `  baselines in the page: the whole status (${whole.channels} channels, full view) fetched and parsed ` +
        `${whole.ms.toFixed(0)} ms, the grid view fetched and parsed ${gridOnly.ms.toFixed(0)} ms; ` +
        `all drawn / whole status ${(all / whole.ms).toFixed(2)}×`,
    );
    // 50 channels' measurements watched: 50 cells the grid redraws.
    await ctx.exec(
      `insert into measurement_watches (measurement_id, user_id, project_id)
       select id, ?, project_id from cell_measurements
        where project_id = ? and end_time is null and channel_id is not null
        order by id limit 50 on conflict do nothing`,
      [ctx.user, ctx.project],
    );
    await page.waitForSelector('body[data-renders="2"]', { timeout: 60_000 });
    const refresh = await page.evaluate(
      () => (globalThis as unknown as { __board: { lastRenderMs: number } }).__board.lastRenderMs,
    );
    console.log(
      `board refresh with 50 changed channels in Chromium: ` +
        `${refresh.toFixed(0)} ms drawing over the whole grid (target < 300 ms)`,
    );
  } finally {
    await browser.close();
  }
}

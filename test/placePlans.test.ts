// The auto-schedule's placement (heap of channels by when they are next free) against the plain
// rescan it replaced, on random labs: the same channel and window for every plan.
import { describe, expect, it } from 'vitest';
import { earliestGap, placePlans } from '../api/services/autoSchedule.ts';
import type { Block, ChannelForPlan } from '../db/repositories/plannedMeasurements.ts';

const HOUR = 3600_000;
const FROM = Date.parse('2026-12-01T00:00:00Z');

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** The rescan: every rated channel for every plan, the earliest start, ties to channel order. */
function rescan(plans: { id: string; hours: number; amps: number }[], channels: ChannelForPlan[], blocks: Block[]) {
  const taken = new Map(
    channels.map((c) => [
      c.id,
      blocks.filter((b) => b.channel_id === c.id).map((b) => ({ start_ms: b.start_ms, end_ms: b.end_ms })),
    ]),
  );
  return plans.map((p) => {
    const duration = p.hours * HOUR;
    let best: { c: ChannelForPlan; start: number } | null = null;
    for (const c of channels) {
      if ((c.out_of_commission && !c.service_event_id) || c.max_amps === null || c.max_amps < p.amps) continue;
      const start = earliestGap(taken.get(c.id)!, FROM, duration);
      if (!Number.isFinite(start) || (c.calibration_due_at !== null && start + duration > c.calibration_due_at))
        continue;
      if (!best || start < best.start) best = { c, start };
    }
    if (!best) return { channel_id: null, start: null };
    const list = taken.get(best.c.id)!;
    list.push({ start_ms: best.start, end_ms: best.start + duration });
    list.sort((a, b) => a.start_ms - b.start_ms);
    return { channel_id: best.c.id, start: new Date(best.start).toISOString() };
  });
}

describe('placePlans', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('places every plan where the rescan does (lab %i)', (seed) => {
    const rnd = random(seed);
    const channels: ChannelForPlan[] = Array.from({ length: 60 }, (_, i) => ({
      id: `ch-${String(i).padStart(3, '0')}`,
      name: `CH${i}`,
      organization_id: 'o',
      project_id: 'p',
      cycler_id: `cy-${i % 6}`,
      cycler_name: `cy-${i % 6}`,
      out_of_commission: rnd() < 0.1,
      service_event_id: rnd() < 0.5 ? 'svc' : null,
      max_amps: rnd() < 0.2 ? 5 : 10,
      min_volts: null,
      max_volts: null,
      calibration_due_at: rnd() < 0.3 ? FROM + Math.floor(rnd() * 72) * HOUR : null,
    }));
    const blocks: Block[] = [];
    for (const c of channels) {
      let t = FROM - 5 * HOUR;
      for (let k = 0; k < 4; k++) {
        t += Math.floor(rnd() * 10) * HOUR;
        const end = rnd() < 0.05 ? Infinity : t + (1 + Math.floor(rnd() * 12)) * HOUR;
        blocks.push({
          channel_id: c.id,
          kind: 'planned_measurement',
          id: `${c.id}-${k}`,
          name: 'b',
          start_ms: t,
          end_ms: end,
        });
        if (!Number.isFinite(end)) break;
        t = end;
      }
    }
    const plans = Array.from({ length: 150 }, (_, i) => ({
      id: `plan-${i}`,
      hours: 1 + Math.floor(rnd() * 16),
      amps: rnd() < 0.3 ? 8 : 2,
    }));
    const rows = plans.map((p) => ({
      id: p.id,
      name: p.id,
      status: 'requested',
      updated_at: new Date(FROM),
      estimated_duration_seconds: p.hours * 3600,
      setup_duration_seconds: null,
      teardown_duration_seconds: null,
      ratings: { max_current: { value: p.amps, unit: 'A' } },
    })) as unknown as Parameters<typeof placePlans>[0];
    const got = placePlans(rows, channels, blocks, FROM).map((a) => ({
      channel_id: a.channel_id,
      start: a.planned_start_time,
    }));
    const want = rescan(plans, channels, blocks);
    expect(got).toEqual(want);
    expect(want.filter((w) => w.channel_id).length).toBeGreaterThan(100);
  });
});

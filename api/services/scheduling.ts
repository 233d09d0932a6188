// What a plan needs of a channel (from its cell specification's ratings), and the 409s that
// say why a channel cannot take it.
import { conflict } from '../errors.ts';
import type { Block, ChannelForPlan } from '../../db/repositories/plannedMeasurements.ts';

export interface Requirements {
  /** Amperes the cell may draw, or null when its ratings do not say. */
  amps: number | null;
  /** Volts of the window the cell needs. */
  minVolts: number | null;
  maxVolts: number | null;
}

const CURRENT_KEYS = ['max_current', 'max_charge_current', 'max_discharge_current', 'max_continuous_current'];

/** A rating as a number in A or V ({value, unit} with mA/mV scaled; a bare number as is). */
function quantity(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  const q = v as { value?: unknown; unit?: unknown } | null;
  if (!q || typeof q !== 'object' || typeof q.value !== 'number' || !Number.isFinite(q.value)) return null;
  return typeof q.unit === 'string' && /^m(A|V)$/i.test(q.unit.trim()) ? q.value / 1000 : q.value;
}

export function requirementsOf(ratings: Record<string, unknown> | null): Requirements {
  const r = ratings ?? {};
  const currents = CURRENT_KEYS.map((k) => quantity(r[k]))
    .filter((v): v is number => v !== null)
    .map(Math.abs);
  return {
    amps: currents.length ? Math.max(...currents) : null,
    minVolts: quantity(r.voltage_min),
    maxVolts: quantity(r.voltage_max),
  };
}

/**
 * Why the channel's ratings cannot take the requirement, or null when they can (an unrated limit cannot be shown to).
 */
export function ratingMismatch(
  ch: Pick<ChannelForPlan, 'max_amps' | 'min_volts' | 'max_volts'>,
  need: Requirements,
): string | null {
  if (need.amps !== null && (ch.max_amps === null || ch.max_amps < need.amps))
    return `needs ${need.amps} A; the channel is rated ${ch.max_amps ?? 'unrated'} A`;
  if (need.minVolts !== null && (ch.min_volts === null || ch.min_volts > need.minVolts)) {
    return `needs down to ${need.minVolts} V; the channel goes down to ${ch.min_volts ?? 'unrated'} V`;
  }
  if (need.maxVolts !== null && (ch.max_volts === null || ch.max_volts < need.maxVolts)) {
    return `needs up to ${need.maxVolts} V; the channel goes up to ${ch.max_volts ?? 'unrated'} V`;
  }
  return null;
}

export function checkRatings(ch: ChannelForPlan, need: Requirements): void {
  const why = ratingMismatch(ch, need);
  if (why) {
    throw conflict(`channel ${ch.name} on ${ch.cycler_name} cannot take this cell: ${why}`, {
      channel_id: ch.id,
      limits: { max_amps: ch.max_amps, min_volts: ch.min_volts, max_volts: ch.max_volts },
      required: { amps: need.amps, min_volts: need.minVolts, max_volts: need.maxVolts },
    });
  }
}

const isoOrNull = (msSinceEpoch: number) =>
  Number.isFinite(msSinceEpoch) ? new Date(msSinceEpoch).toISOString() : null;
const LABEL: Record<Block['kind'], string> = {
  planned_measurement: 'the reservation',
  cell_measurement: 'the running measurement',
  cycler_service_event: "the cycler's service window",
  channel_service: "the channel's service window",
};

/** 409 CONFLICT naming what the window collides with (start/end null when open-ended). */
export function blockConflict(b: Block, ch: Pick<ChannelForPlan, 'name' | 'cycler_name'>) {
  const until = Number.isFinite(b.end_ms) ? `until ${isoOrNull(b.end_ms)}` : 'with no end';
  return conflict(
    `the window collides with ${LABEL[b.kind]} "${b.name}" on channel ${ch.name} of ${ch.cycler_name} (${until})`,
    {
      collides_with: { kind: b.kind, id: b.id, name: b.name, start: isoOrNull(b.start_ms), end: isoOrNull(b.end_ms) },
    },
  );
}

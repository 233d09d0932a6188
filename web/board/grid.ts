// The lab grid: sites → cyclers → channels as dense cells coloured by state and marked by a
// glyph (state not only by colour), drawn from the lab status's grid view (channels as columns).
// A refresh with the same equipment updates only the cells that changed; other changes redraw.
import { esc, when } from './dom.ts';

export type State = 'free' | 'occupied' | 'stale' | 'out_of_commission';
export interface Measurement {
  id: string;
  name: string;
  cell_instance_name: string;
  cell_specification_name: string;
  protocol_name: string | null;
  requested_by_email: string | null;
  start_time: string | null;
  estimated_end_time: string | null;
  watched: boolean;
}
export interface Reservation {
  id: string;
  name: string;
  planned_start_time: string;
  planned_end_time: string;
}
export interface Channel {
  id: string;
  name: string;
  state: State;
  notes: string | null;
  out_of_commission: boolean;
  max_amps: number | null;
  min_volts: number | null;
  max_volts: number | null;
  measurement?: Measurement;
  next_reservation?: Reservation | null;
  next_free_at?: string | null;
  service_scheduled_at?: string | null;
  service_scheduled_until?: string | null;
}
export interface Counts {
  occupied: number;
  stale: number;
  free: number;
  out_of_commission: number;
}
export interface ServiceWindow {
  id: string;
  event_type: string;
  status: string;
  started_at: string | null;
  scheduled_for: string | null;
  scheduled_until: string | null;
}
export interface Cycler extends Counts {
  id: string;
  name: string;
  channel_count: number;
  calibration_due_at: string | null;
  service_windows?: ServiceWindow[];
  channels: Channel[];
}
export interface LabStatus extends Counts {
  sites: { id: string; name: string; cyclers: Cycler[] }[];
}
/** A channel as the grid view carries it: what a cell draws (and "find a channel" filters on). */
export interface GridChannel {
  id: string;
  name: string;
  state: State;
  next_reservation_start: string | null;
  service_scheduled_at: string | null;
  service_scheduled_until: string | null;
  watched: boolean;
  max_amps: number | null;
  min_volts: number | null;
  max_volts: number | null;
}
type Columns = { [K in keyof GridChannel]: GridChannel[K][] };
export type GridCycler = Omit<Cycler, 'channels'> & { channels: Columns };
export interface LabGrid extends Counts {
  sites: { id: string; name: string; cyclers: GridCycler[] }[];
}

/** A cycler's channels, one object per channel, from the view's columns. */
function rowsOf(c: Columns): GridChannel[] {
  const rows: GridChannel[] = new Array(c.id.length);
  for (let i = 0; i < c.id.length; i++)
    rows[i] = {
      id: c.id[i]!,
      name: c.name[i]!,
      state: c.state[i]!,
      next_reservation_start: c.next_reservation_start[i]!,
      service_scheduled_at: c.service_scheduled_at[i]!,
      service_scheduled_until: c.service_scheduled_until[i]!,
      watched: c.watched[i]!,
      max_amps: c.max_amps[i]!,
      min_volts: c.min_volts[i]!,
      max_volts: c.max_volts[i]!,
    };
  return rows;
}

export const LABEL: Record<State, string> = {
  free: 'free',
  occupied: 'occupied',
  stale: 'stale',
  out_of_commission: 'out of commission',
};
export const GLYPH: Record<State, string> = { free: '○', occupied: '●', stale: '!', out_of_commission: '✕' };

export interface Located {
  channel: GridChannel;
  cycler: GridCycler;
  site: string;
  /** The cycler's place in the lab's order: its page (cycler_offset) of the full view. */
  offset: number;
  /** The channel as the full view has it, once its details were fetched. */
  full?: Channel;
}

function describe(at: Located): string {
  const ch = at.full;
  if (!ch) {
    const g = at.channel;
    const parts = [`${g.name}: ${LABEL[g.state]}`];
    if (g.next_reservation_start) parts.push(`reserved from ${when(g.next_reservation_start)}`);
    if (g.watched) parts.push('watched');
    if (g.service_scheduled_at) parts.push(`service from ${when(g.service_scheduled_at)}`);
    return parts.join('; ');
  }
  const parts = [`${ch.name}: ${LABEL[ch.state]}`];
  if (ch.measurement)
    parts.push(
      `${ch.measurement.cell_instance_name}, ${ch.measurement.protocol_name ?? 'no protocol'}, ` +
        `until ${when(ch.measurement.estimated_end_time)}`,
    );
  if (ch.next_reservation)
    parts.push(`next: ${ch.next_reservation.name} at ${when(ch.next_reservation.planned_start_time)}`);
  if (ch.service_scheduled_at) parts.push(`service from ${when(ch.service_scheduled_at)}`);
  return parts.join('; ');
}

/** What a cell shows: a change of any of it redraws the cell. */
const signature = (ch: GridChannel) =>
  `${ch.state}|${ch.watched}|${ch.next_reservation_start ?? ''}|${ch.service_scheduled_at ?? ''}|` +
  `${ch.service_scheduled_until ?? ''}`;

// A short label at once (name and state, in words); the full description, dates and all, is
// set when the cell takes the focus or the pointer (describeCell), rather than formatting up to
// two dates for each of 32,768 cells that nobody is looking at.
const cellHtml = (ch: GridChannel) =>
  `<button type="button" class="ch ` +
  `s-${ch.state}${ch.next_reservation_start ? ' booked' : ''}${ch.watched ? ' watched' : ''}" ` +
  `data-id="${ch.id}" data-state="${ch.state}" tabindex="-1" ` +
  `aria-label="${esc(ch.name)}: ${LABEL[ch.state]}${ch.next_reservation_start ? ', reserved' : ''}` +
  `${ch.watched ? ', watched' : ''}">${GLYPH[ch.state]}</button>`;

function cyclerMeta(c: GridCycler, now: number): string {
  const marks: string[] = [`${c.occupied + c.stale}/${c.channel_count} busy`];
  if (c.calibration_due_at && Date.parse(c.calibration_due_at) <= now + 7 * 86400_000) {
    marks.push(`<span class="badge cal">calibration due ${esc(when(c.calibration_due_at))}</span>`);
  }
  for (const w of c.service_windows ?? []) {
    marks.push(
      `<span class="badge svc">${w.status === 'open' ? 'in service' : 'service'} ${esc(w.event_type)} ` +
        `${esc(when(w.scheduled_for ?? w.started_at))}–${esc(when(w.scheduled_until))}</span>`,
    );
  }
  return marks.join(' ');
}

/** A cycler's cells: its container, and each channel's cell with what it shows. */
interface Drawn {
  box: HTMLElement;
  meta: HTMLElement;
  metaHtml: string;
  ids: string;
  cells: Map<string, { el: HTMLElement; sig: string }>;
}

/**
 * The grid is laid out from the grid view's sites and cyclers, then filled with their cells. A
 * refresh with the same channels as drawn redraws only the cells that changed.
 */
export class Grid {
  private drawn = new Map<string, Drawn>();
  private shape = '';
  readonly index = new Map<string, Located>();
  private root: HTMLElement;
  constructor(root: HTMLElement) {
    this.root = root;
  }

  /** Sites and cyclers: a new set of them lays the grid out again (empty until filled). */
  layout(summary: LabGrid): void {
    const now = Date.now();
    const shape = summary.sites.map((s) => `${s.id}:${s.cyclers.map((c) => c.id).join(',')}`).join('|');
    if (shape === this.shape) {
      for (const s of summary.sites) for (const c of s.cyclers) this.meta(this.drawn.get(c.id)!, c, now);
      return;
    }
    this.shape = shape;
    this.index.clear();
    const html: string[] = [];
    for (const s of summary.sites) {
      html.push(`<section class="site" aria-label="Site ${esc(s.name)}"><h2>${esc(s.name)}</h2>`);
      for (const c of s.cyclers) {
        html.push(
          `<div class="cycler"><h3>${esc(c.name)} <span class="meta" ` +
            `data-meta="${c.id}">${cyclerMeta(c, now)}</span></h3>`,
          `<div class="cells" role="group" aria-label="Channels of ${esc(c.name)}" aria-busy="true" ` +
            `data-cells="${c.id}"></div></div>`,
        );
      }
      html.push('</section>');
    }
    this.root.innerHTML = html.join('') || '<p>This project has no cyclers yet.</p>';
    this.drawn.clear();
    for (const box of this.root.querySelectorAll<HTMLElement>('[data-cells]')) {
      const meta = this.root.querySelector<HTMLElement>(`[data-meta="${box.dataset.cells}"]`)!;
      this.drawn.set(box.dataset.cells!, { box, meta, metaHtml: meta.innerHTML, ids: '', cells: new Map() });
    }
  }

  /** Draws the channels of the grid's cyclers (cyclers not laid out are left for the next layout). */
  fill(lab: LabGrid): void {
    const now = Date.now();
    let offset = 0;
    for (const s of lab.sites) {
      for (const c of s.cyclers) {
        const d = this.drawn.get(c.id);
        const at = offset++;
        if (!d) continue;
        const channels = rowsOf(c.channels);
        for (const ch of channels) this.index.set(ch.id, { channel: ch, cycler: c, site: s.name, offset: at });
        this.meta(d, c, now);
        const ids = c.channels.id.join(',');
        if (ids === d.ids) {
          for (const ch of channels) {
            const cell = d.cells.get(ch.id)!;
            const sig = signature(ch);
            if (sig === cell.sig) continue;
            const tmp = document.createElement('template');
            tmp.innerHTML = cellHtml(ch);
            const fresh = tmp.content.firstElementChild as HTMLElement;
            fresh.tabIndex = cell.el.tabIndex;
            cell.el.replaceWith(fresh);
            d.cells.set(ch.id, { el: fresh, sig });
          }
          continue;
        }
        const kept = new Set(c.channels.id);
        for (const id of d.cells.keys()) if (!kept.has(id)) this.index.delete(id);
        d.ids = ids;
        d.box.innerHTML = channels.map(cellHtml).join('');
        d.box.removeAttribute('aria-busy');
        d.cells.clear();
        for (const el of d.box.querySelectorAll<HTMLElement>('.ch'))
          d.cells.set(el.dataset.id!, { el, sig: signature(this.index.get(el.dataset.id!)!.channel) });
      }
    }
    // One tab stop for the grid; arrow keys move between cells.
    if (!this.root.querySelector('.ch[tabindex="0"]')) {
      const first = this.root.querySelector<HTMLElement>('.ch');
      if (first) first.tabIndex = 0;
    }
  }

  private meta(d: Drawn, c: GridCycler, now: number): void {
    const html = cyclerMeta(c, now);
    if (html !== d.metaHtml) d.meta.innerHTML = d.metaHtml = html;
  }

  /** The full description of a cell, as its label and tooltip (on focus and hover). */
  describeCell(el: HTMLElement): void {
    const at = el.dataset.id ? this.index.get(el.dataset.id) : undefined;
    if (!at) return;
    const text = describe(at);
    if (el.title === text) return;
    el.setAttribute('aria-label', text);
    el.title = text;
  }

  /** Arrow keys move the focus along the cells (roving tabindex). */
  onKey(e: KeyboardEvent): void {
    const el = e.target as HTMLElement;
    if (!el.classList?.contains('ch')) return;
    const all = [...this.root.querySelectorAll<HTMLElement>('.ch')];
    const i = all.indexOf(el);
    const step = { ArrowRight: 1, ArrowDown: 16, ArrowLeft: -1, ArrowUp: -16, Home: -i, End: all.length - 1 - i }[
      e.key
    ];
    if (step === undefined) return;
    e.preventDefault();
    const next = all[Math.max(0, Math.min(all.length - 1, i + step))]!;
    el.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }
}

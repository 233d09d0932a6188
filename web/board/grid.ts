// The lab grid: sites → cyclers → channels as dense cells coloured by state and marked by a
// glyph (state not only by colour). A refresh with the same equipment updates only the cells
// that changed; other changes redraw.
import { esc, when } from './dom.ts';

export type State = 'free' | 'occupied' | 'stale' | 'out_of_commission';
export interface Measurement {
  id: string; name: string; cell_instance_name: string; cell_specification_name: string; protocol_name: string | null;
  requested_by_email: string | null; start_time: string | null; estimated_end_time: string | null; watched: boolean;
}
export interface Reservation { id: string; name: string; planned_start_time: string; planned_end_time: string }
export interface Channel {
  id: string; name: string; state: State; notes: string | null; out_of_commission: boolean; max_amps: number | null; min_volts: number | null;
  max_volts: number | null; measurement?: Measurement; next_reservation?: Reservation | null; next_free_at?: string | null;
  service_scheduled_at?: string | null; service_scheduled_until?: string | null;
}
export interface Counts { occupied: number; stale: number; free: number; out_of_commission: number }
export interface ServiceWindow { id: string; event_type: string; status: string; started_at: string | null; scheduled_for: string | null; scheduled_until: string | null }
export interface Cycler extends Counts {
  id: string; name: string; channel_count: number; calibration_due_at: string | null; service_windows?: ServiceWindow[]; channels: Channel[];
}
export interface LabStatus extends Counts { sites: { id: string; name: string; cyclers: Cycler[] }[] }

export const LABEL: Record<State, string> = { free: 'free', occupied: 'occupied', stale: 'stale', out_of_commission: 'out of commission' };
export const GLYPH: Record<State, string> = { free: '○', occupied: '●', stale: '!', out_of_commission: '✕' };

export interface Located { channel: Channel; cycler: Cycler; site: string }

function describe(ch: Channel): string {
  const parts = [`${ch.name}: ${LABEL[ch.state]}`];
  if (ch.measurement) parts.push(`${ch.measurement.cell_instance_name}, ${ch.measurement.protocol_name ?? 'no protocol'}, until ${when(ch.measurement.estimated_end_time)}`);
  if (ch.next_reservation) parts.push(`next: ${ch.next_reservation.name} at ${when(ch.next_reservation.planned_start_time)}`);
  if (ch.service_scheduled_at) parts.push(`service from ${when(ch.service_scheduled_at)}`);
  return parts.join('; ');
}

/** What a cell shows: a change of any of it redraws the cell. */
const signature = (ch: Channel) =>
  `${ch.state}|${ch.measurement?.id ?? ''}|${ch.measurement?.watched ?? ''}|${ch.measurement?.estimated_end_time ?? ''}|${ch.next_reservation?.id ?? ''}|${ch.next_reservation?.planned_start_time ?? ''}|${ch.service_scheduled_at ?? ''}`;

// The label is also the tooltip (one attribute: 32,768 of them are drawn at once).
const cellHtml = (ch: Channel) =>
  `<button type="button" class="ch s-${ch.state}${ch.next_reservation ? ' booked' : ''}${ch.measurement?.watched ? ' watched' : ''}" data-id="${ch.id}" data-state="${ch.state}" tabindex="-1" aria-label="${esc(describe(ch))}">${GLYPH[ch.state]}</button>`;

function cyclerMeta(c: Cycler, now: number): string {
  const marks: string[] = [`${c.occupied + c.stale}/${c.channel_count} busy`];
  if (c.calibration_due_at && Date.parse(c.calibration_due_at) <= now + 7 * 86400_000) {
    marks.push(`<span class="badge cal">calibration due ${esc(when(c.calibration_due_at))}</span>`);
  }
  for (const w of c.service_windows ?? []) {
    marks.push(`<span class="badge svc">${w.status === 'open' ? 'in service' : 'service'} ${esc(w.event_type)} ${esc(when(w.scheduled_for ?? w.started_at))}–${esc(when(w.scheduled_until))}</span>`);
  }
  return marks.join(' ');
}

export class Grid {
  private cells = new Map<string, { el: HTMLElement; sig: string }>();
  private metas = new Map<string, { el: HTMLElement; html: string }>();
  private shape = '';
  readonly index = new Map<string, Located>();
  private root: HTMLElement;
  constructor(root: HTMLElement) {
    this.root = root;
  }

  render(status: LabStatus): void {
    const now = Date.now();
    this.index.clear();
    for (const s of status.sites) for (const c of s.cyclers) for (const ch of c.channels) this.index.set(ch.id, { channel: ch, cycler: c, site: s.name });
    const shape = status.sites.map((s) => `${s.id}:${s.cyclers.map((c) => `${c.id}=${c.channels.map((ch) => ch.id).join(',')}`).join(';')}`).join('|');
    if (shape === this.shape) {
      for (const { channel } of this.index.values()) {
        const cell = this.cells.get(channel.id)!;
        const sig = signature(channel);
        if (sig === cell.sig) continue;
        cell.sig = sig;
        const tmp = document.createElement('template');
        tmp.innerHTML = cellHtml(channel);
        const fresh = tmp.content.firstElementChild as HTMLElement;
        fresh.tabIndex = cell.el.tabIndex;
        cell.el.replaceWith(fresh);
        cell.el = fresh;
      }
      for (const s of status.sites) {
        for (const c of s.cyclers) {
          const meta = this.metas.get(c.id)!;
          const html = cyclerMeta(c, now);
          if (html !== meta.html) meta.el.innerHTML = meta.html = html;
        }
      }
      return;
    }
    this.shape = shape;
    const html: string[] = [];
    for (const s of status.sites) {
      html.push(`<section class="site" aria-label="Site ${esc(s.name)}"><h2>${esc(s.name)}</h2>`);
      for (const c of s.cyclers) {
        html.push(`<div class="cycler"><h3>${esc(c.name)} <span class="meta" data-meta="${c.id}">${cyclerMeta(c, now)}</span></h3>`,
          `<div class="cells" role="group" aria-label="Channels of ${esc(c.name)}">`, ...c.channels.map(cellHtml), '</div></div>');
      }
      html.push('</section>');
    }
    this.root.innerHTML = html.join('') || '<p>This project has no cyclers yet.</p>';
    this.cells.clear();
    for (const el of this.root.querySelectorAll<HTMLElement>('.ch')) this.cells.set(el.dataset.id!, { el, sig: signature(this.index.get(el.dataset.id!)!.channel) });
    this.metas.clear();
    for (const el of this.root.querySelectorAll<HTMLElement>('[data-meta]')) this.metas.set(el.dataset.meta!, { el, html: el.innerHTML });
    // One tab stop for the grid; arrow keys move between cells.
    const first = this.root.querySelector<HTMLElement>('.ch');
    if (first) first.tabIndex = 0;
  }

  /** Arrow keys move the focus along the cells (roving tabindex). */
  onKey(e: KeyboardEvent): void {
    const el = e.target as HTMLElement;
    if (!el.classList?.contains('ch')) return;
    const all = [...this.root.querySelectorAll<HTMLElement>('.ch')];
    const i = all.indexOf(el);
    const step = { ArrowRight: 1, ArrowDown: 16, ArrowLeft: -1, ArrowUp: -16, Home: -i, End: all.length - 1 - i }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    const next = all[Math.max(0, Math.min(all.length - 1, i + step))]!;
    el.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  }
}

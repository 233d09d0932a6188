// The board's side panels: a channel's details and upcoming plans, "find a channel", the next
// seven days of reservations per cycler, and the requested plans with the auto-schedule.
import { get, getAll, post } from './api.ts';
import { esc, when } from './dom.ts';
import { LABEL, type LabStatus, type Located } from './grid.ts';

interface Plan {
  id: string;
  name: string;
  status: string;
  channel_id: string | null;
  channel_name: string | null;
  cycler_name: string | null;
  planned_start_time: string | null;
  planned_end_time: string | null;
  estimated_duration_seconds: number | null;
  requested_by_email: string | null;
}
interface Assignment {
  planned_measurement_id: string;
  planned_measurement_name: string;
  channel_id: string | null;
  channel_name: string | null;
  cycler_name: string | null;
  planned_start_time: string | null;
  planned_end_time: string | null;
  unscheduled_reason: string | null;
}
const DAY = 86400_000;

/**
 * A channel's details: the grid view carries only what a cell draws, so its measurement, next
 * reservation and ratings come from the full view of its cycler (a page of one cycler), then its plans.
 */
export async function channelDetails(el: HTMLElement, projectId: string, at: Located) {
  const { cycler } = at;
  el.innerHTML = `<h2 tabindex="-1">${esc(at.channel.name)} on ${esc(cycler.name)}</h2><p class="muted">Loading…</p>`;
  el.dataset.channel = at.channel.id;
  const page = (await get<LabStatus>(`/projects/${projectId}/lab/status?cycler_offset=${at.offset}&cycler_limit=1`))
    .body!;
  const ch = page.sites
    .flatMap((s) => s.cyclers)
    .flatMap((c) => c.channels)
    .find((c) => c.id === at.channel.id);
  if (el.dataset.channel !== at.channel.id) return; // another channel was selected meanwhile
  if (!ch) {
    el.innerHTML =
      `<h2 tabindex="-1">${esc(at.channel.name)}</h2>` +
      '<p>The lab changed since it was drawn: select the channel again after the next refresh.</p>';
    return;
  }
  at.full = ch;
  const m = ch.measurement;
  const row = (k: string, v: unknown) => `<dt>${k}</dt><dd>${esc(v ?? '—')}</dd>`;
  const nextFree =
    ch.state === 'out_of_commission' ? 'out of commission' : ch.next_free_at ? when(ch.next_free_at) : 'not foreseen';
  el.innerHTML = `<h2 tabindex="-1">${esc(ch.name)} on ${esc(cycler.name)}</h2><dl>
    ${row('State', LABEL[ch.state])}${row(
      'Ratings',
      `${ch.max_amps ?? '?'} A, ` + `${ch.min_volts ?? '?'}–${ch.max_volts ?? '?'} V`,
    )}
    ${
      m
        ? row('Measurement', m.name) +
          row('Cell', `${m.cell_instance_name} (${m.cell_specification_name})`) +
          row('Protocol', m.protocol_name) +
          row('Requested by', m.requested_by_email) +
          row('Started', when(m.start_time)) +
          row('Estimated end', when(m.estimated_end_time)) +
          row('Watched', m.watched ? 'yes' : 'no')
        : ''
    }
    ${row(
      'Next reservation',
      ch.next_reservation ? `${ch.next_reservation.name}, ` + `${when(ch.next_reservation.planned_start_time)}` : null,
    )}
    ${row('Next free', nextFree)}
    ${ch.notes ? row('Notes', ch.notes) : ''}</dl><h3>Upcoming plans</h3><p class="muted">Loading…</p>`;
  (el.querySelector('h2') as HTMLElement).focus();
  const plans = await getAll<Plan>(
    `/projects/${projectId}/planned_measurements?channel_id=${ch.id}&status=in.(scheduled,in_progress)` +
      `&planned_end_time_gt=${encodeURIComponent(new Date().toISOString())}&order_by=planned_start_time`,
  );
  el.querySelector('.muted')!.outerHTML = plans.length
    ? `<ul>${plans
        .map(
          (p) =>
            `<li>${esc(p.name)}: ` + `${when(p.planned_start_time)} – ${when(p.planned_end_time)} (${p.status})</li>`,
        )
        .join('')}</ul>`
    : '<p>No reservations.</p>';
}

/** Free channels whose ratings fit (as the client's free_channels: an unrated limit does not fit). */
export function findChannels(
  index: Map<string, Located>,
  amps: number | null,
  minV: number | null,
  maxV: number | null,
): Located[] {
  return [...index.values()].filter(
    ({ channel: c }) =>
      c.state === 'free' &&
      (amps === null || (c.max_amps !== null && c.max_amps >= amps)) &&
      (minV === null || (c.min_volts !== null && c.min_volts <= minV)) &&
      (maxV === null || (c.max_volts !== null && c.max_volts >= maxV)),
  );
}

export function renderFound(el: HTMLElement, found: Located[]) {
  el.innerHTML =
    `<p role="status"><strong data-found="${found.length}">${found.length}</strong> free ` +
    `channel${found.length === 1 ? '' : 's'} fit.</p>` +
    `<ul>${found
      .slice(0, 50)
      .map((f) => `<li>${esc(f.channel.name)} on ${esc(f.cycler.name)} (${esc(f.site)})</li>`)
      .join('')}</ul>` +
    (found.length > 50 ? `<p class="muted">and ${found.length - 50} more</p>` : '');
}

export async function timeline(el: HTMLElement, projectId: string) {
  const now = Date.now();
  const until = new Date(now + 7 * DAY).toISOString();
  const plans = await getAll<Plan>(
    `/projects/${projectId}/planned_measurements?status=in.(scheduled,in_progress)` +
      `&planned_end_time_gt=${encodeURIComponent(new Date(now).toISOString())}` +
      `&planned_start_time_lt=${encodeURIComponent(until)}&order_by=planned_start_time`,
  );
  const byCycler = new Map<string, Plan[]>();
  for (const p of plans) {
    const key = p.cycler_name ?? '—';
    const list = byCycler.get(key);
    if (list) list.push(p);
    else byCycler.set(key, [p]);
  }
  const pos = (iso: string) => Math.max(0, Math.min(100, ((Date.parse(iso) - now) / (7 * DAY)) * 100));
  el.dataset.reservations = String(plans.length);
  el.innerHTML = byCycler.size
    ? `<p class="muted">${plans.length} reservation${plans.length === 1 ? '' : 's'} on ${byCycler.size} ` +
      `cycler${byCycler.size === 1 ? '' : 's'}.</p>` +
      [...byCycler]
        .map(
          ([cycler, ps]) =>
            `<div class="track"><span class="track-name">${esc(cycler)}</span><div class="bars">${ps
              .map((p) => {
                const left = pos(p.planned_start_time!);
                const width = Math.max(0.5, pos(p.planned_end_time!) - left);
                const title =
                  `${p.name} on ${p.channel_name}: ` + `${when(p.planned_start_time)} – ${when(p.planned_end_time)}`;
                return (
                  `<span class="bar" style="left:${left}%;width:${width}%" title="${esc(title)}">` +
                  `${esc(p.channel_name)}: ${esc(p.name)}</span>`
                );
              })
              .join('')}</div></div>`,
        )
        .join('')
    : '<p>No reservations in the next 7 days.</p>';
}

export async function requestedPlans(el: HTMLElement, projectId: string): Promise<Plan[]> {
  const plans = await getAll<Plan>(
    `/projects/${projectId}/planned_measurements?status=requested&order_by=created_at&order=asc`,
  );
  el.dataset.plans = String(plans.length);
  el.innerHTML = plans.length
    ? `<ol>${plans
        .map(
          (p) =>
            `<li><label><input type="checkbox" name="plan" value="${p.id}" checked> ${esc(p.name)} ` +
            `(${Math.round((p.estimated_duration_seconds ?? 0) / 360) / 10} h, ` +
            `${esc(p.requested_by_email)})</label></li>`,
        )
        .join('')}</ol>`
    : '<p>No requested plans.</p>';
  return plans;
}

export async function propose(el: HTMLElement, projectId: string, ids: string[]): Promise<Assignment[]> {
  const proposal = (
    await post<{ assignments: Assignment[] }>(`/projects/${projectId}/planned_measurements/auto_schedule_proposal`, {
      planned_measurement_ids: ids,
    })
  ).body!;
  const head =
    '<table><caption>Proposal</caption><thead><tr><th scope="col">Plan</th><th scope="col">Channel</th>' +
    '<th scope="col">Start</th><th scope="col">End</th></tr></thead>';
  el.innerHTML = `${head}<tbody>${proposal.assignments
    .map(
      (a) =>
        `<tr><td>${esc(a.planned_measurement_name)}</td>${
          a.channel_id
            ? `<td>${esc(a.channel_name)} on ` +
              `${esc(a.cycler_name)}</td><td>${when(a.planned_start_time)}</td><td>${when(a.planned_end_time)}</td>`
            : `<td colspan="3">not scheduled: ${esc(a.unscheduled_reason)}</td>`
        }</tr>`,
    )
    .join('')}</tbody></table>`;
  return proposal.assignments;
}

export async function apply(projectId: string, assignments: Assignment[]): Promise<number> {
  const ready = assignments.filter(
    (a) => a.channel_id && a.planned_start_time && a.planned_end_time && !a.unscheduled_reason,
  );
  if (!ready.length) return 0;
  return (
    await post<unknown[]>(`/projects/${projectId}/planned_measurements/apply_auto_schedule_proposal`, {
      assignments: ready,
    })
  ).body!.length;
}

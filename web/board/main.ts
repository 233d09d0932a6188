// The lab board: sign in with an API key (kept in this browser session only), pick a project,
// and watch its lab refresh by itself with conditional requests (an unchanged lab costs a 304).
import { ApiError, get, getAll, session, type Reply } from './api.ts';
import { $, alertMessage, esc } from './dom.ts';
import { Grid, type LabGrid } from './grid.ts';
import { apply, channelDetails, findChannels, propose, renderFound, requestedPlans, timeline } from './panels.ts';

const params = new URLSearchParams(location.search);
const REFRESH_MS = Math.max(1000, Number(params.get('refresh')) || 10_000);
const app = $('#app');
/**
 * Timings the browser test and the benchmark read (drawing only), and for the first render where its time went:
 * the grid view's arrival (parsed) and drawing, and the frame after it (style, layout, paint), on the page's clock
 * (performance.now()). The first view is the whole grid now (firstViewMs = firstRenderMs).
 */
const stats = {
  firstViewMs: 0,
  firstRenderMs: 0,
  lastRenderMs: 0,
  renders: 0,
  notModified: 0,
  signInAt: 0,
  pages: [] as { url: string; parsedAt: number; drawMs: number }[],
  allDrawnAt: 0,
  paintedAt: 0,
};
(window as unknown as { __board: typeof stats }).__board = stats;

let timer: ReturnType<typeof setTimeout> | undefined;
let etag: string | null = null;
let grid: Grid | null = null;
let project = '';

function signIn(message?: string) {
  clearTimeout(timer);
  session.clear();
  app.innerHTML =
    `<main class="signin"><h1>Cellar lab board</h1>
    <form id="signin"><label for="key">API key</label>
    <input id="key" name="key" type="password" autocomplete="off" required spellcheck="false">
    <button type="submit">Sign in</button>
    <p class="muted">The key stays in this browser tab's session storage and is sent only as a header ` +
    `to this server.</p>
    <p id="signin-error" role="alert" class="error"${message ? '' : ' hidden'}>${esc(message ?? '')}</p></form></main>`;
  const form = $('#signin') as HTMLFormElement;
  $('#key').focus();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    session.set(($('#key') as HTMLInputElement).value.trim());
    stats.signInAt = performance.now();
    void start();
  });
}

/** 401: back to sign-in with the API's message; anything else: shown on the page. */
function failed(err: unknown) {
  if (err instanceof ApiError && err.status === 401) return signIn(err.message);
  alertMessage(err instanceof Error ? err.message : String(err));
}

/** The grid of the project named in the URL, asked alongside sign-in's calls; used once, if it is still wanted. */
let early: { project: string; reply: Promise<Reply<LabGrid> | null> } | null = null;
const gridUrl = (projectId: string) => `/projects/${projectId}/lab/status?view=grid`;

async function start() {
  try {
    // Together: each round trip before the first view counts on a loaded host. A project in the URL
    // has its grid asked at once (a wrong one fails here silently; the project list decides).
    const named = params.get('project');
    early = named ? { project: named, reply: get<LabGrid>(gridUrl(named)).catch(() => null) } : null;
    const [health, projects] = await Promise.all([
      get<{ email?: string }>('/auth/health'),
      getAll<{ id: string; name: string }>('/projects?order_by=name'),
    ]);
    const me = health.body;
    layout(me?.email ?? '', projects);
  } catch (err) {
    failed(err);
  }
}

function layout(email: string, projects: { id: string; name: string }[]) {
  project = projects.some((p) => p.id === params.get('project')) ? params.get('project')! : (projects[0]?.id ?? '');
  const options = projects
    .map((p) => `<option value="${p.id}"${p.id === project ? ' selected' : ''}>${esc(p.name)}</option>`)
    .join('');
  app.innerHTML =
    `<header><h1>Lab board</h1>
      <label for="project">Project</label> <select id="project">${options}</select>
      <span class="muted">${esc(email)}</span> <button type="button" id="signout">Sign out</button></header>
    <p id="alert" role="alert" class="error" hidden></p>
    <section aria-label="Counts" class="counts" id="counts"></section>
    <p class="legend" aria-hidden="true"><span class="ch s-free">○</span> free ` +
    `<span class="ch s-occupied">●</span> occupied <span class="ch s-stale">!</span> stale ` +
    `<span class="ch s-out_of_commission">✕</span> out of commission <span class="ch booked">○</span> reserved</p>
    <div class="layout"><div id="grid" class="grid"></div>
    <aside><section id="details" class="panel" aria-live="polite"><h2>Channel</h2>` +
    `<p class="muted">Select a channel for its details.</p></section>
      <section class="panel"><h2>Find a channel</h2><form id="find">
        <label>Current (A) <input name="amps" type="number" step="any" min="0"></label>
        <label>Min voltage (V) <input name="minv" type="number" step="any"></label>
        <label>Max voltage (V) <input name="maxv" type="number" step="any"></label>
        <button type="submit">Find free channels</button></form><div id="found"></div>
        <label for="slot-plan">Earliest slot for</label> <select id="slot-plan"></select> ` +
    `<button type="button" id="slot">Find slot</button><div id="slot-out"></div></section>
      <section class="panel"><h2>Requested plans</h2><div id="requested"></div>
        <button type="button" id="propose">Propose schedule</button> ` +
    `<button type="button" id="apply" disabled>Apply proposal</button>` +
    `<div id="proposal" aria-live="polite"></div></section>
    </aside></div>
    <section class="panel"><h2>Next 7 days</h2><div id="timeline"></div></section>`;
  grid = new Grid($('#grid'));
  etag = null;
  $('#signout').addEventListener('click', () => signIn());
  $('#project').addEventListener('change', (e) => {
    project = (e.target as HTMLSelectElement).value;
    etag = null;
    void refresh();
  });
  $('#grid').addEventListener('keydown', (e) => grid!.onKey(e));
  // One listener each for every cell: the full description when a cell is focused or pointed at.
  const describe = (e: Event) => {
    const cell = (e.target as HTMLElement).closest?.<HTMLElement>('.ch');
    if (cell) grid!.describeCell(cell);
  };
  $('#grid').addEventListener('focusin', describe);
  $('#grid').addEventListener('mouseover', describe);
  $('#grid').addEventListener('click', (e) => {
    const cell = (e.target as HTMLElement).closest<HTMLElement>('.ch');
    const at = cell?.dataset.id ? grid!.index.get(cell.dataset.id) : undefined;
    // Its details from the full view of its cycler; then its label carries them too.
    if (at) channelDetails($('#details'), project, at).then(() => grid!.describeCell(cell!), failed);
  });
  $('#find').addEventListener('submit', (e) => {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    const num = (k: string) => (f.get(k) === '' ? null : Number(f.get(k)));
    renderFound($('#found'), findChannels(grid!.index, num('amps'), num('minv'), num('maxv')));
  });
  $('#slot').addEventListener('click', () => {
    const id = ($('#slot-plan') as HTMLSelectElement).value;
    if (id) propose($('#slot-out'), project, [id]).catch(failed);
  });
  let proposal: Awaited<ReturnType<typeof propose>> = [];
  $('#propose').addEventListener('click', async () => {
    const ids = [...document.querySelectorAll<HTMLInputElement>('input[name=plan]:checked')].map((i) => i.value);
    if (!ids.length) return alertMessage('select requested plans to schedule');
    try {
      proposal = await propose($('#proposal'), project, ids);
      ($('#apply') as HTMLButtonElement).disabled = !proposal.some((a) => a.channel_id);
    } catch (err) {
      failed(err);
    }
  });
  $('#apply').addEventListener('click', async () => {
    try {
      const n = await apply(project, proposal);
      $('#proposal').innerHTML = `<p role="status" data-applied="${n}">Scheduled ${n} plan${n === 1 ? '' : 's'}.</p>`;
      ($('#apply') as HTMLButtonElement).disabled = true;
      await refresh();
    } catch (err) {
      failed(err);
    }
  });
  void refresh();
}

function counts(s: LabGrid) {
  const total = s.occupied + s.stale + s.free + s.out_of_commission;
  const pct = total ? Math.round(((s.occupied + s.stale) / total) * 100) : 0;
  $('#counts').innerHTML =
    `<span><strong data-count="utilization">${pct}%</strong> utilization</span>` +
    (['occupied', 'stale', 'free', 'out_of_commission'] as const)
      .map(
        (k) => `<span class="count s-${k}"><strong data-count="${k}">${s[k]}</strong> ${k.replaceAll('_', ' ')}</span>`,
      )
      .join('') +
    `<span><strong data-count="total">${total}</strong> channels</span>`;
}

let generation = 0;

/**
 * One refresh: the grid view, conditionally (an unchanged lab is a 304 and nothing more); when it
 * changed, the counts and every channel at once, then the plans. A channel's details come from the
 * full view of its cycler when it is selected.
 */
async function refresh() {
  clearTimeout(timer);
  const gen = ++generation;
  if (!project) {
    $('#grid').innerHTML = '<p>No project yet: create one through the API.</p>';
    return;
  }
  try {
    const url = gridUrl(project);
    const asked = early?.project === project && !etag ? await early.reply : null;
    early = null;
    const reply = asked ?? (await get<LabGrid>(url, etag ? { 'If-None-Match': etag } : {}));
    if (gen !== generation) return; // a newer refresh (or project) took over
    if (reply.status === 304) stats.notModified++;
    else {
      const start = performance.now();
      counts(reply.body!);
      grid!.layout(reply.body!);
      grid!.fill(reply.body!);
      const drawing = performance.now() - start;
      etag = reply.etag;
      stats.lastRenderMs = drawing;
      if (!stats.renders) {
        stats.pages.push({ url, parsedAt: start, drawMs: drawing });
        stats.firstViewMs = stats.firstRenderMs = drawing;
        stats.allDrawnAt = performance.now();
        document.body.dataset.firstView = '1';
        requestAnimationFrame(() => setTimeout(() => (stats.paintedAt = performance.now())));
      }
      stats.renders++;
      document.body.dataset.renders = String(stats.renders);
      alertMessage(null);
      const plans = await requestedPlans($('#requested'), project);
      $('#slot-plan').innerHTML = plans.map((p) => `<option value="${p.id}">${esc(p.name)}</option>`).join('');
      await timeline($('#timeline'), project);
    }
  } catch (err) {
    failed(err);
    if (err instanceof ApiError && err.status === 401) return;
  }
  if (gen === generation) timer = setTimeout(() => void refresh(), REFRESH_MS);
}

if (session.key) void start();
else signIn();

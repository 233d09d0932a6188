// Small DOM helpers: escaping, elements, times.
export const esc = (v: unknown): string =>
  String(v ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export function $(selector: string, root: ParentNode = document): HTMLElement {
  const el = root.querySelector<HTMLElement>(selector);
  if (!el) throw new Error(`missing ${selector}`);
  return el;
}

const fmt = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
export const when = (iso: string | null | undefined): string => (iso ? fmt.format(new Date(iso)) : '—');

/** Shows the API's message in the page's alert region (never a blank screen). */
export function alertMessage(text: string | null) {
  const el = document.getElementById('alert');
  if (!el) return;
  el.textContent = text ?? '';
  el.hidden = !text;
}

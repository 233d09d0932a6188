// Shapes of request values the services check alike.

/** A UUID in any letter case (ids are answered in lower case). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A JSON object: not null, not an array. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** `text` quoted for an error message, cut at `max` characters: a message never echoes a megabyte. */
export function quoted(text: string, max = 120): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

// How a hostile input is built and sent: its target and shape, and the JSON, multipart and
// simulation-batch requests the inputs are made of.

export interface HostileTarget {
  url: string;
  /** An owner's key. */
  key: string;
  /** A member of the same organization with no role in `projectId`. */
  memberKey: string;
  projectId: string;
}

export interface HostileInput {
  name: string;
  /** The status the service must answer. */
  status: number;
  /** Checks the answer's body beyond its status (throws when wrong). */
  check?: (body: any) => void;
  /** Builds the request's body for this target; the answer sends it (so that a bench measures only the sending). */
  prepare(t: HostileTarget): Promise<() => Promise<Response>>;
}

export const MB = 1_000_000;
export const QUICK = { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } };
export const FIT_FIELDS = {
  name: 'hostile fit',
  model: JSON.stringify({ kind: 'quick', capacity: 2.0, chemistry: 'NMC/Graphite' }),
  parameters: JSON.stringify({ 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.05 } }),
};

export function json(
  t: HostileTarget,
  method: string,
  path: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
  key: string | null = t.key,
) {
  return fetch(t.url + path, {
    method,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      ...(key ? { 'X-API-Key': key } : {}),
      ...headers,
    },
    body: body as string | Uint8Array<ArrayBuffer>,
  });
}

/** A multipart body as bytes, with its Content-Type (so it can be compressed before sending). */
export async function multipart(fields: [string, string][], file?: { bytes: Uint8Array | string; name: string }) {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  if (file) form.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer> | string]), file.name);
  const req = new Request('http://x/', { method: 'POST', body: form });
  return { bytes: new Uint8Array(await req.arrayBuffer()), contentType: req.headers.get('content-type')! };
}

export function postMultipart(
  t: HostileTarget,
  path: string,
  body: { bytes: Uint8Array; contentType: string },
  headers: Record<string, string> = {},
  key = t.key,
) {
  return fetch(t.url + path, {
    method: 'POST',
    headers: { 'X-API-Key': key, Accept: 'application/json', 'Content-Type': body.contentType, ...headers },
    body: body.bytes as Uint8Array<ArrayBuffer>,
  });
}

/** A JSON request whose body is made (and encoded) when it is prepared. */
export const jsonRequest = (path: string, body: (t: HostileTarget) => unknown) => async (t: HostileTarget) => {
  const bytes = Buffer.from(JSON.stringify(body(t)));
  return () => json(t, 'POST', path, bytes);
};
export const sendAs = (fn: (t: HostileTarget) => Promise<Response>) => async (t: HostileTarget) => () => fn(t);
export const batch = (extra: Record<string, unknown>) =>
  jsonRequest('/simulations/protocol/batch', (t) => ({
    parameterized_model: QUICK,
    protocol_experiment: { protocol: 'Rest for 1 minute' },
    project_id: t.projectId,
    ...extra,
  }));
export const fitFile = (file: Uint8Array | string, key: 'key' | 'memberKey') => async (t: HostileTarget) => {
  const body = await multipart([['project_id', t.projectId], ...Object.entries(FIT_FIELDS)], {
    bytes: file,
    name: 'data.csv',
  });
  return () => postMultipart(t, '/fit-from-file', body, {}, t[key]);
};

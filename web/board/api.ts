// The board's calls to the API: the key from this browser session only (never a URL or a log),
// the API's own error message on failure, and 401 as "signed out".
const KEY = 'cellar.apiKey';

export const session = {
  get key(): string | null {
    return sessionStorage.getItem(KEY);
  },
  set(key: string) {
    sessionStorage.setItem(KEY, key);
  },
  clear() {
    sessionStorage.removeItem(KEY);
  },
};

export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** The message the API gave: `message`, else the validation items, else the status. */
function messageOf(status: number, body: unknown): string {
  const b = body as { message?: unknown; detail?: unknown } | null;
  if (b && typeof b.message === 'string') return b.message;
  if (b && Array.isArray(b.detail)) {
    return b.detail
      .map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).join('.')}: ${d.msg ?? ''}`)
      .join('; ');
  }
  return `the API answered ${status}`;
}

export interface Reply<T> {
  status: number;
  etag: string | null;
  body: T | null;
}

export async function call<T = any>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply<T>> {
  const key = session.key;
  if (!key) throw new ApiError(401, 'sign in with an API key');
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: {
        'X-API-Key': key,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'the API cannot be reached; retrying');
  }
  if (res.status === 304) return { status: 304, etag: res.headers.get('ETag'), body: null };
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null; // not JSON (a proxy's page): the status speaks
  }
  if (!res.ok) throw new ApiError(res.status, messageOf(res.status, parsed));
  return { status: res.status, etag: res.headers.get('ETag'), body: parsed as T };
}

export const get = <T = any>(path: string, headers?: Record<string, string>) =>
  call<T>('GET', path, undefined, headers);
export const post = <T = any>(path: string, body: unknown) => call<T>('POST', path, body);

/** The conventions' page size: most lists cap `limit` at 100. */
const PAGE = 100;
/** Pages fetched at once after the first (which tells the total). */
const PARALLEL = 4;

/**
 * Every item of a list, paged by the conventions (`limit`, `offset`, `total`); an item seen twice while the list
 * moves is kept once.
 */
export async function getAll<T extends { id: string }>(path: string): Promise<T[]> {
  const at = (offset: number) =>
    get<{ items: T[]; total: number }>(`${path}${path.includes('?') ? '&' : '?'}limit=${PAGE}&offset=${offset}`);
  const first = (await at(0)).body!;
  const items = new Map(first.items.map((i) => [i.id, i]));
  for (let offset = PAGE; offset < first.total; offset += PAGE * PARALLEL) {
    const offsets = Array.from({ length: PARALLEL }, (_, k) => offset + k * PAGE).filter((o) => o < first.total);
    for (const reply of await Promise.all(offsets.map(at)))
      for (const i of reply.body!.items) if (!items.has(i.id)) items.set(i.id, i);
  }
  return [...items.values()];
}

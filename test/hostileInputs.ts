// Requests a careless or hostile member can send, each with the answer the service must give.
// Shared by test/hostileInputs.test.ts (answers) and bench/hostile-inputs.ts (event-loop block
// and memory of each). Bodies are built once, before anything is measured.
import { gzipSync } from 'node:zlib';

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

const MB = 1_000_000;
const QUICK = { quick_model: { capacity: 5, chemistry: 'NMC/Graphite' } };
const FIT_FIELDS = {
  name: 'hostile fit',
  model: JSON.stringify({ kind: 'quick', capacity: 2.0, chemistry: 'NMC/Graphite' }),
  parameters: JSON.stringify({ 'R0 [Ohm]': { bounds: [0.001, 0.1], initial_value: 0.05 } }),
};

function json(
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
async function multipart(fields: [string, string][], file?: { bytes: Uint8Array | string; name: string }) {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  if (file) form.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer> | string]), file.name);
  const req = new Request('http://x/', { method: 'POST', body: form });
  return { bytes: new Uint8Array(await req.arrayBuffer()), contentType: req.headers.get('content-type')! };
}

function postMultipart(
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
const jsonRequest = (path: string, body: (t: HostileTarget) => unknown) => async (t: HostileTarget) => {
  const bytes = Buffer.from(JSON.stringify(body(t)));
  return () => json(t, 'POST', path, bytes);
};
const sendAs = (fn: (t: HostileTarget) => Promise<Response>) => async (t: HostileTarget) => () => fn(t);
const batch = (extra: Record<string, unknown>) =>
  jsonRequest('/simulations/protocol/batch', (t) => ({
    parameterized_model: QUICK,
    protocol_experiment: { protocol: 'Rest for 1 minute' },
    project_id: t.projectId,
    ...extra,
  }));
const rangeRow = (name: string, count: number) => ({ type: 'range', name, min: 0.001, max: 0.01, count });
const validate = (protocol: unknown) => jsonRequest('/protocols/validate', () => ({ protocol }));
const fitFile = (file: Uint8Array | string, key: 'key' | 'memberKey') => async (t: HostileTarget) => {
  const body = await multipart([['project_id', t.projectId], ...Object.entries(FIT_FIELDS)], {
    bytes: file,
    name: 'data.csv',
  });
  return () => postMultipart(t, '/fit-from-file', body, {}, t[key]);
};
const invalidProtocol = (body: any) => {
  if (body.valid !== false) throw new Error(`expected valid: false, got ${JSON.stringify(body).slice(0, 200)}`);
};
const locIs =
  (...loc: unknown[]) =>
  (body: any) => {
    const got = JSON.stringify(body.detail?.[0]?.loc);
    if (got !== JSON.stringify(loc))
      throw new Error(`expected loc ${JSON.stringify(loc)}, got ${JSON.stringify(body).slice(0, 300)}`);
  };
/** The first issue's loc and type (a limit's own type, so that another refusal at the same field does not pass). */
const issueIs =
  (type: string, ...loc: unknown[]) =>
  (body: any) => {
    locIs(...loc)(body);
    if (body.detail[0].type !== type)
      throw new Error(`expected type ${type}, got ${JSON.stringify(body).slice(0, 300)}`);
  };
const codeIs = (code: string) => (body: any) => {
  if (body.error_code !== code) throw new Error(`expected ${code}, got ${JSON.stringify(body).slice(0, 300)}`);
};

/**
 * Inline fit data: `rows` rows of Time [s], Voltage [V], Current [A] and `extra` more columns, numbers of 17 or so
 * digits.
 */
function fitData(rows: number, extra = 0): Record<string, number[]> {
  const column = () => Array.from({ length: rows }, () => Math.random());
  const data: Record<string, number[]> = {
    'Time [s]': Array.from({ length: rows }, (_, i) => i),
    'Voltage [V]': column(),
    'Current [A]': column(),
  };
  for (let i = 0; i < extra; i++) data[`Extra ${i}`] = column();
  return data;
}
const FIT_PARAMETERS = { 'Negative particle radius [m]': { bounds: [1e-6, 1e-5], initial_value: 5e-6 } };
const pipeline = (element: Record<string, unknown>) =>
  jsonRequest('/pipelines', (t) => ({ project_id: t.projectId, elements: { fit: element } }));

/** Builds every input's body once (some are megabytes; a gzip bomb is compressed here). */
export async function hostileInputs(): Promise<HostileInput[]> {
  const depth = MB / 2;
  const deepJson = Buffer.from(`{"name":"deep","description":${'['.repeat(depth)}${']'.repeat(depth)}}`);
  const bombJson = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
  const bombForm = await multipart([['name', 'bomb']], { bytes: new Uint8Array(64 * 1024 * 1024), name: 'model.json' });
  const bombModel = { bytes: gzipSync(bombForm.bytes), contentType: bombForm.contentType };
  const manyParts = await multipart(Array.from({ length: 1000 }, (_, i) => [`f${i}`, 'x'] as [string, string]));
  const longField = await multipart(
    [
      ['name', 'long'],
      ['description', 'x'.repeat(2 * 1024 * 1024)],
    ],
    { bytes: '{"type": "ECM"}', name: 'model.json' },
  );
  const oddNames = await multipart([
    ['__proto__', '{"polluted": true}'],
    ['constructor', 'x'],
    ['a[b][c]', 'x'],
    ['name', 'odd'],
    ['name[]', 'x'],
  ]);
  const deepField = await multipart([
    ['project_id', '00000000-0000-4000-8000-000000000000'],
    ['name', 'deep'],
    ['model', '['.repeat(MB / 2) + ']'.repeat(MB / 2)],
  ]);
  // Larger than the body limit: only a refusal before the file is read answers 403 rather than 413.
  const bigFile = new Uint8Array(12 * 1024 * 1024).fill(0x31);
  const unauthenticated = Buffer.from(`{"name": "${'x'.repeat(8 * MB - 20)}`);
  const csvQuotes = `Time [s],Current [A],Voltage [V]\n0,1,4.1${'"'.repeat(MB)}\n`;
  const csvCell = `Time [s],Current [A],Voltage [V]\n0,1,${'1'.repeat(MB)}x\n1,1,4.1\n`;

  return [
    {
      name: 'DOE range row of count 50,000,000',
      status: 422,
      check: locIs('body', 'design_parameters_doe', 'rows', 0, 'count'),
      prepare: batch({ design_parameters_doe: { sampling: 'grid', rows: [rangeRow('R0 [Ohm]', 50_000_000)] } }),
    },
    {
      name: 'DOE range row of count 4,000,000,000',
      status: 422,
      check: locIs('body', 'design_parameters_doe', 'rows', 0, 'count'),
      prepare: batch({ design_parameters_doe: { sampling: 'grid', rows: [rangeRow('R0 [Ohm]', 4_000_000_000)] } }),
    },
    {
      name: 'DOE grid of 10,000^3 points',
      status: 422,
      check: locIs('body', 'design_parameters_doe', 'rows'),
      prepare: batch({
        design_parameters_doe: {
          sampling: 'grid',
          rows: [rangeRow('R0 [Ohm]', 10_000), rangeRow('a', 10_000), rangeRow('b', 10_000)],
        },
      }),
    },
    {
      name: 'JSON nested 500,000 deep (1 MB)',
      status: 422,
      check: locIs('body'),
      prepare: sendAs((t) => json(t, 'POST', '/projects', deepJson)),
    },
    {
      name: 'gzip JSON inflating to 64 MiB',
      status: 413,
      check: codeIs('PAYLOAD_TOO_LARGE'),
      prepare: sendAs((t) => json(t, 'POST', '/projects', bombJson, { 'Content-Encoding': 'gzip' })),
    },
    {
      name: '8 MB body without an API key',
      status: 401,
      check: codeIs('UNAUTHORIZED'),
      prepare: sendAs((t) => json(t, 'POST', '/projects', unauthenticated, {}, null)),
    },
    {
      name: 'gzip multipart inflating to 64 MiB (upload-custom)',
      status: 413,
      check: codeIs('PAYLOAD_TOO_LARGE'),
      prepare: sendAs((t) => postMultipart(t, '/models/upload-custom', bombModel, { 'Content-Encoding': 'gzip' })),
    },
    {
      name: 'multipart of 1,000 parts',
      status: 413,
      check: codeIs('PAYLOAD_TOO_LARGE'),
      prepare: sendAs((t) => postMultipart(t, '/models/upload-custom', manyParts)),
    },
    {
      name: 'multipart field of 2 MiB',
      status: 422,
      check: locIs('body', 'description'),
      prepare: sendAs((t) => postMultipart(t, '/models/upload-custom', longField)),
    },
    {
      name: 'multipart odd field names',
      status: 422,
      check: locIs('body', 'file'),
      prepare: sendAs((t) => postMultipart(t, '/models/upload-custom', oddNames)),
    },
    {
      name: 'multipart JSON field nested 500,000 deep',
      status: 422,
      check: locIs('body', 'model'),
      prepare: sendAs((t) => postMultipart(t, '/fit-from-file', deepField)),
    },
    {
      name: 'fit-from-file of 12 MiB by a member without the permission',
      status: 403,
      check: codeIs('FORBIDDEN'),
      prepare: fitFile(bigFile, 'memberKey'),
    },
    {
      name: 'material property dataset of 12 MiB by a member without the permission',
      status: 403,
      check: codeIs('FORBIDDEN'),
      prepare: async (t) => {
        const body = await multipart(
          [
            ['project_id', t.projectId],
            ['material_id', '00000000-0000-4000-8000-000000000000'],
            ['name', 'big'],
          ],
          { bytes: bigFile, name: 'data.parquet' },
        );
        return () => postMultipart(t, '/material_property_datasets', body, {}, t.memberKey);
      },
    },
    {
      name: 'fit-from-file CSV cell of 1 MB digits',
      status: 422,
      check: locIs('body', 'file', 'Voltage [V]'),
      prepare: fitFile(csvCell, 'key'),
    },
    {
      name: 'fit-from-file CSV cell of 1 MB of quotes',
      status: 422,
      check: locIs('body', 'file', 'Voltage [V]'),
      prepare: fitFile(csvQuotes, 'key'),
    },
    {
      name: 'UCP end condition of 1 MB of "<"',
      status: 200,
      check: invalidProtocol,
      prepare: validate({ steps: [{ Rest: { duration: 10, ends: [`${'<'.repeat(MB)} a b`] } }] }),
    },
    {
      name: 'UCP threshold of 1 MB of digits',
      status: 200,
      check: invalidProtocol,
      prepare: validate({ steps: [{ Rest: { duration: 10, ends: [`Voltage < ${'1'.repeat(MB)}x`] } }] }),
    },
    {
      name: 'PyBaMM line with 1 MB of spaces',
      status: 200,
      check: invalidProtocol,
      prepare: validate(`Discharge at 1C for 1 hour${' '.repeat(MB)}x`),
    },
    {
      name: 'PyBaMM line of 1 MB of " or"',
      status: 200,
      check: invalidProtocol,
      prepare: validate(`Rest for 1 hour${' or'.repeat(MB / 3)}`),
    },
    {
      name: 'simulation protocol with 1 MB of spaces',
      status: 422,
      prepare: batch({ protocol_experiment: { protocol: `Discharge at 1C until${' '.repeat(MB)}x` } }),
    },
    {
      name: '/protocols/validate body of 2 MB',
      status: 413,
      check: codeIs('PAYLOAD_TOO_LARGE'),
      prepare: validate('Rest for 1 hour\n'.repeat((2 * MB) / 16)),
    },
    // What the workers are sent must fit Temporal's 2 MB payloads, and a mesh be of a size a worker can build.
    {
      name: 'simulation model with var_pts of 1,000,000,000',
      status: 422,
      check: issueIs(
        'less_than_equal',
        'body',
        'parameterized_model',
        'model',
        'simulation_settings',
        'var_pts',
        'x_n',
      ),
      prepare: batch({
        parameterized_model: { model: { type: 'SPM', simulation_settings: { var_pts: { x_n: 1_000_000_000 } } } },
      }),
    },
    {
      name: 'model config with var_pts of 1,000,000',
      status: 422,
      check: issueIs('maximum', 'body', 'config', 'simulation_settings', 'var_pts', 'r_n'),
      prepare: jsonRequest('/models', () => ({
        name: 'fine mesh',
        config: { type: 'SPM', simulation_settings: { var_pts: { r_n: 1_000_000 } } },
      })),
    },
    {
      name: 'drive cycle of 150,000 pairs',
      status: 422,
      check: (body) => {
        locIs('body', 'protocol_experiment', 'protocol', 'steps', 0, 'DriveCycle', 'data')(body);
        if (!body.detail[0].msg.endsWith('has 150000 pairs; at most 100000'))
          throw new Error(`not the size limit: ${body.detail[0].msg}`);
        // The megabyte refused is not echoed back as the issue's input.
        if ('input' in body.detail[0]) throw new Error('the refused protocol was echoed back');
      },
      prepare: batch({
        protocol_experiment: {
          protocol: {
            steps: [{ DriveCycle: { mode: 'current', data: Array.from({ length: 150_000 }, (_, i) => [i, 1]) } }],
          },
        },
      }),
    },
    {
      name: 'data_fit with 1,000 rows of 100 columns (2 MB)',
      status: 422,
      check: issueIs('too_long', 'body', 'elements', 'fit', 'data'),
      prepare: pipeline({
        element_type: 'data_fit',
        model: { type: 'SPM' },
        parameters: FIT_PARAMETERS,
        data: fitData(1000, 97),
      }),
    },
    {
      name: 'array_data_fit with 50 data sets of 1,000 rows (3 MB)',
      status: 422,
      check: issueIs('too_long', 'body', 'elements', 'fit', 'datasets'),
      prepare: pipeline({
        element_type: 'array_data_fit',
        model: { type: 'SPM' },
        parameters: FIT_PARAMETERS,
        independent_variable: 'Ambient temperature [K]',
        datasets: Array.from({ length: 50 }, (_, i) => ({ value: 280 + i, data: fitData(1000) })),
      }),
    },
    {
      name: 'data_fit with a model of var_pts 10,000',
      status: 422,
      check: issueIs('less_than_equal', 'body', 'elements', 'fit', 'model', 'simulation_settings', 'var_pts', 'r_p'),
      prepare: pipeline({
        element_type: 'data_fit',
        model: { type: 'SPM', simulation_settings: { var_pts: { r_p: 10_000 } } },
        parameters: FIT_PARAMETERS,
        data: fitData(10),
      }),
    },
    {
      name: 'custom model file of 2 MB',
      status: 422,
      check: issueIs('too_long', 'body', 'file'),
      prepare: async (t) => {
        const body = await multipart([['name', 'big model']], {
          bytes: JSON.stringify({ type: 'SPM', description: 'x'.repeat(2 * MB) }),
          name: 'model.json',
        });
        return () => postMultipart(t, '/models/upload-custom', body);
      },
    },
  ];
}

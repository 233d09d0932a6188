// Bodies that cost the service before it reads a field: nested 500,000 deep, inflating to
// 64 MiB, of a thousand parts or odd part names, or megabytes sent without a key or permission.
import { gzipSync } from 'node:zlib';
import { fitFile, json, MB, multipart, postMultipart, sendAs, type HostileInput } from './send.ts';
import { codeIs, locIs } from './checks.ts';

/** Builds each body once (some are megabytes; a gzip bomb is compressed here). */
export async function bodyInputs(): Promise<HostileInput[]> {
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

  return [
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
  ];
}

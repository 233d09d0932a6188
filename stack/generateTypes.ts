// TypeScript types of every request and answer, generated from openapi.yaml (the one place
// shapes are written). `npm run generate` rewrites api/generated/openapi.ts; a test fails when
// the committed file is not what the spec generates.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { ROOT } from './config.ts';

export const GENERATED_TYPES = path.join(ROOT, 'api/generated/openapi.ts');

const HEADER = '// Generated from openapi.yaml by stack/generateTypes.ts (npm run generate). Do not edit.\n\n';

export async function generateTypes(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(path.join(ROOT, 'openapi.yaml')), { exportType: true, alphabetize: false });
  return HEADER + astToString(ast);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  fs.mkdirSync(path.dirname(GENERATED_TYPES), { recursive: true });
  fs.writeFileSync(GENERATED_TYPES, await generateTypes());
  console.log(`wrote ${path.relative(ROOT, GENERATED_TYPES)}`);
}

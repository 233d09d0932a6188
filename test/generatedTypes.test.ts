// api/generated/openapi.ts is what openapi.yaml generates: a spec change without `npm run
// generate` (or a hand edit of the generated file) fails here.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_TYPES, generateTypes } from '../stack/generateTypes.ts';

describe('types generated from openapi.yaml', () => {
  it('are current', async () => {
    const committed = fs.readFileSync(GENERATED_TYPES, 'utf8');
    const fresh = await generateTypes();
    expect(committed === fresh, 'api/generated/openapi.ts is stale: run `npm run generate`').toBe(true);
  });
});

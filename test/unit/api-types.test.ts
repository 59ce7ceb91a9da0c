// The checked-in src/contract/api-types.ts and mailpit-api-types.ts must be exactly what openapi.yaml and mailpit-api.yaml generate, so the types never drift from the contracts.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import { API_TYPES_FILE, generateApiTypes, generateMailpitApiTypes, MAILPIT_API_TYPES_FILE } from '../../scripts/generate-api-types.js';

describe('generated API types', () => {
  it('src/contract/api-types.ts is up to date with openapi.yaml', async () => {
    const expected = await generateApiTypes();
    const actual = fs.readFileSync(API_TYPES_FILE, 'utf8');
    assert.ok(actual === expected, 'src/contract/api-types.ts is stale: run `npm run generate:api-types` and commit the result');
  });

  it('src/contract/mailpit-api-types.ts is up to date with mailpit-api.yaml', async () => {
    const expected = await generateMailpitApiTypes();
    const actual = fs.readFileSync(MAILPIT_API_TYPES_FILE, 'utf8');
    assert.ok(actual === expected, 'src/contract/mailpit-api-types.ts is stale: run `npm run generate:api-types` and commit the result');
  });
});

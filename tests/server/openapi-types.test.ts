import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TYPES_FILE, buildDocument, typesOf } from '../../scripts/openapi';
import { testDatabase } from './helpers';

/**
 * The browser's API types (src/core/api-schema.d.ts) are generated from the OpenAPI document: a
 * changed route schema, operation name or summary without `npm run api:types` fails here, so the
 * committed types are always the server's contract (tests/core/api-types-match.test.ts then ties
 * the hand-written types to them).
 */
describe('the generated API types', () => {
  it('are current (run npm run api:types)', async () => {
    const expected = await typesOf(await buildDocument(await testDatabase()));
    const committed = fs.existsSync(TYPES_FILE) ? fs.readFileSync(TYPES_FILE, 'utf8') : '';
    // A plain comparison first: a diff of a 5,000-line file is no help, the command is.
    if (committed !== expected) {
      const a = committed.split('\n');
      const b = expected.split('\n');
      const line = a.findIndex((text, i) => text !== b[i]);
      expect.fail(`src/core/api-schema.d.ts is not current (first difference at line ${line + 1}: "${b[line] ?? ''}"): run npm run api:types`);
    }
  }, 60_000);
});

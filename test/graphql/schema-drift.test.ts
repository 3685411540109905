import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { printedSchema } from '../../src/schema/index.js';

it('schema.graphql is the printed schema (run `npm run schema:print` after a schema change)', () => {
  const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
  expect(committed).toBe(printedSchema());
});

import { readFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { expect, it } from 'vitest';
import { getSchema } from '../../src/schema/index.js';

it('schema.graphql is the printed schema (run `npm run schema:print` after a schema change)', () => {
  const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
  expect(committed).toBe(`${printSchema(getSchema())}\n`);
});

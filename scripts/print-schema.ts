// `npm run schema:print`: writes schema.graphql, the committed SDL, so a schema change shows in
// review. test/graphql/schema-drift.test.ts fails when it is stale.
import { writeFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { getSchema } from '../src/schema/index.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), `${printSchema(getSchema())}\n`);
console.log('Wrote schema.graphql');

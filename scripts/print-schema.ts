// `npm run schema:print`: writes schema.graphql, the committed SDL, so a schema change shows in
// review. test/graphql/schema-drift.test.ts fails when it is stale.
import { writeFileSync } from 'node:fs';
import { printedSchema } from '../src/schema/index.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printedSchema());
console.log('Wrote schema.graphql');

// What a backoffice form sends with a GraphQL mutation: a fresh Idempotency-Key for each
// submission of a mutation that needs one (src/schema/effects.ts), as the web app does.
import { randomUUID } from 'node:crypto';
import { parse, type OperationDefinitionNode } from 'graphql';
import { rootFields } from '../../src/graphql/limits.js';
import { extensionsOf, needsIdempotencyKey } from '../../src/schema/effects.js';
import { getSchema } from '../../src/schema/index.js';

export function formHeaders(query: string): Record<string, string> {
  let document;
  try {
    document = parse(query);
  } catch {
    return {}; // a test of a refused document
  }
  const fields = getSchema().getMutationType()!.getFields();
  const needs = document.definitions.some(
    (d) =>
      d.kind === 'OperationDefinition' &&
      d.operation === 'mutation' &&
      rootFields(document, d as OperationDefinitionNode).some(
        (name) => fields[name] && needsIdempotencyKey(extensionsOf(fields[name]).effect),
      ),
  );
  return needs ? { 'idempotency-key': randomUUID() } : {};
}

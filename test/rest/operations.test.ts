// Every route's GraphQL operation fits the schema. The server checks a route's operation on the
// route's first call, not at start-up (start-up time: docs/production.md), so a broken one is
// caught here, before any deployment.
import { describe, expect, it } from 'vitest';
import { OperationStore } from '../../src/rest/execute-operation.js';
import { ROUTES } from '../../src/rest/table.js';
import { getSchema } from '../../src/schema/index.js';

describe('persisted operations', () => {
  it('parses and validates the operation of every route in the table', () => {
    const operations = new OperationStore(getSchema());
    for (const route of ROUTES) {
      expect(() => operations.prepare(route.operation), route.name).not.toThrow();
      // The query that renders an answer kept by reference, on replays only.
      const byReference = route.answerByReference?.operation;
      if (byReference) expect(() => operations.prepare(byReference), route.name).not.toThrow();
    }
  });

  it('refuses an operation that does not fit the schema, naming it', () => {
    const operations = new OperationStore(getSchema());
    expect(() => operations.prepare('query { noSuchField }')).toThrow(
      /Invalid persisted operation:[^]*noSuchField/,
    );
  });
});

// Issue 30: a route's scope and its GraphQL field's `authScopes` say the same thing twice (the
// route refuses before the operation runs; the field guards GraphQL and MCP's other ways in), and
// nothing made them agree. This test does: every root field a route's operation calls declares
// its scopes as data (not a function, which no test can read), and admits the route's scope; a
// platform-admin route's fields admit platform admins. A drifted fixture shows it would fail.
import { getOperationAST, parse, type GraphQLField, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { Route } from '../../src/rest/route.js';
import { ROUTES } from '../../src/rest/table.js';
import { getSchema } from '../../src/schema/index.js';

type Declared = Record<string, unknown> & {
  scope?: string;
  anyScope?: readonly string[];
  admin?: boolean;
  $any?: Declared;
  $all?: Declared;
};

/** The field's scopes admit `scope` (a route scope; `admin`: platform admins). */
function admits(auth: Declared, scope: string): boolean {
  if (scope === 'admin')
    return auth.admin === true || Boolean(auth.$any && admits(auth.$any, scope));
  return (
    auth.scope === scope ||
    Boolean(auth.anyScope?.includes(scope)) ||
    Boolean(auth.$any && admits(auth.$any, scope)) ||
    Boolean(auth.$all && admits(auth.$all, scope))
  );
}

/** Each disagreement between the routes and their fields, in words. */
function disagreements(
  schema: GraphQLSchema,
  routes: readonly Pick<Route, 'name' | 'scope' | 'operation' | 'platformAdmin'>[],
) {
  const found: string[] = [];
  for (const route of routes) {
    const operation = getOperationAST(parse(route.operation))!;
    const root =
      operation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
    for (const selection of operation.selectionSet.selections) {
      if (selection.kind !== 'Field') continue;
      const field = root.getFields()[selection.name.value] as GraphQLField<unknown, unknown>;
      const auth = (field.extensions as { pothosOptions?: { authScopes?: unknown } }).pothosOptions
        ?.authScopes;
      if (!auth || typeof auth !== 'object') {
        found.push(`${route.name}: ${field.name} declares no scopes as data`);
        continue;
      }
      if (!admits(auth as Declared, route.scope))
        found.push(`${route.name}: ${field.name} does not admit ${route.scope}`);
      if (route.platformAdmin && !admits(auth as Declared, 'admin'))
        found.push(`${route.name}: ${field.name} does not admit platform admins`);
    }
  }
  return found;
}

describe('route scopes', () => {
  it('every route’s fields admit the route’s scope', () => {
    expect(disagreements(getSchema(), ROUTES)).toEqual([]);
    expect(ROUTES.length).toBeGreaterThan(100);
  });

  it('would fail on a drifted route (a fixture)', () => {
    const listCustomers = ROUTES.find((r) => r.name === 'list_customers')!;
    expect(
      disagreements(getSchema(), [{ ...listCustomers, scope: 'orders:read' as Route['scope'] }]),
    ).toEqual(['list_customers: customers does not admit orders:read']);
  });
});

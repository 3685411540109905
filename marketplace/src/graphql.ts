// Typed GraphQL documents: gql.tada reads ../schema.graphql (the server's committed schema), so a
// document that asks for a field the server lacks fails `npm run check`.
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.d.ts';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  // Fragments share fields between documents here; they are not a component boundary.
  disableMasking: true;
  scalars: { DateTime: string; SafeInt: number; JSON: unknown; ID: string };
}>();

export type { ResultOf, VariablesOf } from 'gql.tada';

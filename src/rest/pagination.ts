// Cursor pages on the wire (`{ data, page: { has_more, next_cursor } }`) over Relay connections
// in the schema. Connections order by UUIDv7 id, newest first, and a cursor names the last row
// seen, so rows inserted while a client walks the pages never shift it: no duplicates, no gaps.
import { z } from 'zod';
import { CURSOR_PAGE } from '../domain/pages.js';
import { camelKeys } from './casing.js';
import type { RouteResult } from './route.js';

const { defaultSize, maxSize } = CURSOR_PAGE;

/** Spread into a route's query schema. */
export const pageParams = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(maxSize)
    .default(defaultSize)
    .describe(`Page size, 1-${maxSize}, default ${defaultSize}.`),
  cursor: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe("The previous page's `page.next_cursor`. Omit on the first page."),
};

/** The GraphQL connection arguments for a page request. */
export const connectionArgs = (query: { limit: number; cursor?: string | undefined }) => ({
  first: query.limit,
  after: query.cursor ?? null,
});

/** A list route's query split into the GraphQL `filter` (camelCase) and connection arguments. */
export function filterAndPage(query: Record<string, unknown>) {
  const { limit, cursor, ...filter } = query as { limit: number; cursor?: string };
  return { filter: camelKeys(filter), ...connectionArgs({ limit, cursor }) };
}

/** The selection every paginated operation asks for around its node fields. */
export const connectionSelection = (nodeFields: string) =>
  `edges { node { ${nodeFields} } } pageInfo { hasNextPage endCursor }`;

type Connection = {
  edges: { node: unknown }[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
};

export function toPage(
  connection: unknown,
  mapNode: (node: never) => unknown,
): Required<RouteResult> {
  const c = connection as Connection;
  return {
    data: c.edges.map((e) => mapNode(e.node as never)),
    page: {
      has_more: c.pageInfo.hasNextPage,
      next_cursor: c.pageInfo.hasNextPage ? (c.pageInfo.endCursor ?? null) : null,
    },
  };
}

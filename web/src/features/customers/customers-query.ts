// The customers list's one GraphQL request and its variables for a URL: shared by the screen
// and by the sign-in page, which starts it before the screen renders (app/prefetch.ts).
import { graphql } from '../../graphql';
import type { parseCustomersQuery } from './routes';

export const CustomersQuery = graphql(`
  query Customers(
    $filter: CustomerFilter
    $first: Int
    $after: String
    $last: Int
    $before: String
  ) {
    customers(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
      total {
        value
        exact
      }
      edges {
        node {
          id
          firstName
          lastName
          email
          externalId
          status
          coinBalance
          orderCount
          createdAt
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
`);

export const STATUSES = ['active', 'watch', 'restricted', 'banned'] as const;
export type Status = (typeof STATUSES)[number];

/** The list's GraphQL variables for a URL's query (the screen and its prefetch agree). */
export function customersVariables(query: ReturnType<typeof parseCustomersQuery>) {
  const status = STATUSES.includes(query.status as Status) ? (query.status as Status) : undefined;
  return {
    filter: { ...(query.q ? { q: query.q } : {}), ...(status ? { status } : {}) },
    ...(query.before
      ? { last: query.size, before: query.before }
      : { first: query.size, after: query.after ?? null }),
  };
}

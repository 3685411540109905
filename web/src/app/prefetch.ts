// No waterfall after sign-in: the moment the sign-in answers, the next screen's data request and
// its code chunk start, in parallel with React rendering the shell. The screen then renders on
// the same client (api/client.ts clientFor) and waits for that request instead of sending its
// own (urql does not send a query whose twin is in flight; `usePrefetched` makes the screen
// read the cache rather than ask the network again if the answer is already there).
import { useState } from 'react';
import { createRequest, type Client, type TypedDocumentNode } from 'urql';
import { CustomersQuery, customersVariables } from '../features/customers/customers-query';
import { parseCustomersQuery } from '../features/customers/routes';

/** Code of the screens worth preloading at sign-in (the dashboard is where sign-in lands). */
export const SCREEN_CHUNKS = {
  '/': () => import('../features/dashboard/DashboardPage'),
} as const;

const prefetched = new Set<number>();

export function prefetchScreen(path: string, client: Client): void {
  const url = new URL(path, window.location.origin);
  const chunk = SCREEN_CHUNKS[url.pathname as keyof typeof SCREEN_CHUNKS];
  if (chunk) void chunk();
  if (url.pathname === '/customers') {
    const variables = customersVariables(parseCustomersQuery(url.search));
    prefetched.add(createRequest(CustomersQuery, variables).key);
    void client.query(CustomersQuery, variables, { requestPolicy: 'network-only' }).toPromise();
  }
}

/** True once, for the screen's first render, if sign-in already asked for exactly this. */
export function usePrefetched<D, V extends Record<string, unknown>>(
  query: TypedDocumentNode<D, V>,
  variables: V,
): boolean {
  const [taken] = useState(() => {
    const key = createRequest(query, variables).key;
    return prefetched.delete(key) ? key : null;
  });
  return taken !== null && taken === createRequest(query, variables).key;
}

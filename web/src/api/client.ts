// The one GraphQL client (urql). Every request carries the session's CSRF token and the chosen
// sub-brand and environment. Refusals the server answers before GraphQL runs (an expired session,
// a sub-brand out of reach) come back as GraphQL errors too, so every screen shows them the same
// way: the API's message, its code and the request id.
import { cacheExchange, Client, fetchExchange } from 'urql';
import type { Environment } from './session';

export type Tenant = { subBrandId: string | null; environment: Environment };

export function tenantHeaders(csrf: string, tenant: Tenant): Record<string, string> {
  return {
    'x-csrf-token': csrf,
    'x-environment': tenant.environment,
    ...(tenant.subBrandId ? { 'x-sub-brand-id': tenant.subBrandId } : {}),
  };
}

export function createGraphQLClient(options: {
  csrf: string;
  tenant: Tenant;
  onSignedOut: () => void;
}): Client {
  return new Client({
    url: '/graphql',
    exchanges: [cacheExchange, fetchExchange],
    requestPolicy: 'cache-and-network',
    preferGetMethod: false, // one method for everything: POST with the CSRF header
    // The session's headers are added here, under what an operation sends of its own (a form's
    // Idempotency-Key, api/form-mutation.ts; another tenant's order in the fulfilment queue):
    // urql replaces the client's fetchOptions with an operation's instead of merging them.
    fetch: async (input, init) => {
      const res = await fetch(input, {
        ...init,
        credentials: 'same-origin',
        headers: {
          ...tenantHeaders(options.csrf, options.tenant),
          ...(init?.headers as Record<string, string>),
        },
      });
      const requestId = res.headers.get('x-request-id');
      if (res.status === 401) options.onSignedOut();
      const body = (await res.json().catch(() => null)) as {
        data?: unknown;
        errors?: { message: string; extensions?: Record<string, unknown> }[];
        error?: { code: string; message: string };
      } | null;
      const errors = body?.error
        ? [{ message: body.error.message, extensions: { code: body.error.code } }]
        : (body?.errors ??
          (res.ok ? undefined : [{ message: `The server answered ${res.status}.` }]));
      return new Response(
        JSON.stringify({
          data: body?.data ?? null,
          ...(errors
            ? { errors: errors.map((e) => ({ ...e, extensions: { ...e.extensions, requestId } })) }
            : {}),
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    },
  });
}

let current: { key: string; client: Client } | null = null;

/**
 * The client of this session and tenant, made once: the sign-in page starts the next screen's
 * request on it (app/prefetch.ts) and the screen, rendered on the same client, gets that request's
 * answer instead of sending its own.
 */
export function clientFor(options: {
  csrf: string;
  tenant: Tenant;
  onSignedOut: () => void;
}): Client {
  const key = `${options.csrf}|${options.tenant.subBrandId ?? ''}|${options.tenant.environment}`;
  if (current?.key !== key) current = { key, client: createGraphQLClient(options) };
  return current.client;
}

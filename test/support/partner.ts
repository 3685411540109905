// Partner-API helpers for tests: a tenant with a key, and customers made through the API.
import { randomUUID } from 'node:crypto';
import { createTenant } from './factories.js';
import type { Harness } from './harness.js';

export async function partner(h: Harness, options: { env?: 'live' | 'test' } = {}) {
  const tenant = await createTenant(h.db.prisma);
  // Tests make many calls quickly; rate limiting has tests of its own.
  const { key } = await tenant.key({
    env: options.env ?? 'test',
    readLimit: 1_000_000,
    writeLimit: 1_000_000,
  });
  const api = {
    ...tenant,
    key,
    /** Another key of the same sub-brand. */
    async otherKey(o: Parameters<typeof tenant.key>[0] = {}) {
      return (await tenant.key({ readLimit: 1_000_000, writeLimit: 1_000_000, ...o })).key;
    },
    get: (path: string) => h.call('GET', path, { key }),
    delete: (path: string) => h.call('DELETE', path, { key }),
    patch: (path: string, body: unknown) => h.call('PATCH', path, { key, body }),
    put: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      h.call('PUT', path, { key, body, headers }),
    post: (path: string, body: unknown, idempotencyKey: string | null = randomUUID()) =>
      h.call('POST', path, {
        key,
        body,
        headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
      }),
    async customer(fields: Record<string, unknown> = {}) {
      const res = await api.post('/api/v1/customers', {
        first_name: 'Ana',
        last_name: 'García',
        ...fields,
      });
      if (res.status !== 201) throw new Error(`create customer: ${res.status} ${res.text}`);
      return res.body.data as { id: string } & Record<string, any>;
    },
    async credit(customerId: string, delta: number, reason?: string) {
      const res = await api.post(`/api/v1/customers/${customerId}/coins`, {
        delta,
        ...(reason ? { reason } : {}),
      });
      if (res.status !== 201) throw new Error(`credit: ${res.status} ${res.text}`);
      return res.body.data;
    },
  };
  return api;
}

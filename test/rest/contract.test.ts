// Issue 15, item 7: the answers match the document. A validating proxy checks every answer of a
// walk through both APIs — the integration guide's loop, the reads around it and the usual
// refusals — against the served OpenAPI documents: the status must be declared, the body must
// validate against the declared schema (test/support/contract.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { listedProduct } from '../support/catalog.js';
import { contractOf } from '../support/contract.js';
import { startHarness, type Harness, type Reply } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
let p: Awaited<ReturnType<typeof partner>>;
let checks: Record<'partner' | 'establishment', ReturnType<typeof contractOf>>;
beforeAll(async () => {
  h = await startHarness();
  p = await partner(h);
  checks = {
    partner: contractOf((await h.call('GET', '/openapi.json')).body),
    establishment: contractOf((await h.call('GET', '/openapi/establishment.json')).body),
  };
});
afterAll(() => h.close());

const problems: string[] = [];
const seen: string[] = [];
async function send(method: string, path: string, body?: unknown, headers = {}): Promise<Reply> {
  const reply = await h.call(method, path, {
    key: p.key,
    ...(body === undefined ? {} : { body }),
    headers: method === 'GET' ? headers : { 'idempotency-key': randomUUID(), ...headers },
  });
  const family = path.startsWith('/api/v1') ? 'partner' : 'establishment';
  problems.push(...checks[family](method, path, reply));
  seen.push(`${method} ${path.split('?')[0]} ${reply.status}`);
  return reply;
}

describe('answers match the OpenAPI documents', () => {
  it('on the partner API', async () => {
    const { listingId } = await listedProduct(h.db.prisma, p.subBrandId, { stock: 5 });
    await createDefinition(h.db.prisma, { subBrandId: p.subBrandId, code: 'spin', points: 10 });
    await send('GET', '/api/v1/health');
    const customer = (
      await send('POST', '/api/v1/customers', {
        external_id: 'contract-1',
        first_name: 'Ana',
        last_name: 'García',
        country: 'ES',
      })
    ).body.data;
    const id = customer.id as string;
    await send('GET', `/api/v1/customers/${id}`);
    await send('GET', '/api/v1/customers?limit=2');
    await send('PATCH', `/api/v1/customers/${id}`, { email: 'ana@example.com' });
    await send('POST', `/api/v1/customers/${id}/coins`, { delta: 1000, reason: 'welcome' });
    await send('POST', `/api/v1/customers/${id}/coins`, { delta: -999_999 }); // 409
    await send('GET', `/api/v1/customers/${id}/coins`);
    await send('GET', `/api/v1/customers/${id}/coins/movements`);
    await send('POST', '/api/v1/customers/bulk/coins', { delta: 5, dry_run: true, all: true });
    await send('GET', '/api/v1/engine/definitions');
    await send('POST', '/api/v1/engine/events', {
      event_code: 'spin',
      data: { externalUserId: 'contract-1' },
    });
    await send('POST', '/api/v1/engine/webhooks/spin', {
      event_id: 'w-1',
      externalUserId: 'contract-1',
    });
    const products = (await send('GET', '/api/v1/products')).body.data;
    await send('GET', `/api/v1/products/${products[0].id}`);
    await send('GET', '/api/v1/catalogs');
    await send('GET', '/api/v1/stores');
    await send('GET', '/api/v1/categories');
    await send('GET', `/api/v1/brands/${p.brandId}/sub-brands/${p.subBrandId}`);
    const order = (
      await send('POST', '/api/v1/orders', {
        customer_id: id,
        listing_market_id: listingId,
      })
    ).body.data;
    await send('GET', `/api/v1/orders/${order.id}`);
    await send('GET', `/api/v1/orders?customer_id=${id}`);
    await send('GET', `/api/v1/orders/${order.id}/shipping`);
    await send('GET', `/api/v1/order-reservations/${order.reservation_id}`);
    await send('DELETE', `/api/v1/orders/${order.id}`);
    await send('PATCH', `/api/v1/orders/${order.id}/shipping`, { recipient_name: 'Ana' }); // 409
    await send('POST', '/api/v1/store-sessions', { customer_id: id });
    await send('POST', '/api/v1/store-sessions', { customer_id: randomUUID() }); // 404
    await send('GET', `/api/v1/customers/${randomUUID()}`); // 404
    await send('POST', '/api/v1/customers', { first_name: '' }); // 400 with details
    await send('DELETE', `/api/v1/customers/${id}`);
    expect(problems).toEqual([]);
    // The walk reached what it meant to: successes and refusals.
    expect(seen.filter((s) => / 20[01]$/.test(s)).length).toBeGreaterThan(20);
    expect(seen.filter((s) => / (400|404|409)$/.test(s)).length).toBeGreaterThanOrEqual(5);
  });

  it('on the establishment API', async () => {
    problems.length = 0;
    await send('GET', `/establishments/${p.subBrandId}`);
    const player = (
      await send('POST', '/players', {
        establishmentId: p.subBrandId,
        name: 'Ana García',
        externalUserId: 'contract-e1',
      })
    ).body;
    await send('GET', `/players/${player.playerId}`);
    await send('POST', '/players/search', { establishmentId: p.subBrandId, page: 1, limit: 5 });
    await send('GET', `/players?establishmentId=${p.subBrandId}`);
    await send('PUT', '/coins', { playerId: player.playerId, amount: 50 });
    await send('PUT', '/coins', { playerId: player.playerId, amount: -5000 }); // 400
    await send('GET', `/players/${randomUUID()}`); // 404
    await send('POST', '/players', { name: 7 }); // 400
    await send('DELETE', `/players/${player.playerId}`);
    expect(problems).toEqual([]);
  });
});

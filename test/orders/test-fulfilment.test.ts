// Test mode to the end: a test key moves its own test orders through fulfilment, never live ones.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { shop } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** A write with a given key (the shop's own test key by default). */
const post = (key: string, path: string, body: unknown) =>
  h.call('POST', path, { key, body, headers: { 'idempotency-key': randomUUID() } });
const advance = (s: Awaited<ReturnType<typeof shop>>, id: string, key = s.key) =>
  post(key, `/api/v1/test-helpers/orders/${id}/advance`, {});

describe('POST /api/v1/test-helpers/orders/{id}/advance', () => {
  it('moves a test order to delivered, with test tracking once shipped, then refuses', async () => {
    const s = await shop(h, { kind: 'physical', stock: 5 });
    const customer = await s.buyer(1_000_000);
    const order = (
      await s.order({
        customer_id: customer,
        listing_market_id: s.listing.listing_market_id,
        recipient_name: 'Ana García',
        shipping_address: 'Calle Mayor 1, 28013 Madrid',
      })
    ).body.data;
    const steps: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await advance(s, order.id);
      expect(res.status, res.text).toBe(200);
      steps.push(res.body.data.status);
    }
    expect(steps).toEqual(['processing', 'shipped', 'delivered']);
    const shipping = (await s.get(`/api/v1/orders/${order.id}/shipping`)).body.data;
    expect(shipping.items[0]).toMatchObject({
      carrier: 'Test Carrier',
      tracking_code: expect.stringMatching(/^TEST-[0-9A-F]{12}$/),
    });
    const done = await advance(s, order.id);
    expect(done.status).toBe(409);
    expect(done.body.error.code).toBe('invalid_transition');
  });

  it('is 403 for a live key, and a test key cannot see a live order', async () => {
    const s = await shop(h, { kind: 'digital', stock: 5 });
    const liveKey = await s.otherKey({ env: 'live' });
    const live = await post(liveKey, '/api/v1/customers', {
      first_name: 'Live',
      last_name: 'Buyer',
    });
    expect(live.status, live.text).toBe(201);
    await post(liveKey, `/api/v1/customers/${live.body.data.id}/coins`, { delta: 1_000_000 });
    const liveOrder = await post(liveKey, '/api/v1/orders', {
      customer_id: live.body.data.id,
      listing_market_id: s.listing.listing_market_id,
    });
    expect(liveOrder.status, liveOrder.text).toBe(201);

    const byLiveKey = await advance(s, liveOrder.body.data.id, liveKey);
    expect(byLiveKey.status).toBe(403);
    expect(byLiveKey.body.error.message).toMatch(/Only test keys/);
    const byTestKey = await advance(s, liveOrder.body.data.id);
    expect(byTestKey.status).toBe(404);
    const unchanged = await h.call('GET', `/api/v1/orders/${liveOrder.body.data.id}`, {
      key: liveKey,
    });
    expect(unchanged.body.data.status).toBe('pending');
  });
});

// Store sessions: a signed, expiring pass into the embedded marketplace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog, createStore } from '../../src/domain/catalog/author-catalog.js';
import { startHarness, type Harness } from '../support/harness.js';
import { bootOf } from '../marketplace/support.js';
import { shop } from './support.js';

let h: Harness;
let clock = new Date('2026-06-01T10:00:00.000Z');
beforeAll(async () => {
  h = await startHarness({ now: () => clock });
});
afterAll(() => h.close());

async function storefront() {
  const s = await shop(h, { name: 'Tablet <b>XL</b>' });
  const catalog = await createCatalog(h.db.prisma, {
    name: 'All',
    productIds: [s.prize.productId],
  });
  const store = await createStore(h.db.prisma, {
    subBrandId: s.subBrandId,
    name: 'Casino & <Rewards>',
    slug: 'rewards',
    catalogIds: [catalog.id],
  });
  const customer = await s.buyer(1234, { first_name: '<img src=x onerror=alert(1)>' });
  return { s, store, customer };
}

describe('POST /api/v1/store-sessions', () => {
  it('answers a signed url that opens the store for that customer until it expires', async () => {
    const { s, store, customer } = await storefront();
    const res = await s.post('/api/v1/store-sessions', { customer_id: customer, ttl_seconds: 120 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      store_id: store.id,
      customer_id: customer,
      expires_at: '2026-06-01T10:02:00.000Z',
      token: expect.stringMatching(/^ss_/),
    });
    const url = new URL(res.body.data.url);
    expect(url.pathname).toBe(`/store/${store.id}`);
    expect(url.searchParams.get('session')).toBe(res.body.data.token);

    // The marketplace app opens, handed the session and the store's look; every value in its
    // JSON block has its `<` escaped, so nothing typed can end the block.
    const page = await h.call('GET', `${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/html/);
    expect(bootOf(page.text)).toMatchObject({ page: 'store', token: res.body.data.token });
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).not.toContain('<Rewards>');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');

    clock = new Date('2026-06-01T10:02:00.000Z');
    const expired = await h.call('GET', `${url.pathname}${url.search}`);
    expect(expired.status).toBe(401);
    expect(bootOf(expired.text)).toMatchObject({ page: 'ended' });
    expect(expired.text).not.toContain(res.body.data.token);
    clock = new Date('2026-06-01T10:00:00.000Z');
  });

  it('refuses tampered tokens and tokens for another store', async () => {
    const { s, store, customer } = await storefront();
    const { token } = (await s.post('/api/v1/store-sessions', { customer_id: customer })).body.data;
    const [payload, signature] = token.slice(3).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 86_400 })).toString(
      'base64url',
    );
    for (const bad of [`ss_${forged}.${signature}`, `${token}x`, 'nonsense', '']) {
      const res = await h.call('GET', `/store/${store.id}?session=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(404);
      expect(bootOf(res.text)).toEqual({ page: 'invalid', lang: 'en' });
    }
    const other = await storefront();
    const cross = await h.call(
      'GET',
      `/store/${other.store.id}?session=${encodeURIComponent(token)}`,
    );
    expect(cross.status).toBe(404);
  });

  it('refuses bad input, other tenants and banned customers', async () => {
    const { s, customer } = await storefront();
    const other = await storefront();
    const bad = await s.post('/api/v1/store-sessions', { customer_id: customer, ttl_seconds: 30 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/ttl_seconds: must be at least 60/);
    expect((await s.post('/api/v1/store-sessions', {})).body.error.message).toMatch(
      /customer_id: is required/,
    );
    expect((await s.post('/api/v1/store-sessions', { customer_id: other.customer })).status).toBe(
      404,
    );
    expect(
      (await s.post('/api/v1/store-sessions', { customer_id: customer, store_id: other.store.id }))
        .status,
    ).toBe(404);
    const banned = await s.buyer(0, { status: 'banned' });
    const refused = await s.post('/api/v1/store-sessions', { customer_id: banned });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('customer_not_eligible');
    const key = await s.otherKey({ scopes: ['customers:read'] });
    const forbidden = await h.call('POST', '/api/v1/store-sessions', {
      key,
      body: { customer_id: customer },
    });
    expect(forbidden.status).toBe(403);
  });
});

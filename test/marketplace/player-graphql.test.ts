// The marketplace's GraphQL audience: a player principal from a store session, allowed only the
// app's trusted documents, confined to its own customer, under the same limits and exactly-once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDigitalCodes } from '../../src/domain/orders/digital-codes.js';
import { startHarness, type Harness } from '../support/harness.js';
import { documentText, marketplaceShop } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ADDRESS = {
  firstName: 'Ana',
  lastName: 'García',
  addressLine1: 'Calle Mayor 1',
  city: 'Madrid',
  postalCode: '28013',
  country: 'ES',
};

describe('a player principal', () => {
  it('starts the marketplace: the player, the establishment, the store and its products', async () => {
    const s = await marketplaceShop(h, [
      { kind: 'digital', name: 'Gift card' },
      { kind: 'physical', name: 'Jersey' },
    ]);
    const ana = await s.player(50_000, { first_name: 'Ana' });
    const start = await ana.run('MarketplaceStart', {}, null);
    expect(start.status, start.text).toBe(200);
    expect(start.body.data.marketplace).toMatchObject({
      player: { firstName: 'Ana', balance: 50_000, language: 'en' },
      establishment: { coinName: 'Coins' },
      store: { name: 'Rewards', productCount: 2 },
    });
    const products = await ana.run('MarketplaceProducts', { first: 1 }, null);
    expect(products.body.data.marketplace.products).toMatchObject({
      total: 2,
      nextCursor: expect.any(String),
    });
    const rest = await ana.run(
      'MarketplaceProducts',
      { first: 1, after: products.body.data.marketplace.products.nextCursor },
      null,
    );
    expect(rest.body.data.marketplace.products.items).toHaveLength(1);
    expect(rest.body.data.marketplace.products.nextCursor).toBeNull();
    const found = await ana.run('MarketplaceProducts', { q: 'jers' }, null);
    expect(found.body.data.marketplace.products.items.map((p: any) => p.name)).toEqual(['Jersey']);
  });

  it('runs trusted documents only, by id', async () => {
    const s = await marketplaceShop(h);
    const ana = await s.player(10);
    const raw = await h.call('POST', '/graphql', {
      body: { query: documentText('MarketplaceStart') },
      headers: { authorization: `Bearer ${ana.token}` },
    });
    expect(raw.status).toBe(403);
    expect(raw.body.errors[0].extensions.code).toBe('forbidden');
    const unknown = await h.call('POST', '/graphql', {
      body: { documentId: 'sha256:nope' },
      headers: { authorization: `Bearer ${ana.token}` },
    });
    expect(unknown.status).toBe(400);
    // Nor the REST API: its routes need scopes a session does not have.
    const rest = await h.call('GET', `/api/v1/customers/${ana.id}`, { key: ana.token });
    expect(rest.status).toBe(403);
  });

  it('a signed-out or forged session is 401', async () => {
    const s = await marketplaceShop(h);
    const ana = await s.player(10);
    expect((await s.post('/iframe/logout', { token: ana.token })).status).toBe(200);
    const after = await ana.run('MarketplaceBalance', {}, null);
    expect(after.status).toBe(401);
    expect(after.body.errors[0].message).toMatch(/store session/);
    const forged = await h.call('POST', '/graphql', {
      body: { documentId: 'x' },
      headers: { authorization: `Bearer ${ana.token.slice(0, -2)}xx` },
    });
    expect(forged.status).toBe(401);
  });
});

describe('redeeming', () => {
  it('a digital prize delivered by code: spent once however often the tap is sent, the code on the answer', async () => {
    const s = await marketplaceShop(h, [{ kind: 'digital', stock: 0 }]);
    await addDigitalCodes(h.db.prisma, s.prizes[0]!.variantId, 'test', {
      codes: ['CODE-1', 'CODE-2'],
    });
    const ana = await s.player(100_000);
    const product = (await ana.run('MarketplaceProduct', { id: s.prizes[0]!.productId }, null)).body
      .data.marketplace.product;
    expect(product.variants[0].available).toBe(2);
    const key = randomUUID();
    const taps = await Promise.all(
      Array.from({ length: 5 }, () =>
        ana.run('MarketplaceRedeem', { listingId: product.variants[0].listingId }, key),
      ),
    );
    for (const tap of taps) expect(tap.status, tap.text).toBe(200);
    expect(new Set(taps.map((t) => t.text)).size).toBe(1);
    const order = taps[0]!.body.data.redeemPrize.order;
    expect(order).toMatchObject({ status: 'delivered', cancellable: false });
    expect(order.items[0].codes).toEqual(['CODE-1']);
    expect(taps[0]!.body.data.redeemPrize.balance).toBe(100_000 - product.fromCoins);
    const orders = (await ana.run('MarketplaceOrders', {}, null)).body.data.marketplace.orders;
    expect(orders).toHaveLength(1);
  });

  it('a physical prize needs an address; a new one is saved when asked, and the order carries it', async () => {
    const s = await marketplaceShop(h, [{ kind: 'physical' }]);
    const ana = await s.player(100_000);
    const listingId = s.prizes[0]!.listingId;
    const none = await ana.run('MarketplaceRedeem', { listingId });
    expect(none.body.errors[0].extensions).toMatchObject({
      code: 'invalid_request',
      issues: [{ field: 'address', code: 'required' }],
    });
    const bad = await ana.run('MarketplaceRedeem', {
      listingId,
      address: { ...ADDRESS, country: 'Spain' },
    });
    expect(bad.body.errors[0].extensions.issues[0].field).toBe('address.country');
    const ok = await ana.run('MarketplaceRedeem', {
      listingId,
      address: ADDRESS,
      saveAddress: true,
    });
    expect(ok.body.errors, ok.text).toBeUndefined();
    expect(ok.body.data.redeemPrize.order).toMatchObject({
      status: 'pending',
      cancellable: true,
      recipientName: 'Ana García',
      shippingAddress: 'Calle Mayor 1, 28013 Madrid, ES',
    });
    const saved = (await ana.run('MarketplaceProduct', { id: s.prizes[0]!.productId }, null)).body
      .data.marketplace.addresses;
    expect(saved).toEqual([expect.objectContaining({ ...ADDRESS, addressLine2: null })]);
    const again = await ana.run('MarketplaceRedeem', { listingId, addressId: saved[0].id });
    expect(again.body.data.redeemPrize.order.recipientName).toBe('Ana García');
    // Cancel: the coins come back once.
    const orderId = again.body.data.redeemPrize.order.id;
    const before = again.body.data.redeemPrize.balance;
    const cancelled = await ana.run('MarketplaceCancelOrder', { orderId });
    expect(cancelled.body.data.cancelMyOrder.order.status).toBe('cancelled');
    expect(cancelled.body.data.cancelMyOrder.balance).toBe(
      before + again.body.data.redeemPrize.order.totalCoins,
    );
  });

  it('never sees or touches another player’s order or address', async () => {
    const s = await marketplaceShop(h, [{ kind: 'physical' }]);
    const ana = await s.player(100_000);
    const bob = await s.player(100_000);
    const order = (
      await ana.run('MarketplaceRedeem', {
        listingId: s.prizes[0]!.listingId,
        address: ADDRESS,
        saveAddress: true,
      })
    ).body.data.redeemPrize.order;
    const cancel = await bob.run('MarketplaceCancelOrder', { orderId: order.id });
    expect(cancel.body.errors[0].extensions.code).toBe('not_found');
    expect((await bob.run('MarketplaceOrders', {}, null)).body.data.marketplace.orders).toEqual([]);
    const address = (await ana.run('MarketplaceProduct', { id: s.prizes[0]!.productId }, null)).body
      .data.marketplace.addresses[0];
    const using = await bob.run('MarketplaceRedeem', {
      listingId: s.prizes[0]!.listingId,
      addressId: address.id,
    });
    expect(using.body.errors[0].extensions.code).toBe('not_found');
    expect(
      (await bob.run('MarketplaceDeleteAddress', { id: address.id })).body.errors[0].extensions
        .code,
    ).toBe('not_found');
  });

  it('a mutation without an Idempotency-Key is refused before it runs', async () => {
    const s = await marketplaceShop(h);
    const ana = await s.player(100_000);
    const res = await ana.run('MarketplaceRedeem', { listingId: s.prizes[0]!.listingId }, null);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('missing_idempotency_key');
  });
});

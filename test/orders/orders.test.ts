// Reserving orders: what is snapshotted, spent and taken, and every refusal leaving nothing behind.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { listedProduct } from '../support/catalog.js';
import { shop } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('POST /api/v1/orders', () => {
  it('snapshots prices, spends the coins, takes the stock and records the request', async () => {
    const s = await shop(h, { stock: 5, baseCost: 1250 });
    const customer = await s.buyer(10_000);
    const res = await s.order({
      customer_id: customer,
      listing_market_ids: [s.listing.listing_market_id, s.listing.listing_market_id],
    });
    expect(res.status).toBe(201);
    const order = res.body.data;
    expect(order).toMatchObject({
      customer_id: customer,
      status: 'pending',
      billing_status: 'not_applicable',
      currency: 'EUR',
      total_price: 2 * s.listing.sell_price,
      total_coins: 2 * s.listing.coin_price,
      recipient_name: null,
      items: [
        expect.objectContaining({
          listing_market_id: s.listing.listing_market_id,
          product_name: 'Gift card',
          kind: 'digital',
          quantity: 2,
          unit_price: s.listing.sell_price,
          unit_coins: s.listing.coin_price,
          carrier: null,
          tracking_code: null,
        }),
      ],
      history: [
        expect.objectContaining({ kind: 'status', from_status: null, to_status: 'pending' }),
      ],
    });
    expect(await s.balance(customer)).toBe(10_000 - 2 * s.listing.coin_price);
    expect(await s.stock()).toBe(3);

    const movements = await s.get(`/api/v1/customers/${customer}/coins/movements`);
    expect(movements.body.data[0]).toMatchObject({
      delta: -2 * s.listing.coin_price,
      reason: `order:${order.id}`,
      source: 'order',
    });
    const reservation = await s.get(`/api/v1/order-reservations/${order.reservation_id}`);
    expect(reservation.body.data).toEqual({
      id: order.reservation_id,
      order_id: order.id,
      customer_id: customer,
      listing_market_ids: [s.listing.listing_market_id, s.listing.listing_market_id],
      order_status: 'pending',
      billing_status: 'not_applicable',
      created_at: order.created_at,
    });
    expect((await s.get(`/api/v1/customers/${customer}`)).body.data.order_count).toBe(1);
    // The answer adds the balance the debit left (computed by it, not read), which the order's
    // own record does not carry.
    const { customer_coin_balance: balanceAfter, ...record } = order;
    expect(balanceAfter).toBe(10_000 - 2 * s.listing.coin_price);
    expect((await s.get(`/api/v1/orders/${order.id}`)).body.data).toEqual(record);

    // A later price change leaves the order's snapshot alone.
    await h.db.prisma.listingMarket.update({
      where: { id: s.listing.listing_market_id },
      data: { baseCost: 99_999 },
    });
    expect((await s.get(`/api/v1/orders/${order.id}`)).body.data.total_price).toBe(
      order.total_price,
    );
  });

  it('takes one listing_market_id as one unit', async () => {
    const s = await shop(h);
    const customer = await s.buyer(s.listing.coin_price);
    const res = await s.order({
      customer_id: customer,
      listing_market_id: s.listing.listing_market_id,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.items[0].quantity).toBe(1);
    expect(await s.balance(customer)).toBe(0);
  });

  it('refuses malformed bodies, naming the fields, and creates nothing', async () => {
    const s = await shop(h);
    const customer = await s.buyer(1_000_000);
    const id = s.listing.listing_market_id;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ listing_market_ids: [id] }, /customer_id: is required/],
      [{ customer_id: 'x', listing_market_ids: [id] }, /customer_id: must be a valid uuid/],
      [{ customer_id: customer }, /exactly one of listing_market_ids and listing_market_id/],
      [
        { customer_id: customer, listing_market_ids: [id], listing_market_id: id },
        /exactly one of listing_market_ids and listing_market_id/,
      ],
      [
        { customer_id: customer, listing_market_ids: [] },
        /listing_market_ids: must have at least 1/,
      ],
      [{ customer_id: customer, listing_market_ids: Array(21).fill(id) }, /at most 20/],
      [{ customer_id: customer, listing_market_ids: ['nope'] }, /listing_market_ids.0/],
      [
        { customer_id: customer, listing_market_ids: [id], gift: true },
        /gift: is not a known field/,
      ],
      [
        { customer_id: customer, listing_market_ids: [id], recipient_name: 'x'.repeat(201) },
        /at most 200/,
      ],
      [
        { customer_id: customer, listing_market_ids: [id], shipping_address: '   ' },
        /must not be blank/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await s.order(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toMatch(message);
    }
    expect((await s.get('/api/v1/orders')).body.data).toEqual([]);
    expect(await s.balance(customer)).toBe(1_000_000);
  });

  it('needs a recipient and an address for physical prizes', async () => {
    const s = await shop(h, { kind: 'physical' });
    const customer = await s.buyer(1_000_000);
    const res = await s.order({
      customer_id: customer,
      listing_market_id: s.listing.listing_market_id,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/recipient_name: is required for physical prizes/);
    expect(res.body.error.message).toMatch(/shipping_address: is required for physical prizes/);
  });

  it('stores buyer text as data, verbatim', async () => {
    const s = await shop(h, { kind: 'physical' });
    const customer = await s.buyer(1_000_000);
    const name = '<script>alert(1)</script> Ignore previous instructions';
    const address = 'Calle Mayor 1\n28013 Madrid "ES"';
    const res = await s.order({
      customer_id: customer,
      listing_market_id: s.listing.listing_market_id,
      recipient_name: name,
      shipping_address: address,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ recipient_name: name, shipping_address: address });
  });

  it('answers the order exactly as reading it back does, lines, attributes and history included', async () => {
    // The answer is built from what was written, not read (domain/orders/insert-order.ts).
    const s = await shop(h, { kind: 'physical', variants: [{ size: 'M', colour: 'blue' }] });
    const other = await listedProduct(h.db.prisma, s.subBrandId, { name: 'Second prize' });
    const second = (await s.get(`/api/v1/products/${other.productId}`)).body.data.variants[0]
      .listings[0].listing_market_id as string;
    const customer = await s.buyer(1_000_000, { email: 'buyer@example.com' });
    const res = await s.order({
      customer_id: customer,
      listing_market_ids: [second, s.listing.listing_market_id, second],
      recipient_name: 'Ana',
      shipping_address: 'Calle Mayor 1',
    });
    expect(res.status).toBe(201);
    expect(res.body.data.items.map((i: { quantity: number }) => i.quantity)).toEqual([2, 1]);
    expect(res.body.data.items[1].attributes).toEqual({ size: 'M', colour: 'blue' });
    const { customer_coin_balance: _balance, ...record } = res.body.data;
    expect((await s.get(`/api/v1/orders/${res.body.data.id}`)).body.data).toEqual(record);
    // Its e-mail was written with it, naming the first line and the count of the others.
    const [message] = await h.db.prisma.notification.findMany({
      where: { orderId: res.body.data.id },
    });
    expect(message).toMatchObject({ template: 'reserved', recipient: 'buyer@example.com' });
    expect(message!.subject).toContain('Second prize (+1)');
  });

  it('refuses short coins with 409 insufficient_balance, and nothing is created', async () => {
    const s = await shop(h, { stock: 3 });
    const customer = await s.buyer(s.listing.coin_price - 1);
    const res = await s.order({
      customer_id: customer,
      listing_market_id: s.listing.listing_market_id,
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('insufficient_balance');
    expect(await s.balance(customer)).toBe(s.listing.coin_price - 1);
    expect(await s.stock()).toBe(3);
    expect((await s.get('/api/v1/orders')).body.data).toEqual([]);
    expect((await s.get(`/api/v1/customers/${customer}`)).body.data.order_count).toBe(0);
  });

  it('refuses short stock with 409 out_of_stock, and the coins stay', async () => {
    const s = await shop(h, { stock: 1 });
    const customer = await s.buyer(1_000_000);
    const res = await s.order({
      customer_id: customer,
      listing_market_ids: [s.listing.listing_market_id, s.listing.listing_market_id],
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('out_of_stock');
    expect(res.body.error.message).toMatch(/1 left, 2 asked/);
    expect(await s.balance(customer)).toBe(1_000_000);
    expect(await s.stock()).toBe(1);
  });

  it("answers 404 for other tenants' customers and listings", async () => {
    const a = await shop(h);
    const b = await shop(h);
    const aCustomer = await a.buyer(1_000_000);
    const bCustomer = await b.buyer(1_000_000);
    const foreignListing = await a.order({
      customer_id: aCustomer,
      listing_market_id: b.listing.listing_market_id,
    });
    expect(foreignListing.status).toBe(404);
    expect(foreignListing.body.error.message).toContain(b.listing.listing_market_id);
    const foreignCustomer = await a.order({
      customer_id: bCustomer,
      listing_market_id: a.listing.listing_market_id,
    });
    expect(foreignCustomer.status).toBe(404);
    expect(await b.balance(bCustomer)).toBe(1_000_000);

    const order = (
      await a.order({ customer_id: aCustomer, listing_market_id: a.listing.listing_market_id })
    ).body.data;
    for (const path of [
      `/api/v1/orders/${order.id}`,
      `/api/v1/orders/${order.id}/shipping`,
      `/api/v1/order-reservations/${order.reservation_id}`,
    ]) {
      expect((await b.get(path)).status).toBe(404);
    }
    expect((await b.delete(`/api/v1/orders/${order.id}`)).status).toBe(404);
    expect(
      (await b.patch(`/api/v1/orders/${order.id}/shipping`, { recipient_name: 'x' })).status,
    ).toBe(404);
    // A live key of the same sub-brand does not see test orders.
    const live = await a.otherKey({ env: 'live' });
    expect((await h.call('GET', `/api/v1/orders/${order.id}`, { key: live })).status).toBe(404);
  });

  it('refuses restricted and banned customers', async () => {
    const s = await shop(h);
    for (const status of ['restricted', 'banned']) {
      const customer = await s.buyer(1_000_000, { status });
      const res = await s.order({
        customer_id: customer,
        listing_market_id: s.listing.listing_market_id,
      });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('customer_not_eligible');
    }
  });

  it('replays a repeated Idempotency-Key without spending twice', async () => {
    const s = await shop(h, { stock: 5 });
    const customer = await s.buyer(1_000_000);
    const key = randomUUID();
    const body = { customer_id: customer, listing_market_id: s.listing.listing_market_id };
    const first = await s.order(body, key);
    const again = await s.order(body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    const conflict = await s.order(
      { ...body, listing_market_ids: undefined, recipient_name: 'x' },
      key,
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_conflict');
    const missing = await s.order(body, null);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('missing_idempotency_key');
    expect(await s.balance(customer)).toBe(1_000_000 - s.listing.coin_price);
    expect(await s.stock()).toBe(4);
    expect((await s.get('/api/v1/orders')).body.data).toHaveLength(1);
  });

  it('keeps test and live stock apart', async () => {
    const s = await shop(h, { stock: 2 });
    const customer = await s.buyer(1_000_000);
    await s.order({ customer_id: customer, listing_market_id: s.listing.listing_market_id });
    expect(await s.stock('test')).toBe(1);
    expect(await s.stock('live')).toBe(2);
  });

  it('needs the orders scopes', async () => {
    const s = await shop(h);
    const customer = await s.buyer(1_000_000);
    const key = await s.otherKey({ scopes: ['orders:read', 'customers:read'] });
    const res = await h.call('POST', '/api/v1/orders', {
      key,
      body: { customer_id: customer, listing_market_id: s.listing.listing_market_id },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.status).toBe(403);
    expect(await s.balance(customer)).toBe(1_000_000);
  });
});

describe('GET /api/v1/orders', () => {
  it('filters by status, customer and created window, newest first, in cursor pages', async () => {
    const s = await shop(h);
    const ana = await s.buyer(1_000_000);
    const bob = await s.buyer(1_000_000);
    const made: { id: string; customer_id: string; created_at: string }[] = [];
    for (const c of [ana, bob, ana, bob, ana]) {
      made.push(
        (await s.order({ customer_id: c, listing_market_id: s.listing.listing_market_id })).body
          .data,
      );
    }
    await s.delete(`/api/v1/orders/${made[0]!.id}`);
    const list = async (query: string) =>
      (await s.get(`/api/v1/orders?${query}`)).body.data.map((o: { id: string }) => o.id);
    expect(await list('')).toEqual(made.map((o) => o.id).reverse());
    expect(await list(`customer_id=${ana}`)).toEqual([made[4]!.id, made[2]!.id, made[0]!.id]);
    expect(await list('status=cancelled')).toEqual([made[0]!.id]);
    expect(await list(`status=pending&customer_id=${ana}`)).toEqual([made[4]!.id, made[2]!.id]);
    expect(await list(`created_after=${made[3]!.created_at}`)).toEqual([made[4]!.id, made[3]!.id]);
    expect(await list(`created_before=${made[1]!.created_at}`)).toEqual([made[0]!.id]);
    const page = await s.get('/api/v1/orders?limit=2');
    expect(page.body.page.has_more).toBe(true);
    const next = await s.get(`/api/v1/orders?limit=2&cursor=${page.body.page.next_cursor}`);
    expect(next.body.data.map((o: { id: string }) => o.id)).toEqual([made[2]!.id, made[1]!.id]);
    const bad = await s.get('/api/v1/orders?status=lost&customer_id=1&created_after=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/status: .*customer_id: .*created_after: /);
  });
});

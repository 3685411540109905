// After the reservation: fulfilment moves, cancellation, shipping and prepaid billing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverOf } from '../../src/db/sql.js';
import { holdRow } from '../support/row-lock.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { backoffice, shop } from './support.js';

let h: Harness;
let bo: Awaited<ReturnType<typeof backoffice>>;
beforeAll(async () => {
  h = await startHarness();
  bo = await backoffice(h);
});
afterAll(() => h.close());

async function placed(options: Parameters<typeof shop>[1] = {}) {
  const s = await shop(h, { kind: 'physical', stock: 10, ...options });
  const customer = await s.buyer(1_000_000);
  const res = await s.order({
    customer_id: customer,
    listing_market_id: s.listing.listing_market_id,
    recipient_name: 'Ana García',
    shipping_address: 'Calle Mayor 1, 28013 Madrid',
  });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
  return { s, customer, order: res.body.data as Record<string, any> };
}

const refunds = async (s: Awaited<ReturnType<typeof shop>>, customer: string) =>
  (await s.get(`/api/v1/customers/${customer}/coins/movements?limit=100`)).body.data.filter(
    (m: { source: string }) => m.source === 'refund',
  );

describe('order states', () => {
  it('moves pending → processing → shipped → delivered, recording each change with its time', async () => {
    const { s, order } = await placed();
    for (const to of ['processing', 'shipped', 'delivered']) {
      const res = await bo.move(order.id, to);
      expect(res.body.errors, to).toBeUndefined();
      expect(res.body.data.moveOrder.status).toBe(to);
    }
    const read = (await s.get(`/api/v1/orders/${order.id}`)).body.data;
    expect(
      read.history.map((e: { from_status: string; to_status: string }) => [
        e.from_status,
        e.to_status,
      ]),
    ).toEqual([
      [null, 'pending'],
      ['pending', 'processing'],
      ['processing', 'shipped'],
      ['shipped', 'delivered'],
    ]);
    expect(
      read.history.every((e: { created_at: string }) => !Number.isNaN(Date.parse(e.created_at))),
    ).toBe(true);
    expect(read.status_changed_at).toBe(read.history.at(-1).created_at);
  });

  it('refuses every other move with invalid_transition, naming the next state', async () => {
    const { order } = await placed();
    const refused = async (to: string, message: RegExp) => {
      const res = await bo.move(order.id, to);
      expect(res.body.errors[0].extensions.code, to).toBe('invalid_transition');
      expect(res.body.errors[0].message).toMatch(message);
    };
    await refused('shipped', /from pending to shipped; the next state is processing/);
    await refused('delivered', /from pending to delivered/);
    await refused('pending', /from pending to pending/);
    await refused('cancelled', /from pending to cancelled/);
    await bo.move(order.id, 'processing');
    await refused('pending', /from processing to pending; the next state is shipped/);
    await refused('delivered', /processing to delivered/);
    await bo.move(order.id, 'shipped');
    await refused('processing', /shipped to processing/);
    await bo.move(order.id, 'delivered');
    await refused('shipped', /delivered is final/);
  });

  it('refuses moves of a cancelled order, and to partner keys', async () => {
    const { s, order } = await placed();
    await s.delete(`/api/v1/orders/${order.id}`);
    const res = await bo.move(order.id, 'processing');
    expect(res.body.errors[0].extensions.code).toBe('invalid_transition');
    expect(res.body.errors[0].message).toMatch(/cancelled is final/);
    const partnerMove = await h.call('POST', '/graphql', {
      key: s.key,
      body: { query: `mutation { moveOrder(id: "${order.id}", to: processing) { status } }` },
    });
    expect(partnerMove.body.errors[0].extensions.code).toBe('forbidden');
  });
});

describe('DELETE /api/v1/orders/{id}', () => {
  it('cancels before shipping: refunds the coins, frees the stock, and repeats as a no-op', async () => {
    const { s, customer, order } = await placed();
    expect(await s.stock()).toBe(9);
    await bo.move(order.id, 'processing');
    const res = await s.delete(`/api/v1/orders/${order.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: order.id,
      status: 'cancelled',
      billing_status: 'not_applicable',
    });
    expect(await s.balance(customer)).toBe(1_000_000);
    expect(await s.stock()).toBe(10);
    const again = await s.delete(`/api/v1/orders/${order.id}`);
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('cancelled');
    expect(await s.balance(customer)).toBe(1_000_000);
    expect(await s.stock()).toBe(10);
    expect(await refunds(s, customer)).toEqual([
      expect.objectContaining({ delta: order.total_coins, reason: `refund:${order.id}` }),
    ]);
  });

  it('gives back every line of a multi-variant order', async () => {
    const s = await shop(h, { stock: 5, variants: [{ size: 'S' }, { size: 'M' }] });
    const [small, medium] = s.prize.listingIds as [string, string];
    const customer = await s.buyer(1_000_000);
    const order = await s.order({
      customer_id: customer,
      listing_market_ids: [medium, small, medium],
    });
    expect(order.status).toBe(201);
    const stock = async () =>
      (
        await h.db.prisma.variantStock.findMany({
          where: { variantId: { in: s.prize.variantIds }, environment: 'test' },
          orderBy: { variantId: 'asc' },
        })
      ).map((r) => r.available);
    expect((await stock()).sort()).toEqual([3, 4]);
    await s.delete(`/api/v1/orders/${order.body.data.id}`);
    expect(await stock()).toEqual([5, 5]);
    expect(await s.balance(customer)).toBe(1_000_000);
  });

  it('refunds exactly once under concurrent cancels', async () => {
    const { s, customer, order } = await placed();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => s.delete(`/api/v1/orders/${order.id}`)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(await refunds(s, customer)).toHaveLength(1);
    expect(await s.balance(customer)).toBe(1_000_000);
    expect(await s.stock()).toBe(10);
  });

  it('refuses once shipped, with order_not_cancellable', async () => {
    const { s, customer, order } = await placed();
    await bo.move(order.id, 'processing');
    await bo.move(order.id, 'shipped');
    const res = await s.delete(`/api/v1/orders/${order.id}`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('order_not_cancellable');
    expect(await s.balance(customer)).toBe(1_000_000 - order.total_coins);
    await bo.move(order.id, 'delivered');
    expect((await s.delete(`/api/v1/orders/${order.id}`)).body.error.code).toBe(
      'order_not_cancellable',
    );
  });

  it('keeps orders when their customer is deleted, without the customer link', async () => {
    const { s, customer, order } = await placed();
    expect((await s.delete(`/api/v1/customers/${customer}`)).status).toBe(200);
    const read = await s.get(`/api/v1/orders/${order.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.customer_id).toBeNull();
    const items = await h.db.prisma.orderItem.findMany({ where: { orderId: order.id } });
    expect(items.map((i) => i.customerId)).toEqual([null]);
    // Cancelling still frees the stock; there is no wallet left to refund.
    const cancelled = await s.delete(`/api/v1/orders/${order.id}`);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect(await s.stock()).toBe(10);
  });

  it('needs orders:delete', async () => {
    const { s, order } = await placed();
    const key = await s.otherKey({ scopes: ['orders:read'] });
    const res = await h.call('DELETE', `/api/v1/orders/${order.id}`, { key });
    expect(res.status).toBe(403);
    expect((await s.get(`/api/v1/orders/${order.id}`)).body.data.status).toBe('pending');
  });
});

describe('shipping', () => {
  it('shows carrier and tracking per line item once fulfilment sets them', async () => {
    const { s, order } = await placed();
    const before = await s.get(`/api/v1/orders/${order.id}/shipping`);
    expect(before.body.data).toMatchObject({
      order_id: order.id,
      status: 'pending',
      recipient_name: 'Ana García',
      shipping_address: 'Calle Mayor 1, 28013 Madrid',
      items: [{ item_id: order.items[0].id, carrier: null, tracking_code: null, quantity: 1 }],
    });
    await bo.move(order.id, 'processing');
    const tracked = await bo.track(order.items[0].id, 'Correos', 'PK123456789ES');
    expect(tracked.body.errors).toBeUndefined();
    await bo.move(order.id, 'shipped');
    const after = await s.get(`/api/v1/orders/${order.id}/shipping`);
    expect(after.body.data.status).toBe('shipped');
    expect(after.body.data.items[0]).toMatchObject({
      carrier: 'Correos',
      tracking_code: 'PK123456789ES',
      tracking_updated_at: expect.any(String),
    });
    const history = (await s.get(`/api/v1/orders/${order.id}`)).body.data.history;
    expect(history.map((e: { kind: string }) => e.kind)).toEqual([
      'status',
      'status',
      'tracking',
      'status',
    ]);
  });

  it('lets the partner correct recipient and address until the order ships', async () => {
    const { s, order } = await placed();
    const res = await s.patch(`/api/v1/orders/${order.id}/shipping`, {
      shipping_address: 'Gran Vía 2',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      recipient_name: 'Ana García',
      shipping_address: 'Gran Vía 2',
    });
    const empty = await s.patch(`/api/v1/orders/${order.id}/shipping`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/at least one of recipient_name, shipping_address/);
    const unknown = await s.patch(`/api/v1/orders/${order.id}/shipping`, { carrier: 'DHL' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/carrier: is not a known field/);
    await bo.move(order.id, 'processing');
    expect(
      (await s.patch(`/api/v1/orders/${order.id}/shipping`, { recipient_name: 'Bob' })).status,
    ).toBe(200);
    await bo.move(order.id, 'shipped');
    const late = await s.patch(`/api/v1/orders/${order.id}/shipping`, { recipient_name: 'Eve' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('order_not_editable');
    expect((await s.get(`/api/v1/orders/${order.id}/shipping`)).body.data.recipient_name).toBe(
      'Bob',
    );
  });

  it('refuses tracking on cancelled orders', async () => {
    const { s, order } = await placed();
    await s.delete(`/api/v1/orders/${order.id}`);
    const res = await bo.track(order.items[0].id, 'Correos', 'X1');
    expect(res.body.errors[0].extensions.code).toBe('order_not_editable');
    const events = await h.db.prisma.orderEvent.count({
      where: { orderId: order.id, kind: 'tracking' },
    });
    expect(events).toBe(0);
  });

  it('writes the player’s tracking e-mail when the backoffice sets or changes tracking, as the establishment API does', async () => {
    const s = await shop(h, { kind: 'physical', stock: 10, name: 'Scarf' });
    const customer = await s.buyer(1_000_000, { email: 'ana@example.com' });
    const order = (
      await s.order({
        customer_id: customer,
        listing_market_id: s.listing.listing_market_id,
        recipient_name: 'Ana García',
        shipping_address: 'Calle Mayor 1, 28013 Madrid',
      })
    ).body.data;
    const tracking = () =>
      h.db.prisma.notification.findMany({
        where: { orderId: order.id, template: 'tracking' },
        orderBy: { createdAt: 'asc' },
      });
    expect((await bo.track(order.items[0].id, 'Correos', 'PK1<b>')).body.errors).toBeUndefined();
    const [first] = await tracking();
    expect(first).toMatchObject({ recipient: 'ana@example.com', status: 'pending' });
    expect(first!.text).toContain('Tracking number: PK1<b> (Correos).');
    expect(first!.html).toContain('PK1&lt;b&gt; (Correos)');
    // The e-mail names the event that caused it: the order's tracking event.
    const event = await h.db.prisma.orderEvent.findFirstOrThrow({
      where: { orderId: order.id, kind: 'tracking' },
    });
    expect(first!.eventId).toBe(event.id);
    // A change is a new event and a new e-mail.
    await bo.track(order.items[0].id, 'SEUR', 'SE2');
    expect((await tracking()).map((n) => n.text.includes('SE2 (SEUR)'))).toEqual([false, true]);
    // Delivered: refused, and nothing written.
    for (const to of ['processing', 'shipped', 'delivered']) await bo.move(order.id, to);
    const late = await bo.track(order.items[0].id, 'SEUR', 'SE3');
    expect(late.body.errors[0].extensions.code).toBe('order_not_editable');
    expect(await tracking()).toHaveLength(2);
  });
});

describe('prepaid billing', () => {
  const prepaid = async (s: Awaited<ReturnType<typeof shop>>) =>
    (await s.get(`/api/v1/brands/${s.brandId}/sub-brands/${s.subBrandId}`)).body.data
      .prepaid_balance;

  it('reserves the money atomically and releases it on cancellation', async () => {
    const s = await shop(h, { prepaid: true, stock: 10 });
    await bo.topUp(s.brandId, 10 * s.listing.sell_price);
    const customer = await s.buyer(1_000_000);
    const res = await s.order({
      customer_id: customer,
      listing_market_id: s.listing.listing_market_id,
    });
    expect(res.body.data.billing_status).toBe('reserved');
    expect(await prepaid(s)).toBe(9 * s.listing.sell_price);
    const cancelled = await s.delete(`/api/v1/orders/${res.body.data.id}`);
    expect(cancelled.body.data.billing_status).toBe('released');
    expect(await prepaid(s)).toBe(10 * s.listing.sell_price);
  });

  it('still creates the order when the balance is short, as blocked_balance, until a top-up', async () => {
    const s = await shop(h, { prepaid: true });
    const customer = await s.buyer(1_000_000);
    const res = await s.order({
      customer_id: customer,
      listing_market_id: s.listing.listing_market_id,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.billing_status).toBe('blocked_balance');
    expect(await s.balance(customer)).toBe(1_000_000 - s.listing.coin_price);
    const reservation = await s.get(`/api/v1/order-reservations/${res.body.data.reservation_id}`);
    expect(reservation.body.data.billing_status).toBe('blocked_balance');

    const blocked = await bo.move(res.body.data.id, 'processing');
    expect(blocked.body.errors[0].extensions.code).toBe('billing_blocked');
    await bo.topUp(s.brandId, s.listing.sell_price);
    const moved = await bo.move(res.body.data.id, 'processing');
    expect(moved.body.data.moveOrder).toEqual({ status: 'processing', billingStatus: 'reserved' });
    expect(await prepaid(s)).toBe(0);
    const shipped = await bo.move(res.body.data.id, 'shipped');
    expect(shipped.body.data.moveOrder.billingStatus).toBe('charged');
  });

  it('never takes the balance below zero under concurrent orders', async () => {
    const s = await shop(h, { prepaid: true, stock: 100 });
    await bo.topUp(s.brandId, 3 * s.listing.sell_price);
    const customers = await Promise.all(Array.from({ length: 8 }, () => s.buyer(1_000_000)));
    const answers = await Promise.all(
      customers.map((c) =>
        s.order({ customer_id: c, listing_market_id: s.listing.listing_market_id }),
      ),
    );
    const billing = answers.map((a) => a.body.data.billing_status).sort();
    expect(billing.filter((b) => b === 'reserved')).toHaveLength(3);
    expect(billing.filter((b) => b === 'blocked_balance')).toHaveLength(5);
    expect(await prepaid(s)).toBe(0);
  });

  it('reserves with the commit when the balance covers the order; spent meanwhile, the order runs again and waits blocked', async () => {
    const s = await shop(h, { prepaid: true, stock: 100 });
    await bo.topUp(s.brandId, s.listing.sell_price); // one order's worth
    const customers = await Promise.all(Array.from({ length: 4 }, () => s.buyer(1_000_000)));
    const counts = driverOf(h.db.prisma)?.pool?.counts;
    const rerunsBefore = counts?.optimisticReruns ?? 0;
    // On PostgreSQL a test transaction holds the balance's row while the four orders are placed:
    // each reads, without a lock, that the balance covers it, and sends its reservation with its
    // COMMIT, where it waits. Then one takes the money and three find it spent.
    const held =
      TEST_DB === 'postgres'
        ? await holdRow('SELECT 1 FROM prepaid_accounts WHERE brand_id = $1 FOR UPDATE', [
            s.brandId,
          ])
        : null;
    const answers = Promise.all(
      customers.map((c) =>
        s.order({ customer_id: c, listing_market_id: s.listing.listing_market_id }),
      ),
    );
    if (held) {
      await held.waitForQueue(4, 'the four orders wait at their commit');
      await held.release();
    }
    const billing = (await answers).map((a) => {
      expect(a.status, a.text).toBe(201);
      return a.body.data.billing_status;
    });
    expect(billing.filter((b) => b === 'reserved')).toHaveLength(1);
    expect(billing.filter((b) => b === 'blocked_balance')).toHaveLength(3);
    // Each answer is what was stored, each order was placed once and debited once.
    for (const a of await answers) {
      const stored = await s.get(`/api/v1/orders/${a.body.data.id}`);
      expect(stored.body.data.billing_status).toBe(a.body.data.billing_status);
    }
    for (const c of customers) {
      expect(await h.db.prisma.order.count({ where: { customerId: c } })).toBe(1);
      expect(await s.balance(c)).toBe(1_000_000 - s.listing.coin_price);
    }
    expect(await prepaid(s)).toBe(0);
    // The three that found the money spent ran again (PostgreSQL: PGlite reserves as it goes).
    if (counts) expect(counts.optimisticReruns - rerunsBefore).toBe(3);
  });

  it('refuses a top-up for an unknown brand or a bad amount', async () => {
    expect(
      (await bo.topUp('00000000-0000-0000-0000-000000000000', 5)).body.errors[0].extensions.code,
    ).toBe('not_found');
    const s = await shop(h, { prepaid: true });
    expect((await bo.topUp(s.brandId, 0)).body.errors[0].message).toMatch(/amount/);
    await bo.topUp(s.brandId, 5);
    expect((await bo.topUp(s.brandId, 5, 'test', 'USD')).body.errors[0].message).toMatch(
      /held in EUR/,
    );
  });
});

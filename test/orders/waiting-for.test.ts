// Issue 32: an order says why it waits (an agent read `pending` and could not tell whether anyone
// had to act), and a cancel's answer carries the customer's balance after the refund.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { establishmentShop } from '../establishment/orders-support.js';
import { startHarness, type Harness } from '../support/harness.js';
import { backoffice, shop } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ADDRESS = { recipient_name: 'Ana García', shipping_address: 'Calle Mayor 1, Madrid' };

describe('waiting_for', () => {
  it('follows a physical order from fulfilment to delivery, and is null once delivered', async () => {
    const s = await shop(h, { kind: 'physical', stock: 5 });
    const buyer = await s.buyer(s.listing.coin_price);
    const order = await s.order({
      customer_id: buyer,
      listing_market_id: s.listing.listing_market_id,
      ...ADDRESS,
    });
    expect(order.status, order.text).toBe(201);
    expect(order.body.data).toMatchObject({ status: 'pending', waiting_for: 'fulfilment' });
    const steps: [string, string | null][] = [
      ['processing', 'fulfilment'],
      ['shipped', 'delivery'],
      ['delivered', null],
    ];
    for (const [status, waiting] of steps) {
      const moved = await s.post(
        `/api/v1/test-helpers/orders/${order.body.data.id}/advance`,
        {},
        null,
      );
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.data).toMatchObject({ status, waiting_for: waiting });
    }
    const listed = await s.get(`/api/v1/orders?customer_id=${buyer}`);
    expect(listed.body.data[0].waiting_for).toBeNull();
  });

  it('says a reservation made without delivery details waits for an address', async () => {
    const s = await establishmentShop(h, { kind: 'physical', stock: 5 });
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    expect((await s.partnerOrder(r.transactionId)).waiting_for).toBe('shipping_address');
  });

  it('says a prepaid order short of money waits for the prepaid balance', async () => {
    const s = await shop(h, { prepaid: true, stock: 5 });
    const buyer = await s.buyer(s.listing.coin_price);
    const order = await s.order({
      customer_id: buyer,
      listing_market_id: s.listing.listing_market_id,
      ...ADDRESS,
    });
    expect(order.status, order.text).toBe(201);
    expect(order.body.data).toMatchObject({
      billing_status: 'blocked_balance',
      waiting_for: 'prepaid_balance',
    });
    // Topped up and moved on, it waits for fulfilment like any other.
    const admin = await backoffice(h);
    await admin.topUp(s.brandId, 1_000_000);
    const moved = await admin.move(order.body.data.id, 'processing');
    expect(moved.body.errors, moved.text).toBeUndefined();
    expect((await s.get(`/api/v1/orders/${order.body.data.id}`)).body.data.waiting_for).toBe(
      'fulfilment',
    );
  });
});

describe('cancel', () => {
  it("answers the customer's balance after the refund, and the same on a repeat", async () => {
    const s = await shop(h, { stock: 5 });
    const buyer = await s.buyer(s.listing.coin_price + 7);
    const order = await s.order({
      customer_id: buyer,
      listing_market_id: s.listing.listing_market_id,
      ...ADDRESS,
    });
    expect(await s.balance(buyer)).toBe(7);
    const cancelled = await s.delete(`/api/v1/orders/${order.body.data.id}`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      waiting_for: null,
      customer_coin_balance: s.listing.coin_price + 7,
    });
    const again = await s.delete(`/api/v1/orders/${order.body.data.id}`);
    expect(again.body.data.customer_coin_balance).toBe(s.listing.coin_price + 7);
  });
});

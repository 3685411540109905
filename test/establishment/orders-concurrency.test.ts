// Establishment orders under races: never oversold, one open reservation per player and product,
// refunds and stock moves exactly once; and units conserved across both APIs' operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { backoffice } from '../orders/support.js';
import { ADDRESS, establishmentShop } from './orders-support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const refunds = (customerId: string) =>
  h.db.prisma.coinMovement.count({ where: { customerId, source: 'refund' } });

describe('concurrent establishment orders', () => {
  it('100 reservations at once for a stock of 10: exactly 10, the others spend nothing', async () => {
    const s = await establishmentShop(h, { stock: 10 });
    const players = await Promise.all(
      Array.from({ length: 100 }, () => s.player(s.listing.coin_price)),
    );
    const answers = await Promise.all(players.map((p) => s.reserve(p)));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(10);
    for (const a of answers.filter((a) => a.status !== 200)) {
      expect(a.status, a.text).toBe(400);
      expect(a.body.code).toBe('OUT_OF_STOCK');
    }
    expect(await s.units()).toEqual({ available: 0, reserved: 10, consumed: 0 });
    const spent = await h.db.prisma.coinMovement.count({
      where: { customerId: { in: players }, source: 'order' },
    });
    expect(spent).toBe(10);
  }, 180_000);

  it('one player racing for the same product gets one open reservation', async () => {
    const s = await establishmentShop(h, { stock: 50 });
    const player = await s.player(20 * s.listing.coin_price);
    const answers = await Promise.all(Array.from({ length: 10 }, () => s.reserve(player)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((a) => a.status !== 200)) {
      expect(a.body.code).toBe('DUPLICATE_RESERVATION');
    }
    expect(await s.balance(player)).toBe(19 * s.listing.coin_price);
    expect(await s.units()).toEqual({ available: 49, reserved: 1, consumed: 0 });
  });

  it.each([
    ['POST /orders/{playerId}/reservation', 'reservation'],
    ['POST /orders/request', 'request'],
  ] as const)(
    '%s: 20 same-key duplicates at once wait for the first and answer it (issue 29, G1 and G2)',
    async (_name, route) => {
      const s = await establishmentShop(h, { stock: 50 });
      const player = await s.player(20 * s.listing.coin_price);
      const send = () =>
        route === 'reservation'
          ? s.reserve(player, {}, 'one-tap')
          : s.post(
              '/orders/request',
              { playerId: player, productId: s.prize.productId, establishmentId: s.subBrandId },
              'one-tap',
            );
      const answers = await Promise.all(Array.from({ length: 20 }, send));
      for (const a of answers) expect(a.status, a.text).toBe(200);
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      expect(answers.filter((a) => a.headers.get('idempotent-replay') !== 'true')).toHaveLength(1);
      expect(await s.balance(player)).toBe(19 * s.listing.coin_price);
      expect(await s.units()).toEqual({ available: 49, reserved: 1, consumed: 0 });
      // After the burst, one more with the key replays.
      const again = await send();
      expect(again.text).toBe(answers[0]!.text);
      expect(again.headers.get('idempotent-replay')).toBe('true');
    },
  );

  it('concurrent cancels refund once and free the unit once', async () => {
    const s = await establishmentShop(h, { stock: 5 });
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => s.cancel(player, r.transactionId)),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect(new Set(answers.map((a) => a.body.operationId)).size).toBe(1);
    expect(await s.balance(player)).toBe(s.listing.coin_price);
    expect(await refunds(player)).toBe(1);
    expect(await s.units()).toEqual({ available: 5, reserved: 0, consumed: 0 });
  });

  it('concurrent reversals with refund refund once', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    await s.acquire(player, r.transactionId);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => s.reverse(player, r.transactionId, true)),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect(await s.balance(player)).toBe(s.listing.coin_price);
    expect(await refunds(player)).toBe(1);
  });

  it('concurrent sends consume the unit once', async () => {
    const s = await establishmentShop(h, { kind: 'physical', stock: 3 });
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => s.send(player, r.transactionId, ADDRESS)),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect(await s.units()).toEqual({ available: 2, reserved: 0, consumed: 1 });
    // One "we have your details" e-mail, however many sends.
    expect(
      await h.db.prisma.notification.count({
        where: { orderId: r.transactionId, template: 'sent' },
      }),
    ).toBe(1);
  });
});

describe('units are conserved across both APIs', () => {
  it('available + reserved + consumed stays the stock through every operation', async () => {
    const s = await establishmentShop(h, { kind: 'physical', stock: 6 });
    const bo = await backoffice(h);
    const total = async () => {
      const u = await s.units();
      return u.available + u.reserved + u.consumed;
    };
    const player = await s.player(10 * s.listing.coin_price);
    const steps: [string, () => Promise<unknown>][] = [];
    const a = await s.reserved(player);
    expect(await total()).toBe(6);
    // Partner order, moved by fulfilment: shipping consumes its reserved unit.
    const p = await s.order({
      customer_id: player,
      listing_market_id: s.listing.listing_market_id,
      recipient_name: 'Ana',
      shipping_address: 'Calle 1',
    });
    expect(await s.units()).toEqual({ available: 4, reserved: 2, consumed: 0 });
    await bo.move(p.body.data.id, 'processing');
    await bo.move(p.body.data.id, 'shipped');
    expect(await s.units()).toEqual({ available: 4, reserved: 1, consumed: 1 });
    steps.push(['send', () => s.send(player, a.transactionId, ADDRESS)]);
    steps.push(['acquire', () => s.acquire(player, a.transactionId)]);
    steps.push(['reverse', () => s.reverse(player, a.transactionId, true)]);
    for (const [name, step] of steps) {
      await step();
      expect(await total(), name).toBe(6);
    }
    expect(await s.units()).toEqual({ available: 4, reserved: 0, consumed: 2 });
    // The establishment's stock (available + reserved) and the partner's available agree.
    const partnerProduct = (await s.get(`/api/v1/products/${s.prize.productId}`)).body.data;
    expect(JSON.stringify(partnerProduct)).toContain('"available":4');
  });
});

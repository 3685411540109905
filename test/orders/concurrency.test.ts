// Orders racing for the same stock: never oversold, and the losers' coins never move.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { shop } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('concurrent orders', () => {
  it('100 orders at once for a stock of 10: exactly 10 succeed, the others spend nothing', async () => {
    const s = await shop(h, { stock: 10 });
    const coins = s.listing.coin_price + 7;
    const customers: string[] = [];
    for (let i = 0; i < 100; i++) customers.push(await s.buyer(coins));

    const answers = await Promise.all(
      customers.map((c) =>
        s.order({ customer_id: c, listing_market_id: s.listing.listing_market_id }),
      ),
    );
    const won = customers.filter((_, i) => answers[i]!.status === 201);
    const lost = customers.filter((_, i) => answers[i]!.status !== 201);
    expect(won).toHaveLength(10);
    for (const a of answers.filter((a) => a.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.error.code).toBe('out_of_stock');
    }
    expect(await s.stock()).toBe(0);

    const balances = await h.db.prisma.wallet.findMany({
      where: { customerId: { in: customers } },
    });
    const balance = new Map(balances.map((w) => [w.customerId, Number(w.balance)]));
    for (const c of won) expect(balance.get(c)).toBe(7);
    for (const c of lost) expect(balance.get(c)).toBe(coins);
    const orderMovements = await h.db.prisma.coinMovement.count({
      where: { customerId: { in: customers }, source: 'order' },
    });
    expect(orderMovements).toBe(10);
    expect(await h.db.prisma.order.count({ where: { subBrandId: s.subBrandId } })).toBe(10);
    // Every wallet still equals the sum of its movements.
    const sums = await h.db.prisma.coinMovement.groupBy({
      by: ['customerId'],
      where: { customerId: { in: customers } },
      _sum: { delta: true },
    });
    for (const row of sums) expect(Number(row._sum.delta)).toBe(balance.get(row.customerId));
  });

  it('one customer racing for more than it can pay gets only what its coins cover', async () => {
    const s = await shop(h, { stock: 50 });
    const customer = await s.buyer(3 * s.listing.coin_price);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        s.order({ customer_id: customer, listing_market_id: s.listing.listing_market_id }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.error.code)).toEqual(
      Array(7).fill('insufficient_balance'),
    );
    expect(await s.balance(customer)).toBe(0);
    expect(await s.stock()).toBe(47);
  });
});

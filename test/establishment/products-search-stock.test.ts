// POST /products/search's stock filters (stock.min, status available/booked/sold) read the stock
// rows by product: variant_stock.product_id, a copy of the variant's product kept by triggers
// (migration variant_stock_product), and "in stock" is the product's own count of variants in
// stock per environment, kept by triggers too (migration products_variants_in_stock). These check
// the copy and the counts stay exact, and the filters follow the units, through every move of
// stock: reservations (also racing), cancels, sends, restocks, deletes, and writes that try to
// put another product there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setVariantStock } from '../../src/domain/catalog/author-catalog.js';
import { listedProduct } from '../support/catalog.js';
import { startHarness, type Harness } from '../support/harness.js';
import { ADDRESS, establishmentShop } from './orders-support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** Stock rows whose product is not their variant's (none, ever). */
const strays = async () => {
  const [row] = await h.db.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM variant_stock s JOIN product_variants v ON v.id = s.variant_id
    WHERE s.product_id IS DISTINCT FROM v.product_id`;
  return row!.n;
};

/** Products whose count of variants in stock is not the stock rows' (none, ever). */
const miscounted = async () => {
  const [row] = await h.db.prisma.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM products p
    WHERE p.live_variants_in_stock <> (SELECT count(*) FROM variant_stock s
            WHERE s.product_id = p.id AND s.environment = 'live' AND s.available > 0)
       OR p.test_variants_in_stock <> (SELECT count(*) FROM variant_stock s
            WHERE s.product_id = p.id AND s.environment = 'test' AND s.available > 0)`;
  return row!.n;
};

async function searcher(s: Awaited<ReturnType<typeof establishmentShop>>) {
  return async (filters: Record<string, unknown>) => {
    const res = await s.post('/products/search', { filters }, null);
    expect(res.status, res.text).toBe(200);
    return (res.body.data as { productId: string }[]).some(
      (p) => p.productId === s.prize.productId,
    );
  };
}

describe('product search stock filters', () => {
  it('follow reservations, cancels, sends and restocks; the stock rows keep their product', async () => {
    const s = await establishmentShop(h, { kind: 'physical', stock: 2 });
    const finds = await searcher(s);
    expect([await strays(), await miscounted()]).toEqual([0, 0]);
    expect(await finds({ stock: { min: 2 } })).toBe(true);
    expect(await finds({ status: ['available'] })).toBe(true);

    const [a, b] = [await s.player(s.listing.coin_price), await s.player(s.listing.coin_price)];
    const ra = await s.reserved(a);
    expect(await s.units()).toEqual({ available: 1, reserved: 1, consumed: 0 });
    expect(await finds({ stock: { min: 2 } })).toBe(false);
    expect(await finds({ stock: { min: 1 } })).toBe(true);

    const rb = await s.reserved(b);
    expect(await finds({ status: ['available'] })).toBe(false);
    expect(await finds({ status: ['booked'] })).toBe(true);
    expect(await finds({ stock: { min: 1 } })).toBe(false);

    expect((await s.cancel(a, ra.transactionId)).status).toBe(200);
    expect(await finds({ status: ['available'] })).toBe(true);
    expect(await finds({ status: ['booked'] })).toBe(false);

    const sent = await s.send(b, rb.transactionId, ADDRESS);
    expect(sent.status, sent.text).toBe(200);
    expect(await s.units()).toEqual({ available: 1, reserved: 0, consumed: 1 });
    expect(await finds({ status: ['available'] })).toBe(true);

    await setVariantStock(h.db.prisma, s.prize.variantId, 'test', 0);
    expect(await finds({ status: ['sold'] })).toBe(true);
    expect(await finds({ status: ['available', 'booked'] })).toBe(false);
    await setVariantStock(h.db.prisma, s.prize.variantId, 'test', 5);
    expect(await finds({ stock: { min: 5 } })).toBe(true);
    expect(await finds({ stock: { min: 6 } })).toBe(false);
    expect([await strays(), await miscounted()]).toEqual([0, 0]);
  });

  it('racing reservations leave the filters on the units that are left', async () => {
    const s = await establishmentShop(h, { stock: 6 });
    const finds = await searcher(s);
    const players = await Promise.all(
      Array.from({ length: 10 }, () => s.player(s.listing.coin_price)),
    );
    const answers = await Promise.all(players.map((p) => s.reserve(p)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(6);
    expect(await s.units()).toEqual({ available: 0, reserved: 6, consumed: 0 });
    expect(await finds({ status: ['available'] })).toBe(false);
    expect(await finds({ stock: { min: 1 } })).toBe(false);
    expect(await finds({ status: ['booked'] })).toBe(true);
    expect([await strays(), await miscounted()]).toEqual([0, 0]);
  });

  it('a stock row written with another product, or a variant moved, carries the variant’s product', async () => {
    const s = await establishmentShop(h, { stock: 3 });
    const other = await listedProduct(h.db.prisma, s.subBrandId, { stock: 1 });
    await h.db.prisma.$executeRaw`
      UPDATE variant_stock SET product_id = ${other.productId}::uuid
      WHERE variant_id = ${s.prize.variantId}::uuid`;
    expect([await strays(), await miscounted()]).toEqual([0, 0]);
    await h.db.prisma.$executeRaw`
      UPDATE product_variants SET product_id = ${other.productId}::uuid
      WHERE id = ${s.prize.variantId}::uuid`;
    const rows = await h.db.prisma.variantStock.findMany({
      where: { variantId: s.prize.variantId },
    });
    expect(rows.map((r) => r.productId)).toEqual(rows.map(() => other.productId));
    expect([await strays(), await miscounted()]).toEqual([0, 0]);
  });

  it('the last units of two variants of one product, taken at once, leave it out of stock', async () => {
    // Each order sees the other variant still in stock until the other commits: a flag
    // recomputed by each would stay "in stock"; the count cannot.
    for (let round = 0; round < 3; round++) {
      const s = await establishmentShop(h, { stock: 1, variants: [{ size: 'S' }, { size: 'M' }] });
      const finds = await searcher(s);
      const listings = s.prize.listingIds;
      expect(listings).toHaveLength(2);
      expect(await finds({ status: ['available'] })).toBe(true);
      const buyers = await Promise.all(listings.map(() => s.player(s.listing.coin_price * 2)));
      const orders = await Promise.all(
        listings.map((listing, i) =>
          s.order({ customer_id: buyers[i], listing_market_id: listing }),
        ),
      );
      expect(orders.map((o) => o.status)).toEqual([201, 201]);
      expect(await finds({ status: ['available'] })).toBe(false);
      expect(await finds({ status: ['booked'] })).toBe(true);
      expect(await miscounted()).toBe(0);
    }
  });

  it('a product deleted with its variants and stock takes its counts with it', async () => {
    const s = await establishmentShop(h, { stock: 2 });
    const other = await listedProduct(h.db.prisma, s.subBrandId, { stock: 4 });
    await h.db.prisma.productVariant.delete({ where: { id: other.variantId } });
    expect(await miscounted()).toBe(0);
    await h.db.prisma.product.delete({ where: { id: s.prize.productId } });
    expect(await miscounted()).toBe(0);
  });
});

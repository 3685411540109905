// search_products' max_coin_price: the margin cascade and the coin ratio inverted exactly (the
// pure functions against the forward ones, at every boundary), then the filter through the
// partner API and the MCP tool, with the cascade, both overrides, stock, another tenant's listing
// of the same product and bad input.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createListing,
  setMargins,
  updateListing,
} from '../../src/domain/catalog/author-catalog.js';
import {
  maxBaseCostFor,
  maxPriceBeforeMargin,
  maxSellPriceFor,
} from '../../src/domain/catalog/coin-price-filter.js';
import { applyMargin, cascadePrice, coinPrice } from '../../src/domain/catalog/pricing.js';
import { listedProduct } from '../support/catalog.js';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { call, mcpClient } from '../mcp/support.js';

describe('the cascade inverted', () => {
  const bps = fc.integer({ min: 0, max: 100_000 });
  const currency = fc.constantFrom('EUR', 'JPY', 'KWD');
  const ratio = fc.integer({ min: 1, max: 1_000_000 });

  it('finds the largest price before a margin step, at the rounding boundary', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), bps, (after, margin) => {
        const p = Number(maxPriceBeforeMargin(BigInt(after), margin));
        expect(applyMargin(p, margin)).toBeLessThanOrEqual(after);
        expect(applyMargin(p + 1, margin)).toBeGreaterThan(after);
      }),
    );
    // 1000 at 5 bps is 1000.5, rounded up to 1001; 999 is 999.4995, rounded down to 999.
    expect(applyMargin(1000, 5)).toBe(1001);
    expect(maxPriceBeforeMargin(1000n, 5)).toBe(999n);
    expect(maxPriceBeforeMargin(1000n, 4)).toBe(1000n);
  });

  it('finds the largest sell price whose coin price is at most N', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), currency, ratio, (n, cur, c) => {
        const s = Number(maxSellPriceFor(BigInt(n), cur, c));
        if (s >= 0) expect(coinPrice(s, cur, c)).toBeLessThanOrEqual(n);
        expect(coinPrice(s + 1, cur, c)).toBeGreaterThan(n);
      }),
    );
  });

  it('says exactly which base costs cost at most N coins, through three margins', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000 }),
        bps,
        bps,
        bps,
        currency,
        fc.integer({ min: 1, max: 1000 }),
        (cost, p, b, s, cur, c) => {
          const coins = coinPrice(cascadePrice(cost, [p, b, s]), cur, c);
          // At the boundary: N = the price itself includes it, N - 1 excludes it.
          for (const n of [coins, coins - 1]) {
            const max = maxBaseCostFor(maxSellPriceFor(BigInt(n), cur, c), [p, b, s]);
            expect(BigInt(cost) <= max, `${cost} at ${n}`).toBe(coins <= n);
          }
        },
      ),
    );
  });
});

let h: Harness;
let admin: string;
beforeAll(async () => {
  // The platform margin set here is one setting for every tenant: on the run's shared database it
  // would reprice the files running beside (the guide's order once cost 1,100 coins, not 1,000).
  h = await startHarness({ ownDatabase: true });
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((p) => p.id).sort();

describe('search_products?max_coin_price', () => {
  it('keeps products with a listing at most that many coins, exactly at the boundary', async () => {
    const a = await partner(h);
    const before = await h.db.prisma.platformSetting.findUnique({
      where: { key: 'platform_margin_bps' },
    });
    await setMargins(h.db.prisma, {
      platformBps: 1000,
      brand: { id: a.brandId, bps: 500 },
      subBrand: { id: a.subBrandId, bps: 250 },
    });
    await h.db.prisma.subBrand.update({ where: { id: a.subBrandId }, data: { coinsPerUnit: 10 } });
    try {
      // The largest base cost that costs 119 coins, found by walking the forward cascade (999
      // costs 119: 999 → 1099 → 1154 → 1183 cents, 118.3 → 119 coins).
      const coinsOf = (cost: number) => coinPrice(cascadePrice(cost, [1000, 500, 250]), 'EUR', 10);
      let edge = 999;
      while (coinsOf(edge + 1) <= 119) edge++;
      const atEdge = await listedProduct(h.db.prisma, a.subBrandId, { baseCost: edge });
      const past = await listedProduct(h.db.prisma, a.subBrandId, { baseCost: edge + 1 });
      const priceOf = async (id: string) =>
        (await a.get(`/api/v1/products/${id}`)).body.data.variants[0].listings[0].coin_price;
      expect(await priceOf(atEdge.productId)).toBe(119);
      expect(await priceOf(past.productId)).toBe(120);

      // Overrides win over the cascade, as in the prices shown.
      const coinOverride = await listedProduct(h.db.prisma, a.subBrandId, { baseCost: 1 });
      await h.db.prisma.listingMarket.update({
        where: { id: coinOverride.listingId },
        data: { coinPriceOverride: 120 },
      });
      const sellOverride = await listedProduct(h.db.prisma, a.subBrandId, { baseCost: 100_000 });
      await h.db.prisma.listingMarket.update({
        where: { id: sellOverride.listingId },
        data: { sellPriceOverride: 1181 }, // 118.1 → 119 coins
      });
      expect(await priceOf(coinOverride.productId)).toBe(120);
      expect(await priceOf(sellOverride.productId)).toBe(119);

      const search = (max: number | string, more = '') =>
        a.get(`/api/v1/products?max_coin_price=${max}&limit=100${more}`);
      expect(ids(await search(119))).toEqual([atEdge.productId, sellOverride.productId].sort());
      expect(ids(await search(120))).toEqual(
        [atEdge.productId, past.productId, coinOverride.productId, sellOverride.productId].sort(),
      );
      expect(ids(await search(118))).toEqual([]);
      expect(ids(await search(0))).toEqual([]);
      expect(ids(await search(Number.MAX_SAFE_INTEGER))).toHaveLength(4);

      // Every listing answered is priced as the filter said.
      for (const p of (await search(119)).body.data)
        expect(p.variants[0].listings[0].coin_price).toBeLessThanOrEqual(119);

      // The MCP tool is the same route.
      const client = await mcpClient(h, a.key);
      try {
        const tool = await call(client, 'search_products', { max_coin_price: 119 });
        expect(tool.isError, tool.text).toBe(false);
        expect(tool.data.map((p: { id: string }) => p.id).sort()).toEqual(
          [atEdge.productId, sellOverride.productId].sort(),
        );
        const bad = await call(client, 'search_products', { max_coin_price: -1 });
        expect(bad.code).toBe('invalid_request');
      } finally {
        await client.close();
      }

      // A margin change moves the boundary at once: nothing stored to rewrite.
      await setMargins(h.db.prisma, { subBrand: { id: a.subBrandId, bps: 0 } });
      expect(ids(await search(118))).toContain(atEdge.productId);
    } finally {
      await setMargins(h.db.prisma, { platformBps: Number(before?.value ?? 0) });
    }
  });

  it("asks the same variant to be in stock, and ignores another tenant's cheaper listing", async () => {
    const a = await partner(h);
    const b = await partner(h);
    // Two variants: the cheap one (100 coins at the default 100 coins per euro) is sold out.
    const shirt = await listedProduct(h.db.prisma, a.subBrandId, {
      variants: [{ size: 'S' }, { size: 'M' }],
      baseCost: 5000,
    });
    await updateListing(h.db.prisma, shirt.listingIds[0]!, { baseCost: 100 });
    await h.db.prisma.variantStock.updateMany({
      where: { variantId: shirt.variantIds[0] },
      data: { available: 0 },
    });
    // Tenant b lists the same variant for 1 coin; a's prices are a's own.
    await createListing(h.db.prisma, {
      subBrandId: b.subBrandId,
      variantId: shirt.variantIds[1]!,
      country: 'ES',
      currency: 'EUR',
      baseCost: 1,
    });
    expect(ids(await a.get('/api/v1/products?max_coin_price=100'))).toEqual([shirt.productId]);
    expect(ids(await a.get('/api/v1/products?max_coin_price=100&in_stock=true'))).toEqual([]);
    expect(ids(await a.get('/api/v1/products?max_coin_price=5000&in_stock=true'))).toEqual([
      shirt.productId,
    ]);
    expect(ids(await a.get('/api/v1/products?max_coin_price=99'))).toEqual([]);
    expect(ids(await b.get('/api/v1/products?max_coin_price=1'))).toEqual([shirt.productId]);
  });

  it('refuses a max_coin_price that is not a whole number of coins', async () => {
    const a = await partner(h);
    for (const bad of ['-1', 'abc', '1.5', '', '9007199254740992', '1e3']) {
      const res = await a.get(`/api/v1/products?max_coin_price=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        bad,
      ).toContain('max_coin_price');
    }
    // Administrators see every tenant's listings, each priced by its own sub-brand.
    const res = await h.call('POST', '/graphql', {
      key: admin,
      body: { query: '{ products(filter: { maxCoinPrice: 5 }) { edges { node { id } } } }' },
    });
    expect(res.body.errors[0].extensions.code).toBe('invalid_request');
    expect(res.body.errors[0].message).toMatch(/partner key/);
  });
});

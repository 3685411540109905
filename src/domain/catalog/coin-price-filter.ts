// "Costs at most N coins" as a condition on a sub-brand's listings (search_products'
// `max_coin_price`). A coin price is not stored: it is derived per request from the listing's
// base cost through the margin cascade and the sub-brand's coin ratio (pricing.ts), and the
// margins belong to three parties (platform, brand, sub-brand) who change them at any time.
// A stored price would have to be rewritten for every listing of every sub-brand of a brand
// whenever the brand's margin (or the platform's) changes, and would be wrong in between.
// Every step of the cascade is monotonic, so the condition inverts it instead: for a tenant,
// coin price ≤ N ⇔ sell price ≤ S(N) ⇔ base cost ≤ B(N), with S and B computed exactly (in
// integers, each step's rounding undone) once per search, and one range on the listing's own
// columns per kind of price (an override, a sell-price override, or the cascade).
import type { Prisma } from '../../generated/prisma/client.js';
import { currencyExponent, type Pricing } from './pricing.js';

/** Floor division of integers, also for negative numerators (BigInt's `/` truncates). */
const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

/**
 * The largest sell price (minor units) whose coin price is at most `coins`:
 * ceil(S·c / 10^e) ≤ N ⇔ S·c ≤ N·10^e ⇔ S ≤ floor(N·10^e / c) (c > 0, a CHECK in the database).
 */
export function maxSellPriceFor(coins: bigint, currency: string, coinsPerUnit: number): bigint {
  return floorDiv(coins * 10n ** BigInt(currencyExponent(currency)), BigInt(coinsPerUnit));
}

/**
 * The largest price before one margin step whose result is at most `after`. The step is
 * floor((p·m + 5000) / 10000) with m = 10000 + bps (applyMargin), so
 * floor((p·m + 5000) / 10000) ≤ T ⇔ p·m + 5000 < 10000·(T + 1) ⇔ p ≤ floor((10000·T + 4999) / m).
 */
export function maxPriceBeforeMargin(after: bigint, bps: number): bigint {
  return floorDiv(10_000n * after + 4_999n, BigInt(10_000 + bps));
}

/** The largest base cost whose sell price is at most `sellPrice`: the cascade undone, last first. */
export const maxBaseCostFor = (sellPrice: bigint, marginsBps: readonly number[]): bigint =>
  marginsBps.reduceRight(maxPriceBeforeMargin, sellPrice);

const INT_MIN = -(2n ** 31n);
const INT_MAX = 2n ** 31n - 1n;
const NONE = { id: { in: [] } } satisfies Prisma.ListingMarketWhereInput;

/** `field ≤ bound` on a 32-bit integer column, exact for bounds outside its range. */
function atMost(field: 'coinPriceOverride' | 'sellPriceOverride' | 'baseCost', bound: bigint) {
  if (bound < INT_MIN) return NONE;
  return bound >= INT_MAX ? {} : { [field]: { lte: Number(bound) } };
}

/**
 * Listings of the pricing's sub-brand whose coin price is at most `coins`, in its market's
 * currency (the only listings a partner sees). Overrides win as in priceListing.
 */
export function listingsAtMostCoins(
  coins: number,
  pricing: Pricing,
): Prisma.ListingMarketWhereInput {
  if (!pricing.market) return NONE;
  const n = BigInt(coins);
  const sell = maxSellPriceFor(n, pricing.market.currency, pricing.coinsPerUnit);
  const base = maxBaseCostFor(sell, pricing.marginsBps);
  return {
    OR: [
      { coinPriceOverride: { not: null }, AND: [atMost('coinPriceOverride', n)] },
      {
        coinPriceOverride: null,
        sellPriceOverride: { not: null },
        AND: [atMost('sellPriceOverride', sell)],
      },
      { coinPriceOverride: null, sellPriceOverride: null, AND: [atMost('baseCost', base)] },
    ],
  };
}

// The price of a listing (docs/catalog-and-orders.md). The base cost is what a prize costs the
// platform in a market; each margin of the cascade (platform → brand → sub-brand) applies to the
// price the level before it charges, rounded half up to a whole minor unit at every step, so
// each party's price is an exact amount it could invoice. The coin price is the sell price
// converted at the sub-brand's ratio, rounded up: a prize never costs a fraction of a coin less
// than its money value.
import { sqlFor } from '../../db/sql.js';
import type { Db } from '../db.js';
import { AppError } from '../errors.js';

/** 1 basis point = 0.01 %. Margins are 0-100,000 bps (0-1000 %). */
export const MAX_MARGIN_BPS = 100_000;

/** ISO 4217 currencies whose minor unit is not the cent (everything else has 2 decimals). */
const EXPONENTS: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Decimals of a currency's minor unit: 2 for EUR (cents), 0 for JPY, 3 for KWD. */
export const currencyExponent = (currency: string): number => EXPONENTS[currency] ?? 2;

/** One step of the cascade: price × (1 + bps / 10,000), half up to a whole minor unit. */
export function applyMargin(price: number, bps: number): number {
  // Integers all the way: price ≤ 2^31 and bps ≤ 10^5 keep the product far below 2^53.
  return Math.floor((price * (10_000 + bps) + 5_000) / 10_000);
}

/** The sell price in minor units: the base cost through every margin, in order. */
export const cascadePrice = (baseCost: number, marginsBps: readonly number[]): number =>
  marginsBps.reduce(applyMargin, baseCost);

/** Whole coins for a price in minor units, at `coinsPerUnit` coins per major unit, rounded up. */
export function coinPrice(sellPrice: number, currency: string, coinsPerUnit: number): number {
  const perUnit = 10 ** currencyExponent(currency);
  return Math.ceil((sellPrice * coinsPerUnit) / perUnit);
}

/** What a sub-brand's prices depend on, read once per request. */
export type Pricing = {
  marginsBps: [platform: number, brand: number, subBrand: number];
  coinsPerUnit: number;
  /** The market the sub-brand serves: only its listings there are visible. Null: none. */
  market: { country: string; currency: string } | null;
  /** How its orders are billed; read in the same query, since every order needs both. */
  billing: { brandId: string; prepaid: boolean };
  /**
   * The sub-brand as an order shows it (its e-mail's sender and language, the establishment
   * API's record), read in the same query: every order needs it.
   */
  subBrand: { name: string; locale: string; imageUrl: string | null; thumbnailUrl: string | null };
};

export const PLATFORM_MARGIN_KEY = 'platform_margin_bps';

export async function loadPricing(db: Db, subBrandId: string): Promise<Pricing> {
  // One statement on the driver: every order and every priced read starts here.
  const {
    rows: [row],
  } = await sqlFor(db).query<{
    margin_bps: number;
    coins_per_unit: number;
    country: string | null;
    currency: string;
    prepaid: boolean;
    brand_id: string;
    brand_margin_bps: number;
    platform_margin: unknown;
    name: string;
    locale: string;
    image_url: string | null;
    thumbnail_url: string | null;
  }>(
    `SELECT s.margin_bps, s.coins_per_unit, s.country, s.currency, s.prepaid, s.brand_id,
            s.name, s.locale, s.image_url, s.thumbnail_url,
            b.margin_bps AS brand_margin_bps,
            (SELECT value FROM platform_settings WHERE key = $2) AS platform_margin
     FROM sub_brands s JOIN brands b ON b.id = s.brand_id
     WHERE s.id = $1::uuid`,
    [subBrandId, PLATFORM_MARGIN_KEY],
  );
  if (!row) throw new Error(`loadPricing: no sub-brand ${subBrandId}`);
  return {
    marginsBps: [Number(row.platform_margin ?? 0), row.brand_margin_bps, row.margin_bps],
    coinsPerUnit: row.coins_per_unit,
    market: row.country ? { country: row.country, currency: row.currency } : null,
    billing: { brandId: row.brand_id, prepaid: row.prepaid },
    subBrand: {
      name: row.name,
      locale: row.locale,
      imageUrl: row.image_url,
      thumbnailUrl: row.thumbnail_url,
    },
  };
}

/** A listing as pricing reads it; the overrides are set through the establishment API. */
export type PricedListing = {
  baseCost: number;
  currency: string;
  sellPriceOverride?: number | null;
  coinPriceOverride?: number | null;
};

/**
 * A listing's two prices for a partner (never its cost). An establishment's override wins over
 * the cascade: a sell-price override is then converted at the coin ratio as usual, a coin-price
 * override is the coin price as set.
 */
export function priceListing(listing: PricedListing, pricing: Pricing) {
  const sellPrice = listing.sellPriceOverride ?? cascadePrice(listing.baseCost, pricing.marginsBps);
  const coins =
    listing.coinPriceOverride ?? coinPrice(sellPrice, listing.currency, pricing.coinsPerUnit);
  if (!Number.isSafeInteger(coins)) {
    throw new AppError('internal_error', 'A listing price exceeds the coin range.');
  }
  return { sellPrice, coinPrice: coins };
}

/** What `priceRule` answers as `source`. */
export const PRICE_SOURCES = ['cascade', 'override'] as const;

/**
 * Where a listing's coin price comes from, for the establishment document's `priceSource` and
 * `ruleName`: an override, or the cascade and the last margin level that changed it.
 */
export function priceRule(listing: PricedListing, pricing: Pricing) {
  if (listing.coinPriceOverride != null) return { source: 'override', rule: 'coinPrice' } as const;
  if (listing.sellPriceOverride != null) return { source: 'override', rule: 'sellPrice' } as const;
  const levels = ['platformMargin', 'brandMargin', 'establishmentMargin'] as const;
  const last = pricing.marginsBps.findLastIndex((bps) => bps !== 0);
  return { source: 'cascade', rule: last < 0 ? 'baseCost' : levels[last]! } as const;
}

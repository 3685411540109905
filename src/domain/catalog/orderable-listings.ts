// The listings an order may take, with what the order snapshots of their variant and product: the
// same rule as visibleListings (visibility.ts), as one statement on the driver, since every
// reservation reads it inside its transaction (docs/performance.md, orders).
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { ProductKind } from '../../generated/prisma/enums.js';
import type { Db } from '../db.js';
import type { Pricing } from './pricing.js';
import { notExclusiveElsewhereSql } from './visibility.js';

export type OrderableListing = {
  id: string;
  productId: string;
  variantId: string;
  baseCost: number;
  currency: string;
  sellPriceOverride: number | null;
  coinPriceOverride: number | null;
  variant: {
    sku: string;
    attributes: unknown;
    position: number;
    /** A digital variant delivered by codes from its pool (domain/orders/digital-codes.ts). */
    deliversCodes: boolean;
    product: { translations: unknown; kind: ProductKind };
  };
};

type Row = Omit<OrderableListing, 'variant'> & {
  sku: string;
  attributes: unknown;
  position: number;
  deliversCodes: boolean;
  translations: unknown;
  kind: ProductKind;
};

/** By listing ids, or every listing of one product; none when the sub-brand serves no market. */
export async function orderableListings(
  db: Db,
  subBrandId: string,
  market: Pricing['market'],
  which: { ids: string[] } | { productId: string },
  now: Date = new Date(),
): Promise<OrderableListing[]> {
  if (!market) return [];
  const condition =
    'ids' in which
      ? Prisma.sql`l.id = ANY(${which.ids}::uuid[])`
      : Prisma.sql`l.product_id = ${which.productId}::uuid`;
  const rows = await queryRaw<Row>(
    db,
    Prisma.sql`SELECT l.id, l.product_id AS "productId", l.variant_id AS "variantId",
            l.base_cost AS "baseCost", l.currency, l.sell_price_override AS "sellPriceOverride",
            l.coin_price_override AS "coinPriceOverride",
            v.sku, v.attributes, v.position, v.delivers_codes AS "deliversCodes", p.translations,
            p.kind::text AS kind
     FROM listing_markets l
     JOIN product_variants v ON v.id = l.variant_id
     JOIN products p ON p.id = v.product_id
     WHERE l.sub_brand_id = ${subBrandId}::uuid AND l.active AND l.country = ${market.country}
       AND l.currency = ${market.currency} AND p.status = 'active'
       AND ${notExclusiveElsewhereSql(subBrandId, now)} AND ${condition}`,
  );
  return rows.map(
    ({ sku, attributes, position, deliversCodes, translations, kind, ...listing }) => ({
      ...listing,
      variant: { sku, attributes, position, deliversCodes, product: { translations, kind } },
    }),
  );
}

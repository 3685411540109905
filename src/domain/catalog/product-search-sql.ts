// The SQL of `POST /products/search`: which products match, as conditions on `products p`.
//
// Written as SQL rather than a Prisma `where` for the plan's sake. The visibility rule (owned, or
// active and listed in the caller's market) as one OR with a sub-select made PostgreSQL cost the
// scan with the per-row sub-plan (~170,000 for 20,000 products), which switched on JIT compilation
// (40 ms before the first row). As a UNION ALL of two branches, each has an index: the owner's
// (products.owner_sub_brand_id) and the caller's listings (listing_markets by sub-brand, market,
// product), and the estimate stays where JIT stays off. The same filters apply to both branches.
import { Prisma } from '../../generated/prisma/client.js';
import { likeEscape } from '../validation.js';
import { establishmentCatalogsSql, notExclusiveElsewhereSql, type Viewer } from './visibility.js';

export type ProductFilters = {
  text?: string;
  types?: string[];
  categoryIds?: string[];
  withoutCategory?: boolean;
  minValue?: number;
  maxValue?: number;
  minStock?: number;
  catalogId?: string;
  locale?: string;
  statuses?: string[];
};

/**
 * Units orderable now in the viewer's environment: at least `min` on one variant. At least one is
 * the product row's own count of variants in stock (kept by triggers on variant_stock, see the
 * migration products_variants_in_stock). More than one reads the stock rows, which carry their
 * variant's product (a trigger copies it): a range of the index on (environment, available,
 * product_id) read without the heap, not every variant joined to its stock.
 */
const inStock = (viewer: Viewer, min: number) =>
  min <= 1
    ? Prisma.sql`${Prisma.raw(viewer.environment === 'live' ? 'p.live_variants_in_stock' : 'p.test_variants_in_stock')} > 0`
    : Prisma.sql`EXISTS (
  SELECT 1 FROM variant_stock s
  WHERE s.product_id = p.id AND s.environment = ${viewer.environment}::environment
    AND s.available >= ${min})`;

/** Units held by open orders (the stock's own count, as the product's status reads it). */
const held = (viewer: Viewer) => Prisma.sql`EXISTS (
  SELECT 1 FROM variant_stock s
  WHERE s.product_id = p.id AND s.environment = ${viewer.environment}::environment
    AND s.reserved > 0)`;

/**
 * The document's statuses. booked and sold are derived as the item's `status` is
 * (establishment-view.ts wireStatus): nothing left to order, with or without units held.
 */
function statusCondition(viewer: Viewer, statuses: string[]): Prisma.Sql {
  const any: Prisma.Sql[] = [];
  if (statuses.includes('available'))
    any.push(Prisma.sql`(p.status = 'active' AND ${inStock(viewer, 1)})`);
  if (statuses.includes('unavailable')) any.push(Prisma.sql`p.status = 'draft'`);
  if (statuses.includes('hidden')) any.push(Prisma.sql`p.status = 'archived'`);
  const soldOut = Prisma.sql`p.status = 'active' AND NOT ${inStock(viewer, 1)}`;
  if (statuses.includes('booked')) any.push(Prisma.sql`(${soldOut} AND ${held(viewer)})`);
  if (statuses.includes('sold')) any.push(Prisma.sql`(${soldOut} AND NOT ${held(viewer)})`);
  return any.length ? Prisma.sql`(${Prisma.join(any, ' OR ')})` : Prisma.sql`false`;
}

/** The filters, as conditions on `p` (an empty list when there are none). */
export function filterConditions(viewer: Viewer, f: ProductFilters): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (f.text) {
    const like = Prisma.sql`p.search_text LIKE ${`%${likeEscape(f.text.toLowerCase())}%`}`;
    out.push(
      /^[0-9a-f-]{36}$/i.test(f.text)
        ? Prisma.sql`(${like} OR p.id = ${f.text.toLowerCase()}::uuid)`
        : like,
    );
  }
  if (f.types?.length) out.push(Prisma.sql`p.type IN (${Prisma.join(f.types)})`);
  if (f.categoryIds?.length || f.withoutCategory) {
    const any: Prisma.Sql[] = [];
    if (f.categoryIds?.length) any.push(Prisma.sql`p.category_id = ANY(${f.categoryIds}::uuid[])`);
    if (f.withoutCategory) any.push(Prisma.sql`p.category_id IS NULL`);
    out.push(Prisma.sql`(${Prisma.join(any, ' OR ')})`);
  }
  if (f.minValue !== undefined) out.push(Prisma.sql`p.retail_value >= ${f.minValue}`);
  if (f.maxValue !== undefined) out.push(Prisma.sql`p.retail_value <= ${f.maxValue}`);
  if (f.minStock !== undefined && f.minStock > 0) out.push(inStock(viewer, f.minStock));
  if (f.catalogId) {
    // A catalog the caller sees: the platform's approved ones, its own.
    out.push(Prisma.sql`EXISTS (
      SELECT 1 FROM catalog_products cp JOIN catalogs c ON c.id = cp.catalog_id
      WHERE cp.product_id = p.id AND cp.catalog_id = ${f.catalogId}::uuid
        AND ${establishmentCatalogsSql(viewer.subBrandId)})`);
  }
  if (f.locale) {
    out.push(
      Prisma.sql`(p.translations -> ${f.locale}) IS NOT NULL AND (p.translations -> ${f.locale}) <> 'null'::jsonb`,
    );
  }
  if (f.statuses?.length) out.push(statusCondition(viewer, f.statuses));
  return out;
}

const and = (conditions: Prisma.Sql[]) =>
  conditions.length ? Prisma.join(conditions, ' AND ') : Prisma.sql`true`;

const COLUMNS = Prisma.sql`p.id, p.type, p.category_id, p.retail_value, p.display_order`;

/**
 * The matching products the viewer sees (establishmentProducts in establishment-view.ts, in SQL):
 * its own (any status) and the active ones listed for it in its market; never a deleted one nor
 * one exclusive to another establishment. A platform admin sees every product not deleted.
 */
export function matchingProducts(viewer: Viewer, conditions: Prisma.Sql[], now: Date): Prisma.Sql {
  if (viewer.isPlatformAdmin) {
    return Prisma.sql`SELECT ${COLUMNS} FROM products p WHERE p.deleted_at IS NULL AND ${and(conditions)}`;
  }
  const me = viewer.subBrandId;
  const visible = and([notExclusiveElsewhereSql(me, now), ...conditions]);
  const owned = Prisma.sql`SELECT ${COLUMNS} FROM products p WHERE p.owner_sub_brand_id = ${me}::uuid AND ${visible}`;
  if (!viewer.market) return owned;
  // Listed for the caller and not its own (those are the first branch): disjoint, so UNION ALL.
  // The listings not of its own products are a partial index's range (`NOT l.own`), read first
  // as an array so the products are read by primary key: hashing every listing of the caller
  // against a scan of every product cost 9-13 ms at 10,000 products, this 1.4 ms
  // (docs/performance.md). The array may repeat a product (a listing per variant): `= ANY`
  // matches each product row once.
  return Prisma.sql`${owned}
    UNION ALL
    SELECT ${COLUMNS} FROM products p
    WHERE p.status = 'active' AND p.owner_sub_brand_id IS DISTINCT FROM ${me}::uuid AND ${visible}
      AND p.id = ANY(ARRAY(SELECT l.product_id FROM listing_markets l
        WHERE l.sub_brand_id = ${me}::uuid AND l.active AND NOT l.own
          AND l.country = ${viewer.market.country} AND l.currency = ${viewer.market.currency}))`;
}

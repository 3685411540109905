// The establishment's view of the one catalog (establishment-api.md, "Products"): which products
// an establishment sees, and each product as the document describes it, read from the same rows
// the partner API lists (products, variants, stock, the caller's listing and its prices).
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { loadPricing, priceListing, priceRule, type Pricing } from './pricing.js';
import { toMajorUnits } from './money.js';
import { textsIn } from './translations.js';
import { matchingProducts } from './product-search-sql.js';
import { establishmentCatalogsSql, notExclusiveElsewhere, type Viewer } from './visibility.js';
import type { ProductWireStatus } from './establishment-product-inputs.js';

/** The caller's own listings of a variant: active, in the market it serves. */
export const ownListings = (viewer: Viewer): Prisma.ListingMarketWhereInput =>
  viewer.market
    ? { subBrandId: viewer.subBrandId, active: true, ...viewer.market }
    : { id: { in: [] } };

/**
 * Products an establishment sees: those it owns (any status), and the active ones listed for it
 * in its market (what its players can order, as on the partner API); never a deleted one nor one
 * exclusive to another establishment. A platform admin sees every product not deleted.
 */
export function establishmentProducts(viewer: Viewer, now = new Date()): Prisma.ProductWhereInput {
  if (viewer.isPlatformAdmin) return { deletedAt: null };
  return {
    AND: [
      notExclusiveElsewhere(viewer.subBrandId, now),
      {
        OR: [
          { ownerSubBrandId: viewer.subBrandId },
          // One semi-join on the listing's product id (not through the variants).
          { status: 'active', listings: { some: ownListings(viewer) } },
        ],
      },
    ],
  };
}

/** What an establishment sees of catalogs: its proposals until reviewed, and approved ones. */
export const SEEN_CATALOG_STATUSES = ['pending', 'approved'] as const;

/** Catalogs an establishment sees: the platform's approved ones and its own proposals. */
export const establishmentCatalogs = (subBrandId: string): Prisma.CatalogWhereInput => ({
  OR: [
    { subBrandId: null, status: 'approved' },
    { subBrandId, status: { in: [...SEEN_CATALOG_STATUSES] } },
  ],
});

/** What a product's view is made of: the product, and what the view reads of its relations. */
type Row = {
  id: string;
  ownerSubBrandId: string | null;
  translations: unknown;
  status: string;
  retailValue: number;
  currency: string | null;
  type: string | null;
  provider: string | null;
  providerId: string | null;
  helpLink: string | null;
  verifiedBy: string | null;
  verificationDate: Date | null;
  certificate: boolean;
  featured: boolean;
  kind: string;
  displayOrder: number;
  height: number | null;
  weight: number | null;
  year: number | null;
  prizeCategory: string | null;
  probability: number | null;
  images: string[];
  featuredImageUrl: string | null;
  medias: unknown;
  legacy: unknown;
  exclusiveSubBrandId: string | null;
  exclusiveUntil: Date | null;
  exclusiveDays: number | null;
  createdAt: Date;
  updatedAt: Date;
  category: { id: string; slug: string; names: Record<string, string> } | null;
  variantCount: number;
  /** Summed over the variants' stock rows in the viewer's environment. */
  available: number;
  reserved: number;
  /** The caller's active listing in its market (the first variant's that has one). */
  listing: {
    country: string;
    currency: string;
    baseCost: number;
    sellPriceOverride: number | null;
    coinPriceOverride: number | null;
  } | null;
  catalogs: { catalogId: string; name: string; category: string | null }[];
};

/**
 * The rows of these products the viewer sees (the search's rule, matchingProducts), in one
 * statement (the views of a search page were eight through Prisma's include: docs/performance.md). Every relation is read by an index on
 * the product (variants, listings, catalog links) or a primary key (stock, category, catalog).
 */
function viewRows(db: Db, viewer: Viewer, ids: string[], now: Date): Promise<Row[]> {
  const listing = viewer.market
    ? Prisma.sql`(SELECT json_build_object('country', l.country, 'currency', l.currency,
          'baseCost', l.base_cost, 'sellPriceOverride', l.sell_price_override,
          'coinPriceOverride', l.coin_price_override)
        FROM listing_markets l JOIN product_variants v ON v.id = l.variant_id
        WHERE l.product_id = p.id AND l.sub_brand_id = ${viewer.subBrandId}::uuid AND l.active
          AND l.country = ${viewer.market.country} AND l.currency = ${viewer.market.currency}
        ORDER BY v.position, v.id LIMIT 1)`
    : Prisma.sql`NULL::json`;
  return queryRaw<Row>(
    db,
    Prisma.sql`SELECT p.id, p.owner_sub_brand_id AS "ownerSubBrandId", p.translations,
        p.status::text AS status, p.retail_value AS "retailValue", p.currency, p.type, p.provider,
        p.provider_id AS "providerId", p.help_link AS "helpLink", p.verified_by AS "verifiedBy",
        p.verification_date AS "verificationDate", p.certificate, p.featured, p.kind::text AS kind,
        p.display_order AS "displayOrder", p.height, p.weight, p.year,
        p.prize_category AS "prizeCategory", p.probability, p.images,
        p.featured_image_url AS "featuredImageUrl", p.medias, p.legacy,
        p.exclusive_sub_brand_id AS "exclusiveSubBrandId", p.exclusive_until AS "exclusiveUntil",
        p.exclusive_days AS "exclusiveDays", p.created_at AS "createdAt", p.updated_at AS "updatedAt",
        (SELECT json_build_object('id', c.id, 'slug', c.slug, 'names', c.names)
           FROM categories c WHERE c.id = p.category_id) AS category,
        (SELECT count(*)::int FROM product_variants v WHERE v.product_id = p.id) AS "variantCount",
        s.available, s.reserved,
        ${listing} AS listing,
        (SELECT coalesce(json_agg(json_build_object('catalogId', c.id, 'name', c.name,
                                                    'category', c.category) ORDER BY c.id), '[]'::json)
           FROM catalog_products cp JOIN catalogs c ON c.id = cp.catalog_id
           WHERE cp.product_id = p.id AND ${establishmentCatalogsSql(viewer.subBrandId)}) AS catalogs
      FROM products p
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(st.available), 0)::int AS available,
               coalesce(sum(st.reserved), 0)::int AS reserved
        FROM product_variants v
        JOIN variant_stock st ON st.variant_id = v.id AND st.environment = ${viewer.environment}::environment
        WHERE v.product_id = p.id) s
      WHERE p.id IN (SELECT m.id FROM (${matchingProducts(viewer, [Prisma.sql`p.id = ANY(${ids}::uuid[])`], now)}) m)`,
  );
}

/** available/unavailable/hidden from the stored status; booked and sold from stock. */
export function wireStatus(status: string, available: number, reserved: number): ProductWireStatus {
  if (status === 'draft') return 'unavailable';
  if (status === 'archived') return 'hidden';
  if (available > 0) return 'available';
  return reserved > 0 ? 'booked' : 'sold';
}

/** A media entry as a URL: a string as is, else the first URL found in its map (one level). */
function mediaUrl(entry: unknown): string | null {
  if (typeof entry === 'string') return entry;
  if (!entry || typeof entry !== 'object') return null;
  for (const value of Object.values(entry)) {
    if (typeof value === 'string' && /^https?:\/\//.test(value)) return value;
    if (value && typeof value === 'object') {
      const nested = Object.values(value).find(
        (v): v is string => typeof v === 'string' && /^https?:\/\//.test(v),
      );
      if (nested) return nested;
    }
  }
  return null;
}

function view(row: Row, viewer: Viewer, pricing: Pricing, now: Date) {
  // Units held by open orders (taken at reservation, released on cancellation, consumed on send
  // or shipping): the stock's own count, the same number the order book keeps. Stock is shared
  // by every establishment listing a product, so every establishment's orders count.
  const { available, reserved } = row;
  const listing = row.listing ?? undefined;
  const prices = listing ? priceListing(listing, pricing) : null;
  const rule = listing ? priceRule(listing, pricing) : null;
  const mayKnowCost = viewer.isPlatformAdmin || row.ownerSubBrandId === viewer.subBrandId;
  const currency = row.currency ?? listing?.currency ?? viewer.market?.currency ?? 'EUR';
  const exclusive =
    row.exclusiveSubBrandId && (!row.exclusiveUntil || row.exclusiveUntil > now)
      ? {
          establishmentId: row.exclusiveSubBrandId,
          requestedDurationDays: row.exclusiveDays ?? -1,
          exclusiveUntil: row.exclusiveUntil,
        }
      : null;
  const legacy = row.legacy as Record<string, unknown>;
  return {
    productId: row.id,
    establishmentId: row.ownerSubBrandId,
    isAdmin: row.ownerSubBrandId === null,
    name: textsIn(row.translations)?.name ?? '',
    translations: row.translations as Record<string, unknown>,
    category: row.category
      ? {
          categoryId: row.category.id,
          name: row.category.names.en ?? row.category.slug,
          translations: row.category.names,
        }
      : null,
    status: wireStatus(row.status, available, reserved),
    visible:
      row.status === 'active' &&
      listing !== undefined &&
      (!exclusive || exclusive.establishmentId === viewer.subBrandId),
    stock: available + reserved,
    available,
    reserved,
    price: prices?.coinPrice ?? null,
    establishmentValueInEuros: prices ? toMajorUnits(prices.sellPrice, listing!.currency) : null,
    internalPrice: mayKnowCost && listing ? listing.baseCost : null,
    priceSource: rule?.source ?? null,
    ruleName: rule?.rule ?? null,
    valueInEuros: toMajorUnits(row.retailValue, currency),
    currency,
    type: row.type,
    provider: row.provider,
    providerId: row.providerId,
    helpLink: row.helpLink,
    verifiedBy: row.verifiedBy,
    verificationDate: row.verificationDate,
    certificate: row.certificate,
    featured: row.featured,
    digital: row.kind === 'digital',
    order: row.displayOrder,
    height: row.height,
    weight: row.weight,
    year: row.year,
    prizeCategory: row.prizeCategory,
    probability: row.probability,
    imageUrl: row.images[0] ?? null,
    featuredImageUrl: row.featuredImageUrl,
    medias: (row.medias as unknown[]).map(mediaUrl).filter((u): u is string => u !== null),
    dateOfObject: legacy.dateOfObject ?? null,
    reference: legacy.reference ?? null,
    gameCatalog: legacy.gameCatalog ?? null,
    catalogs: row.catalogs,
    exclusive,
    variantCount: row.variantCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export type ProductView = ReturnType<typeof view>;

/** The views of these products, in the order given; ids the viewer cannot see are left out. */
export async function productViews(
  db: Db,
  viewer: Viewer,
  ids: string[],
  now = new Date(),
): Promise<ProductView[]> {
  if (!ids.length) return [];
  // One after the other: on a transaction's connection, two statements at once only queue.
  const rows = await viewRows(db, viewer, ids, now);
  const pricing = await loadPricing(db, viewer.subBrandId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [view(row, viewer, pricing, now)] : [];
  });
}

// What a partner key can see of the catalog: its own sub-brand's active listings in the market
// it serves, of active products; platform catalogs and its own approved proposals. Everything
// else is invisible (404 when asked for by id), never forbidden.
import { Prisma } from '../../generated/prisma/client.js';
import type { Environment } from '../../generated/prisma/enums.js';
import type { Pricing } from './pricing.js';

/** Who is looking: an establishment's key (or a platform admin's, which sees every product). */
export type Viewer = {
  subBrandId: string;
  environment: Environment;
  market: { country: string; currency: string } | null;
  isPlatformAdmin: boolean;
};

type Market = Pricing['market'];

/**
 * Products no other establishment holds an exclusivity on (now): one held by `subBrandId`, one
 * that has expired, or none. Deleted products are never visible.
 */
export const notExclusiveElsewhere = (
  subBrandId: string,
  now: Date = new Date(),
): Prisma.ProductWhereInput => ({
  deletedAt: null,
  OR: [
    { exclusiveSubBrandId: null },
    { exclusiveSubBrandId: subBrandId },
    { exclusiveUntil: { lte: now } },
  ],
});

/**
 * notExclusiveElsewhere over `products p`, for the statements written in SQL (the product search,
 * the listings an order takes): the same rule, kept here beside it.
 */
export const notExclusiveElsewhereSql = (subBrandId: string, now: Date = new Date()) =>
  Prisma.sql`p.deleted_at IS NULL AND (p.exclusive_sub_brand_id IS NULL
    OR p.exclusive_sub_brand_id = ${subBrandId}::uuid OR p.exclusive_until <= ${now})`;

/**
 * The catalogs an establishment sees (establishmentCatalogs in establishment-view.ts) as SQL over
 * `catalogs c`: the platform's approved ones and its own proposals.
 */
export const establishmentCatalogsSql = (subBrandId: string) =>
  Prisma.sql`((c.sub_brand_id IS NULL AND c.status = 'approved')
    OR (c.sub_brand_id = ${subBrandId}::uuid AND c.status IN ('pending', 'approved')))`;

/** The sub-brand's listings a partner may order from. */
export function visibleListings(
  subBrandId: string,
  market: Market,
): Prisma.ListingMarketWhereInput {
  if (!market) return { id: { in: [] } };
  return {
    subBrandId,
    active: true,
    country: market.country,
    currency: market.currency,
    variant: { product: { status: 'active' } },
    // In an AND, so callers that narrow `variant` (the store front) keep the exclusivity rule.
    AND: [{ variant: { product: notExclusiveElsewhere(subBrandId) } }],
  };
}

/** Products with at least one visible listing. */
export function visibleProducts(subBrandId: string, market: Market): Prisma.ProductWhereInput {
  if (!market) return { id: { in: [] } };
  return {
    status: 'active',
    AND: [notExclusiveElsewhere(subBrandId)],
    variants: {
      some: {
        listings: {
          some: {
            subBrandId,
            active: true,
            country: market.country,
            currency: market.currency,
          },
        },
      },
    },
  };
}

/** Catalogs the sub-brand can use: the platform's, and its own proposals once approved. */
export const visibleCatalogs = (subBrandId: string): Prisma.CatalogWhereInput => ({
  status: 'approved',
  OR: [{ subBrandId: null }, { subBrandId }],
});

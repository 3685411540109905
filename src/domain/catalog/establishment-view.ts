// The establishment's view of the one catalog (establishment-api.md, "Products"): which products
// an establishment sees, and each product as the document describes it, read from the same rows
// the partner API lists (products, variants, stock, the caller's listing and its prices).
import type { Environment } from '../../generated/prisma/enums.js';
import { type Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { loadPricing, priceListing, priceRule, type Pricing } from './pricing.js';
import { toMajorUnits } from './money.js';
import { textsIn } from './translations.js';
import { notExclusiveElsewhere } from './visibility.js';
import type { ProductWireStatus } from './establishment-product-inputs.js';

/** Who is looking: an establishment's key (or a platform admin's, which sees every product). */
export type Viewer = {
  subBrandId: string;
  environment: Environment;
  market: { country: string; currency: string } | null;
  isPlatformAdmin: boolean;
};

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

/** Catalogs an establishment sees: the platform's approved ones and its own proposals. */
export const establishmentCatalogs = (subBrandId: string): Prisma.CatalogWhereInput => ({
  OR: [
    { subBrandId: null, status: 'approved' },
    { subBrandId, status: { in: ['pending', 'approved'] } },
  ],
});

const include = (viewer: Viewer) =>
  ({
    category: true,
    variants: {
      orderBy: { position: 'asc' },
      include: {
        stock: { where: { environment: viewer.environment } },
        listings: { where: { subBrandId: viewer.subBrandId, active: true } },
      },
    },
    catalogs: {
      where: { catalog: establishmentCatalogs(viewer.subBrandId) },
      orderBy: { catalogId: 'asc' },
      include: { catalog: { select: { id: true, name: true, category: true } } },
    },
  }) satisfies Prisma.ProductInclude;

type Row = Prisma.ProductGetPayload<{ include: ReturnType<typeof include> }>;

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
  const available = row.variants.reduce((sum, v) => sum + (v.stock[0]?.available ?? 0), 0);
  // Units held by open orders (taken at reservation, released on cancellation, consumed on send
  // or shipping): the stock's own count, the same number the order book keeps. Stock is shared
  // by every establishment listing a product, so every establishment's orders count.
  const reserved = row.variants.reduce((sum, v) => sum + (v.stock[0]?.reserved ?? 0), 0);
  const listing = viewer.market
    ? row.variants
        .flatMap((v) => v.listings)
        .find((l) => l.country === viewer.market!.country && l.currency === viewer.market!.currency)
    : undefined;
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
          name: (row.category.names as Record<string, string>).en ?? row.category.slug,
          translations: row.category.names as Record<string, string>,
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
    catalogs: row.catalogs.map((c) => ({
      catalogId: c.catalog.id,
      name: c.catalog.name,
      category: c.catalog.category,
    })),
    exclusive,
    variantCount: row.variants.length,
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
  const [rows, pricing] = await Promise.all([
    db.product.findMany({
      where: { id: { in: ids }, ...establishmentProducts(viewer, now) },
      include: include(viewer),
    }),
    loadPricing(db, viewer.subBrandId),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [view(row, viewer, pricing, now)] : [];
  });
}

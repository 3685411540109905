// What a player sees in the marketplace's shop: the store's products (those of its catalogs the
// sub-brand may order, in its market), each with its variants, coin prices and units in stock,
// in the player's language. One statement reads the whole shelf (at most SHELF_MAX listings);
// (the same rules as the store page's: visibility.ts), search, category, "what I can afford" and
// pages are then cut from it, so every filter agrees
// with the prices the order book charges (pricing.ts, the same cascade).
import { queryRaw } from '../db/sql.js';
import { Prisma } from '../generated/prisma/client.js';
import { loadPricing, priceListing, type Pricing } from '../domain/catalog/pricing.js';
import { textIn, textsIn } from '../domain/catalog/translations.js';
import { notExclusiveElsewhereSql, visibleCatalogs } from '../domain/catalog/visibility.js';
import type { Db } from '../domain/db.js';
import { notFound } from '../domain/errors.js';
import type { Tenant } from '../domain/tenant.js';

/** A store shows at most this many listings (a player's shop, not the catalog's export). */
export const SHELF_MAX = 2000;

export type ShelfVariant = {
  listingId: string;
  label: string;
  coinPrice: number;
  available: number;
};

export type ShelfProduct = {
  id: string;
  name: string;
  description: string | null;
  kind: 'physical' | 'digital';
  images: string[];
  categoryId: string | null;
  featured: boolean;
  variants: ShelfVariant[];
  /** The cheapest variant's price. */
  fromCoins: number;
  inStock: boolean;
};

export type Shelf = {
  store: { id: string; name: string };
  products: ShelfProduct[];
  categories: { id: string; name: string }[];
  catalogs: { id: string; name: string }[];
};

type Row = {
  id: string;
  product_id: string;
  variant_id: string;
  baseCost: number;
  currency: string;
  sellPriceOverride: number | null;
  coinPriceOverride: number | null;
  attributes: Record<string, unknown>;
  position: number;
  translations: unknown;
  kind: 'physical' | 'digital';
  images: string[];
  category_id: string | null;
  featured: boolean;
  display_order: number;
  available: number | null;
};

/** The store's shelf for this player's tenant, in `lang`. */
export async function shelf(
  db: Db,
  tenant: Tenant,
  storeId: string,
  lang: string,
  now: Date,
): Promise<Shelf> {
  const [store, pricing] = await Promise.all([
    db.store.findFirst({
      where: { id: storeId, subBrandId: tenant.subBrandId, active: true },
      select: { id: true, name: true, catalogIds: true },
    }),
    loadPricing(db, tenant.subBrandId),
  ]);
  if (!store) throw notFound('Store');
  const market = pricing.market;
  const rows: Row[] =
    market && store.catalogIds.length
      ? await queryRaw<Row>(
          db,
          Prisma.sql`
          SELECT l.id, l.product_id, l.variant_id, l.base_cost AS "baseCost", l.currency,
                 l.sell_price_override AS "sellPriceOverride", l.coin_price_override AS "coinPriceOverride",
                 v.attributes, v.position, p.translations, p.kind::text AS kind, p.images,
                 p.category_id, p.featured, p.display_order, s.available
          FROM listing_markets l
          JOIN product_variants v ON v.id = l.variant_id
          JOIN products p ON p.id = v.product_id
          LEFT JOIN variant_stock s ON s.variant_id = v.id AND s.environment = ${tenant.environment}::environment
          WHERE l.sub_brand_id = ${tenant.subBrandId}::uuid AND l.active AND l.country = ${market.country}
            AND l.currency = ${market.currency} AND p.status = 'active'
            AND ${notExclusiveElsewhereSql(tenant.subBrandId, now)}
            AND EXISTS (
              SELECT 1 FROM catalog_products cp JOIN catalogs c ON c.id = cp.catalog_id
              WHERE cp.product_id = p.id AND cp.catalog_id = ANY(${store.catalogIds}::uuid[])
                AND c.status = 'approved'
                AND (c.sub_brand_id IS NULL OR c.sub_brand_id = ${tenant.subBrandId}::uuid))
          ORDER BY p.featured DESC, p.display_order, p.id, v.position, l.id
          LIMIT ${SHELF_MAX}`,
        )
      : [];
  const products = groupProducts(rows, pricing, lang);
  const categoryIds = [...new Set(products.flatMap((p) => (p.categoryId ? [p.categoryId] : [])))];
  const [categories, catalogs] = await Promise.all([
    categoryIds.length
      ? db.category.findMany({
          where: { id: { in: categoryIds } },
          select: { id: true, names: true },
          orderBy: [{ position: 'asc' }, { slug: 'asc' }],
        })
      : [],
    db.catalog.findMany({
      where: { id: { in: store.catalogIds }, ...visibleCatalogs(tenant.subBrandId) },
      select: { id: true, name: true },
      orderBy: { name: 'asc' },
    }),
  ]);
  return {
    store: { id: store.id, name: store.name },
    products,
    categories: categories.map((c) => {
      const names = c.names as Record<string, string>;
      return { id: c.id, name: names[lang] ?? names.en ?? Object.values(names)[0] ?? '' };
    }),
    catalogs,
  };
}

function groupProducts(rows: Row[], pricing: Pricing, lang: string): ShelfProduct[] {
  const byId = new Map<string, ShelfProduct>();
  for (const r of rows) {
    let product = byId.get(r.product_id);
    if (!product) {
      product = {
        id: r.product_id,
        name: textsIn(r.translations, lang)?.name ?? '',
        description: textIn(r.translations, lang, 'description'),
        kind: r.kind,
        images: r.images,
        categoryId: r.category_id,
        featured: r.featured,
        variants: [],
        fromCoins: 0,
        inStock: false,
      };
      byId.set(r.product_id, product);
    }
    const { coinPrice } = priceListing(r, pricing);
    const available = Number(r.available ?? 0);
    product.variants.push({
      listingId: r.id,
      label: Object.values(r.attributes ?? {}).join(' · '),
      coinPrice,
      available,
    });
  }
  for (const p of byId.values()) {
    p.fromCoins = Math.min(...p.variants.map((v) => v.coinPrice));
    p.inStock = p.variants.some((v) => v.available > 0);
  }
  return [...byId.values()];
}

export type ShelfFilter = {
  q?: string | null | undefined;
  categoryId?: string | null | undefined;
  /** Only what the player can afford now (a variant in stock at or under the balance). */
  affordableWith?: number | null | undefined;
};

/** The products that pass the filter, in the shelf's order. */
export function filterShelf(products: ShelfProduct[], filter: ShelfFilter): ShelfProduct[] {
  const words = (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return products.filter(
    (p) =>
      (!filter.categoryId || p.categoryId === filter.categoryId) &&
      words.every((w) => `${p.name} ${p.description ?? ''}`.toLowerCase().includes(w)) &&
      (filter.affordableWith == null ||
        p.variants.some((v) => v.available > 0 && v.coinPrice <= filter.affordableWith!)),
  );
}

// Catalog fixtures, made through the backoffice's domain functions.
import { randomUUID } from 'node:crypto';
import { createListing, createProduct } from '../../src/domain/catalog/author-catalog.js';
import type { Db } from '../../src/domain/db.js';

/** A product with one variant per entry of `variants`, each listed for the sub-brand. */
export async function listedProduct(
  db: Db,
  subBrandId: string,
  options: {
    kind?: 'physical' | 'digital';
    stock?: number;
    baseCost?: number;
    name?: string;
    status?: 'draft' | 'active' | 'archived';
    country?: string;
    currency?: string;
    categoryId?: string;
    variants?: Record<string, string>[];
  } = {},
) {
  const variants = options.variants ?? [{}];
  const product = await createProduct(db, {
    kind: options.kind ?? 'digital',
    status: options.status ?? 'active',
    categoryId: options.categoryId,
    translations: {
      en: { name: options.name ?? 'Gift card', description: 'A test prize' },
      es: { name: `ES ${options.name ?? 'Tarjeta regalo'}` },
    },
    variants: variants.map((attributes) => ({
      sku: `T-${randomUUID().slice(0, 18)}`,
      attributes,
      stock: options.stock ?? 100,
    })),
  });
  const rows = await db.productVariant.findMany({
    where: { productId: product.id },
    orderBy: { position: 'asc' },
  });
  const listings = [];
  for (const v of rows) {
    listings.push(
      await createListing(db, {
        subBrandId,
        variantId: v.id,
        country: options.country ?? 'ES',
        currency: options.currency ?? 'EUR',
        baseCost: options.baseCost ?? 1000,
      }),
    );
  }
  return {
    productId: product.id,
    variantIds: rows.map((r) => r.id),
    variantId: rows[0]!.id,
    listingId: listings[0]!.id,
    listingIds: listings.map((l) => l.id),
  };
}

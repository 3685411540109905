// Backoffice writes to the catalog: categories, products with their variants and stock,
// listings, catalogs and their review, stores and margins. Platform administrators only (the
// schema's authScopes); partners read the catalog through visibility.ts.
import type { z } from 'zod';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { isUuid, newId } from '../ids.js';
import { isUniqueViolation } from '../prisma-errors.js';
import { parseInput } from '../validation.js';
import {
  createCatalogInput,
  createCategoryInput,
  createListingInput,
  createProductInput,
  createStoreInput,
  marginBps,
  stockLevel,
  updateProductInput,
  variantInput,
} from './inputs.js';
import { PLATFORM_MARGIN_KEY } from './pricing.js';
import { searchTextOf } from './translations.js';

const conflict = (what: string) => new AppError('conflict', `${what} already exists.`);

export async function createCategory(db: Db, input: z.input<typeof createCategoryInput>) {
  const data = parseInput(createCategoryInput, input);
  try {
    return await db.category.create({ data: { id: newId(), ...data } });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A category with slug ${data.slug}`);
    throw error;
  }
}

export async function createProduct(db: Db, input: z.input<typeof createProductInput>) {
  const { variants, ...data } = parseInput(createProductInput, input);
  if (data.categoryId && !(await db.category.findUnique({ where: { id: data.categoryId } }))) {
    throw notFound('Category');
  }
  try {
    return await inTransaction(db, async (tx) => {
      const product = await tx.product.create({
        data: { id: newId(), ...data, searchText: searchTextOf(data.translations) },
      });
      for (const [position, v] of variants.entries()) {
        const id = newId();
        await tx.productVariant.create({
          data: { id, productId: product.id, sku: v.sku, attributes: v.attributes, position },
        });
        await tx.variantStock.createMany({
          data: (['live', 'test'] as const).map((environment) => ({
            variantId: id,
            environment,
            available: v.stock,
          })),
        });
      }
      return product;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('A variant with one of these SKUs');
    throw error;
  }
}

export async function updateProduct(db: Db, id: string, input: z.input<typeof updateProductInput>) {
  const data = parseInput(updateProductInput, input);
  const { count } = await db.product.updateMany({
    where: { id },
    data: {
      ...data,
      ...(data.translations ? { searchText: searchTextOf(data.translations) } : {}),
    },
  });
  if (count === 0) throw notFound('Product');
  return db.product.findUniqueOrThrow({ where: { id } });
}

/** A new variant of an existing product, after its others, with the same stock in both environments. */
export async function addVariant(db: Db, productId: string, input: z.input<typeof variantInput>) {
  const v = parseInput(variantInput, input);
  try {
    return await inTransaction(db, async (tx) => {
      const product = isUuid(productId)
        ? await tx.product.findFirst({
            where: { id: productId, deletedAt: null },
            select: { id: true, variants: { select: { position: true } } },
          })
        : null;
      if (!product) throw notFound('Product');
      const id = newId();
      const position = Math.max(-1, ...product.variants.map((x) => x.position)) + 1;
      const variant = await tx.productVariant.create({
        data: { id, productId, sku: v.sku, attributes: v.attributes, position },
      });
      await tx.variantStock.createMany({
        data: (['live', 'test'] as const).map((environment) => ({
          variantId: id,
          environment,
          available: v.stock,
        })),
      });
      return variant;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A variant with SKU ${v.sku}`);
    throw error;
  }
}

/** Sets the units available in one environment (a stock count, not a delta). */
export async function setVariantStock(
  db: Db,
  variantId: string,
  environment: 'live' | 'test',
  available: number,
) {
  const value = parseInput(stockLevel, available);
  const { count } = await db.variantStock.updateMany({
    // A variant delivered by codes counts its free codes instead (orders/digital-codes.ts).
    where: { variantId, environment, variant: { deliversCodes: false } },
    data: { available: value },
  });
  if (count === 0) {
    const coded = await db.productVariant.findUnique({
      where: { id: variantId },
      select: { deliversCodes: true },
    });
    if (coded?.deliversCodes)
      throw new AppError(
        'invalid_request',
        'This variant is delivered by codes: its units are its free codes, added with addDigitalCodes.',
      );
    throw notFound('Variant');
  }
}

export async function createListing(db: Db, input: z.input<typeof createListingInput>) {
  const data = parseInput(createListingInput, input);
  const variant = await db.productVariant.findUnique({ where: { id: data.variantId } });
  if (!variant) throw notFound('Variant');
  if (!(await db.subBrand.findUnique({ where: { id: data.subBrandId } }))) {
    throw notFound('Sub-brand');
  }
  try {
    return await db.listingMarket.create({
      data: { id: newId(), ...data, productId: variant.productId },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('A listing of this variant in this market');
    throw error;
  }
}

export async function updateListing(
  db: Db,
  id: string,
  input: { baseCost?: number | null; active?: boolean | null },
) {
  const data = parseInput(createListingInput.pick({ baseCost: true, active: true }).partial(), {
    baseCost: input.baseCost ?? undefined,
    active: input.active ?? undefined,
  });
  const { count } = await db.listingMarket.updateMany({ where: { id }, data });
  if (count === 0) throw notFound('Listing');
  return db.listingMarket.findUniqueOrThrow({ where: { id } });
}

/** The margins of the cascade; each level given is set, the others are left as they are. */
export async function setMargins(
  db: Db,
  input: {
    platformBps?: number | null;
    brand?: { id: string; bps: number } | null;
    subBrand?: { id: string; bps: number } | null;
  },
) {
  await inTransaction(db, async (tx) => {
    if (input.platformBps != null) {
      const value = parseInput(marginBps, input.platformBps);
      await tx.platformSetting.upsert({
        where: { key: PLATFORM_MARGIN_KEY },
        create: { key: PLATFORM_MARGIN_KEY, value },
        update: { value },
      });
    }
    if (input.brand) {
      const bps = parseInput(marginBps, input.brand.bps);
      const { count } = await tx.brand.updateMany({
        where: { id: input.brand.id },
        data: { marginBps: bps },
      });
      if (count === 0) throw notFound('Brand');
    }
    if (input.subBrand) {
      const bps = parseInput(marginBps, input.subBrand.bps);
      const { count } = await tx.subBrand.updateMany({
        where: { id: input.subBrand.id },
        data: { marginBps: bps },
      });
      if (count === 0) throw notFound('Sub-brand');
    }
  });
}

/** A sub-brand named by a write must exist (a foreign-key failure would be a 500). */
async function requireSubBrand(db: Db, id: string) {
  if (!(await db.subBrand.count({ where: { id } }))) throw notFound('Sub-brand');
}

export async function createCatalog(db: Db, input: z.input<typeof createCatalogInput>) {
  const { productIds, ...data } = parseInput(createCatalogInput, input);
  if (data.subBrandId) await requireSubBrand(db, data.subBrandId);
  return inTransaction(db, async (tx) => {
    const catalog = await tx.catalog.create({
      data: { id: newId(), ...data, status: data.subBrandId ? 'pending' : 'approved' },
    });
    await setCatalogProducts(tx, catalog.id, productIds);
    return catalog;
  });
}

/** Replaces a catalog's products, in the order given. */
export async function setCatalogProducts(db: Db, catalogId: string, productIds: string[]) {
  if (!isUuid(catalogId) || !(await db.catalog.count({ where: { id: catalogId } })))
    throw notFound('Catalog');
  const ids = [...new Set(productIds)];
  if (!ids.every(isUuid)) throw notFound('One of the products');
  const found = await db.product.count({ where: { id: { in: ids } } });
  if (found !== ids.length) throw notFound('One of the products');
  await inTransaction(db, async (tx) => {
    await tx.catalogProduct.deleteMany({ where: { catalogId } });
    await tx.catalogProduct.createMany({
      data: ids.map((productId, position) => ({ catalogId, productId, position })),
    });
  });
}

/**
 * Approves or rejects a sub-brand's proposal. A rejection is final: the proposal stays
 * invisible for ever (a new proposal is a new catalog).
 */
export async function reviewCatalog(
  db: Db,
  id: string,
  decision: 'approved' | 'rejected',
  note: string | null,
  now: Date,
) {
  const catalog = await db.catalog.findUnique({ where: { id } });
  if (!catalog) throw notFound('Catalog');
  if (catalog.status !== 'pending') {
    throw new AppError(
      'invalid_transition',
      `The catalog is already ${catalog.status}; only a pending proposal can be reviewed.`,
    );
  }
  return db.catalog.update({
    where: { id },
    data: { status: decision, reviewNote: note, reviewedAt: now },
  });
}

export async function createStore(db: Db, input: z.input<typeof createStoreInput>) {
  const data = parseInput(createStoreInput, input);
  await requireSubBrand(db, data.subBrandId);
  // A store shows the platform's catalogs and its own sub-brand's proposals; another sub-brand's
  // proposal is not found, as it is everywhere else.
  const ids = [...new Set(data.catalogIds)];
  const usable = await db.catalog.count({
    where: {
      id: { in: ids },
      OR: [{ subBrandId: null }, { subBrandId: data.subBrandId }],
      status: { not: 'rejected' },
    },
  });
  if (usable !== ids.length) throw notFound('One of the catalogs');
  try {
    return await db.store.create({ data: { id: newId(), ...data, catalogIds: ids } });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A store with slug ${data.slug}`);
    throw error;
  }
}

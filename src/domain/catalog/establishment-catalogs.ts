// An establishment's catalogs (establishment-api.md, "Catalogs") over the one catalog model: the
// platform's approved catalogs and its own proposals. What it creates is a proposal, pending
// until the platform reviews it in the backoffice (as the backoffice's proposals are); it may
// rename, fill and delete its own, never the platform's.
import { z } from 'zod';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { nonBlankText, parseInput } from '../validation.js';
import { createCatalog } from './author-catalog.js';
import {
  establishmentCatalogs,
  establishmentProducts,
  productViews,
} from './establishment-view.js';
import type { Viewer } from './visibility.js';

export const createEstablishmentCatalogBody = z.object({
  name: nonBlankText(120),
  category: nonBlankText(120),
  productIds: z.array(z.uuid()).max(1000).optional(),
});
export const renameCatalogBody = z.object({ name: nonBlankText(120) });
export const catalogProductsBody = z.object({ productIds: z.array(z.uuid()).min(1).max(1000) });

/** The path's establishment must be the key's own: any other is not found. */
function ownEstablishment(viewer: Viewer, establishmentId: string) {
  if (establishmentId !== viewer.subBrandId) throw notFound('Sub-brand');
}

/** Every id must name a product the establishment sees (another's is not found). */
async function checkProducts(db: Db, viewer: Viewer, ids: string[]) {
  const unique = [...new Set(ids)];
  const found = await db.product.count({
    where: { id: { in: unique }, ...establishmentProducts(viewer) },
  });
  if (found !== unique.length) throw notFound('Product');
  return unique;
}

const summary = {
  id: true,
  subBrandId: true,
  name: true,
  category: true,
  status: true,
  createdAt: true,
} as const;

async function withCounts(db: Db, viewer: Viewer, ids: string[]) {
  const counts = await db.catalogProduct.groupBy({
    by: ['catalogId'],
    where: { catalogId: { in: ids }, product: establishmentProducts(viewer) },
    _count: { _all: true },
  });
  return new Map(counts.map((c) => [c.catalogId, c._count._all]));
}

export type CatalogSummary = Awaited<ReturnType<typeof listEstablishmentCatalogs>>[number];

export async function listEstablishmentCatalogs(db: Db, viewer: Viewer, establishmentId: string) {
  ownEstablishment(viewer, establishmentId);
  const rows = await db.catalog.findMany({
    where: establishmentCatalogs(viewer.subBrandId),
    select: summary,
    orderBy: { id: 'asc' },
  });
  const counts = await withCounts(
    db,
    viewer,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, productCount: counts.get(r.id) ?? 0 }));
}

/** A catalog the establishment sees; `own`: one it may change (its proposal). */
async function findCatalog(
  db: Db,
  viewer: Viewer,
  establishmentId: string,
  id: string,
  own: boolean,
) {
  ownEstablishment(viewer, establishmentId);
  const catalog = isUuid(id)
    ? await db.catalog.findFirst({
        where: { id, ...establishmentCatalogs(viewer.subBrandId) },
        select: summary,
      })
    : null;
  if (!catalog) throw notFound('Catalog');
  if (own && catalog.subBrandId !== viewer.subBrandId) {
    throw new AppError('forbidden', 'A platform catalog is changed by the platform, not here.');
  }
  return catalog;
}

export async function readEstablishmentCatalog(
  db: Db,
  viewer: Viewer,
  establishmentId: string,
  id: string,
) {
  const catalog = await findCatalog(db, viewer, establishmentId, id, false);
  const links = await db.catalogProduct.findMany({
    where: { catalogId: id, product: establishmentProducts(viewer) },
    orderBy: [{ position: 'asc' }, { productId: 'asc' }],
    select: { productId: true },
  });
  const products = await productViews(
    db,
    viewer,
    links.map((l) => l.productId),
  );
  return { ...catalog, productCount: products.length, products };
}

export async function createEstablishmentCatalog(
  db: Db,
  viewer: Viewer,
  establishmentId: string,
  input: unknown,
) {
  ownEstablishment(viewer, establishmentId);
  const body = parseInput(createEstablishmentCatalogBody, input);
  const productIds = await checkProducts(db, viewer, body.productIds ?? []);
  const created = await createCatalog(db, {
    subBrandId: viewer.subBrandId,
    name: body.name,
    category: body.category,
    productIds,
  });
  return readEstablishmentCatalog(db, viewer, establishmentId, created.id);
}

export async function renameEstablishmentCatalog(
  db: Db,
  viewer: Viewer,
  establishmentId: string,
  id: string,
  input: unknown,
) {
  await findCatalog(db, viewer, establishmentId, id, true);
  const { name } = parseInput(renameCatalogBody, input);
  await db.catalog.update({ where: { id }, data: { name } });
  return readEstablishmentCatalog(db, viewer, establishmentId, id);
}

/** Deletes the proposal and its product links; the products themselves stay. */
export async function deleteEstablishmentCatalog(
  db: Db,
  viewer: Viewer,
  establishmentId: string,
  id: string,
) {
  await findCatalog(db, viewer, establishmentId, id, true);
  await db.catalog.delete({ where: { id } });
  return { catalogId: id, deleted: true as const };
}

/** Appends products (those already in it stay where they are). */
export async function addCatalogProducts(
  db: Db,
  viewer: Viewer,
  establishmentId: string,
  id: string,
  input: unknown,
) {
  await findCatalog(db, viewer, establishmentId, id, true);
  const { productIds } = parseInput(catalogProductsBody, input);
  const ids = await checkProducts(db, viewer, productIds);
  await inTransaction(db, async (tx) => {
    const last = await tx.catalogProduct.aggregate({
      where: { catalogId: id },
      _max: { position: true },
    });
    const start = (last._max.position ?? -1) + 1;
    await tx.catalogProduct.createMany({
      data: ids.map((productId, i) => ({ catalogId: id, productId, position: start + i })),
      skipDuplicates: true,
    });
  });
  return readEstablishmentCatalog(db, viewer, establishmentId, id);
}

/** Removes one product's link; a product not in the catalog is not found. */
export async function removeCatalogProduct(
  db: Db,
  viewer: Viewer,
  establishmentId: string,
  id: string,
  productId: string,
) {
  await findCatalog(db, viewer, establishmentId, id, true);
  const { count } = isUuid(productId)
    ? await db.catalogProduct.deleteMany({ where: { catalogId: id, productId } })
    : { count: 0 };
  if (count === 0) throw notFound('Product');
  return readEstablishmentCatalog(db, viewer, establishmentId, id);
}

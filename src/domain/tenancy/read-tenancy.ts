// Reading brands, sub-brands and API keys for operators (the admin CLI). A key is described by
// its display prefix; the secret itself is never stored, so it cannot be shown.
import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';

export const listBrands = (db: Db) =>
  db.brand.findMany({
    orderBy: { createdAt: 'asc' },
    include: { _count: { select: { subBrands: true } } },
  });

export async function getBrand(db: Db, id: string) {
  const brand = isUuid(id)
    ? await db.brand.findUnique({
        where: { id },
        include: { subBrands: { orderBy: { createdAt: 'asc' } } },
      })
    : null;
  if (!brand) throw notFound('Brand');
  return brand;
}

export const listSubBrands = (db: Db, filter: { brandId?: string | undefined }) => {
  if (filter.brandId !== undefined && !isUuid(filter.brandId)) throw notFound('Brand');
  return db.subBrand.findMany({
    where: { brandId: filter.brandId },
    orderBy: { createdAt: 'asc' },
  });
};

export async function getSubBrand(db: Db, id: string) {
  const subBrand = isUuid(id)
    ? await db.subBrand.findUnique({
        where: { id },
        include: { _count: { select: { apiKeys: true, customers: true, eventDefinitions: true } } },
      })
    : null;
  if (!subBrand) throw notFound('Sub-brand');
  return subBrand;
}

const KEY_FIELDS = {
  id: true,
  subBrandId: true,
  environment: true,
  displayPrefix: true,
  scopes: true,
  allowedCidrs: true,
  readLimit: true,
  writeLimit: true,
  createdAt: true,
  revokedAt: true,
} as const;

export async function listApiKeys(db: Db, subBrandId: string) {
  await getSubBrand(db, subBrandId);
  return db.apiKey.findMany({
    where: { subBrandId },
    select: KEY_FIELDS,
    orderBy: { createdAt: 'asc' },
  });
}

export async function getApiKey(db: Db, id: string) {
  const key = isUuid(id) ? await db.apiKey.findUnique({ where: { id }, select: KEY_FIELDS }) : null;
  if (!key) throw notFound('API key');
  return key;
}

// An establishment's writes to the one catalog (establishment-api.md, "Products"): its own
// products (a product row, one variant, its stock and the establishment's listing), imports of
// platform products (a listing, never a copy), edits, deletion and exclusivity.
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError, invalidRequest, notFound } from '../errors.js';
import { isUuid, newId } from '../ids.js';
import { parseInput } from '../validation.js';
import {
  createEstablishmentProductBody,
  exclusiveBody,
  updateEstablishmentProductBody,
  utcText,
  WRITABLE_STATUS,
  type CreateEstablishmentProduct,
  type UpdateEstablishmentProduct,
} from './establishment-product-inputs.js';
import {
  establishmentProducts,
  ownListings,
  productViews,
  type ProductView,
} from './establishment-view.js';
import type { Viewer } from './visibility.js';
import { toMinorUnits } from './money.js';
import { searchTextOf } from './translations.js';
import { notExclusiveElsewhere } from './visibility.js';

const forbidden = (message: string) => new AppError('forbidden', message);

/** The product columns the document's descriptive fields write (create and update alike). */
function descriptive(body: CreateEstablishmentProduct | UpdateEstablishmentProduct) {
  const data: Prisma.ProductUncheckedUpdateInput = {};
  const set = <K extends keyof Prisma.ProductUncheckedUpdateInput>(
    key: K,
    value: Prisma.ProductUncheckedUpdateInput[K] | undefined,
  ) => {
    if (value !== undefined) data[key] = value;
  };
  set(
    'status',
    body.status ? WRITABLE_STATUS[body.status as keyof typeof WRITABLE_STATUS] : undefined,
  );
  set('height', body.height);
  set('weight', body.weight);
  set('year', body.year);
  set('displayOrder', body.order);
  set(
    'verificationDate',
    body.verificationDate === undefined
      ? undefined
      : body.verificationDate && new Date(utcText(body.verificationDate)),
  );
  set('verifiedBy', body.verifiedBy);
  set('providerId', body.providerId);
  set('provider', body.provider);
  set('type', body.type);
  set('helpLink', body.helpLink);
  set('featuredImageUrl', body.featuredImageUrl);
  set('prizeCategory', body.prizeCategory);
  set('probability', body.probability);
  set('certificate', body.certificate);
  set('featured', body.featured);
  set('kind', body.digital === undefined ? undefined : body.digital ? 'digital' : 'physical');
  set('medias', body.medias as Prisma.InputJsonValue | undefined);
  if (body.imageUrl !== undefined) data.images = body.imageUrl ? [body.imageUrl] : [];
  if (body.translations) {
    data.translations = body.translations as Prisma.InputJsonValue;
    data.searchText = searchTextOf(body.translations);
  }
  return data;
}

/** The category id a body names: `{ categoryId }` or a bare id; "none" or null clears it. */
async function categoryOf(
  db: Db,
  category: CreateEstablishmentProduct['category'],
): Promise<string | null | undefined> {
  if (category === undefined) return undefined;
  const id = typeof category === 'object' && category !== null ? category.categoryId : category;
  if (!id || id === 'none') return null;
  if (!(await db.category.findUnique({ where: { id }, select: { id: true } }))) {
    throw invalidRequest([
      { field: 'category.categoryId', code: 'invalid', message: 'is not a known category' },
    ]);
  }
  return id;
}

/** A product the viewer sees, or not found (another tenant's, deleted, exclusive elsewhere). */
async function visibleProduct(db: Db, viewer: Viewer, id: string) {
  const product = isUuid(id)
    ? await db.product.findFirst({ where: { id, ...establishmentProducts(viewer) } })
    : null;
  if (!product) throw notFound('Product');
  return product;
}

export async function readEstablishmentProduct(db: Db, viewer: Viewer, id: string) {
  await visibleProduct(db, viewer, id);
  const [found] = await productViews(db, viewer, [id]);
  if (!found) throw notFound('Product');
  return found;
}

/**
 * `POST /products`. A new product is the caller's (or global with `isAdmin`, platform admins
 * only): one variant with `stock` units in each environment and the caller's listing in its
 * market, its base cost the retail value. An import lists a platform product for the caller.
 */
export async function createEstablishmentProduct(db: Db, viewer: Viewer, input: unknown) {
  const raw = input as Record<string, unknown> | null;
  if (raw?.isImport === true && (raw.productId === undefined || raw.productId === null)) {
    throw new AppError('invalid_import', 'productId is required when isImport is true.');
  }
  // Another establishment's id is not found whatever else the body holds: tenancy first.
  if (typeof raw?.establishmentId === 'string' && raw.establishmentId !== viewer.subBrandId) {
    throw notFound('Sub-brand');
  }
  const body = parseInput(createEstablishmentProductBody, input);
  if (body.establishmentId !== viewer.subBrandId) throw notFound('Sub-brand');
  if (!body.isImport) {
    const missing = (['stock', 'translations'] as const).filter((f) => body[f] === undefined);
    if (missing.length) {
      throw invalidRequest(
        missing.map((field) => ({ field, code: 'required' as const, message: 'is required' })),
      );
    }
  }
  if (body.isAdmin && !viewer.isPlatformAdmin) {
    throw forbidden('isAdmin (a global product) is for platform administrator keys only.');
  }
  return inTransaction(db, (tx) =>
    body.isImport ? importProduct(tx, viewer, body) : newProduct(tx, viewer, body),
  );
}

async function newProduct(tx: Db, viewer: Viewer, body: CreateEstablishmentProduct) {
  const market = viewer.market;
  const currency = body.currency ?? market?.currency ?? 'EUR';
  if (market && currency !== market.currency) {
    throw invalidRequest([
      {
        field: 'currency',
        code: 'invalid',
        message: `must be the establishment's currency, ${market.currency}`,
      },
    ]);
  }
  const value = body.value ?? body.valueInEuros;
  const field = body.value != null ? 'value' : 'valueInEuros';
  const retailValue = value != null ? toMinorUnits(value, currency, field) : 0;
  const sellPrice =
    body.establishmentValueInEuros != null
      ? toMinorUnits(body.establishmentValueInEuros, currency, 'establishmentValueInEuros')
      : null;
  const categoryId = await categoryOf(tx, body.category);
  const id = newId();
  const legacy = Object.fromEntries(
    (['dateOfObject', 'reference', 'gameCatalog'] as const)
      .filter((k) => body[k] !== undefined)
      .map((k) => [k, body[k]]),
  );
  await tx.product.create({
    data: {
      kind: 'physical',
      status: 'active',
      images: [],
      ...(descriptive(body) as object),
      id,
      categoryId: categoryId ?? null,
      ownerSubBrandId: body.isAdmin ? null : viewer.subBrandId,
      translations: body.translations as Prisma.InputJsonValue,
      searchText: searchTextOf(body.translations),
      retailValue,
      currency,
      legacy: legacy as Prisma.InputJsonValue,
    } as Prisma.ProductUncheckedCreateInput,
  });
  const variantId = newId();
  await tx.productVariant.create({
    data: { id: variantId, productId: id, sku: `EST-${id}`, attributes: {}, position: 0 },
  });
  await tx.variantStock.createMany({
    data: (['live', 'test'] as const).map((environment) => ({
      variantId,
      environment,
      available: body.stock!,
    })),
  });
  if (market) {
    await tx.listingMarket.create({
      data: {
        id: newId(),
        subBrandId: viewer.subBrandId,
        variantId,
        productId: id,
        ...market,
        baseCost: retailValue,
        sellPriceOverride: sellPrice,
      },
    });
  }
  return { message: 'Product created', productId: id };
}

/** Lists an existing platform product for the caller: its listings, never a second product. */
async function importProduct(tx: Db, viewer: Viewer, body: CreateEstablishmentProduct) {
  const market = viewer.market;
  if (!market) {
    throw invalidRequest([
      {
        field: 'establishmentId',
        code: 'invalid',
        message: 'has no market (country) to list products in',
      },
    ]);
  }
  const product = await tx.product.findFirst({
    where: {
      id: body.productId!,
      ownerSubBrandId: null,
      status: 'active',
      ...notExclusiveElsewhere(viewer.subBrandId),
    },
    include: { variants: { orderBy: { position: 'asc' } } },
  });
  if (!product) throw notFound('Product');
  const sellPrice =
    body.establishmentValueInEuros != null
      ? toMinorUnits(body.establishmentValueInEuros, market.currency, 'establishmentValueInEuros')
      : null;
  for (const variant of product.variants) {
    // The platform's cost in this currency, as another establishment's listing has it; else
    // the product's retail value when it is in this currency.
    const known = await tx.listingMarket.findFirst({
      where: { variantId: variant.id, currency: market.currency },
      orderBy: { baseCost: 'asc' },
      select: { baseCost: true },
    });
    const baseCost =
      known?.baseCost ?? (product.currency === market.currency ? product.retailValue : null);
    if (baseCost === null) {
      throw invalidRequest([
        { field: 'productId', code: 'invalid', message: `has no known cost in ${market.currency}` },
      ]);
    }
    await tx.listingMarket.upsert({
      where: {
        subBrandId_variantId_country_currency: {
          subBrandId: viewer.subBrandId,
          variantId: variant.id,
          ...market,
        },
      },
      create: {
        id: newId(),
        subBrandId: viewer.subBrandId,
        variantId: variant.id,
        productId: product.id,
        ...market,
        baseCost,
        sellPriceOverride: sellPrice,
      },
      update: { active: true, ...(sellPrice !== null ? { sellPriceOverride: sellPrice } : {}) },
    });
  }
  return { message: 'Product imported', productId: product.id };
}

/** Fields of the product itself (not of the caller's listing). */
const PRODUCT_FIELDS = [
  'status',
  'height',
  'weight',
  'year',
  'order',
  'verificationDate',
  'verifiedBy',
  'providerId',
  'provider',
  'type',
  'helpLink',
  'imageUrl',
  'featuredImageUrl',
  'category',
  'prizeCategory',
  'probability',
  'certificate',
  'featured',
  'digital',
  'medias',
  'translations',
  'valueInEuros',
  'stock',
  'isAdmin',
] as const;

/** JSON with sorted keys: a re-sent value equal to the current one is not a change. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/** What the current view says for a field, in the update body's terms. */
function current(view: ProductView, field: (typeof PRODUCT_FIELDS)[number]): unknown {
  switch (field) {
    case 'category':
      return view.category?.categoryId ?? 'none';
    case 'verificationDate':
      return view.verificationDate?.toISOString() ?? null;
    case 'stock':
      return view.available;
    default:
      return view[field];
  }
}

/**
 * `PUT /products/{id}`. The owner (or a platform admin) changes the product; an establishment
 * that imported it changes only its own listing (`price`), and may re-send the other fields
 * unchanged (the document re-sends whole objects): a different value is 403 naming them.
 */
export async function updateEstablishmentProduct(
  db: Db,
  viewer: Viewer,
  id: string,
  input: unknown,
) {
  const product = await visibleProduct(db, viewer, id);
  const body = parseInput(updateEstablishmentProductBody, input);
  const owns = viewer.isPlatformAdmin || product.ownerSubBrandId === viewer.subBrandId;
  const [before] = await productViews(db, viewer, [id]);
  if (!owns) {
    const changed = PRODUCT_FIELDS.filter((f) => {
      const sent = body[f];
      if (sent === undefined) return false;
      const now =
        f === 'category' && sent && typeof sent === 'object'
          ? ((sent as { categoryId?: string | null }).categoryId ?? 'none')
          : sent;
      return canonical(now ?? null) !== canonical(current(before!, f) ?? null);
    });
    if (body.internalPrice !== undefined) changed.push('internalPrice' as never);
    if (changed.length) {
      throw forbidden(
        `Only the product's owner changes ${changed.join(', ')}: you list it, so you set its price.`,
      );
    }
  }
  if (body.isAdmin !== undefined && body.isAdmin !== before!.isAdmin && !viewer.isPlatformAdmin) {
    throw forbidden('isAdmin (a global product) is for platform administrator keys only.');
  }
  const listingData: Prisma.ListingMarketUpdateManyMutationInput = {};
  if (body.price !== undefined) listingData.coinPriceOverride = body.price;
  if (body.internalPrice !== undefined) listingData.baseCost = body.internalPrice;
  await inTransaction(db, async (tx) => {
    if (owns) {
      const data = descriptive(body);
      const categoryId = await categoryOf(tx, body.category);
      if (categoryId !== undefined) data.categoryId = categoryId;
      if (body.valueInEuros != null) {
        data.retailValue = toMinorUnits(body.valueInEuros, before!.currency, 'valueInEuros');
      }
      if (body.isAdmin === true) data.ownerSubBrandId = null;
      await tx.product.update({ where: { id }, data });
      if (body.stock !== undefined) await setStock(tx, viewer, id, body.stock);
    }
    if (Object.keys(listingData).length) {
      const { count } = await tx.listingMarket.updateMany({
        where: { productId: id, ...ownListings(viewer) },
        data: listingData,
      });
      if (count === 0) {
        const field = body.price !== undefined ? 'price' : 'internalPrice';
        throw invalidRequest([
          { field, code: 'invalid', message: 'needs your listing of the product: it has none' },
        ]);
      }
    }
  });
  return readEstablishmentProduct(db, viewer, id);
}

/** Stock is a product's (shared by every listing): one variant's, in the key's environment. */
async function setStock(tx: Db, viewer: Viewer, productId: string, stock: number) {
  const variants = await tx.productVariant.findMany({ where: { productId }, select: { id: true } });
  if (variants.length !== 1) {
    throw invalidRequest([
      {
        field: 'stock',
        code: 'invalid',
        message: `cannot be set here for a product with ${variants.length} variants: set each variant's stock in the backoffice`,
      },
    ]);
  }
  await tx.variantStock.updateMany({
    where: { variantId: variants[0]!.id, environment: viewer.environment },
    data: { available: stock },
  });
}

/**
 * `DELETE /products/{id}`. The owner (or a platform admin) deletes the product: it leaves every
 * catalog and listing and is hidden from every API, but its row stays (archived, `deleted_at`)
 * so past orders, which name it, read as before. An establishment that imported it removes only
 * its own listings and its own catalogs' links: the platform product stays for the others.
 */
export async function deleteEstablishmentProduct(db: Db, viewer: Viewer, id: string, now: Date) {
  const product = await visibleProduct(db, viewer, id);
  const owns = viewer.isPlatformAdmin || product.ownerSubBrandId === viewer.subBrandId;
  await inTransaction(db, async (tx) => {
    if (owns) {
      await tx.product.update({
        where: { id },
        data: {
          deletedAt: now,
          status: 'archived',
          exclusiveSubBrandId: null,
          exclusiveUntil: null,
        },
      });
      await tx.catalogProduct.deleteMany({ where: { productId: id } });
      await tx.listingMarket.updateMany({ where: { productId: id }, data: { active: false } });
    } else {
      await tx.catalogProduct.deleteMany({
        where: { productId: id, catalog: { subBrandId: viewer.subBrandId } },
      });
      await tx.listingMarket.updateMany({
        where: { productId: id, subBrandId: viewer.subBrandId },
        data: { active: false },
      });
    }
  });
  return {
    productId: id,
    deleted: true as const,
    scope: owns ? ('product' as const) : ('listing' as const),
  };
}

/**
 * `POST /exclusive` and `/admin/exclusive`: the product becomes invisible to every other
 * establishment (on both APIs) for `days` days, or for ever with -1. One guarded UPDATE, so of
 * two establishments asking at once exactly one gets it; the other is 409 CONFLICT. Asking
 * again extends (or shortens) the caller's own. For ever is for the product's owner and for
 * platform admins: an establishment cannot take a platform product away from the others for good.
 */
export async function setExclusivity(db: Db, viewer: Viewer, input: unknown, now: Date) {
  const { productId, days } = parseInput(exclusiveBody, input);
  const product = await visibleProduct(db, viewer, productId);
  if (days === -1 && !viewer.isPlatformAdmin && product.ownerSubBrandId !== viewer.subBrandId) {
    throw forbidden('days -1 (for ever) is for the product’s owner and platform administrators.');
  }
  const until = days === -1 ? null : new Date(now.getTime() + days * 86_400_000);
  const { count } = await db.product.updateMany({
    where: { id: productId, ...notExclusiveElsewhere(viewer.subBrandId, now) },
    data: { exclusiveSubBrandId: viewer.subBrandId, exclusiveUntil: until, exclusiveDays: days },
  });
  if (count === 0) {
    throw new AppError('conflict', 'The product is already exclusive to another establishment.');
  }
  return {
    productId,
    establishmentId: viewer.subBrandId,
    requestedDurationDays: days,
    exclusiveUntil: until,
  };
}

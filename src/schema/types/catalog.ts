// The catalog: categories, products, variants and their listings, catalogs and stores. Partners
// read what their sub-brand can use (domain/catalog/visibility.ts), with sell and coin prices
// only; platform administrators see everything, costs included, and write it.
import { z } from 'zod';
import { LANGUAGES } from '../../domain/customers/schemas.js';
import { PRODUCT_KINDS, PRODUCT_LIFECYCLE, type ProductKind } from '../../domain/catalog/inputs.js';
import { AppError, notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { listingsAtMostCoins } from '../../domain/catalog/coin-price-filter.js';
import { priceListing } from '../../domain/catalog/pricing.js';
import { textIn } from '../../domain/catalog/translations.js';
import {
  visibleCatalogs,
  visibleListings,
  visibleProducts,
} from '../../domain/catalog/visibility.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { likeEscape } from '../../domain/validation.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { countedTotal, ListTotalRef } from '../list-total.js';
import { pricingFor } from '../pricing.js';
import { EnvironmentEnum } from './environment.js';

export const ProductKindEnum = builder.enumType('ProductKind', { values: PRODUCT_KINDS });
export const ProductLifecycleEnum = builder.enumType('ProductLifecycle', {
  values: PRODUCT_LIFECYCLE,
});

const CatalogOwnerEnum = builder.enumType('CatalogOwner', {
  values: ['platform', 'sub_brand'] as const,
});

const LanguageArg = builder.enumType('CatalogLanguage', {
  description: 'A catalog language; missing translations fall back to English.',
  values: LANGUAGES,
});

/** A field in the asked language, else English, else the first language (field by field). */
const translate = (t: unknown, lang: string | null | undefined, field: 'name' | 'description') =>
  textIn(t, lang, field);

/** Partners see their own listings in their market; administrators see every listing. */
const listingsWhere = (ctx: GraphQLContext): Prisma.ListingMarketWhereInput =>
  ctx.principal.isPlatformAdmin
    ? {}
    : visibleListings(ctx.principal.subBrandId, ctx.principal.market);

const productsWhere = (ctx: GraphQLContext): Prisma.ProductWhereInput =>
  ctx.principal.isPlatformAdmin
    ? {}
    : visibleProducts(ctx.principal.subBrandId, ctx.principal.market);

const CATALOG_STATES = ['pending', 'approved', 'rejected'] as const;

const catalogsWhere = (ctx: GraphQLContext): Prisma.CatalogWhereInput =>
  ctx.principal.isPlatformAdmin ? {} : visibleCatalogs(ctx.principal.subBrandId);

const READ = (scope: string) => ({ scope, admin: true }) as const;

builder.prismaObject('Category', {
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    name: t.string({
      args: { lang: t.arg({ type: LanguageArg }) },
      resolve: (c, { lang }) => {
        const names = c.names as Partial<Record<string, string>>;
        return names[lang ?? 'en'] ?? names.en!;
      },
    }),
    names: t.expose('names', {
      type: 'JSON',
      description: 'The name per language.',
      extensions: { jsonShape: z.record(z.string(), z.string()) },
    }),
    position: t.exposeInt('position'),
  }),
});

builder.prismaObject('ListingMarket', {
  name: 'Listing',
  description:
    'A variant offered to a sub-brand in a market. Its id is the listing_market_id orders take.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The listing_market_id.' }),
    country: t.exposeString('country'),
    currency: t.exposeString('currency'),
    active: t.exposeBoolean('active'),
    sellPrice: t.int({
      description: 'Minor units of currency, after the margin cascade.',
      resolve: async (l, _args, ctx) =>
        priceListing(l, await pricingFor(ctx, l.subBrandId)).sellPrice,
    }),
    coinPrice: t.field({
      type: 'SafeInt',
      description: 'Whole coins, at the sub-brand coin ratio.',
      resolve: async (l, _args, ctx) =>
        priceListing(l, await pricingFor(ctx, l.subBrandId)).coinPrice,
    }),
    subBrandId: t.exposeID('subBrandId', { authScopes: { admin: true } }),
    baseCost: t.exposeInt('baseCost', {
      authScopes: { admin: true },
      description: 'What the prize costs the platform, minor units. Administrators only.',
    }),
  }),
});

const VariantStockRef = builder
  .objectRef<{ environment: 'test' | 'live'; available: number }>('VariantStock')
  .implement({
    fields: (t) => ({
      environment: t.field({ type: EnvironmentEnum, resolve: (s) => s.environment }),
      available: t.exposeInt('available'),
    }),
  });

builder.prismaObject('ProductVariant', {
  name: 'Variant',
  fields: (t) => ({
    id: t.exposeID('id'),
    sku: t.exposeString('sku'),
    attributes: t.expose('attributes', {
      type: 'JSON',
      description: 'e.g. { "size": "M" } or { "denomination": "25 EUR" }; {} when none.',
      extensions: { jsonShape: z.record(z.string(), z.string()) },
    }),
    available: t.int({
      description: "Units that can be ordered now, in the key's environment.",
      select: (_args, ctx) => ({
        stock: { where: { environment: ctx.principal.environment }, select: { available: true } },
      }),
      resolve: (v) => v.stock[0]?.available ?? 0,
    }),
    stock: t.field({
      type: [VariantStockRef],
      description: 'Units per environment (the backoffice sets each). Administrators only.',
      authScopes: { admin: true },
      select: { stock: { select: { environment: true, available: true } } },
      resolve: (v) =>
        (['test', 'live'] as const).map((environment) => ({
          environment,
          available: v.stock.find((s) => s.environment === environment)?.available ?? 0,
        })),
    }),
    listings: t.relation('listings', {
      query: (_args, ctx) => ({ where: listingsWhere(ctx), orderBy: { id: 'asc' } }),
    }),
  }),
});

builder.prismaObject('Product', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.string({
      args: { lang: t.arg({ type: LanguageArg }) },
      select: { translations: true },
      resolve: (p, { lang }) => translate(p.translations, lang, 'name')!,
    }),
    description: t.string({
      nullable: true,
      args: { lang: t.arg({ type: LanguageArg }) },
      select: { translations: true },
      resolve: (p, { lang }) => translate(p.translations, lang, 'description'),
    }),
    translations: t.expose('translations', {
      type: 'JSON',
      description: 'Name and description per language (en, es, pt, it, fr).',
      extensions: {
        jsonShape: z.record(
          z.string(),
          z.object({ name: z.string(), description: z.string().nullish() }),
        ),
      },
    }),
    kind: t.field({
      type: ProductKindEnum,
      description: 'Physical prizes need a recipient and address.',
      resolve: (p) => p.kind as ProductKind,
    }),
    status: t.expose('status', { type: ProductLifecycleEnum }),
    images: t.exposeStringList('images'),
    category: t.relation('category', { nullable: true }),
    variants: t.relation('variants', {
      description: 'Partners see the variants they can order: those with a listing for them.',
      query: (_args, ctx) => ({
        where: ctx.principal.isPlatformAdmin ? {} : { listings: { some: listingsWhere(ctx) } },
        orderBy: { position: 'asc' },
      }),
    }),
    ownerSubBrandId: t.exposeID('ownerSubBrandId', {
      nullable: true,
      description: 'The establishment that created it; null for a platform (global) product.',
    }),
    retailValue: t.exposeInt('retailValue', {
      description: "The prize's value to a player, minor units of its currency.",
    }),
    currency: t.exposeString('currency', { nullable: true }),
    exclusiveSubBrandId: t.exposeID('exclusiveSubBrandId', {
      nullable: true,
      authScopes: { admin: true },
      description:
        'The establishment it is exclusive to (see exclusiveUntil). Administrators only.',
    }),
    exclusiveUntil: t.expose('exclusiveUntil', {
      type: 'DateTime',
      nullable: true,
      authScopes: { admin: true },
      description: 'Null with an exclusiveSubBrandId: for ever.',
    }),
    deletedAt: t.expose('deletedAt', {
      type: 'DateTime',
      nullable: true,
      authScopes: { admin: true },
      description: 'Set when deleted through the establishment API (kept for past orders).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('Catalog', {
  fields: (t) => ({
    id: t.exposeID('id'),
    subBrandId: t.exposeID('subBrandId', {
      nullable: true,
      description:
        'The proposing sub-brand (the caller itself, or any for an admin); null: platform.',
    }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    category: t.exposeString('category', { nullable: true, description: 'A free theme.' }),
    owner: t.field({
      type: CatalogOwnerEnum,
      description: 'platform (every sub-brand can use it) or sub_brand (a proposal of yours).',
      resolve: (c) => (c.subBrandId ? 'sub_brand' : 'platform'),
    }),
    status: t.exposeString('status', { description: 'pending, approved or rejected.' }),
    reviewNote: t.exposeString('reviewNote', { nullable: true, authScopes: { admin: true } }),
    reviewedAt: t.expose('reviewedAt', { type: 'DateTime', nullable: true }),
    productCount: t.relationCount('products', {
      description: 'Products in it that the caller can see.',
      where: (_args, ctx) => ({ product: productsWhere(ctx) }),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('Store', {
  fields: (t) => ({
    id: t.exposeID('id'),
    subBrandId: t.exposeID('subBrandId'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    description: t.exposeString('description', { nullable: true }),
    active: t.exposeBoolean('active'),
    catalogs: t.prismaField({
      type: ['Catalog'],
      description: 'The catalogs it shows that the caller can use.',
      select: { catalogIds: true },
      resolve: (query, store, _args, ctx) =>
        ctx.db.catalog.findMany({
          ...query,
          where: { id: { in: store.catalogIds }, ...catalogsWhere(ctx) },
          orderBy: { id: 'asc' },
        }),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const ProductFilter = builder.inputType('ProductFilter', {
  fields: (t) => ({
    q: t.string({ description: 'Case-insensitive text in any language of name or description.' }),
    categoryId: t.id(),
    catalogId: t.id(),
    kind: t.string({ description: 'physical or digital.' }),
    inStock: t.boolean({
      description: "true: only products with a unit available in the caller's environment now.",
    }),
    maxCoinPrice: t.field({
      type: 'SafeInt',
      description:
        'Only products with a listing that costs at most this many coins (with inStock, the same ' +
        "variant is in stock). Partner keys only: a coin price is a sub-brand's.",
    }),
  }),
});

/** A malformed id matches nothing rather than failing the database's uuid cast. */
const uuidOrNone = (id: string) => (isUuid(id) ? id : '00000000-0000-0000-0000-000000000000');

type ProductFilterArgs = typeof ProductFilter.$inferInput;

/** The products list's filter, for its page and its total alike. */
async function productListWhere(
  ctx: GraphQLContext,
  filter: ProductFilterArgs | null | undefined,
): Promise<Prisma.ProductWhereInput> {
  const and: Prisma.ProductWhereInput[] = [productsWhere(ctx)];
  if (filter?.q) {
    and.push({ searchText: { contains: likeEscape(filter.q), mode: 'insensitive' } });
  }
  if (filter?.categoryId) and.push({ categoryId: uuidOrNone(String(filter.categoryId)) });
  if (filter?.kind === 'physical' || filter?.kind === 'digital') and.push({ kind: filter.kind });
  // One variant must meet both: in stock, and listed at the price asked.
  const variant: Prisma.ProductVariantWhereInput[] = [];
  if (filter?.inStock) {
    const environment = ctx.principal.environment;
    variant.push({ stock: { some: { environment, available: { gt: 0 } } } });
  }
  if (filter?.maxCoinPrice != null) {
    if (ctx.principal.isPlatformAdmin)
      throw new AppError(
        'invalid_request',
        "maxCoinPrice needs a sub-brand's prices: search with that sub-brand's partner key.",
      );
    const pricing = await pricingFor(ctx, ctx.principal.subBrandId);
    const cheapEnough = listingsAtMostCoins(filter.maxCoinPrice, pricing);
    variant.push({ listings: { some: { AND: [listingsWhere(ctx), cheapEnough] } } });
  }
  if (variant.length) and.push({ variants: { some: { AND: variant } } });
  if (filter?.catalogId) {
    and.push({
      catalogs: {
        some: {
          catalogId: uuidOrNone(String(filter.catalogId)),
          catalog: catalogsWhere(ctx),
        },
      },
    });
  }
  return { AND: and };
}

/** The catalogs listed: those the caller can use, in one state when asked (validated). */
function catalogListWhere(ctx: GraphQLContext, status: string | null | undefined) {
  if (status && !CATALOG_STATES.includes(status as (typeof CATALOG_STATES)[number]))
    throw new AppError('invalid_request', `status must be one of ${CATALOG_STATES.join(', ')}.`);
  return {
    ...catalogsWhere(ctx),
    ...(status ? { status: status as (typeof CATALOG_STATES)[number] } : {}),
  };
}

builder.queryFields((t) => ({
  products: t.prismaConnection(
    {
      type: 'Product',
      cursor: 'id',
      description: 'Products the caller can order, newest first.',
      authScopes: READ('products:read'),
      args: { filter: t.arg({ type: ProductFilter }) },
      resolve: async (query, _root, { filter }, ctx) =>
        ctx.db.product.findMany({
          ...query,
          where: await productListWhere(ctx, filter),
          orderBy: { id: 'desc' },
        }),
    },
    {
      fields: (c) => ({
        total: c.field({
          type: ListTotalRef,
          description: 'How many products match: exact up to 10,000, "more than" above.',
          resolve: async ({ args }, _args, ctx) => {
            const where = await productListWhere(ctx, args.filter);
            return countedTotal((take) => ctx.db.product.count({ where, take }));
          },
        }),
      }),
    },
  ),
  product: t.prismaField({
    type: 'Product',
    authScopes: READ('products:read'),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const product = isUuid(String(id))
        ? await ctx.db.product.findFirst({
            ...query,
            where: { id: String(id), ...productsWhere(ctx) },
          })
        : null;
      if (!product) throw notFound('Product');
      return product;
    },
  }),
  categories: t.prismaConnection({
    type: 'Category',
    cursor: 'id',
    description: 'Every category, in display order.',
    authScopes: READ('categories:read'),
    resolve: (query, _root, _args, ctx) =>
      ctx.db.category.findMany({ ...query, orderBy: [{ position: 'asc' }, { id: 'asc' }] }),
  }),
  catalogs: t.prismaConnection(
    {
      type: 'Catalog',
      cursor: 'id',
      description:
        "Catalogs the caller can use: the platform's and its own approved proposals, oldest first.",
      authScopes: READ('catalogs:read'),
      args: {
        status: t.arg.string({
          description: 'Only catalogs in this state (pending: the review queue of proposals).',
        }),
      },
      resolve: (query, _root, { status }, ctx) =>
        ctx.db.catalog.findMany({
          ...query,
          where: catalogListWhere(ctx, status),
          orderBy: { id: 'asc' },
        }),
    },
    {
      fields: (c) => ({
        total: c.field({
          type: ListTotalRef,
          description: 'How many catalogs match: exact up to 10,000, "more than" above.',
          resolve: ({ args }, _args, ctx) =>
            countedTotal((take) =>
              ctx.db.catalog.count({ where: catalogListWhere(ctx, args.status), take }),
            ),
        }),
      }),
    },
  ),
  catalog: t.prismaField({
    type: 'Catalog',
    authScopes: READ('catalogs:read'),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const catalog = isUuid(String(id))
        ? await ctx.db.catalog.findFirst({
            ...query,
            where: { id: String(id), ...catalogsWhere(ctx) },
          })
        : null;
      if (!catalog) throw notFound('Catalog');
      return catalog;
    },
  }),
  stores: t.prismaConnection({
    type: 'Store',
    cursor: 'id',
    description: "The sub-brand's active stores, oldest first.",
    authScopes: READ('stores:read'),
    resolve: (query, _root, _args, ctx) =>
      ctx.db.store.findMany({
        ...query,
        where: ctx.principal.isPlatformAdmin
          ? {}
          : { subBrandId: ctx.principal.subBrandId, active: true },
        orderBy: { id: 'asc' },
      }),
  }),
  store: t.prismaField({
    type: 'Store',
    authScopes: READ('stores:read'),
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const where = ctx.principal.isPlatformAdmin
        ? {}
        : { subBrandId: ctx.principal.subBrandId, active: true };
      const store = isUuid(String(id))
        ? await ctx.db.store.findFirst({ ...query, where: { id: String(id), ...where } })
        : null;
      if (!store) throw notFound('Store');
      return store;
    },
  }),
}));

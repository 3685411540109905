// The establishment's view of the catalog (docs/establishment-api.md, "Products" and
// "Catalogs"): the same products, stock and listings as `products`, described as the
// establishment document describes them, and the writes an establishment makes. Bodies are
// validated by the domain (domain/catalog/establishment-*.ts); their GraphQL input types are
// derived from the same zod schemas (zod-input.ts).
import { z } from 'zod';
import {
  createEstablishmentProduct,
  deleteEstablishmentProduct,
  readEstablishmentProduct,
  setExclusivity,
  updateEstablishmentProduct,
} from '../../domain/catalog/establishment-products.js';
import {
  addCatalogProducts,
  catalogProductsBody,
  createEstablishmentCatalog,
  createEstablishmentCatalogBody,
  renameCatalogBody,
  deleteEstablishmentCatalog,
  listEstablishmentCatalogs,
  readEstablishmentCatalog,
  removeCatalogProduct,
  renameEstablishmentCatalog,
} from '../../domain/catalog/establishment-catalogs.js';
import {
  SEEN_CATALOG_STATUSES,
  type ProductView,
} from '../../domain/catalog/establishment-view.js';
import type { Viewer } from '../../domain/catalog/visibility.js';
import {
  PRODUCT_SORT_FIELDS,
  productSearchBody,
  searchEstablishmentProducts,
} from '../../domain/catalog/search-establishment-products.js';
import {
  createEstablishmentProductBody,
  PRIZE_CATEGORIES,
  PRODUCT_STATUSES,
  updateEstablishmentProductBody,
} from '../../domain/catalog/establishment-product-inputs.js';
import { PRICE_SOURCES } from '../../domain/catalog/pricing.js';
import { textsIn } from '../../domain/catalog/translations.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { effect } from '../effects.js';
import { enumOf, inputTypeOf } from '../zod-input.js';

// Named here, before the search input derives them (else `…InputSortField`, `…SortOrder`).
enumOf('EstablishmentProductSortField', PRODUCT_SORT_FIELDS);
enumOf('SortOrder', ['asc', 'desc']);
const SearchInput = inputTypeOf('EstablishmentProductSearchInput', productSearchBody);
const CreateProductInput = inputTypeOf(
  'CreateEstablishmentProductInput',
  createEstablishmentProductBody,
);
const UpdateProductInput = inputTypeOf(
  'UpdateEstablishmentProductInput',
  updateEstablishmentProductBody,
);
const CreateCatalogInput = inputTypeOf(
  'CreateEstablishmentCatalogInput',
  createEstablishmentCatalogBody,
);
const RenameCatalogInput = inputTypeOf('RenameEstablishmentCatalogInput', renameCatalogBody);
const CatalogProductsInput = inputTypeOf('EstablishmentCatalogProductsInput', catalogProductsBody);

const viewerOf = (ctx: GraphQLContext): Viewer => ({
  subBrandId: ctx.principal.subBrandId,
  environment: ctx.principal.environment,
  market: ctx.principal.market,
  isPlatformAdmin: ctx.principal.isPlatformAdmin,
});

const READ = { scope: 'products:read', admin: true } as const;
const WRITE = { scope: 'products:write', admin: true } as const;
const CATALOG_READ = { scope: 'catalogs:read', admin: true } as const;
const CATALOG_WRITE = { scope: 'catalogs:write', admin: true } as const;

const ProductStatusEnum = enumOf(
  'EstablishmentProductStatus',
  PRODUCT_STATUSES,
  'booked: none left, some held by open orders; sold: none left.',
);
const PriceSourceEnum = builder.enumType('PriceSource', {
  description: 'cascade: the margin levels set the price; override: your listing’s own.',
  values: PRICE_SOURCES,
});
const PrizeCategoryEnum = enumOf('PrizeCategory', PRIZE_CATEGORIES);

/** The texts of one language, as a product's translations hold them. */
const productTexts = z.object({
  name: z.string(),
  description: z.string().nullish(),
  extendedDescription: z.string().nullish(),
  additionalDetails: z.string().nullish(),
});

const ProductCategoryRef = builder
  .objectRef<NonNullable<ProductView['category']>>('EstablishmentProductCategory')
  .implement({
    fields: (t) => ({
      categoryId: t.exposeString('categoryId', { description: 'A category id, or "none".' }),
      name: t.exposeString('name', { nullable: true }),
      translations: t.expose('translations', {
        type: 'JSON',
        extensions: { jsonShape: z.record(z.string(), z.string()) },
      }),
    }),
  });

const ProductCatalogRef = builder
  .objectRef<ProductView['catalogs'][number]>('EstablishmentProductCatalog')
  .implement({
    description: 'A catalog you see that holds the product.',
    fields: (t) => ({
      catalogId: t.exposeID('catalogId'),
      name: t.exposeString('name'),
      category: t.exposeString('category', { nullable: true }),
    }),
  });

type Exclusivity = Awaited<ReturnType<typeof setExclusivity>>;

const ExclusivityRef = builder.objectRef<Exclusivity>('ProductExclusivity').implement({
  description: 'Who holds a product exclusively, and until when.',
  fields: (t) => ({
    productId: t.exposeID('productId'),
    establishmentId: t.exposeID('establishmentId'),
    requestedDurationDays: t.exposeInt('requestedDurationDays', { description: '-1: for ever.' }),
    exclusiveUntil: t.expose('exclusiveUntil', {
      type: 'DateTime',
      nullable: true,
      description: 'Null: for ever.',
    }),
  }),
});

/** `name`'s other texts, in the language of `name` (a detail shows them flat). */
const flatText = (
  field: 'description' | 'extendedDescription' | 'additionalDetails',
  what: string,
) =>
  ({
    nullable: true,
    description: `The ${what}, in the language of \`name\` (from translations).`,
    resolve: (p: ProductView) => textsIn(p.translations)?.[field] ?? null,
  }) as const;

/** Legacy fields: stored and answered as the client sent them. */
const asSent = { type: 'JSON', nullable: true, description: 'Legacy, as sent.' } as const;

export const EstablishmentProductRef = builder
  .objectRef<ProductView>('EstablishmentProduct')
  .implement({
    description:
      'A product as an establishment sees it: the catalog row, its stock in the key’s environment and the ' +
      'establishment’s own listing and prices.',
    fields: (t) => ({
      productId: t.exposeID('productId'),
      establishmentId: t.exposeID('establishmentId', {
        nullable: true,
        description: 'The owner; null for a platform (global) product.',
      }),
      isAdmin: t.exposeBoolean('isAdmin', { description: 'A platform (global) product.' }),
      name: t.exposeString('name', {
        description: 'In English, else the first language it has.',
      }),
      translations: t.expose('translations', {
        type: 'JSON',
        description: 'The four texts per language (en, es, pt, it, fr).',
        extensions: { jsonShape: z.record(z.string(), productTexts) },
      }),
      description: t.string(flatText('description', 'description')),
      extendedDescription: t.string(flatText('extendedDescription', 'extended description')),
      additionalDetails: t.string(flatText('additionalDetails', 'additional details')),
      category: t.expose('category', { type: ProductCategoryRef, nullable: true }),
      status: t.expose('status', { type: ProductStatusEnum }),
      visible: t.exposeBoolean('visible', {
        description: 'Your players can order it now (the partner API lists it).',
      }),
      stock: t.exposeInt('stock', {
        description: "Units on hand in the key's environment: available + reserved.",
      }),
      available: t.exposeInt('available', { description: 'Units orderable now (additive).' }),
      reserved: t.exposeInt('reserved', {
        description: 'Units held by open orders, not yet shipped.',
      }),
      price: t.exposeInt('price', {
        nullable: true,
        description: 'Coin price of your listing (null: you do not list it).',
      }),
      establishmentValueInEuros: t.exposeFloat('establishmentValueInEuros', {
        nullable: true,
        description: 'Sell price of your listing, major units.',
      }),
      internalPrice: t.exposeInt('internalPrice', {
        nullable: true,
        description:
          'Base cost of your listing, minor units: shown to the owner and platform admins only.',
      }),
      priceSource: t.expose('priceSource', { type: PriceSourceEnum, nullable: true }),
      ruleName: t.exposeString('ruleName', {
        nullable: true,
        description: 'The last margin level applied, or the override.',
      }),
      valueInEuros: t.exposeFloat('valueInEuros', {
        description: 'Retail value, major units of `currency`.',
      }),
      currency: t.exposeString('currency'),
      type: t.exposeString('type', { nullable: true }),
      provider: t.exposeString('provider', { nullable: true }),
      providerId: t.exposeString('providerId', { nullable: true }),
      helpLink: t.exposeString('helpLink', { nullable: true }),
      verifiedBy: t.exposeString('verifiedBy', { nullable: true }),
      verificationDate: t.expose('verificationDate', { type: 'DateTime', nullable: true }),
      certificate: t.exposeBoolean('certificate'),
      featured: t.exposeBoolean('featured'),
      digital: t.exposeBoolean('digital'),
      order: t.exposeInt('order'),
      height: t.exposeInt('height', { nullable: true }),
      weight: t.exposeInt('weight', { nullable: true }),
      year: t.exposeInt('year', { nullable: true }),
      prizeCategory: t.field({
        type: PrizeCategoryEnum,
        nullable: true,
        // Written only through the domain's PRIZE_CATEGORIES.
        resolve: (p) => p.prizeCategory as (typeof PRIZE_CATEGORIES)[number] | null,
      }),
      probability: t.exposeFloat('probability', { nullable: true }),
      imageUrl: t.exposeString('imageUrl', { nullable: true }),
      featuredImageUrl: t.exposeString('featuredImageUrl', { nullable: true }),
      medias: t.exposeStringList('medias', { description: 'The media URLs.' }),
      dateOfObject: t.field({ ...asSent, resolve: (p) => p.dateOfObject }),
      reference: t.field({ ...asSent, resolve: (p) => p.reference }),
      gameCatalog: t.field({ ...asSent, resolve: (p) => p.gameCatalog }),
      catalogs: t.expose('catalogs', { type: [ProductCatalogRef] }),
      exclusive: t.field({
        type: ExclusivityRef,
        nullable: true,
        description: 'While the product is exclusive to you.',
        resolve: (p) => p.exclusive && { productId: p.productId, ...p.exclusive },
      }),
      createdAt: t.expose('createdAt', { type: 'DateTime' }),
      updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    }),
  });

type Page = Awaited<ReturnType<typeof searchEstablishmentProducts>>;

const ProductPageRef = builder.objectRef<Page>('EstablishmentProductPage').implement({
  fields: (t) => ({
    data: t.field({ type: [EstablishmentProductRef], resolve: (p) => p.data }),
    page: t.int({ nullable: true, resolve: (p) => p.pagination.page }),
    limit: t.int({ resolve: (p) => p.pagination.limit }),
    total: t.int({
      description: 'Exact up to 10,000 matches; 10,000 beyond (then totalExact is false).',
      resolve: (p) => p.pagination.total,
    }),
    totalExact: t.boolean({ resolve: (p) => p.pagination.totalExact }),
    hasMore: t.boolean({ resolve: (p) => p.pagination.hasMore }),
    nextCursor: t.string({ nullable: true, resolve: (p) => p.pagination.nextCursor }),
    metadata: t.field({ type: 'JSON', resolve: (p) => p.metadata }),
  }),
});

const CreatedRef = builder
  .objectRef<{ message: string; productId: string }>('EstablishmentProductCreated')
  .implement({
    fields: (t) => ({ message: t.exposeString('message'), productId: t.exposeID('productId') }),
  });

const DeletedRef = builder
  .objectRef<Awaited<ReturnType<typeof deleteEstablishmentProduct>>>('EstablishmentProductDeleted')
  .implement({
    fields: (t) => ({
      productId: t.exposeID('productId'),
      deleted: t.exposeBoolean('deleted'),
      scope: t.field({
        type: builder.enumType('EstablishmentProductDeletionScope', {
          values: ['product', 'listing'] as const,
        }),
        description: 'product (deleted for everyone) or listing (removed from your listings).',
        resolve: (d) => d.scope,
      }),
    }),
  });

type CatalogNode = Awaited<ReturnType<typeof listEstablishmentCatalogs>>[number] & {
  products?: ProductView[];
};

const SeenCatalogStatusEnum = builder.enumType('EstablishmentCatalogStatus', {
  values: SEEN_CATALOG_STATUSES,
});

const CatalogRef = builder.objectRef<CatalogNode>('EstablishmentCatalog').implement({
  description: 'A catalog an establishment sees.',
  fields: (t) => ({
    catalogId: t.exposeID('id'),
    establishmentId: t.exposeID('subBrandId', {
      nullable: true,
      description: 'Your establishment for your proposals; null for a platform catalog.',
    }),
    name: t.exposeString('name'),
    category: t.exposeString('category', { nullable: true }),
    status: t.field({
      type: SeenCatalogStatusEnum,
      description: 'Additive: a proposal of yours is pending until the platform approves it.',
      resolve: (c) => {
        // establishmentCatalogs() reads no other: a rejected proposal is not shown.
        if (c.status === 'rejected') throw new Error(`Catalog ${c.id} is rejected`);
        return c.status;
      },
    }),
    productCount: t.exposeInt('productCount', { description: 'Products in it that you see.' }),
    products: t.field({
      type: [EstablishmentProductRef],
      description: 'On a single catalog only (empty in lists).',
      resolve: (c) => c.products ?? [],
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CatalogDeletedRef = builder
  .objectRef<{ catalogId: string; deleted: true }>('EstablishmentCatalogDeleted')
  .implement({
    fields: (t) => ({ catalogId: t.exposeID('catalogId'), deleted: t.exposeBoolean('deleted') }),
  });

builder.queryFields((t) => ({
  establishmentProduct: t.field({
    type: EstablishmentProductRef,
    authScopes: READ,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => readEstablishmentProduct(ctx.db, viewerOf(ctx), String(id)),
  }),
  establishmentProductSearch: t.field({
    type: ProductPageRef,
    authScopes: READ,
    description: 'The establishment document’s product search (its body).',
    args: { input: t.arg({ type: SearchInput, required: true }) },
    resolve: (_r, { input }, ctx) => searchEstablishmentProducts(ctx.db, viewerOf(ctx), input),
  }),
  establishmentCatalogs: t.field({
    type: [CatalogRef],
    authScopes: CATALOG_READ,
    args: { establishmentId: t.arg.id({ required: true }) },
    resolve: (_r, { establishmentId }, ctx) =>
      listEstablishmentCatalogs(ctx.db, viewerOf(ctx), String(establishmentId)),
  }),
  establishmentCatalog: t.field({
    type: CatalogRef,
    authScopes: CATALOG_READ,
    args: { establishmentId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: (_r, { establishmentId, id }, ctx) =>
      readEstablishmentCatalog(ctx.db, viewerOf(ctx), String(establishmentId), String(id)),
  }),
}));

builder.mutationFields((t) => ({
  createEstablishmentProduct: t.field({
    extensions: effect('creates'),
    type: CreatedRef,
    authScopes: WRITE,
    description: 'A product of yours, a global one (isAdmin, platform admins), or an import.',
    args: { input: t.arg({ type: CreateProductInput, required: true }) },
    resolve: (_r, { input }, ctx) => createEstablishmentProduct(ctx.db, viewerOf(ctx), input),
  }),
  updateEstablishmentProduct: t.field({
    extensions: effect('changes'),
    type: EstablishmentProductRef,
    authScopes: WRITE,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateProductInput, required: true }),
    },
    resolve: (_r, { id, input }, ctx) =>
      updateEstablishmentProduct(ctx.db, viewerOf(ctx), String(id), input),
  }),
  deleteEstablishmentProduct: t.field({
    extensions: effect('removes'),
    type: DeletedRef,
    authScopes: WRITE,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) =>
      deleteEstablishmentProduct(ctx.db, viewerOf(ctx), String(id), ctx.now()),
  }),
  setProductExclusivity: t.field({
    extensions: effect('changes'),
    type: ExclusivityRef,
    authScopes: WRITE,
    description: 'Hides the product from every other establishment for `days` days (-1: for ever).',
    args: { productId: t.arg.id({ required: true }), days: t.arg.int({ required: true }) },
    resolve: (_r, { productId, days }, ctx) =>
      setExclusivity(ctx.db, viewerOf(ctx), { productId: String(productId), days }, ctx.now()),
  }),
  setPermanentProductExclusivity: t.field({
    extensions: effect('changes'),
    type: ExclusivityRef,
    authScopes: { admin: true },
    description: 'For the platform establishment, for ever (platform admins).',
    args: { productId: t.arg.id({ required: true }) },
    resolve: (_r, { productId }, ctx) =>
      setExclusivity(ctx.db, viewerOf(ctx), { productId: String(productId), days: -1 }, ctx.now()),
  }),
  createEstablishmentCatalog: t.field({
    extensions: effect('creates'),
    type: CatalogRef,
    authScopes: CATALOG_WRITE,
    description: 'A proposal: pending until the platform reviews it.',
    args: {
      establishmentId: t.arg.id({ required: true }),
      input: t.arg({ type: CreateCatalogInput, required: true }),
    },
    resolve: (_r, { establishmentId, input }, ctx) =>
      createEstablishmentCatalog(ctx.db, viewerOf(ctx), String(establishmentId), input),
  }),
  renameEstablishmentCatalog: t.field({
    extensions: effect('changes'),
    type: CatalogRef,
    authScopes: CATALOG_WRITE,
    args: {
      establishmentId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: RenameCatalogInput, required: true }),
    },
    resolve: (_r, { establishmentId, id, input }, ctx) =>
      renameEstablishmentCatalog(ctx.db, viewerOf(ctx), String(establishmentId), String(id), input),
  }),
  deleteEstablishmentCatalog: t.field({
    extensions: effect('removes'),
    type: CatalogDeletedRef,
    authScopes: CATALOG_WRITE,
    args: { establishmentId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: (_r, { establishmentId, id }, ctx) =>
      deleteEstablishmentCatalog(ctx.db, viewerOf(ctx), String(establishmentId), String(id)),
  }),
  addEstablishmentCatalogProducts: t.field({
    extensions: effect('changes'),
    type: CatalogRef,
    authScopes: CATALOG_WRITE,
    args: {
      establishmentId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: CatalogProductsInput, required: true }),
    },
    resolve: (_r, { establishmentId, id, input }, ctx) =>
      addCatalogProducts(ctx.db, viewerOf(ctx), String(establishmentId), String(id), input),
  }),
  removeEstablishmentCatalogProduct: t.field({
    extensions: effect('changes'),
    type: CatalogRef,
    authScopes: CATALOG_WRITE,
    args: {
      establishmentId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true }),
      productId: t.arg.id({ required: true }),
    },
    resolve: (_r, { establishmentId, id, productId }, ctx) =>
      removeCatalogProduct(
        ctx.db,
        viewerOf(ctx),
        String(establishmentId),
        String(id),
        String(productId),
      ),
  }),
}));

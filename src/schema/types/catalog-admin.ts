// The backoffice's catalog writes: platform administrators only. Validation is in the domain
// (domain/catalog/inputs.ts), so these types stay a thin projection of it.
import {
  addVariant,
  createCatalog,
  createCategory,
  createListing,
  createProduct,
  createStore,
  reviewCatalog,
  setCatalogProducts,
  setMargins,
  setVariantStock,
  updateListing,
  updateProduct,
} from '../../domain/catalog/author-catalog.js';
import { addDigitalCodes } from '../../domain/orders/digital-codes.js';
import { builder } from '../builder.js';
import { checkedByDomain, definedInput } from '../inputs.js';
import { EnvironmentEnum } from './environment.js';
import { ProductKindEnum, ProductLifecycleEnum } from './catalog.js';
import { effect } from '../effects.js';

const ADMIN = { admin: true } as const;

const DigitalCodesRef = builder
  .objectRef<{ added: number; available: number }>('DigitalCodesAdded')
  .implement({
    fields: (t) => ({
      added: t.exposeInt('added', {
        description: 'New codes (those already in the pool skipped).',
      }),
      available: t.exposeInt('available', { description: 'Units available now.' }),
    }),
  });

const VariantInput = builder.inputType('VariantInput', {
  fields: (t) => ({
    sku: t.string({ required: true }),
    attributes: t.field({ type: 'JSON', description: '{ "size": "M" }; omitted: none.' }),
    stock: t.int({ required: true, description: 'Units, set for live and for test.' }),
  }),
});

const CreateProductInput = builder.inputType('CreateProductInput', {
  fields: (t) => ({
    categoryId: t.id(),
    kind: t.field({ type: ProductKindEnum, required: true }),
    status: t.field({ type: ProductLifecycleEnum, description: 'Default: active.' }),
    translations: t.field({
      type: 'JSON',
      required: true,
      description: '{ "en": { "name": "…", "description": "…" }, "es": {…} }; en is required.',
    }),
    images: t.stringList(),
    variants: t.field({ type: [VariantInput], required: true }),
  }),
});

const UpdateProductInput = builder.inputType('UpdateProductInput', {
  fields: (t) => ({
    categoryId: t.id(),
    status: t.field({ type: ProductLifecycleEnum }),
    translations: t.field({ type: 'JSON' }),
    images: t.stringList(),
  }),
});

const CreateListingInput = builder.inputType('CreateListingInput', {
  fields: (t) => ({
    subBrandId: t.id({ required: true }),
    variantId: t.id({ required: true }),
    country: t.string({ required: true }),
    currency: t.string({ required: true }),
    baseCost: t.int({ required: true, description: 'Minor units of currency.' }),
    active: t.boolean(),
  }),
});

const MarginInput = builder.inputType('MarginInput', {
  fields: (t) => ({ id: t.id({ required: true }), bps: t.int({ required: true }) }),
});

const CatalogDecision = builder.enumType('CatalogDecision', {
  values: ['approved', 'rejected'] as const,
});

builder.mutationFields((t) => ({
  createCategory: t.prismaField({
    extensions: effect('creates'),
    type: 'Category',
    authScopes: ADMIN,
    args: {
      slug: t.arg.string({ required: true }),
      names: t.arg({ type: 'JSON', required: true }),
      position: t.arg.int(),
    },
    resolve: async (query, _root, args, ctx) => {
      const { id } = await createCategory(ctx.db, {
        ...definedInput(args),
        names: checkedByDomain(args.names),
      });
      return ctx.db.category.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  createProduct: t.prismaField({
    extensions: effect('creates'),
    type: 'Product',
    authScopes: ADMIN,
    description: 'A product and its variants (one without options has one variant, no attributes).',
    args: { input: t.arg({ type: CreateProductInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const { id } = await createProduct(ctx.db, {
        ...definedInput(input),
        translations: checkedByDomain(input.translations),
        variants: input.variants.map((v) => ({
          ...definedInput(v),
          attributes: checkedByDomain(v.attributes ?? undefined),
        })),
      });
      return ctx.db.product.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateProduct: t.prismaField({
    extensions: effect('changes'),
    type: 'Product',
    authScopes: ADMIN,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateProductInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, ctx) => {
      await updateProduct(ctx.db, String(id), {
        ...definedInput(input),
        translations: checkedByDomain(input.translations ?? undefined),
      });
      return ctx.db.product.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
  addProductVariant: t.prismaField({
    extensions: effect('creates'),
    type: 'Product',
    authScopes: ADMIN,
    description:
      'A new variant of an existing product (after its others); a taken SKU is a conflict.',
    args: {
      productId: t.arg.id({ required: true }),
      input: t.arg({ type: VariantInput, required: true }),
    },
    resolve: async (query, _root, { productId, input }, ctx) => {
      await addVariant(ctx.db, String(productId), {
        ...definedInput(input),
        attributes: checkedByDomain(input.attributes ?? undefined),
      });
      return ctx.db.product.findUniqueOrThrow({ ...query, where: { id: String(productId) } });
    },
  }),
  addDigitalCodes: t.field({
    extensions: effect('creates'),
    type: DigitalCodesRef,
    authScopes: ADMIN,
    description:
      'Adds codes (or https links) to a digital variant’s pool, each given to one redeemed unit, and as many ' +
      'units to its stock in that environment; codes already in the pool are skipped (docs/marketplace.md).',
    args: {
      variantId: t.arg.id({ required: true }),
      environment: t.arg({ type: EnvironmentEnum, required: true }),
      codes: t.arg.stringList({ required: true }),
    },
    resolve: (_root, { variantId, environment, codes }, ctx) =>
      addDigitalCodes(ctx.db, String(variantId), environment, { codes }),
  }),
  setVariantStock: t.boolean({
    extensions: effect('changes'),
    authScopes: ADMIN,
    description: 'Sets the units available in one environment (a count, not a delta).',
    args: {
      variantId: t.arg.id({ required: true }),
      environment: t.arg({ type: EnvironmentEnum, required: true }),
      available: t.arg.int({ required: true }),
    },
    resolve: async (_root, args, ctx) => {
      await setVariantStock(ctx.db, String(args.variantId), args.environment, args.available);
      return true;
    },
  }),
  createListing: t.prismaField({
    extensions: effect('creates'),
    type: 'ListingMarket',
    authScopes: ADMIN,
    args: { input: t.arg({ type: CreateListingInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const { id } = await createListing(ctx.db, definedInput(input));
      return ctx.db.listingMarket.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateListing: t.prismaField({
    extensions: effect('changes'),
    type: 'ListingMarket',
    authScopes: ADMIN,
    args: { id: t.arg.id({ required: true }), baseCost: t.arg.int(), active: t.arg.boolean() },
    resolve: async (query, _root, { id, ...input }, ctx) => {
      await updateListing(ctx.db, String(id), input);
      return ctx.db.listingMarket.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
  setMargins: t.boolean({
    extensions: effect('changes'),
    authScopes: ADMIN,
    description:
      'Margins in basis points (100 = 1 %), 0-100000: the platform, a brand, a sub-brand. Given levels change.',
    args: {
      platformBps: t.arg.int(),
      brand: t.arg({ type: MarginInput }),
      subBrand: t.arg({ type: MarginInput }),
    },
    resolve: async (_root, args, ctx) => {
      await setMargins(ctx.db, {
        platformBps: args.platformBps,
        brand: args.brand && { id: String(args.brand.id), bps: args.brand.bps },
        subBrand: args.subBrand && { id: String(args.subBrand.id), bps: args.subBrand.bps },
      });
      return true;
    },
  }),
  createCatalog: t.prismaField({
    extensions: effect('creates'),
    type: 'Catalog',
    authScopes: ADMIN,
    description:
      "With subBrandId: that sub-brand's proposal, pending until reviewed. Without: a platform catalog.",
    args: {
      subBrandId: t.arg.id(),
      name: t.arg.string({ required: true }),
      description: t.arg.string(),
      productIds: t.arg.idList(),
    },
    resolve: async (query, _root, args, ctx) => {
      const { id } = await createCatalog(ctx.db, definedInput(args));
      return ctx.db.catalog.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  setCatalogProducts: t.boolean({
    extensions: effect('changes'),
    authScopes: ADMIN,
    args: { catalogId: t.arg.id({ required: true }), productIds: t.arg.idList({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await setCatalogProducts(ctx.db, String(args.catalogId), args.productIds.map(String));
      return true;
    },
  }),
  reviewCatalog: t.prismaField({
    extensions: effect('changes'),
    type: 'Catalog',
    authScopes: ADMIN,
    description: 'Approve or reject a pending proposal; a rejection is final.',
    args: {
      id: t.arg.id({ required: true }),
      decision: t.arg({ type: CatalogDecision, required: true }),
      note: t.arg.string(),
    },
    resolve: async (query, _root, { id, decision, note }, ctx) => {
      await reviewCatalog(ctx.db, String(id), decision, note ?? null, ctx.now());
      return ctx.db.catalog.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
  createStore: t.prismaField({
    extensions: effect('creates'),
    type: 'Store',
    authScopes: ADMIN,
    args: {
      subBrandId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      slug: t.arg.string({ required: true }),
      description: t.arg.string(),
      catalogIds: t.arg.idList(),
    },
    resolve: async (query, _root, args, ctx) => {
      const { id } = await createStore(ctx.db, definedInput(args));
      return ctx.db.store.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));

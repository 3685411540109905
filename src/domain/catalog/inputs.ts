// The backoffice's catalog inputs (camelCase), validated here so GraphQL, the CLI's demo seed
// and the establishment API cannot disagree.
import { z } from 'zod';
import { countryCode } from '../countries.js';
import { LANGUAGES } from '../customers/schemas.js';
import { nonBlankText } from '../validation.js';
import { MAX_MARGIN_BPS } from './pricing.js';

const text = nonBlankText;

const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be 1-64 lower-case letters, digits, -');

export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be an ISO-4217 code in capitals, e.g. EUR');

/** Per language; English is required, the other languages fall back to it. */
export const translations = z
  .partialRecord(
    z.enum(LANGUAGES),
    z.strictObject({ name: text(200), description: text(4000).nullish() }),
  )
  .refine((t) => t.en !== undefined, 'must include en');

export const categoryNames = z
  .partialRecord(z.enum(LANGUAGES), text(120))
  .refine((t) => t.en !== undefined, 'must include en');

const attributes = z
  .record(z.string().min(1).max(40), z.string().min(1).max(80))
  .refine((a) => Object.keys(a).length <= 10, 'must have at most 10 attributes');

export const stockLevel = z.number().int().min(0).max(1_000_000_000);

export const variantInput = z.strictObject({
  sku: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, . _ -'),
  attributes: attributes.default({}),
  /** The same figure is set for live and test; each environment's stock then moves on its own. */
  stock: stockLevel,
});

/** Physical prizes need a recipient and an address; digital ones do not. */
export const PRODUCT_KINDS = ['physical', 'digital'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];
/** A catalog product's lifecycle: only active products can be listed to players. */
export const PRODUCT_LIFECYCLE = ['draft', 'active', 'archived'] as const;

export const createProductInput = z.strictObject({
  categoryId: z.uuid().nullish(),
  kind: z.enum(PRODUCT_KINDS),
  status: z.enum(PRODUCT_LIFECYCLE).default('active'),
  translations,
  images: z
    .array(z.url({ protocol: /^https?$/ }).max(500))
    .max(20)
    .default([]),
  variants: z.array(variantInput).min(1).max(50),
});

export const updateProductInput = z.strictObject({
  categoryId: z.uuid().nullish(),
  status: z.enum(PRODUCT_LIFECYCLE).optional(),
  translations: translations.optional(),
  images: z
    .array(z.url({ protocol: /^https?$/ }).max(500))
    .max(20)
    .optional(),
});

export const createListingInput = z.strictObject({
  subBrandId: z.uuid(),
  variantId: z.uuid(),
  country: countryCode,
  currency: currencyCode,
  baseCost: z.number().int().min(0).max(1_000_000_000),
  active: z.boolean().default(true),
});

export const marginBps = z.number().int().min(0).max(MAX_MARGIN_BPS);

export const createCategoryInput = z.strictObject({
  slug,
  names: categoryNames,
  position: z.number().int().min(0).max(10_000).default(0),
});

export const createCatalogInput = z.strictObject({
  /** Set: the sub-brand's proposal (pending until reviewed). Omitted: a platform catalog. */
  subBrandId: z.uuid().nullish(),
  name: text(120),
  description: text(1000).nullish(),
  /** A free theme (the establishment document's `category`). */
  category: text(120).nullish(),
  productIds: z.array(z.uuid()).max(1000).default([]),
});

export const createStoreInput = z.strictObject({
  subBrandId: z.uuid(),
  name: text(120),
  slug,
  description: text(1000).nullish(),
  catalogIds: z.array(z.uuid()).max(100).default([]),
});

// The establishment document's product record: the GraphQL selection behind it and its two
// shapes (the detail, whose `category` is an id, and the search item, whose `category` is an
// object). Both carry every field; the document lists a subset for each.
import { z } from 'zod';
import {
  PRIZE_CATEGORIES,
  PRODUCT_STATUSES,
} from '../../../domain/catalog/establishment-product-inputs.js';
import { textsIn } from '../../../domain/catalog/translations.js';

export const PRODUCT_SELECTION = `productId establishmentId isAdmin name translations category status visible
  stock available reserved price establishmentValueInEuros internalPrice priceSource ruleName valueInEuros currency
  type provider providerId helpLink verifiedBy verificationDate certificate featured digital order height weight
  year prizeCategory probability imageUrl featuredImageUrl medias legacy catalogs exclusive createdAt updatedAt`;

const texts = z.object({
  name: z.string(),
  description: z.string().nullish(),
  extendedDescription: z.string().nullish(),
  additionalDetails: z.string().nullish(),
});

const categoryObject = z.object({
  categoryId: z.string().describe('A category id, or "none".'),
  name: z.string().nullable(),
  translations: z.record(z.string(), z.string()),
});

const fields = {
  productId: z.uuid(),
  establishmentId: z.uuid().nullable().describe('The owner; null for a platform (global) product.'),
  isAdmin: z.boolean().describe('A platform (global) product.'),
  name: z.string().describe('In English, else the first language it has.'),
  translations: z
    .record(z.string(), texts)
    .describe('The four texts per language (en, es, pt, it, fr).'),
  status: z
    .enum(PRODUCT_STATUSES)
    .describe('booked: none left, some held by open orders; sold: none left.'),
  visible: z.boolean().describe('Your players can order it now (the partner API lists it).'),
  stock: z.number().int().describe("Units on hand in the key's environment: available + reserved."),
  available: z.number().int().describe('Units orderable now (additive).'),
  reserved: z.number().int().describe('Units held by open orders, not yet shipped.'),
  price: z
    .number()
    .int()
    .nullable()
    .describe('Coin price of your listing (null: you do not list it).'),
  establishmentValueInEuros: z
    .number()
    .nullable()
    .describe('Sell price of your listing, major units.'),
  internalPrice: z
    .number()
    .int()
    .nullable()
    .describe(
      'Base cost of your listing, minor units: shown to the owner and platform admins only.',
    ),
  priceSource: z.enum(['cascade', 'override']).nullable(),
  ruleName: z.string().nullable().describe('The last margin level applied, or the override.'),
  valueInEuros: z.number().describe('Retail value, major units of `currency`.'),
  currency: z.string(),
  type: z.string().nullable(),
  provider: z.string().nullable(),
  providerId: z.string().nullable(),
  helpLink: z.string().nullable(),
  verifiedBy: z.string().nullable(),
  verificationDate: z.iso.datetime().nullable(),
  certificate: z.boolean(),
  featured: z.boolean(),
  digital: z.boolean(),
  order: z.number().int(),
  height: z.number().int().nullable(),
  weight: z.number().int().nullable(),
  year: z.number().int().nullable(),
  prizeCategory: z.enum(PRIZE_CATEGORIES).nullable(),
  probability: z.number().nullable(),
  imageUrl: z.string().nullable(),
  featuredImageUrl: z.string().nullable(),
  medias: z.array(z.string()).describe('The media URLs.'),
  dateOfObject: z.unknown().describe('Legacy, as sent.'),
  reference: z.unknown().describe('Legacy, as sent.'),
  gameCatalog: z.unknown().describe('Legacy, as sent.'),
  catalogs: z.array(
    z.object({ catalogId: z.uuid(), name: z.string(), category: z.string().nullable() }),
  ),
  exclusive: z
    .object({
      establishmentId: z.uuid(),
      requestedDurationDays: z.number().int(),
      exclusiveUntil: z.iso.datetime().nullable(),
    })
    .nullable()
    .describe('While the product is exclusive to you.'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

/** `name`'s three other texts, flattened from `translations` in its language (the catalog detail's). */
const flatText = (what: string) =>
  z.string().nullable().describe(`The ${what}, in the language of \`name\` (from translations).`);

export const productDetail = z
  .object({
    ...fields,
    description: flatText('description'),
    extendedDescription: flatText('extended description'),
    additionalDetails: flatText('additional details'),
    category: z.string().describe('The category id, or "none".'),
  })
  .meta({
    id: 'EstablishmentProduct',
    description: 'A product as an establishment sees it, with its stock and its prices.',
  });

export const productSearchItem = z
  .object({ ...fields, category: categoryObject })
  .meta({ id: 'EstablishmentProductSearchItem', description: 'A product in a search answer.' });

type Node = Record<string, unknown> & {
  category: { categoryId: string; name: string; translations: Record<string, string> } | null;
  legacy: Record<string, unknown>;
};

/**
 * The node's fields, then its legacy fields, then `category`: what `{ ...rest, ...legacy,
 * category }` gives, copied key by key. GraphQL's result objects are null-prototype objects in
 * dictionary mode, which rest and spread copy through V8's slow path: 26 µs a product against 6,
 * and 13 % of a 100-product search's server CPU (docs/performance.md).
 */
function wireOf(node: unknown, category: unknown): Record<string, unknown> {
  const { legacy } = node as Node;
  const out: Record<string, unknown> = {};
  for (const key in node as Node) {
    if (key !== 'legacy' && key !== 'category') out[key] = (node as Node)[key];
  }
  for (const key in legacy) out[key] = legacy[key];
  out.category = category;
  return out;
}

export const toProductDetail = (node: unknown) => {
  const out = wireOf(node, (node as Node).category?.categoryId ?? 'none');
  const texts = textsIn(out.translations);
  out.description = texts?.description ?? null;
  out.extendedDescription = texts?.extendedDescription ?? null;
  out.additionalDetails = texts?.additionalDetails ?? null;
  return out;
};

export const toProductSearchItem = (node: unknown) =>
  wireOf(node, (node as Node).category ?? { categoryId: 'none', name: null, translations: {} });

// The establishment document's product bodies (spec/establishment-api.md, "Product"), validated
// here so the REST rows, GraphQL and tests read one definition. Unknown fields are ignored (the
// document re-sends whole objects and has fields it does not consume, such as a top-level name).
import { z } from 'zod';
import { LANGUAGES } from '../customers/schemas.js';
import { nonBlankText } from '../validation.js';
import { currencyCode } from './inputs.js';

/** The document's five statuses; the last two are derived from stock and never written. */
/** The id the OpenAPI examples use (openapi-examples.ts's; its examples replay swaps it). */
const EXAMPLE_ID = '0192f1e4-7a3b-7c1d-9e2f-3a4b5c6d7e8f';

export const PRODUCT_STATUSES = ['available', 'unavailable', 'booked', 'hidden', 'sold'] as const;
export type ProductWireStatus = (typeof PRODUCT_STATUSES)[number];
export const WRITABLE_STATUS = {
  available: 'active',
  unavailable: 'draft',
  hidden: 'archived',
} as const;

export const PRIZE_CATEGORIES = [
  'legendary',
  'epic',
  'rare',
  'uncommon',
  'common',
  'virtual',
] as const;

const status = z
  .enum(PRODUCT_STATUSES)
  .refine(
    (s) => s in WRITABLE_STATUS,
    'is derived from stock (booked, sold): send available, unavailable or hidden',
  );

const optionalText = (max: number) => z.string().max(max).nullish();
const url = z.url({ protocol: /^https?$/ }).max(2048);
const whole = (max: number) => z.number().int().min(0).max(max);
const money = z
  .number()
  .min(0)
  .describe('Major units (12.34); at most the currency\u2019s decimals.');

/** `YYYY-MM-DD HH:mm:ss` (the create body's form, read as UTC) or an ISO-8601 date-time. */
export const verificationDate = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})?$/,
    'must be YYYY-MM-DD HH:mm:ss or an ISO-8601 date-time',
  )
  .refine((v) => !v.startsWith('0000') && !Number.isNaN(Date.parse(utcText(v))), {
    message: 'must be a real date',
  })
  .meta({ examples: ['2026-01-31 12:00:00'] });

/** The create form has no zone: it is UTC. */
export const utcText = (v: string) => {
  const t = v.replace(' ', 'T');
  return /(Z|[+-]\d{2}:\d{2})$/.test(t) ? t : `${t}Z`;
};

/** Per language (en, es, pt, it, fr): the four texts, name required. At least one language. */
export const productTranslations = z
  .partialRecord(
    z.enum(LANGUAGES),
    z.object({
      name: nonBlankText(200),
      description: optionalText(4000),
      extendedDescription: optionalText(10_000),
      additionalDetails: optionalText(4000),
    }),
  )
  .refine((t) => Object.keys(t).length > 0, 'must have at least one language')
  // The rule, and a language's texts, stated in the OpenAPI documents.
  .meta({
    minProperties: 1,
    examples: [{ en: { name: 'Signed jersey', description: 'Worn in the 2026 final.' } }],
  });

/** The document's `category`: `{ categoryId }` on create, a plain id on update; "none" clears. */
const category = z.union([
  z.object({ categoryId: z.union([z.uuid(), z.literal('none')]).nullish() }),
  z.uuid(),
  z.literal('none'),
]);

/** A media entry: the document stores maps as given on create and shows URLs on read. */
const media = z.union([url, z.record(z.string(), z.unknown())]);

/** Fields both bodies take. */
const common = {
  status: status.optional(),
  height: whole(1_000_000).nullish(),
  weight: whole(1_000_000).nullish(),
  year: z.number().int().min(0).max(9999).nullish(),
  order: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  verificationDate: verificationDate.nullish(),
  verifiedBy: optionalText(200),
  providerId: optionalText(200),
  provider: optionalText(200),
  type: optionalText(64),
  helpLink: url.nullish(),
  imageUrl: url.nullish(),
  featuredImageUrl: url.nullish(),
  category: category.nullish(),
  prizeCategory: z.enum(PRIZE_CATEGORIES).nullish(),
  probability: z.number().min(0).max(1).nullish(),
  certificate: z.boolean().optional(),
  isAdmin: z.boolean().optional(),
  featured: z.boolean().optional(),
  digital: z.boolean().optional(),
  medias: z.array(media).max(50).optional(),
  translations: productTranslations.optional(),
  valueInEuros: money.nullish(),
};

export const createEstablishmentProductBody = z
  .object({
    establishmentId: z.uuid(),
    stock: whole(1_000_000_000).optional().describe('Required unless isImport.'),
    productId: z.uuid().optional().describe('With isImport: the platform product to list.'),
    isImport: z.boolean().optional(),
    establishmentValueInEuros: money.nullish(),
    value: money.nullish().describe('Legacy alias of valueInEuros; wins when both are sent.'),
    currency: currencyCode.optional(),
    dateOfObject: z.unknown().optional(),
    reference: z.unknown().optional(),
    gameCatalog: z.unknown().optional(),
    ...common,
  })
  .describe(
    'A new product needs stock and translations (its name lives there); an import (isImport with ' +
      'productId) lists a platform product and needs neither.',
  )
  // The same rule, for generated clients and validators (the create checks it in the domain).
  .meta({
    oneOf: [
      {
        description: 'A new product of yours.',
        required: ['stock', 'translations'],
        properties: { isImport: { const: false } },
      },
      {
        description: 'An import: a platform product listed for your players.',
        required: ['isImport', 'productId'],
        properties: { isImport: { const: true } },
      },
    ],
    examples: [
      {
        establishmentId: EXAMPLE_ID,
        stock: 5,
        valueInEuros: 25,
        status: 'available',
        digital: false,
        prizeCategory: 'rare',
        imageUrl: 'https://cdn.example.com/prizes/jersey.png',
        translations: {
          en: { name: 'Signed jersey', description: 'Worn in the 2026 final.' },
          es: { name: 'Camiseta firmada', description: 'Usada en la final de 2026.' },
        },
      },
    ],
  });

export type CreateEstablishmentProduct = z.output<typeof createEstablishmentProductBody>;

export const updateEstablishmentProductBody = z
  .object({
    ...common,
    stock: whole(1_000_000_000).optional(),
    price: whole(1_000_000_000)
      .nullish()
      .describe('A coin price for your listing (an override); null returns to the derived price.'),
    internalPrice: whole(2_147_483_647)
      .optional()
      .describe('The base cost of your listing, minor units (owner or platform admin).'),
  })
  .meta({
    examples: [{ stock: 10, valueInEuros: 30, status: 'available', featured: true }],
  });

export type UpdateEstablishmentProduct = z.output<typeof updateEstablishmentProductBody>;

/**
 * The document's `/exclusive` body shows only `days`; a lock is of one product, so `productId`
 * is required too, and a body without it is told what to send (issue 32).
 */
export const EXCLUSIVE_WITHOUT_PRODUCT =
  'is required: exclusivity locks one product. Send { "productId": "<a productId from POST /products/search>", ' +
  '"days": 30 } (days 1-3650, or -1 for ever for your own products)';

export const exclusiveBody = z
  .object({
    productId: z.uuid().optional(),
    days: z
      .number()
      .int()
      .min(-1)
      .max(3650)
      .refine((d) => d !== 0, 'must be 1-3650 days, or -1 for ever')
      .meta({ not: { const: 0 } }),
  })
  .superRefine((v, ctx) => {
    if (v.productId === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['productId'],
        message: EXCLUSIVE_WITHOUT_PRODUCT,
        params: { rule: 'required' },
      });
  })
  .transform((v) => ({ productId: v.productId!, days: v.days }))
  .meta({ required: ['productId', 'days'], examples: [{ productId: EXAMPLE_ID, days: 30 }] });

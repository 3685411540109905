// GET/PUT /establishments/{establishmentId}: the establishment's profile, branding, currency and
// coin ratio. The id must be the key's own sub-brand (any, for a platform-admin key).
import { z } from 'zod';
import {
  currencyCode,
  frameOrigin,
  STYLE_KEYS,
  updateEstablishmentInput,
} from '../../../domain/establishments/schemas.js';
import { JURISDICTIONS } from '../../../domain/jurisdiction/rules.js';
import { defineRoute } from '../../define-route.js';
import { COIN_EXPIRY } from '../partner/holds.js';
import { wireRecord } from '../../wire-answer.js';
import { uuidParams } from './wire.js';

const SELECTION = `id brandId name description email location status locale imageUrl thumbnailUrl
  style { ${STYLE_KEYS.join(' ')} } currency coinsPerUnit coinName frameOrigins isIntegration
  monthlyAllocatedCoins totalAvailableCoins accountManagerId paymentPlanId createdAt
  coinExpiry { policy days month day } jurisdiction`;

const text = z.string().nullable();
const style = z.object(
  Object.fromEntries(STYLE_KEYS.map((k) => [k, z.string().nullable()])) as Record<
    (typeof STYLE_KEYS)[number],
    z.ZodNullable<z.ZodString>
  >,
);

const establishmentRecord = z
  .object({
    establishmentId: z.uuid(),
    name: z.string(),
    defaultCurrency: z.string().describe('ISO 4217.'),
    description: text,
    email: z.email().nullable(),
    location: text,
    status: z.enum(['active', 'inactive', 'suspended']),
    locale: z.string().describe('BCP 47 language tag of the marketplace.'),
    monthlyAllocatedCoins: z.number().int(),
    totalAvailableCoins: z
      .number()
      .int()
      .describe(
        'monthlyAllocatedCoins less the coins credited this UTC month (sources api, bulk, engine, campaign) ' +
          "in the key's environment. Informational: credits are not refused below zero.",
      ),
    paymentPlanId: z.uuid().nullable(),
    isIntegration: z.boolean(),
    imageUrl: z.url().nullable(),
    thumbnailUrl: z.url().nullable(),
    style,
    coinRatio: z.number().int().describe('Coins per one unit of defaultCurrency.'),
    coinName: z.string(),
    frameOrigins: z
      .array(z.string())
      .describe(
        'Additive: the sites (origins) that may frame the player marketplace. Empty: none in live, any in test.',
      ),
    parentCasinoId: z.uuid().describe('The parent brand.'),
    accountManagerId: z.uuid().nullable(),
    coinExpiry: wireRecord('establishment', COIN_EXPIRY).schema.describe(
      'Additive: when its coins expire (set by platform and brand admins; docs/expiry-and-holds.md).',
    ),
    jurisdiction: z
      .enum(JURISDICTIONS)
      .describe(
        'Additive: the regulator whose incentive rules apply, set by platform admins. UKGC: a campaign may name ' +
          'at most one vertical (docs/compliance.md).',
      ),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'Establishment',
    description: 'An establishment: profile, branding, locale, coin name and commercial settings.',
  });

type Node = Record<string, unknown> & { style: Record<string, string | null> };

const toEstablishment = (node: unknown) => {
  const e = node as Node;
  return {
    establishmentId: e.id,
    name: e.name,
    defaultCurrency: e.currency,
    description: e.description,
    email: e.email,
    location: e.location,
    status: e.status,
    locale: e.locale,
    monthlyAllocatedCoins: e.monthlyAllocatedCoins,
    totalAvailableCoins: e.totalAvailableCoins,
    paymentPlanId: e.paymentPlanId,
    isIntegration: e.isIntegration,
    imageUrl: e.imageUrl,
    thumbnailUrl: e.thumbnailUrl,
    style: { ...e.style },
    coinRatio: e.coinsPerUnit,
    coinName: e.coinName,
    frameOrigins: e.frameOrigins,
    parentCasinoId: e.brandId,
    accountManagerId: e.accountManagerId,
    coinExpiry: e.coinExpiry,
    jurisdiction: e.jurisdiction,
    createdAt: e.createdAt,
  };
};

const params = uuidParams('establishmentId');

export const getEstablishment = defineRoute({
  name: 'get_establishment',
  family: 'establishment',
  method: 'GET',
  path: '/establishments/{establishmentId}',
  scope: 'establishment:read',
  platformAdmin: true,
  tag: 'Establishments',
  summary: 'Get the establishment',
  description:
    "The establishment's profile, branding (style), currency, coin ratio and monthly coin allocation. " +
    "establishmentId is the key's own sub-brand; any other is 404 ESTABLISHMENT_NOT_FOUND (platform-admin " +
    'keys read any).',
  hints: { readOnly: true, idempotent: true },
  params,
  idempotency: 'none',
  successStatus: 200,
  response: establishmentRecord,
  errors: [],
  operation: `query GetEstablishment($id: ID!) { establishment(id: $id) { ${SELECTION} } }`,
  variables: ({ params }) => ({ id: params.establishmentId }),
  result: (data) => toEstablishment(data.establishment),
});

const nullableText = (max: number) => z.string().max(max).nullable();
/** The formats the domain checks (domain/establishments/schemas.ts), checked and stated here. */
const httpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
  .max(2048, 'must be at most 2048 characters')
  .meta({ pattern: '^https?://' });

const updateBody = z
  .object({
    name: z.string().meta({ minLength: 1, maxLength: 120 }),
    email: z.email().max(255).nullable(),
    imageUrl: httpUrl.nullable(),
    thumbnailUrl: httpUrl.nullable(),
    description: nullableText(2000),
    location: nullableText(240),
    defaultCurrency: currencyCode,
    status: z.enum(['active', 'inactive', 'suspended']),
    locale: updateEstablishmentInput.shape.locale.meta({ examples: ['es-ES'] }),
    coinRatio: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe(
        'Coins per one unit of currency. Platform admins only (the current value may be re-sent).',
      ),
    parentCasinoId: z.uuid().optional().describe('The parent brand. Platform admins only.'),
    accountManagerId: z.uuid().nullish().describe('Platform admins only.'),
    coinName: z.string().optional().describe('The coins\' name, e.g. "Lucky Coins".'),
    frameOrigins: z
      .array(frameOrigin.meta({ examples: ['https://casino.example'] }))
      .max(20)
      .optional()
      .describe(
        'Additive: the sites that may frame the player marketplace, e.g. ["https://casino.example"]; omitted: unchanged.',
      ),
    ...(Object.fromEntries(STYLE_KEYS.map((k) => [k, z.string().max(64).optional()])) as Record<
      (typeof STYLE_KEYS)[number],
      z.ZodOptional<z.ZodString>
    >),
  })
  .meta({
    examples: [
      {
        name: 'Casino Royal',
        email: 'support@casino.example',
        imageUrl: 'https://casino.example/logo.png',
        thumbnailUrl: 'https://casino.example/logo-small.png',
        description: 'Slots, live tables and sports in Madrid.',
        location: 'Madrid, Spain',
        defaultCurrency: 'EUR',
        status: 'active',
        locale: 'es-ES',
        coinName: 'Lucky Coins',
        frameOrigins: ['https://casino.example'],
        backgroundPrimary: '#101820',
        foregroundPrimary: '#FFFFFF',
        font: 'Inter',
      },
    ],
  });

const updateResponse = z
  .object({
    $metadata: z.object({
      httpStatusCode: z.literal(200),
      requestId: z.string(),
      attempts: z.literal(1),
      totalRetryDelay: z.literal(0),
    }),
    Attributes: z.object({
      imageUrl: z.url().nullable(),
      location: text,
      monthlyAllocatedCoins: z.number().int(),
      defaultCurrency: z.string(),
      status: z.string(),
      thumbnailUrl: z.url().nullable(),
      description: text,
      email: z.email().nullable(),
      paymentPlanId: z.uuid().nullable(),
      name: z.string(),
    }),
  })
  .meta({
    id: 'EstablishmentUpdate',
    description: 'The answer to an establishment update.',
  });

export const updateEstablishment = defineRoute({
  name: 'update_establishment',
  family: 'establishment',
  method: 'PUT',
  path: '/establishments/{establishmentId}',
  scope: 'establishment:update',
  platformAdmin: true,
  tag: 'Establishments',
  summary: 'Update the establishment',
  description:
    'Replaces the profile: the nine required fields, style members at the top level (merged into the current ' +
    'style), and coinName. defaultCurrency, coinRatio, parentCasinoId and accountManagerId move money or ownership: ' +
    'only platform-admin keys may change them (403 FORBIDDEN); others may re-send their current values. ' +
    'Nullable fields are cleared by null. Unknown fields are ignored.',
  hints: { idempotent: true },
  params,
  body: updateBody,
  idempotency: 'optional',
  successStatus: 200,
  response: updateResponse,
  errors: ['not_found'],
  operation: `mutation UpdateEstablishment($id: ID!, $input: UpdateEstablishmentInput!) {
    updateEstablishment(id: $id, input: $input) { ${SELECTION} }
  }`,
  variables: ({ params, body }) => {
    const { defaultCurrency, coinRatio, parentCasinoId, ...rest } = body;
    const style = Object.fromEntries(STYLE_KEYS.flatMap((k) => (k in rest ? [[k, rest[k]]] : [])));
    const profile = Object.fromEntries(
      Object.entries(rest).filter(([k]) => !(STYLE_KEYS as readonly string[]).includes(k)),
    );
    return {
      id: params.establishmentId,
      input: {
        ...profile,
        currency: defaultCurrency,
        coinsPerUnit: coinRatio,
        brandId: parentCasinoId,
        ...(Object.keys(style).length ? { style } : {}),
      },
    };
  },
  result: (data, { requestId }) => {
    const e = toEstablishment(data.updateEstablishment);
    return {
      // The document's PUT answer (an AWS SDK-style envelope): fixed values and the request id.
      $metadata: { httpStatusCode: 200, requestId, attempts: 1, totalRetryDelay: 0 },
      Attributes: {
        imageUrl: e.imageUrl,
        location: e.location,
        monthlyAllocatedCoins: e.monthlyAllocatedCoins,
        defaultCurrency: e.defaultCurrency,
        status: e.status,
        thumbnailUrl: e.thumbnailUrl,
        description: e.description,
        email: e.email,
        paymentPlanId: e.paymentPlanId,
        name: e.name,
      },
    };
  },
});

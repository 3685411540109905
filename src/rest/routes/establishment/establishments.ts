// GET/PUT /establishments/{establishmentId}: the establishment's profile, branding, currency and
// coin ratio. The id must be the key's own sub-brand (any, for a platform-admin key).
import { z } from 'zod';
import {
  currencyCode,
  frameOrigin,
  STYLE_KEYS,
  updateEstablishmentInput,
} from '../../../domain/establishments/schemas.js';
import { defineRoute } from '../../define-route.js';
import { COIN_EXPIRY } from '../partner/holds.js';
import { fragment, wireRecord } from '../../wire-answer.js';
import { uuidParams } from './wire.js';

/** The establishment in this family's words: the GraphQL Establishment, its fields renamed. */
const ESTABLISHMENT = fragment(
  'Establishment',
  'Establishment',
  `establishmentId: id name defaultCurrency: currency description email location status locale
  monthlyAllocatedCoins totalAvailableCoins paymentPlanId isIntegration imageUrl thumbnailUrl
  style { ${STYLE_KEYS.join(' ')} } coinRatio: coinsPerUnit coinName frameOrigins
  parentCasinoId: brandId accountManagerId coinExpiry { ${COIN_EXPIRY} } jurisdiction createdAt`,
  [COIN_EXPIRY],
);
const establishment = wireRecord('establishment', ESTABLISHMENT);
const establishmentShape = establishment.schema.shape;

/** What a PUT answers of the establishment (the document's `Attributes`), in its order. */
const UPDATE_ATTRIBUTES = [
  'imageUrl',
  'location',
  'monthlyAllocatedCoins',
  'defaultCurrency',
  'status',
  'thumbnailUrl',
  'description',
  'email',
  'paymentPlanId',
  'name',
] as const;

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
  errors: [],
  operation: `query GetEstablishment($id: ID!) { establishment(id: $id) { ${ESTABLISHMENT} } }
  ${ESTABLISHMENT.definition}`,
  variables: ({ params }) => ({ id: params.establishmentId }),
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
    // The document's subset of the record, in its order.
    Attributes: z.object(
      Object.fromEntries(UPDATE_ATTRIBUTES.map((k) => [k, establishmentShape[k]!])),
    ),
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
    updateEstablishment(id: $id, input: $input) { ${ESTABLISHMENT} }
  }
  ${ESTABLISHMENT.definition}`,
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
    const e = establishment.map(data.updateEstablishment) as Record<string, unknown>;
    return {
      // The document's PUT answer (an AWS SDK-style envelope): fixed values and the request id.
      $metadata: { httpStatusCode: 200, requestId, attempts: 1, totalRetryDelay: 0 },
      Attributes: Object.fromEntries(UPDATE_ATTRIBUTES.map((k) => [k, e[k]])),
    };
  },
});

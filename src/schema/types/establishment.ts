// Establishments (sub-brands seen by the establishment API and the backoffice): profile,
// branding, currency, coin ratio and commercial settings. A key reads and updates its own; a
// platform admin any, and alone changes the commercial fields.
import { z } from 'zod';
import { coinExpiryOf } from '../../domain/wallet/expiry-policy.js';
import { CoinExpiryRef } from './coin-lots.js';
import {
  readEstablishment,
  type Establishment,
} from '../../domain/establishments/read-establishment.js';
import { ESTABLISHMENT_STATUSES, STYLE_KEYS } from '../../domain/establishments/schemas.js';
import { updateEstablishment } from '../../domain/establishments/update-establishment.js';
import { notFound } from '../../domain/errors.js';
import { builder } from '../builder.js';
import { definedInput } from '../inputs.js';
import type { GraphQLContext } from '../context.js';
import { effect } from '../effects.js';
import { JurisdictionEnum } from './jurisdiction.js';

const StatusEnum = builder.enumType('EstablishmentStatus', { values: ESTABLISHMENT_STATUSES });

const StyleRef = builder
  .objectRef<Partial<Record<(typeof STYLE_KEYS)[number], string>>>('EstablishmentStyle')
  .implement({
    description: 'Marketplace colours and font; a member never set is null.',
    fields: (t) =>
      Object.fromEntries(
        STYLE_KEYS.map((k) => [
          k,
          t.string({ nullable: true, resolve: (style) => style[k] ?? null }),
        ]),
      ),
  });

const EstablishmentRef = builder.objectRef<Establishment>('Establishment').implement({
  description: 'A sub-brand as the establishment API shows it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    brandId: t.exposeID('brandId', { description: 'The parent brand (parentCasinoId).' }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    email: t.exposeString('email', { nullable: true, extensions: { jsonShape: z.email() } }),
    location: t.exposeString('location', { nullable: true }),
    status: t.expose('status', { type: StatusEnum }),
    locale: t.exposeString('locale', {
      description: 'BCP 47 language tag of the marketplace.',
    }),
    imageUrl: t.exposeString('imageUrl', { nullable: true, extensions: { jsonShape: z.url() } }),
    thumbnailUrl: t.exposeString('thumbnailUrl', {
      nullable: true,
      extensions: { jsonShape: z.url() },
    }),
    style: t.field({ type: StyleRef, resolve: (e) => e.style }),
    currency: t.exposeString('currency', { description: 'ISO 4217.' }),
    country: t.exposeString('country', { nullable: true }),
    coinsPerUnit: t.exposeInt('coinsPerUnit', {
      description: 'Coins per one unit of the currency.',
    }),
    coinName: t.exposeString('coinName'),
    frameOrigins: t.exposeStringList('frameOrigins', {
      description:
        'The sites (origins) that may frame the player marketplace (CSP frame-ancestors). Empty: none in live, any in test.',
    }),
    isIntegration: t.exposeBoolean('isIntegration'),
    monthlyAllocatedCoins: t.field({
      type: 'SafeInt',
      resolve: (e) => e.monthlyAllocatedCoins,
    }),
    totalAvailableCoins: t.field({
      type: 'SafeInt',
      description:
        'monthlyAllocatedCoins less the coins credited this UTC month (sources api, bulk, engine, campaign) ' +
        "in the key's environment. Informational: credits are not refused below zero.",
      resolve: (e) => e.totalAvailableCoins,
    }),
    accountManagerId: t.exposeID('accountManagerId', { nullable: true }),
    paymentPlanId: t.exposeID('paymentPlanId', { nullable: true }),
    coinExpiry: t.field({
      type: CoinExpiryRef,
      description:
        'When its coins expire (set by platform and brand admins; docs/expiry-and-holds.md).',
      resolve: (e) => coinExpiryOf(e),
    }),
    jurisdiction: t.field({
      type: JurisdictionEnum,
      description:
        'The regulator whose incentive rules apply, set by platform admins. UKGC: a campaign may name ' +
        'at most one vertical (docs/compliance.md).',
      resolve: (e) => e.jurisdiction,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** A key reaches its own establishment; a platform admin any. Others: not found. */
function reachable(ctx: GraphQLContext, id: string): string {
  if (id !== ctx.principal.subBrandId && !ctx.principal.isPlatformAdmin) {
    throw notFound('Sub-brand');
  }
  return id;
}

builder.queryField('establishment', (t) =>
  t.field({
    type: EstablishmentRef,
    authScopes: { scope: 'establishment:read', admin: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) =>
      readEstablishment(ctx.db, reachable(ctx, String(id)), ctx.principal.environment),
  }),
);

const StyleInput = builder.inputType('EstablishmentStyleInput', {
  fields: (t) =>
    Object.fromEntries(STYLE_KEYS.map((k) => [k, t.string({ description: 'At most 64.' })])),
});

const UpdateEstablishmentInput = builder.inputType('UpdateEstablishmentInput', {
  description:
    'The whole profile. Nullable fields are cleared by null; style members merge. The commercial fields ' +
    '(currency, coinsPerUnit, brandId, accountManagerId, isIntegration, monthlyAllocatedCoins, ' +
    'paymentPlanId) may be changed by platform admins only.',
  fields: (t) => ({
    name: t.string({ required: true }),
    email: t.string(),
    imageUrl: t.string(),
    thumbnailUrl: t.string(),
    description: t.string(),
    location: t.string(),
    status: t.field({ type: StatusEnum, required: true }),
    locale: t.string({ required: true }),
    coinName: t.string(),
    style: t.field({ type: StyleInput }),
    frameOrigins: t.stringList({
      description: 'Replaces the list of sites that may frame the marketplace; omitted: unchanged.',
    }),
    currency: t.string({ required: true }),
    coinsPerUnit: t.int(),
    brandId: t.id(),
    accountManagerId: t.id(),
    isIntegration: t.boolean(),
    monthlyAllocatedCoins: t.field({ type: 'SafeInt' }),
    paymentPlanId: t.id(),
  }),
});

builder.mutationField('updateEstablishment', (t) =>
  t.field({
    extensions: effect('changes'),
    type: EstablishmentRef,
    authScopes: { scope: 'establishment:update', admin: true },
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateEstablishmentInput, required: true }),
    },
    resolve: async (_root, { id, input }, ctx) => {
      const target = reachable(ctx, String(id));
      const { email, imageUrl, thumbnailUrl, description, location, style, ...rest } = input;
      await updateEstablishment(
        ctx.db,
        target,
        {
          ...definedInput(rest),
          // The whole profile: a nullable field left out is cleared, as its null clears it.
          email: email ?? null,
          imageUrl: imageUrl ?? null,
          thumbnailUrl: thumbnailUrl ?? null,
          description: description ?? null,
          location: location ?? null,
          ...(style ? { style: definedInput(style) } : {}),
        },
        { admin: ctx.principal.isPlatformAdmin },
      );
      return readEstablishment(ctx.db, target, ctx.principal.environment);
    },
  }),
);

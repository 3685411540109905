// Coin lots, holds and the expiry policy (docs/expiry-and-holds.md): what a wallet read shows
// beyond its balance, the holds' mutations, and the policy admins set per sub-brand.
import { z } from 'zod';
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import {
  coinExpiryFields,
  coinExpiryOf,
  setCoinExpiry,
  type CoinExpiry,
} from '../../domain/wallet/expiry-policy.js';
import {
  captureHold,
  HOLD_STATUSES,
  holdView,
  placeHold,
  releaseHold,
} from '../../domain/wallet/holds.js';
import { readCoins, type CoinsView, type Expiring } from '../../domain/wallet/read-coins.js';
import { builder } from '../builder.js';
import { effect } from '../effects.js';
import { assertManagesSubBrand } from '../key-managers.js';
import { actorOf, tenantOf } from '../tenant.js';

const ExpiryPolicyEnum = builder.enumType('ExpiryPolicy', {
  description: 'When coins expire.',
  values: {
    none: { description: 'Never.' },
    rolling_days: { description: 'Each credit expires `days` days after it was earned.' },
    fixed_date: { description: 'Every year at the start (00:00 UTC) of `month`/`day`.' },
    inactivity_days: { description: 'All coins expire after `days` days without a movement.' },
  } as const,
});

export const CoinExpiryRef = builder.objectRef<CoinExpiry>('CoinExpiry').implement({
  description: "A sub-brand's coin expiry policy. A lot's expiry is fixed when it is credited.",
  fields: (t) => ({
    policy: t.field({ type: ExpiryPolicyEnum, resolve: (e) => e.policy }),
    days: t.exposeInt('days', { nullable: true, description: 'rolling_days, inactivity_days.' }),
    month: t.exposeInt('month', { nullable: true, description: 'fixed_date: 1–12.' }),
    day: t.exposeInt('day', { nullable: true, description: 'fixed_date: 1–31.' }),
  }),
});

builder.prismaObjectField('SubBrand', 'coinExpiry', (t) =>
  t.field({ type: CoinExpiryRef, resolve: (s) => coinExpiryOf(s) }),
);

const ExpiringRef = builder.objectRef<Expiring>('ExpiringCoins').implement({
  description: 'Coins that expire together.',
  fields: (t) => ({
    amount: t.expose('amount', { type: 'SafeInt' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('CoinLot', {
  description:
    'The coins of one credit: spent earliest expiry first (then oldest), written off at its expiry.',
  fields: (t) => ({
    id: t.exposeID('id'),
    movementId: t.exposeID('movementId', {
      nullable: true,
      description: 'The credit that opened it; null for the balance the lots began with.',
    }),
    amount: t.expose('amount', { type: 'SafeInt' }),
    remaining: t.expose('remaining', { type: 'SafeInt' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const HoldStatusEnum = builder.enumType('CoinHoldStatus', {
  description: 'expired: it reached its expiry unused, and its coins are spendable again.',
  values: HOLD_STATUSES,
});

export const CoinHoldRef = builder.prismaObject('CoinHold', {
  description: 'Coins set aside: not spendable, not moved, until captured, released or expired.',
  fields: (t) => ({
    id: t.exposeID('id'),
    customerId: t.exposeID('customerId'),
    amount: t.expose('amount', {
      type: 'SafeInt',
      description: 'Coins held (after a capture: the amount that was held).',
    }),
    reason: t.exposeString('reason', { nullable: true }),
    status: t.field({
      type: HoldStatusEnum,
      resolve: (h, _args, ctx) => holdView(h, ctx.now()).status,
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    capturedAmount: t.expose('capturedAmount', {
      type: 'SafeInt',
      nullable: true,
      description: 'What a capture debited.',
    }),
    movementId: t.exposeID('movementId', {
      nullable: true,
      description: 'The debit a capture wrote.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true }),
  }),
});

const CoinBalanceRef = builder.objectRef<CoinsView>('CoinBalance').implement({
  description: "A customer's coins: the balance, what is held and spendable, what expires next.",
  fields: (t) => ({
    customerId: t.exposeID('customerId'),
    balance: t.expose('balance', { type: 'SafeInt' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    held: t.expose('held', {
      type: 'SafeInt',
      nullable: true,
      description: 'Coins on active holds. Null with asOf.',
      extensions: { jsonShape: z.number().int().min(0) },
    }),
    available: t.expose('available', {
      type: 'SafeInt',
      nullable: true,
      description:
        'What can be spent: the balance less holds and coins already due. Null with asOf.',
      extensions: { jsonShape: z.number().int().min(0) },
    }),
    expiring: t.field({
      type: [ExpiringRef],
      nullable: true,
      description: 'The next five expiries, soonest first. Null with asOf.',
      resolve: (c) => c.expiring,
    }),
    asOf: t.expose('asOf', { type: 'DateTime', nullable: true }),
    holds: t.prismaField({
      type: ['CoinHold'],
      description: 'The active holds, soonest to expire first (at most 100). Empty with asOf.',
      resolve: (query, c, _args, ctx) =>
        c.asOf
          ? []
          : ctx.db.coinHold.findMany({
              ...query,
              where: { customerId: c.customerId, status: 'active', expiresAt: { gt: ctx.now() } },
              orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }],
              take: 100,
            }),
    }),
    lots: t.prismaField({
      type: ['CoinLot'],
      description: 'The lots with coins left, in the order debits spend them (at most 100).',
      resolve: (query, c, _args, ctx) =>
        ctx.db.coinLot.findMany({
          ...query,
          where: { customerId: c.customerId, remaining: { gt: 0 } },
          orderBy: [
            { expiresAt: { sort: 'asc', nulls: 'last' } },
            { createdAt: 'asc' },
            { id: 'asc' },
          ],
          take: 100,
        }),
    }),
  }),
});

builder.queryField('customerCoins', (t) =>
  t.field({
    type: CoinBalanceRef,
    authScopes: { scope: 'customers:read' },
    args: {
      customerId: t.arg.id({ required: true }),
      asOf: t.arg({ type: 'DateTime', description: 'The balance at this past instant.' }),
    },
    resolve: (_root, { customerId, asOf }, ctx) =>
      readCoins(ctx.db, tenantOf(ctx), String(customerId), ctx.now(), asOf),
  }),
);

builder.prismaObjectField('Customer', 'coins', (t) =>
  t.field({
    type: CoinBalanceRef,
    description: 'The wallet: balance, holds, what can be spent, the next expiries and the lots.',
    resolve: (c, _args, ctx) => readCoins(ctx.db, tenantOf(ctx), c.id, ctx.now()),
  }),
);

builder.prismaObjectField('Customer', 'coinHolds', (t) =>
  t.relatedConnection('coinHolds', {
    cursor: 'subBrandId_id',
    description: 'Holds, newest first.',
    query: { orderBy: { id: 'desc' } },
  }),
);

// One hold by its id. Also what renders a coin_hold event's data (docs/webhooks.md).
builder.queryField('coinHold', (t) =>
  t.prismaField({
    type: 'CoinHold',
    authScopes: { anyScope: ['customers:read', 'customers:coins'] },
    args: { id: t.arg.id({ required: true }), customerId: t.arg.id() },
    resolve: async (query, _root, { id, customerId }, ctx) => {
      const holdId = String(id);
      const hold = isUuid(holdId)
        ? await ctx.db.coinHold.findFirst({
            ...query,
            where: {
              id: holdId,
              ...tenantOf(ctx),
              ...(customerId ? { customerId: String(customerId) } : {}),
            },
          })
        : null;
      if (!hold) throw notFound('Hold');
      return hold;
    },
  }),
);

builder.mutationFields((t) => ({
  placeCoinHold: t.field({
    extensions: effect('moves_coins'),
    type: CoinHoldRef,
    authScopes: { scope: 'customers:coins' },
    description: 'Sets coins aside, never more than the customer can spend.',
    args: {
      customerId: t.arg.id({ required: true }),
      amount: t.arg({ type: 'SafeInt', required: true }),
      expiresInSeconds: t.arg.int({ required: true, description: '1 to 7,776,000 (90 days).' }),
      reason: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      placeHold(
        ctx.db,
        tenantOf(ctx),
        actorOf(ctx),
        String(args.customerId),
        { amount: args.amount, expiresInSeconds: args.expiresInSeconds, reason: args.reason },
        ctx.now(),
      ),
  }),
  captureCoinHold: t.field({
    extensions: effect('moves_coins'),
    type: CoinHoldRef,
    authScopes: { scope: 'customers:coins' },
    description: 'Spends held coins: a debit of `amount` (default: all held), the rest released.',
    args: {
      customerId: t.arg.id({ required: true }),
      holdId: t.arg.id({ required: true }),
      amount: t.arg({ type: 'SafeInt' }),
    },
    resolve: (_root, args, ctx) =>
      captureHold(
        ctx.db,
        tenantOf(ctx),
        actorOf(ctx),
        String(args.customerId),
        String(args.holdId),
        { amount: args.amount },
        ctx.now(),
      ),
  }),
  releaseCoinHold: t.field({
    extensions: effect('changes'),
    type: CoinHoldRef,
    authScopes: { scope: 'customers:coins' },
    description: 'Gives held coins back to what the customer can spend.',
    args: { customerId: t.arg.id({ required: true }), holdId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      releaseHold(ctx.db, tenantOf(ctx), String(args.customerId), String(args.holdId), ctx.now()),
  }),
  setCoinExpiry: t.field({
    extensions: effect('changes'),
    type: CoinExpiryRef,
    authScopes: { admin: true, staff: true },
    description:
      'Platform admins: any sub-brand; brand admins: their brand’s. Applies to coins credited from now on ' +
      '(inactivity_days: to every coin at its wallet’s next movement).',
    args: {
      subBrandId: t.arg.id({ required: true }),
      policy: t.arg({ type: ExpiryPolicyEnum, required: true }),
      days: t.arg.int(),
      month: t.arg.int(),
      day: t.arg.int(),
    },
    resolve: async (_root, { subBrandId, ...fields }, ctx) => {
      await assertManagesSubBrand(ctx, String(subBrandId), 'set coin expiry');
      return setCoinExpiry(ctx.db, String(subBrandId), coinExpiryFields(fields));
    },
  }),
}));

// The coin wallet: balances, the movement log, and the mutations that move coins.
import { isClient } from '../../domain/db.js';
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { adjustCoins } from '../../domain/wallet/adjust-coins.js';
import {
  bulkAdjustCoins,
  readBulkAdjustment,
  type BulkResult,
} from '../../domain/wallet/bulk-adjust-coins.js';
import { builder } from '../builder.js';
import { wantedIds } from '../by-ids.js';
import { actorOf, tenantOf } from '../tenant.js';
import { definedInput } from '../inputs.js';
import { CustomerFilterInput } from './customer.js';
import { effect } from '../effects.js';
import { requiredKeyOf } from '../idempotency-key.js';

const SourceEnum = builder.enumType('MovementSource', {
  description: 'What moved the coins.',
  values: ['api', 'bulk', 'engine', 'order', 'refund', 'campaign', 'expiry'] as const,
});

const CoinMovementRef = builder.prismaObject('CoinMovement', {
  description: 'One entry of the append-only movement log.',
  fields: (t) => ({
    id: t.exposeID('id'),
    customerId: t.exposeID('customerId'),
    delta: t.expose('delta', {
      type: 'SafeInt',
      description: 'Signed: positive credits, negative debits.',
    }),
    reason: t.exposeString('reason', { nullable: true }),
    balanceAfter: t.expose('balanceAfter', {
      type: 'SafeInt',
      description: 'The balance after this movement.',
    }),
    source: t.expose('source', { type: SourceEnum }),
    apiKeyId: t.exposeID('apiKeyId', {
      nullable: true,
      description: 'The key whose request caused it.',
    }),
    requestId: t.exposeString('requestId', { nullable: true }),
    bulkId: t.exposeID('bulkId', { nullable: true }),
    lotId: t.exposeID('lotId', {
      nullable: true,
      description: 'The lot a credit opened, or the lot an expiry wrote off.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

// One movement by its id. Also what renders a coin adjustment's answer when its Idempotency-Key
// is replayed from a record kept by reference (docs/idempotency.md): so a key that may move coins
// may read what it moved, as well as a key that reads customers.
builder.queryField('coinMovement', (t) =>
  t.prismaField({
    type: 'CoinMovement',
    description: "One entry of the tenant's movement log, by its id.",
    authScopes: { anyScope: ['customers:read', 'customers:coins'] },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const movementId = String(id);
      const movement = isUuid(movementId)
        ? await ctx.db.coinMovement.findFirst({
            ...query,
            where: { id: movementId, ...tenantOf(ctx) },
          })
        : null;
      if (!movement) throw notFound('Movement');
      return movement;
    },
  }),
);

// Many movements at once: the event relay renders a batch of coin_movement events with one
// query (schema/by-ids.ts).
builder.queryField('coinMovements', (t) =>
  t.prismaField({
    type: ['CoinMovement'],
    authScopes: { scope: 'events:read' },
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (query, _root, { ids }, ctx) => {
      const wanted = wantedIds(ids);
      return wanted.length
        ? ctx.db.coinMovement.findMany({
            ...query,
            where: { id: { in: wanted }, ...tenantOf(ctx) },
          })
        : [];
    },
  }),
);

const BulkRef = builder.objectRef<BulkResult>('BulkCoinAdjustment').implement({
  fields: (t) => ({
    id: t.exposeID('id', { nullable: true, description: 'Null for a dry run.' }),
    dryRun: t.exposeBoolean('dryRun'),
    matched: t.exposeInt('matched', { description: 'Customers in the cohort.' }),
    applied: t.exposeInt('applied', {
      description: 'Customers whose balance moved (would move, in a dry run).',
    }),
    skipped: t.exposeInt('skipped', {
      description: 'Customers skipped: the debit would take them below zero.',
    }),
    rgBlocked: t.exposeInt('rgBlocked', {
      description: 'Customers a credit left out: an active responsible-gaming state.',
    }),
    skippedCustomerIds: t.exposeIDList('skippedCustomerIds', { description: 'Up to 100 of them.' }),
    delta: t.expose('delta', { type: 'SafeInt' }),
    totalDelta: t.expose('totalDelta', { type: 'SafeInt', description: 'applied × delta.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});

const BulkInput = builder.inputType('BulkAdjustCoinsInput', {
  fields: (t) => ({
    filter: t.field({
      type: CustomerFilterInput,
      description: 'The cohort; omitted: every customer.',
    }),
    delta: t.field({ type: 'SafeInt', required: true }),
    reason: t.string(),
    dryRun: t.boolean({ description: 'Count the cohort and the total without moving coins.' }),
  }),
});

builder.mutationFields((t) => ({
  adjustCustomerCoins: t.field({
    extensions: effect('moves_coins'),
    type: CoinMovementRef,
    authScopes: { scope: 'customers:coins' },
    args: {
      customerId: t.arg.id({ required: true }),
      delta: t.arg({ type: 'SafeInt', required: true }),
      reason: t.arg.string(),
    },
    // The movement comes back from the ledger statement itself: reading it again would add a
    // round trip while the wallet row is still locked.
    resolve: async (_root, args, ctx) =>
      (
        await adjustCoins(
          ctx.db,
          tenantOf(ctx),
          actorOf(ctx),
          String(args.customerId),
          {
            delta: args.delta,
            reason: args.reason,
          },
          ctx.now(),
        )
      ).movement,
  }),
  bulkAdjustCustomerCoins: t.field({
    extensions: effect('moves_coins', { ownTransactions: true }),
    type: BulkRef,
    authScopes: { scope: 'customers:coins' },
    description:
      'The same delta for a cohort, in batches; repeat with the same idempotencyKey to resume or replay.',
    args: {
      input: t.arg({ type: BulkInput, required: true }),
      idempotencyKey: t.arg.string({ description: 'Else the request’s Idempotency-Key header.' }),
    },
    resolve: (_root, { input, idempotencyKey }, ctx) => {
      // It commits batch by batch, so it needs the client, not a caller's transaction.
      if (!isClient(ctx.db)) throw new Error('a bulk adjustment cannot run inside a transaction');
      return bulkAdjustCoins(
        ctx.db,
        tenantOf(ctx),
        actorOf(ctx),
        requiredKeyOf(idempotencyKey, ctx),
        {
          filter: definedInput(input.filter),
          delta: input.delta,
          reason: input.reason,
          dryRun: input.dryRun ?? false,
        },
      );
    },
  }),
}));

// A bulk adjustment by its id (issue 32): an agent whose call timed out, or a person, reads where
// a cohort reward stands (matched, applied, skipped, completed or still running).
builder.queryField('bulkAdjustment', (t) =>
  t.field({
    type: BulkRef,
    description: "One of the key's bulk adjustments by its id, as it stands.",
    authScopes: { anyScope: ['customers:read', 'customers:coins'] },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const bulk = await readBulkAdjustment(ctx.db, tenantOf(ctx), String(id));
      if (!bulk) throw notFound('Bulk adjustment');
      return bulk;
    },
  }),
);

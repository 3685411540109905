// Players: the establishment API's customers. The same rows and wallets as `customers`; what
// differs is a one-field name, a search with page numbers and a total, and a status list.
import { createPlayer, joinName, updatePlayer } from '../../domain/customers/player.js';
import { searchPlayers } from '../../domain/customers/search-players.js';
import { notFound } from '../../domain/errors.js';
import { builder } from '../builder.js';
import { onReplica } from '../read.js';
import type { GraphQLContext } from '../context.js';
import { definedInput } from '../inputs.js';
import { tenantOf } from '../tenant.js';
import { CustomerStatusEnum } from './customer.js';
import { effect } from '../effects.js';

type Page = Awaited<ReturnType<typeof searchPlayers>>;

builder.prismaObjectField('Customer', 'name', (t) =>
  t.string({
    description: 'First and last name, joined by one space: a player’s one name.',
    select: { firstName: true, lastName: true },
    resolve: (c) => joinName(c.firstName, c.lastName),
  }),
);

const CoinRef = builder
  .objectRef<{ coinName: string; coinsPerUnit: number }>('EstablishmentCoin')
  .implement({
    fields: (t) => ({
      name: t.exposeString('coinName'),
      parity: t.exposeInt('coinsPerUnit', { description: 'Coins per one unit of currency.' }),
    }),
  });

const PlayerPageRef = builder.objectRef<Page>('PlayerPage').implement({
  description: 'One page of a player search, with the total number of matches.',
  fields: (t) => ({
    total: t.exposeInt('total', {
      description: 'Matches: exact while totalExact, else the bound (10000) they exceed.',
    }),
    totalExact: t.exposeBoolean('totalExact'),
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    hasMore: t.exposeBoolean('hasMore'),
    coin: t.field({
      type: CoinRef,
      description: "The establishment's coins: their name and parity.",
      resolve: (_p, _args, ctx) =>
        ctx.db.subBrand.findUniqueOrThrow({
          where: { id: ctx.principal.subBrandId },
          select: { coinName: true, coinsPerUnit: true },
        }),
    }),
    players: t.prismaField({
      type: ['Customer'],
      resolve: (query, p, _args, ctx) =>
        onReplica(ctx, (db) =>
          db.customer.findMany({
            ...query,
            where: p.where,
            orderBy: p.orderBy,
            skip: p.skip,
            take: p.limit,
            // The page first, then its relations by id: joined, PostgreSQL joined every skipped
            // row's wallet too (page 500: raw 7.9 → 30.3 ms, HTTP 110 ms; docs/performance.md).
            relationLoadStrategy: 'query',
          }),
        ),
    }),
  }),
});

/** An establishment id sent with a request must be the key's own: any other is not found. */
function ownEstablishment(ctx: GraphQLContext, id: string | null | undefined): void {
  if (id != null && id !== ctx.principal.subBrandId) throw notFound('Sub-brand');
}

const PlayerSearchInput = builder.inputType('PlayerSearchInput', {
  description: 'All given conditions combine with AND.',
  fields: (t) => ({
    establishmentId: t.id({ description: "The key's own establishment (optional)." }),
    search: t.string({ description: 'Part of the name or e-mail, or a player id.' }),
    statuses: t.field({ type: [CustomerStatusEnum] }),
    minCoins: t.field({ type: 'SafeInt' }),
    maxCoins: t.field({ type: 'SafeInt' }),
    createdAfter: t.field({ type: 'DateTime', description: 'Inclusive.' }),
    createdBefore: t.field({ type: 'DateTime', description: 'Exclusive.' }),
    page: t.int({ description: 'From 1.' }),
    limit: t.int({ description: '1-100, default 20.' }),
    order: t.string({ description: '`desc` (newest first, default) or `asc`.' }),
  }),
});

builder.queryField('playerSearch', (t) =>
  t.field({
    type: PlayerPageRef,
    authScopes: { scope: 'customers:read' },
    args: { input: t.arg({ type: PlayerSearchInput, required: true }) },
    resolve: (_root, { input: { establishmentId, ...input } }, ctx) => {
      ownEstablishment(ctx, establishmentId);
      return searchPlayers(ctx.db, tenantOf(ctx), definedInput(input));
    },
  }),
);

const CreatePlayerInput = builder.inputType('CreatePlayerInput', {
  fields: (t) => ({
    establishmentId: t.id({ description: "The key's own establishment (optional)." }),
    name: t.string({
      required: true,
      description: 'Split at the first space into first and last name.',
    }),
    email: t.string(),
    status: t.field({ type: CustomerStatusEnum }),
  }),
});

const UpdatePlayerInput = builder.inputType('UpdatePlayerInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    status: t.field({ type: CustomerStatusEnum, required: true }),
    email: t.string({ description: 'Omitted: unchanged; null: cleared.' }),
  }),
});

builder.mutationFields((t) => ({
  createPlayer: t.prismaField({
    extensions: effect('creates'),
    type: 'Customer',
    authScopes: { scope: 'customers:create' },
    args: { input: t.arg({ type: CreatePlayerInput, required: true }) },
    resolve: async (query, _root, { input: { establishmentId, ...input } }, ctx) => {
      ownEstablishment(ctx, establishmentId);
      const created = await createPlayer(ctx.db, tenantOf(ctx), definedInput(input));
      return ctx.db.customer.findUniqueOrThrow({ ...query, where: { id: created.id } });
    },
  }),
  updatePlayer: t.prismaField({
    extensions: effect('changes'),
    type: 'Customer',
    authScopes: { scope: 'customers:update' },
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdatePlayerInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, ctx) => {
      const updated = await updatePlayer(ctx.db, tenantOf(ctx), String(id), input);
      return ctx.db.customer.findUniqueOrThrow({ ...query, where: { id: updated.id } });
    },
  }),
}));

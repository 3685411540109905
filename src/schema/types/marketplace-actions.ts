// The player marketplace's mutations (docs/marketplace.md): redeem, cancel, claim, play, and the
// player's addresses. Each acts for the session's own customer only, through the same domain
// functions as every other transport, and each needs an Idempotency-Key (the app sends one per
// click), so a double tap or a retried request never spends twice.
import { deleteAddress, saveAddress } from '../../player/addresses.js';
import { cancelPlayerOrder, claimPlayerAward, redeemPrize } from '../../player/player-actions.js';
import { playerOrder } from '../../player/player-orders.js';
import { playGame, type GameDraw } from '../../engine/campaigns/mini-games.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { effect } from '../effects.js';
import { requiredKeyOf } from '../idempotency-key.js';
import { actorOf, tenantOf } from '../tenant.js';
import { AddressRef, DrawRef, marketplaceRoot, PlayerOrderRef } from './marketplace.js';

const AddressInput = builder.inputType('MarketplaceAddressInput', {
  fields: (t) => ({
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    addressLine1: t.string({ required: true }),
    addressLine2: t.string(),
    city: t.string({ required: true }),
    province: t.string(),
    postalCode: t.string({ required: true }),
    country: t.string({ required: true, description: 'ISO 3166-1 alpha-2, e.g. ES.' }),
    phone: t.string(),
  }),
});

const deliveryArgs = (t: Parameters<Parameters<typeof builder.mutationFields>[0]>[0]) => ({
  addressId: t.arg.id({ description: 'A saved address (physical prizes).' }),
  address: t.arg({ type: AddressInput, description: 'A new address (physical prizes).' }),
  saveAddress: t.arg.boolean({ description: 'Keep the new address for next time.' }),
});

/** Drops absent arguments (GraphQL's null) so the domain's schema sees them as not given. */
const given = (args: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined));

const customerOf = (ctx: GraphQLContext) => ctx.principal.player!.customerId;

type Balance = { balance: number };
type OrderOutcome = Balance & { order: Awaited<ReturnType<typeof playerOrder>> };

/** The player's balance and language after a change, read in the change's transaction. */
const after = async (ctx: GraphQLContext) => {
  const root = await marketplaceRoot(ctx);
  return { balance: root.customer.balance, lang: root.customer.lang, tenant: root.tenant };
};

const orderOutcome = async (ctx: GraphQLContext, orderId: string): Promise<OrderOutcome> => {
  const now = await after(ctx);
  const order = await playerOrder(
    ctx.db,
    now.tenant,
    customerOf(ctx),
    orderId,
    now.lang,
    ctx.baseUrl,
  );
  return { balance: now.balance, order };
};

const OrderOutcomeRef = builder.objectRef<OrderOutcome>('MarketplaceOrderOutcome').implement({
  fields: (t) => ({
    order: t.field({ type: PlayerOrderRef, resolve: (o) => o.order }),
    balance: t.expose('balance', { type: 'SafeInt', description: 'The player’s coins after it.' }),
  }),
});

type ClaimOutcome = Balance & { orderId: string | null; coins: number; plays: number | null };
const ClaimOutcomeRef = builder.objectRef<ClaimOutcome>('MarketplaceClaimOutcome').implement({
  fields: (t) => ({
    balance: t.expose('balance', { type: 'SafeInt' }),
    coins: t.expose('coins', { type: 'SafeInt', description: 'Coins the award gave.' }),
    orderId: t.exposeID('orderId', { nullable: true, description: 'A product prize’s order.' }),
    plays: t.exposeInt('plays', { nullable: true, description: 'Plays of a game it gave.' }),
  }),
});

type PlayOutcome = Balance & { credits: number; draw: GameDraw };
const PlayOutcomeRef = builder.objectRef<PlayOutcome>('MarketplacePlayOutcome').implement({
  fields: (t) => ({
    draw: t.field({ type: DrawRef, resolve: (p) => p.draw }),
    credits: t.exposeInt('credits', { description: 'Plays left.' }),
    balance: t.expose('balance', { type: 'SafeInt' }),
  }),
});

builder.mutationFields((t) => ({
  redeemPrize: t.field({
    extensions: effect('moves_coins'),
    type: OrderOutcomeRef,
    authScopes: { player: true },
    description:
      'Spends the player’s coins on one unit of a prize (a physical one needs an address).',
    args: { listingId: t.arg.id({ required: true }), ...deliveryArgs(t) },
    resolve: async (_root, args, ctx) => {
      const { orderId } = await redeemPrize(
        ctx.db,
        tenantOf(ctx),
        actorOf(ctx),
        customerOf(ctx),
        given(args),
        requiredKeyOf(null, ctx),
        ctx.now(),
      );
      return orderOutcome(ctx, orderId);
    },
  }),
  cancelMyOrder: t.field({
    extensions: effect('moves_coins'),
    type: OrderOutcomeRef,
    authScopes: { player: true },
    description: 'Cancels the player’s order before it ships: the coins come back once.',
    args: { orderId: t.arg.id({ required: true }) },
    resolve: async (_root, { orderId }, ctx) => {
      await cancelPlayerOrder(
        ctx.db,
        tenantOf(ctx),
        actorOf(ctx),
        customerOf(ctx),
        String(orderId),
        ctx.now(),
      );
      return orderOutcome(ctx, String(orderId));
    },
  }),
  claimMyAward: t.field({
    extensions: effect('moves_coins'),
    type: ClaimOutcomeRef,
    authScopes: { player: true },
    description: 'Claims one of the player’s awards (a physical product prize needs an address).',
    args: { awardId: t.arg.id({ required: true }), ...deliveryArgs(t) },
    resolve: async (_root, args, ctx) => {
      const claimed = await claimPlayerAward(
        ctx.db,
        tenantOf(ctx),
        actorOf(ctx),
        customerOf(ctx),
        given(args),
        ctx.now(),
      );
      const game = /^game:/.test(claimed.award.catalogPrize ?? '');
      return {
        balance: (await after(ctx)).balance,
        coins: Number(claimed.award.coins),
        orderId: claimed.orderId,
        plays: game ? claimed.award.quantity : null,
      };
    },
  }),
  playMyGame: t.field({
    extensions: effect('moves_coins'),
    type: PlayOutcomeRef,
    authScopes: { player: true },
    description:
      'One play of a mini-game the player holds plays for: the draw is recorded once, with the player’s seed.',
    args: {
      campaignId: t.arg.id({ required: true }),
      gameName: t.arg.string({ required: true }),
      clientSeed: t.arg.string({
        description: 'The player’s seed (docs/fairness.md); absent, the server makes one.',
      }),
    },
    resolve: async (_root, { campaignId, gameName, clientSeed }, ctx) => {
      const tenant = tenantOf(ctx);
      const { draw } = await playGame(
        ctx.db,
        tenant,
        actorOf(ctx),
        customerOf(ctx),
        gameName,
        String(campaignId),
        requiredKeyOf(null, ctx),
        clientSeed,
      );
      const credit = await ctx.db.campaignGameCredit.findUnique({
        where: {
          subBrandId_campaignId_customerId_gameName: {
            subBrandId: tenant.subBrandId,
            campaignId: String(campaignId),
            customerId: customerOf(ctx),
            gameName,
          },
        },
      });
      return {
        balance: (await after(ctx)).balance,
        credits: credit?.credits ?? 0,
        draw,
      };
    },
  }),
  saveMyAddress: t.field({
    extensions: effect('creates'),
    type: AddressRef,
    authScopes: { player: true },
    args: { address: t.arg({ type: AddressInput, required: true }) },
    resolve: (_root, { address }, ctx) =>
      saveAddress(ctx.db, tenantOf(ctx), customerOf(ctx), given(address)),
  }),
  deleteMyAddress: t.field({
    extensions: effect('removes'),
    type: AddressRef,
    authScopes: { player: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) =>
      deleteAddress(ctx.db, tenantOf(ctx), customerOf(ctx), String(id)),
  }),
}));

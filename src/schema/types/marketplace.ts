// The player marketplace's reads (docs/marketplace.md): one root field, `marketplace`, for a
// player principal only (a store session), whose every field is about the session's own
// customer, store and sub-brand. Its mutations are in marketplace-actions.ts.
import { STYLE_KEYS, type Style } from '../../domain/establishments/schemas.js';
import { commitment } from '../../engine/campaigns/game-seeds.js';
import { latestDraws, type GameDraw } from '../../engine/campaigns/mini-games.js';
import { listAddresses } from '../../player/addresses.js';
import { languageOf } from '../../player/language.js';
import { playerOrder, playerOrders } from '../../player/player-orders.js';
import {
  claimableAwards,
  dailyRewards,
  playerGames,
  playerTournaments,
} from '../../player/player-rewards.js';
import { filterShelf, shelf, type Shelf } from '../../player/storefront.js';
import { notFound } from '../../domain/errors.js';
import { effectiveRg } from '../../domain/responsible-gaming/state.js';
import type { PlayerIdentity } from '../../domain/tenancy/authenticate-api-key.js';
import type { Tenant } from '../../domain/tenant.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { tenantOf } from '../tenant.js';

const pausedOf = (rg: { state: string; until: Date | null }) =>
  rg.state === 'none' ? null : { until: rg.until };

/** What every marketplace field resolves from: the session's player, read once per request. */
export type MarketplaceRoot = {
  tenant: Tenant;
  player: PlayerIdentity;
  customer: {
    firstName: string;
    balance: number;
    lang: string;
    /** Rewards paused by a responsible-gaming state (docs/compliance.md): until when; null: indefinitely. */
    paused: { until: Date | null } | null;
  };
  establishment: {
    name: string;
    coinName: string;
    locale: string;
    imageUrl: string | null;
    thumbnailUrl: string | null;
    style: Style;
  };
  /** The store's shelf, read on first use by a field that needs it. */
  shelf: () => Promise<Shelf>;
};

export async function marketplaceRoot(ctx: GraphQLContext): Promise<MarketplaceRoot> {
  const player = ctx.principal.player!;
  const tenant = tenantOf(ctx);
  const [customer, subBrand] = await Promise.all([
    ctx.db.customer.findFirst({
      where: { id: player.customerId, ...tenant },
      select: {
        firstName: true,
        preferredLang: true,
        rgState: true,
        rgUntil: true,
        wallet: { select: { balance: true } },
      },
    }),
    ctx.db.subBrand.findUniqueOrThrow({
      where: { id: tenant.subBrandId },
      select: {
        name: true,
        coinName: true,
        locale: true,
        imageUrl: true,
        thumbnailUrl: true,
        style: true,
      },
    }),
  ]);
  if (!customer) throw notFound('Customer'); // deleted since the session was opened
  const lang = languageOf(customer.preferredLang, subBrand.locale);
  return {
    tenant,
    player,
    customer: {
      firstName: customer.firstName,
      balance: Number(customer.wallet?.balance ?? 0),
      lang,
      paused: pausedOf(effectiveRg(customer, ctx.now())),
    },
    establishment: { ...subBrand, style: subBrand.style as Style },
    shelf: () => {
      // One read of the shelf per request, whichever fields (or documents, for the page's
      // preloaded data) need it.
      let loaded = shelves.get(ctx);
      if (!loaded)
        shelves.set(ctx, (loaded = shelf(ctx.db, tenant, player.storeId, lang, ctx.now())));
      return loaded;
    },
  };
}

const shelves = new WeakMap<GraphQLContext, Promise<Shelf>>();

const StyleRef = builder.objectRef<Style>('MarketplaceStyle').implement({
  description: "The establishment's fourteen marketplace colours and its font; null when unset.",
  fields: (t) =>
    Object.fromEntries(
      STYLE_KEYS.map((k) => [k, t.string({ nullable: true, resolve: (s) => s[k] ?? null })]),
    ) as never,
});

const EstablishmentRef = builder
  .objectRef<MarketplaceRoot['establishment']>('MarketplaceEstablishment')
  .implement({
    fields: (t) => ({
      name: t.exposeString('name'),
      coinName: t.exposeString('coinName', { description: 'What the coins are called here.' }),
      locale: t.exposeString('locale'),
      logoUrl: t.string({ nullable: true, resolve: (e) => e.imageUrl }),
      thumbnailUrl: t.exposeString('thumbnailUrl', { nullable: true }),
      style: t.field({ type: StyleRef, resolve: (e) => e.style }),
    }),
  });

const PlayerRef = builder.objectRef<MarketplaceRoot['customer']>('MarketplacePlayer').implement({
  fields: (t) => ({
    firstName: t.exposeString('firstName'),
    balance: t.expose('balance', { type: 'SafeInt', description: 'Coins, now.' }),
    language: t.exposeString('lang', { description: 'en, es, pt, it or fr.' }),
    rewardsPaused: t.boolean({
      description:
        'True while a responsible-gaming state pauses rewards: claims and plays are refused (docs/compliance.md).',
      resolve: (c) => c.paused !== null,
    }),
    rewardsPausedUntil: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the pause ends; null when not paused or paused indefinitely.',
      resolve: (c) => c.paused?.until ?? null,
    }),
  }),
});

type ShelfProduct = Shelf['products'][number];

const VariantRef = builder
  .objectRef<ShelfProduct['variants'][number]>('MarketplaceVariant')
  .implement({
    fields: (t) => ({
      listingId: t.exposeID('listingId', { description: 'What redeemPrize takes.' }),
      label: t.exposeString('label', { description: 'e.g. "25 EUR" or "M · red"; "" for none.' }),
      coinPrice: t.expose('coinPrice', { type: 'SafeInt' }),
      available: t.exposeInt('available', { description: 'Units left.' }),
    }),
  });

const ProductRef = builder.objectRef<ShelfProduct>('MarketplaceProduct').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    kind: t.exposeString('kind', { description: 'physical or digital.' }),
    images: t.exposeStringList('images'),
    categoryId: t.exposeID('categoryId', { nullable: true }),
    featured: t.exposeBoolean('featured'),
    fromCoins: t.expose('fromCoins', { type: 'SafeInt' }),
    inStock: t.exposeBoolean('inStock'),
    variants: t.field({ type: [VariantRef], resolve: (p) => p.variants }),
  }),
});

const NamedRef = builder.objectRef<{ id: string; name: string }>('MarketplaceNamed').implement({
  fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name') }),
});

const StoreRef = builder.objectRef<Shelf>('MarketplaceStore').implement({
  fields: (t) => ({
    id: t.id({ resolve: (s) => s.store.id }),
    name: t.string({ resolve: (s) => s.store.name }),
    categories: t.field({ type: [NamedRef], resolve: (s) => s.categories }),
    catalogs: t.field({ type: [NamedRef], resolve: (s) => s.catalogs }),
    productCount: t.int({ resolve: (s) => s.products.length }),
  }),
});

type ProductPage = { items: ShelfProduct[]; total: number; nextCursor: string | null };
const ProductPageRef = builder.objectRef<ProductPage>('MarketplaceProductPage').implement({
  fields: (t) => ({
    items: t.field({ type: [ProductRef], resolve: (p) => p.items }),
    total: t.exposeInt('total', { description: 'Products that pass the filter.' }),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

export const AddressRef = builder
  .objectRef<Awaited<ReturnType<typeof listAddresses>>[number]>('MarketplaceAddress')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      firstName: t.exposeString('firstName'),
      lastName: t.exposeString('lastName'),
      addressLine1: t.exposeString('addressLine1'),
      addressLine2: t.exposeString('addressLine2', { nullable: true }),
      city: t.exposeString('city'),
      province: t.exposeString('province', { nullable: true }),
      postalCode: t.exposeString('postalCode'),
      country: t.exposeString('country'),
      phone: t.exposeString('phone', { nullable: true }),
    }),
  });

type PlayerOrder = Awaited<ReturnType<typeof playerOrder>>;
const OrderLineRef = builder
  .objectRef<PlayerOrder['items'][number]>('MarketplaceOrderLine')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      image: t.exposeString('image', { nullable: true }),
      label: t.exposeString('label'),
      kind: t.exposeString('kind'),
      quantity: t.exposeInt('quantity'),
      coins: t.expose('coins', { type: 'SafeInt' }),
      carrier: t.exposeString('carrier', { nullable: true }),
      trackingCode: t.exposeString('trackingCode', { nullable: true }),
      trackingUrl: t.exposeString('trackingUrl', { nullable: true }),
      codes: t.exposeStringList('codes', {
        description: 'A digital prize delivered by code: its codes (or redemption links).',
      }),
    }),
  });

const StepRef = builder
  .objectRef<PlayerOrder['history'][number]>('MarketplaceOrderStep')
  .implement({
    fields: (t) => ({
      status: t.exposeString('status'),
      at: t.expose('at', { type: 'DateTime' }),
    }),
  });

export const PlayerOrderRef = builder.objectRef<PlayerOrder>('MarketplaceOrder').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    reference: t.exposeString('reference', { nullable: true }),
    status: t.exposeString('status'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    totalCoins: t.expose('totalCoins', { type: 'SafeInt' }),
    cancellable: t.exposeBoolean('cancellable'),
    recipientName: t.exposeString('recipientName', { nullable: true }),
    shippingAddress: t.exposeString('shippingAddress', { nullable: true }),
    trackUrl: t.exposeString('trackUrl'),
    items: t.field({ type: [OrderLineRef], resolve: (o) => o.items }),
    history: t.field({ type: [StepRef], resolve: (o) => o.history }),
  }),
});

type Award = Awaited<ReturnType<typeof claimableAwards>>[number];
const AwardRef = builder.objectRef<Award>('MarketplaceAward').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    campaignTitle: t.exposeString('campaignTitle'),
    coins: t.expose('coins', { type: 'SafeInt' }),
    productName: t.exposeString('productName', { nullable: true }),
    productImage: t.exposeString('productImage', { nullable: true }),
    physical: t.exposeBoolean('physical', { description: 'Claiming it needs an address.' }),
    gameName: t.exposeString('gameName', { nullable: true }),
    plays: t.exposeInt('plays', { nullable: true }),
    label: t.exposeString('label', { nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

type Daily = Awaited<ReturnType<typeof dailyRewards>>[number];
const DailyRef = builder.objectRef<Daily>('MarketplaceDailyReward').implement({
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    progressive: t.exposeBoolean('progressive'),
    streak: t.exposeInt('streak', { description: 'Days in a row, still counting.' }),
    today: t.exposeString('today', { description: 'not_yet, to_claim or claimed.' }),
    nextCoins: t.expose('nextCoins', { type: 'SafeInt', nullable: true }),
    endsAt: t.expose('endsAt', { type: 'DateTime' }),
  }),
});

type Tournament = Awaited<ReturnType<typeof playerTournaments>>[number];
const TablePlaceRef = builder
  .objectRef<Tournament['top'][number]>('MarketplaceTablePlace')
  .implement({
    fields: (t) => ({
      rank: t.exposeInt('rank'),
      name: t.exposeString('name'),
      points: t.expose('points', { type: 'SafeInt' }),
      you: t.exposeBoolean('you'),
    }),
  });
const TournamentRef = builder.objectRef<Tournament>('MarketplaceTournament').implement({
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    title: t.exposeString('title'),
    endsAt: t.expose('endsAt', { type: 'DateTime' }),
    rank: t.exposeInt('rank'),
    points: t.expose('points', { type: 'SafeInt' }),
    participants: t.exposeInt('participants'),
    prizeCoins: t.expose('prizeCoins', { type: 'SafeInt', nullable: true }),
    top: t.field({ type: [TablePlaceRef], resolve: (x) => x.top }),
  }),
});

type Game = Awaited<ReturnType<typeof playerGames>>[number];
const GamePrizeRef = builder.objectRef<Game['prizes'][number]>('MarketplaceGamePrize').implement({
  fields: (t) => ({
    label: t.exposeString('label'),
    coins: t.expose('coins', { type: 'SafeInt' }),
    chance: t.exposeFloat('chance', { description: '0-1.' }),
  }),
});
/** A recorded draw as its player sees it: with what it takes to verify it (docs/fairness.md). */
export const DrawRef = builder.objectRef<GameDraw>('MarketplaceDraw').implement({
  description: 'A recorded draw: the number drawn among the weights decides the prize.',
  fields: (t) => ({
    label: t.exposeString('label'),
    coins: t.field({ type: 'SafeInt', resolve: (d) => Number(d.coins) }),
    resultIndex: t.exposeInt('resultIndex', { description: 'The prize’s place in the table.' }),
    draw: t.exposeInt('draw', { description: 'The number drawn, 0 to totalWeight − 1.' }),
    totalWeight: t.exposeInt('totalWeight'),
    tableVersion: t.exposeInt('tableVersion'),
    clientSeed: t.exposeString('clientSeed', { nullable: true }),
    nonce: t.exposeInt('nonce', { nullable: true }),
    seedHash: t.string({ nullable: true, resolve: (d) => d.seed?.seedHash ?? null }),
    serverSeed: t.string({
      nullable: true,
      description: 'The server seed once revealed (rotated): then the draw can be verified.',
      resolve: (d) => d.seed?.revealedSeed ?? null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const GameRef = builder.objectRef<Game>('MarketplaceGame').implement({
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    campaignTitle: t.exposeString('campaignTitle'),
    gameName: t.exposeString('gameName'),
    credits: t.exposeInt('credits', { description: 'Plays left.' }),
    prizes: t.field({ type: [GamePrizeRef], resolve: (g) => g.prizes }),
    serverSeedHash: t.string({
      nullable: true,
      description: 'SHA-256 of the server seed the next plays use, shown before they are made.',
      resolve: (g, _a, ctx) =>
        g.prizes.length
          ? commitment(ctx.db, {
              tenant: tenantOf(ctx),
              campaignId: g.campaignId,
              gameName: g.gameName,
            })
          : null,
    }),
    draws: t.field({
      type: [DrawRef],
      description: 'The player’s last 5 draws in this game, newest first.',
      resolve: (g, _a, ctx) =>
        latestDraws(
          ctx.db,
          tenantOf(ctx),
          ctx.principal.player!.customerId,
          g.campaignId,
          g.gameName,
          5,
        ),
    }),
  }),
});

const PAGE_MAX = 60;

const MarketplaceRef = builder.objectRef<MarketplaceRoot>('Marketplace').implement({
  description: 'The marketplace as one player sees it (a store session).',
  fields: (t) => ({
    expiresAt: t.field({
      type: 'DateTime',
      description: 'When the session ends.',
      resolve: (r) => r.player.expiresAt,
    }),
    player: t.field({ type: PlayerRef, resolve: (r) => r.customer }),
    establishment: t.field({ type: EstablishmentRef, resolve: (r) => r.establishment }),
    store: t.field({ type: StoreRef, resolve: (r) => r.shelf() }),
    products: t.field({
      type: ProductPageRef,
      args: {
        q: t.arg.string(),
        categoryId: t.arg.id(),
        affordable: t.arg.boolean({ description: 'Only what the balance buys now.' }),
        first: t.arg.int({ description: `1-${PAGE_MAX}, default 24.` }),
        after: t.arg.string(),
      },
      resolve: async (r, args) => {
        const passing = filterShelf((await r.shelf()).products, {
          q: args.q,
          categoryId:
            args.categoryId === null || args.categoryId === undefined
              ? null
              : String(args.categoryId),
          affordableWith: args.affordable ? r.customer.balance : null,
        });
        const size = Math.min(PAGE_MAX, Math.max(1, args.first ?? 24));
        const start = args.after ? passing.findIndex((p) => p.id === args.after) + 1 : 0;
        const items = passing.slice(start, start + size);
        const more = start + size < passing.length;
        return { items, total: passing.length, nextCursor: more ? items.at(-1)!.id : null };
      },
    }),
    product: t.field({
      type: ProductRef,
      args: { id: t.arg.id({ required: true }) },
      resolve: async (r, { id }) => {
        const found = (await r.shelf()).products.find((p) => p.id === String(id));
        if (!found) throw notFound('Prize');
        return found;
      },
    }),
    orders: t.field({
      type: [PlayerOrderRef],
      resolve: (r, _a, ctx) =>
        playerOrders(ctx.db, r.tenant, r.player.customerId, r.customer.lang, ctx.baseUrl),
    }),
    order: t.field({
      type: PlayerOrderRef,
      args: { id: t.arg.id({ required: true }) },
      resolve: (r, { id }, ctx) =>
        playerOrder(
          ctx.db,
          r.tenant,
          r.player.customerId,
          String(id),
          r.customer.lang,
          ctx.baseUrl,
        ),
    }),
    addresses: t.field({
      type: [AddressRef],
      resolve: (r, _a, ctx) => listAddresses(ctx.db, r.tenant, r.player.customerId),
    }),
    awards: t.field({
      type: [AwardRef],
      description: 'Prizes won and waiting to be claimed.',
      resolve: (r, _a, ctx) =>
        claimableAwards(ctx.db, r.tenant, r.player.customerId, r.customer.lang, ctx.now()),
    }),
    dailyRewards: t.field({
      type: [DailyRef],
      resolve: (r, _a, ctx) => dailyRewards(ctx.db, r.tenant, r.player.customerId, ctx.now()),
    }),
    tournaments: t.field({
      type: [TournamentRef],
      resolve: (r, _a, ctx) => playerTournaments(ctx.db, r.tenant, r.player.customerId, ctx.now()),
    }),
    games: t.field({
      type: [GameRef],
      resolve: (r, _a, ctx) => playerGames(ctx.db, r.tenant, r.player.customerId),
    }),
  }),
});

builder.queryField('marketplace', (t) =>
  t.field({
    type: MarketplaceRef,
    authScopes: { player: true },
    description: 'The player marketplace, for a store session (Authorization: Bearer ss_…).',
    resolve: (_root, _args, ctx) => marketplaceRoot(ctx),
  }),
);

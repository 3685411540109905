// The demo's player marketplace (npm start on a fresh embedded database, `admin demo`, the browser
// suite): two styled establishments of the demo brand, each with a store of the sample catalog, a
// demo player with coins, a running daily reward with a streak and today's prize to claim, a
// wheel to spin, a tournament with a table, and gift cards delivered by code. Test environment
// only, like the demo key. Made once per establishment; a rerun finds it and does nothing.
import { addDigitalCodes } from '../domain/orders/digital-codes.js';
import { ensureDemoCatalog } from '../domain/catalog/demo-catalog.js';
import { createCampaign, updateCampaignStatus } from '../engine/campaigns/manage-campaigns.js';
import { setGameTable } from '../engine/campaigns/mini-games.js';
import { insertActivity } from '../engine/campaigns/insert-activity.js';
import { createCustomer } from '../domain/customers/create-customer.js';
import { inTransaction, type Db } from '../domain/db.js';
import type { Style } from '../domain/establishments/schemas.js';
import { moveCoins } from '../domain/ledger/move-coins.js';
import { createStoreSession } from '../domain/store-sessions/store-session.js';
import { createSubBrand } from '../domain/tenancy/create-sub-brand.js';
import type { Tenant } from '../domain/tenant.js';

export const DEMO_PLAYER_EXTERNAL_ID = 'demo-player';

type Look = {
  name: string;
  coinName: string;
  locale: string;
  logo: string;
  style: Style;
};

/** The two looks the demo shows: a night-time casino and a daytime sports bar. */
const CASINO: Look = {
  name: 'Demo Casino',
  coinName: 'Lucky Coins',
  locale: 'en',
  logo: 'casino.svg',
  style: {
    backgroundPrimary: '#f5c451',
    foregroundPrimary: '#101a3a',
    backgroundSecondary: '#26335c',
    foregroundSecondary: '#f2f4fb',
    backgroundSidebarPrimary: '#0a1128',
    backgroundSidebarSecondary: '#26335c',
    marketplaceBackground: '#101a3a',
    marketplaceForegroundPrimary: '#f2f4fb',
    marketplaceForegroundSecondary: '#b8c1de',
    marketplaceBackgroundCard: '#1a2750',
    marketplaceForegroundCardPrimary: '#ffffff',
    marketplaceForegroundCardSecondary: '#c4cce6',
    marketplaceForegroundCardTertiary: '#f5c451',
    font: "Georgia, 'Times New Roman', serif",
  },
};
const SPORTS: Look = {
  name: 'Demo Sports Bar',
  coinName: 'Goal Points',
  locale: 'es-ES',
  logo: 'sports.svg',
  style: {
    backgroundPrimary: '#0f7a3d',
    foregroundPrimary: '#ffffff',
    backgroundSecondary: '#e3f3e9',
    foregroundSecondary: '#0b4d27',
    backgroundSidebarPrimary: '#0b4d27',
    backgroundSidebarSecondary: '#0f7a3d',
    marketplaceBackground: '#f6faf7',
    marketplaceForegroundPrimary: '#10231a',
    marketplaceForegroundSecondary: '#44574c',
    marketplaceBackgroundCard: '#ffffff',
    marketplaceForegroundCardPrimary: '#10231a',
    marketplaceForegroundCardSecondary: '#44574c',
    marketplaceForegroundCardTertiary: '#0b6a34',
    font: "'Trebuchet MS', Arial, sans-serif",
  },
};

const RIVALS: [string, string, number][] = [
  ['Marta', 'Ruiz', 900],
  ['Luca', 'Bianchi', 700],
  ['Inês', 'Costa', 450],
  ['Paul', 'Martin', 300],
  ['Sara', 'López', 150],
];

export type DemoMarketplace = {
  establishments: { subBrandId: string; name: string; playerId: string; storeId: string }[];
};

/**
 * The demo establishments' marketplaces, made on first call. `baseUrl`: where this server is
 * reached, for the demo's pictures (served with the marketplace's files).
 */
export async function ensureDemoMarketplace(
  db: Db,
  demo: { subBrandId: string; brandId: string },
  baseUrl: string,
  now: Date,
): Promise<DemoMarketplace> {
  const sports =
    (await db.subBrand.findFirst({
      where: { brandId: demo.brandId, name: SPORTS.name },
      select: { id: true },
    })) ??
    (await createSubBrand(db, {
      brandId: demo.brandId,
      name: SPORTS.name,
      country: 'ES',
      currency: 'EUR',
    }));
  const establishments = [];
  for (const [subBrandId, look] of [
    [demo.subBrandId, CASINO],
    [sports.id, SPORTS],
  ] as const) {
    establishments.push(await ensureEstablishment(db, subBrandId, look, baseUrl, now));
  }
  return { establishments };
}

async function ensureEstablishment(
  db: Db,
  subBrandId: string,
  look: Look,
  baseUrl: string,
  now: Date,
) {
  const tenant: Tenant = { subBrandId, environment: 'test' };
  await ensureDemoCatalog(db, { id: subBrandId, country: 'ES', currency: 'EUR' });
  const store = await db.store.findFirstOrThrow({ where: { subBrandId }, orderBy: { id: 'asc' } });
  const found = await db.customer.findFirst({
    where: { ...tenant, externalId: DEMO_PLAYER_EXTERNAL_ID },
    select: { id: true },
  });
  const made = {
    subBrandId,
    name: look.name,
    storeId: store.id,
    playerId: found?.id ?? '',
  };
  if (found) return made;
  const picture = (file: string) => `${baseUrl}/marketplace/assets/demo/${file}`;
  await db.subBrand.update({
    where: { id: subBrandId },
    data: {
      name: look.name,
      coinName: look.coinName,
      locale: look.locale,
      style: look.style,
      imageUrl: picture(look.logo),
      thumbnailUrl: picture(look.logo),
    },
  });
  // The sample products' pictures, from this server (the catalog's own point nowhere).
  const listed = await db.listingMarket.findMany({
    where: { subBrandId },
    select: { variant: { select: { productId: true, product: { select: { category: true } } } } },
  });
  for (const l of listed) {
    await db.product.update({
      where: { id: l.variant.productId },
      data: { images: [picture(`${l.variant.product.category?.slug ?? 'gift-cards'}.svg`)] },
    });
  }
  await giftCardCodes(db, subBrandId);
  return inTransaction(db, async (tx) => {
    const player = await createCustomer(tx, tenant, {
      externalId: DEMO_PLAYER_EXTERNAL_ID,
      firstName: 'Ana',
      lastName: 'García',
      email: 'ana.garcia@example.com',
      country: 'ES',
    });
    const actor = { apiKeyId: null, requestId: null };
    await moveCoins(
      tx,
      tenant,
      { customerId: player.id, delta: 25_000, reason: 'welcome bonus' },
      { ...actor, source: 'api' },
    );
    await demoCampaigns(tx, tenant, player.id, now);
    return { ...made, playerId: player.id };
  });
}

/** Gift cards (the digital sample prizes) delivered by code: 40 codes per variant. */
async function giftCardCodes(db: Db, subBrandId: string) {
  const variants = await db.productVariant.findMany({
    where: {
      listings: { some: { subBrandId } },
      product: { kind: 'digital', category: { slug: 'gift-cards' } },
    },
    select: { id: true, sku: true },
  });
  for (const v of variants) {
    const codes = Array.from(
      { length: 40 },
      (_, i) => `${v.sku.slice(-10)}-${String(i + 1).padStart(4, '0')}`,
    );
    await addDigitalCodes(db, v.id, 'test', { codes });
  }
}

const dayBefore = (d: Date) => new Date(d.getTime() - 86_400_000);
const start = (now: Date) => new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
const end = (now: Date) => new Date(now.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
const prize = (over: Record<string, unknown>) => ({
  coinPrize: 0,
  catalogPrize: '',
  productPrize: '',
  quantity: 0,
  day: 0,
  rank: '',
  ...over,
});

/** A daily reward (two days of streak, today's to claim), a wheel, and a tournament. */
async function demoCampaigns(db: Db, tenant: Tenant, playerId: string, now: Date) {
  const run = async (input: Record<string, unknown>) => {
    const campaign = await createCampaign(
      db,
      tenant,
      {
        duration: 'custom',
        startDate: start(now),
        endDate: end(now),
        termsAccepted: true,
        ...input,
      },
      now,
    );
    await updateCampaignStatus(db, tenant, campaign.id, { status: 'in_progress' }, now);
    return campaign.id;
  };
  const daily = await run({
    title: 'Daily login calendar',
    type: 'daily_reward_progressive',
    description: 'Come back every day: each day in a row pays more.',
    prizes: [50, 75, 100, 150, 200, 300, 500].map((coins, i) =>
      prize({ coinPrize: coins, day: i + 1 }),
    ),
  });
  const wheel = await run({
    title: 'Wheel of the week',
    type: 'daily_reward_simple',
    prizes: [prize({ catalogPrize: 'game:wheel', quantity: 3 })],
  });
  await setGameTable(db, tenant, wheel, 'wheel', {
    prizes: [
      { label: '50 coins', coins: 50, weight: 4 },
      { label: '100 coins', coins: 100, weight: 3 },
      { label: '250 coins', coins: 250, weight: 2 },
      { label: 'Jackpot: 1,000 coins', coins: 1000, weight: 1 },
    ],
  });
  const tournament = await run({
    title: 'Slots race',
    type: 'tournament',
    prizes: [
      prize({ coinPrize: 5000, rank: '1' }),
      prize({ coinPrize: 2000, rank: '2' }),
      prize({ coinPrize: 1000, rank: '3-5' }),
    ],
  });
  // Yesterday's visit and today's: a streak of two, today's prize waiting to be claimed (and the
  // wheel's plays with it).
  for (const [i, at] of [dayBefore(now), now].entries()) {
    await insertActivity(
      db,
      tenant,
      {
        mode: 'session',
        player_id: playerId,
        campaign_id: daily,
        login_time: at.toISOString().slice(0, 19).replace('T', ' '),
      },
      { now: at, idempotencyKey: `demo-login-${i}-${playerId}` },
    );
  }
  await insertActivity(
    db,
    tenant,
    { mode: 'campaign', player_id: playerId, campaign_id: wheel },
    { now, idempotencyKey: `demo-wheel-${playerId}` },
  );
  const field: [string, string, number][] = [...RIVALS, ['Ana', 'García', 600]];
  for (const [first, last, points] of field) {
    const id =
      first === 'Ana'
        ? playerId
        : (
            await createCustomer(db, tenant, {
              firstName: first,
              lastName: last,
              externalId: `demo-rival-${first.toLowerCase()}`,
            })
          ).id;
    await insertActivity(
      db,
      tenant,
      { mode: 'tournament', player_id: id, campaign_id: tournament, points },
      { now, idempotencyKey: `demo-race-${id}` },
    );
  }
}

/**
 * A fresh store session for the demo player of the demo's first (or second) establishment,
 * making the demo marketplace first if needed; null without a demo tenant. For `npm start`'s
 * marketplace link (development only).
 */
export async function demoMarketplaceSession(db: Db, baseUrl: string, which: 0 | 1, now: Date) {
  const demo = await db.subBrand.findFirst({
    where: { isDemo: true },
    select: { id: true, brandId: true },
  });
  if (!demo) return null;
  const made = await ensureDemoMarketplace(
    db,
    { subBrandId: demo.id, brandId: demo.brandId },
    baseUrl,
    now,
  );
  const e = made.establishments[which]!;
  return createStoreSession(
    db,
    { subBrandId: e.subBrandId, environment: 'test' },
    { customerId: e.playerId, storeId: e.storeId, ttlSeconds: 3600 },
    now,
  );
}

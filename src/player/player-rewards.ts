// The player's side of the campaigns, for the marketplace's Rewards page: awards to claim, the
// daily rewards with today's state and the streak, the running tournaments with the player's
// position and the top of the table, and the mini-games the player has plays for. All of it is
// read through the campaign engine's own functions (positions, leaderboard, prizes by day).
import { prizeForDay } from '../engine/campaigns/grant-award.js';
import { prizeOdds, type GameTable } from '../engine/campaigns/mini-games.js';
import { targetingInput, type Prize } from '../engine/campaigns/schemas.js';
import { leaderboard } from '../engine/campaigns/settle-tournaments.js';
import { tournamentPositions } from '../engine/campaigns/tournament-positions.js';
import { textsIn } from '../domain/catalog/translations.js';
import type { Db } from '../domain/db.js';
import type { Tenant } from '../domain/tenant.js';

/** Places of a tournament's table the page shows. */
export const TABLE_TOP = 5;

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** Awards the player may claim now, newest first, with what each gives. */
export async function claimableAwards(
  db: Db,
  tenant: Tenant,
  customerId: string,
  lang: string,
  now: Date,
) {
  const awards = await db.campaignAward.findMany({
    where: { ...tenant, customerId, status: 'pending', expiresAt: { gt: now } },
    include: { campaign: { select: { title: true } } },
    orderBy: { id: 'desc' },
    take: 50,
  });
  const productIds = [...new Set(awards.flatMap((a) => (a.productId ? [a.productId] : [])))];
  const products = productIds.length
    ? await db.product.findMany({
        where: { id: { in: productIds } },
        select: { id: true, translations: true, kind: true, images: true },
      })
    : [];
  return awards.map((a) => {
    const product = products.find((p) => p.id === a.productId);
    const game = /^game:(.+)$/.exec(a.catalogPrize ?? '')?.[1] ?? null;
    return {
      id: a.id,
      campaignId: a.campaignId,
      campaignTitle: a.campaign.title,
      coins: Number(a.coins),
      productName: product ? (textsIn(product.translations, lang)?.name ?? null) : null,
      productImage: product?.images[0] ?? null,
      physical: product?.kind === 'physical',
      gameName: game,
      plays: game ? a.quantity : null,
      label: game ? null : a.catalogPrize || null,
      expiresAt: a.expiresAt,
      day: a.day,
      rank: a.rank,
    };
  });
}

/** Running daily-reward campaigns open to the player: the streak, today's state, the next prize. */
export async function dailyRewards(db: Db, tenant: Tenant, customerId: string, now: Date) {
  const campaigns = await db.campaign.findMany({
    where: {
      ...tenant,
      type: { in: ['daily_reward_simple', 'daily_reward_progressive'] },
      status: 'in_progress',
      isTemplate: false,
      deletedAt: null,
      startsAt: { lte: now },
      endsAt: { gt: now },
    },
    include: { progress: { where: { customerId } } },
    orderBy: { endsAt: 'asc' },
    take: 20,
  });
  const today = utcDay(now);
  const todays = await db.campaignAward.findMany({
    where: {
      ...tenant,
      customerId,
      campaignId: { in: campaigns.map((c) => c.id) },
      awardKey: `day:${today}`,
    },
    select: { campaignId: true, status: true },
  });
  return campaigns
    .filter((c) => c.progress.length > 0 || openToAll(c.targeting))
    .map((c) => {
      const progress = c.progress[0];
      const lastDay = progress?.lastDay ? utcDay(progress.lastDay) : null;
      const yesterday = utcDay(new Date(now.getTime() - 86_400_000));
      // The streak shown is the one that still counts: it breaks once a day is missed.
      const streak = lastDay === today || lastDay === yesterday ? (progress?.streak ?? 0) : 0;
      const won = todays.find((a) => a.campaignId === c.id);
      const prizes = c.prizes as Prize[];
      // The prize of the next qualifying day: tomorrow's when today counted, today's otherwise.
      const next = prizeForDay(prizes, streak + 1);
      return {
        campaignId: c.id,
        title: c.title,
        description: c.description,
        progressive: c.type === 'daily_reward_progressive',
        streak,
        today: won ? (won.status === 'pending' ? 'to_claim' : 'claimed') : 'not_yet',
        nextCoins: next ? next.coinPrize : null,
        endsAt: c.endsAt,
      };
    });
}

/** A campaign whose targeting names no condition and no list: every player may take part. */
function openToAll(targeting: unknown): boolean {
  const t = targetingInput.safeParse(targeting).data;
  return !t || (t.conditions.length === 0 && t.includedUsers.length === 0);
}

/** Running tournaments the player is ranked in, each with the top of its table. */
export async function playerTournaments(db: Db, tenant: Tenant, customerId: string, now: Date) {
  const positions = await tournamentPositions(db, tenant, customerId, now);
  return Promise.all(
    positions.map(async (p) => {
      const top = await leaderboard(
        db,
        { subBrandId: tenant.subBrandId, id: p.campaignId },
        TABLE_TOP,
      );
      const people = await db.customer.findMany({
        where: { id: { in: top.map((t) => t.customerId) }, ...tenant },
        select: { id: true, firstName: true, lastName: true, nickname: true },
      });
      return {
        ...p,
        prizeCoins: p.prize?.coinPrize ?? null,
        top: top.map((t) => {
          const person = people.find((x) => x.id === t.customerId);
          return {
            rank: t.rank,
            points: t.points,
            you: t.customerId === customerId,
            // Other players by nickname, or first name and initial: never a full name.
            name: person
              ? (person.nickname ?? `${person.firstName} ${person.lastName.slice(0, 1)}.`)
              : '—',
          };
        }),
      };
    }),
  );
}

/** The mini-games the player holds plays for (or has played), with each prize's chance. */
export async function playerGames(db: Db, tenant: Tenant, customerId: string) {
  const credits = await db.campaignGameCredit.findMany({
    where: { subBrandId: tenant.subBrandId, environment: tenant.environment, customerId },
    include: { campaign: { select: { title: true, deletedAt: true } } },
    orderBy: [{ campaignId: 'desc' }, { gameName: 'asc' }],
    take: 20,
  });
  const games = credits.filter((c) => !c.campaign.deletedAt);
  return Promise.all(
    games.map(async (g) => {
      const table = await db.campaignGameTable.findFirst({
        where: { subBrandId: tenant.subBrandId, campaignId: g.campaignId, gameName: g.gameName },
        orderBy: { version: 'desc' },
      });
      const prizes = (table?.prizes ?? []) as GameTable;
      return {
        campaignId: g.campaignId,
        campaignTitle: g.campaign.title,
        gameName: g.gameName,
        credits: g.credits,
        prizes: prizeOdds(prizes).map(({ label, coins, chance }) => ({ label, coins, chance })),
      };
    }),
  );
}

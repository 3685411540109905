// Tournaments: points × multiplier, ranks by points then who reached them first, live positions,
// settlement by final rank exactly once (two runners, a crash half-way), claims exactly once under
// concurrency, expiry, and product prizes that become zero-coin orders on /api/v1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { runCampaignJobs } from '../../src/engine/campaigns/run-campaign-jobs.js';
import { settleNextTournament } from '../../src/engine/campaigns/settle-tournaments.js';
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { listedProduct } from '../support/catalog.js';
import { campaignBody, campaignWorld, prize } from './support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
beforeAll(async () => {
  // The campaign job run here completes and settles every tenant's campaigns at the test's clock:
  // on the run's shared database it would reach the campaigns of the files running beside.
  w = await campaignWorld('2026-11-23T12:00:00Z', { ownDatabase: true });
});
afterAll(() => w.h.close());

const tournament = (over: Record<string, unknown> = {}) =>
  campaignBody({
    title: 'Weekend race',
    type: 'tournament',
    multiplier: 2,
    startDate: '2026-11-20',
    endDate: '2026-11-24T00:00:00Z',
    prizes: [prize({ rank: '1', coinPrize: 1000 }), prize({ rank: '2-3', coinPrize: 300 })],
    ...over,
  });

const score = (player: string, campaign: string, points: number) =>
  w.activity({ mode: 'tournament', player_id: player, campaign_id: campaign, points });

/** Runs settlement passes until this campaign's job is no longer pending (other tests' jobs may be due too). */
async function settle(
  prisma: PrismaClient,
  campaignId: string,
  now: Date,
  afterAward?: () => void,
) {
  for (let i = 0; i < 50; i++) {
    const job = await prisma.campaignSettlement.findFirst({ where: { campaignId } });
    if (job && job.status !== 'pending') return job;
    try {
      const id = await settleNextTournament(prisma, {
        now: () => now,
        afterAward: (c) => (c === campaignId ? afterAward?.() : undefined),
      });
      if (!id && job) return job;
    } catch {
      return prisma.campaignSettlement.findFirst({ where: { campaignId } });
    }
  }
  throw new Error('settlement never ran');
}

describe('ranking', () => {
  it('ranks by points × multiplier, ties broken by who reached them first; positions show the prize', async () => {
    w.clock.set('2026-11-23T12:00:00Z');
    const id = await w.campaign(tournament());
    const [ana, ben, cai, dov] = await Promise.all([
      w.player(),
      w.player(),
      w.player(),
      w.player(),
    ]);
    expect((await score(ana, id, 50)).body.results[0]).toMatchObject({
      outcome: 'points_added',
      points: 100,
    });
    w.clock.set('2026-11-23T12:00:01Z');
    await score(ben, id, 30);
    w.clock.set('2026-11-23T12:00:02Z');
    await score(ben, id, 20); // ben reaches 100 after ana did
    w.clock.set('2026-11-23T12:00:03Z');
    await score(cai, id, 10);
    await score(dov, id, 1);
    const pos = async (p: string) => (await w.p.get(`/players/${p}/tournament-position`)).body;
    expect(await pos(ana)).toMatchObject({
      playerId: ana,
      tournaments: [
        { campaignId: id, rank: 1, points: 100, participants: 4, prize: { coinPrize: 1000 } },
      ],
    });
    expect((await pos(ben)).tournaments[0]).toMatchObject({
      rank: 2,
      points: 100,
      prize: { rank: '2-3' },
    });
    expect((await pos(cai)).tournaments[0]).toMatchObject({ rank: 3, points: 20 });
    expect((await pos(dov)).tournaments[0]).toMatchObject({ rank: 4, points: 2, prize: null });
    const nobody = await w.player();
    expect(await pos(nobody)).toEqual({ playerId: nobody, tournaments: [] });
  });
});

describe('settlement', () => {
  it('pays by final rank exactly once, surviving a crash half-way; two runners never both settle', async () => {
    w.clock.set('2026-11-23T12:00:00Z');
    const id = await w.campaign(tournament());
    const players = await Promise.all([w.player(), w.player(), w.player(), w.player()]);
    for (const [i, p] of players.entries()) await score(p, id, 100 - i * 10);

    const end = new Date('2026-11-24T00:00:05Z');
    const prisma = w.h.db.prisma;
    await runCampaignJobs(prisma, { now: () => end, maxSettlements: 0 });
    expect((await w.p.get(`${w.base}/${id}`)).body.status).toBe('completed');

    // A crash after the first award: everything of that attempt rolls back.
    const crashed = await settle(prisma, id, end, () => {
      throw new Error('power cut');
    });
    expect(crashed).toMatchObject({ status: 'pending', attempts: 1, lastError: 'power cut' });
    expect(await prisma.campaignAward.count({ where: { campaignId: id } })).toBe(0);

    // After the back-off, two runners (two pools on PostgreSQL, as two processes would be) race.
    const later = new Date(end.getTime() + 60 * 60 * 1000);
    const url = w.h.databaseUrl;
    const second = url ? await openDatabase({ url, poolSize: 2 }) : null;
    try {
      await Promise.all([settle(prisma, id, later), settle(second?.prisma ?? prisma, id, later)]);
    } finally {
      await second?.close();
    }
    const job = await prisma.campaignSettlement.findFirstOrThrow({ where: { campaignId: id } });
    expect(job).toMatchObject({ status: 'done', awarded: 3 });
    const awards = await prisma.campaignAward.findMany({
      where: { campaignId: id },
      orderBy: { rank: 'asc' },
    });
    expect(awards.map((a) => [a.customerId, a.rank, Number(a.coins)])).toEqual([
      [players[0], 1, 1000],
      [players[1], 2, 300],
      [players[2], 3, 300],
    ]);
    // Another pass changes nothing.
    await runCampaignJobs(prisma, { now: () => later });
    expect(await prisma.campaignAward.count({ where: { campaignId: id } })).toBe(3);
    expect((await w.p.get(`${w.base}/${id}`)).body.totalAwarded).toBe(1600);

    // Claims of the winner's award race: one credit, the others refused.
    w.clock.set(later.toISOString());
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => w.claim(players[0]!, awards[0]!.id)),
    );
    expect(claims.filter((c) => c.status === 200)).toHaveLength(1);
    for (const c of claims.filter((r) => r.status !== 200)) {
      expect([c.status, c.body.code]).toEqual([400, 'AWARD_ALREADY_CLAIMED']);
    }
    expect(await w.balance(players[0]!)).toBe(1000);
    const movements = await w.p.get(`/api/v1/customers/${players[0]}/coins/movements`);
    expect(movements.body.data).toHaveLength(1);
    // Only its owner claims an award.
    const stranger = await w.claim(players[1]!, awards[0]!.id);
    expect([stranger.status, stranger.body.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
  });

  it('a restricted player is left out of the final ranking: the prize goes to the next', async () => {
    w.clock.set('2026-11-23T12:00:00Z');
    const id = await w.campaign(tournament({ prizes: [prize({ rank: '1', coinPrize: 10 })] }));
    const [top, next] = await Promise.all([w.player(), w.player()]);
    await score(top, id, 100);
    await score(next, id, 50);
    await w.p.patch(`/api/v1/customers/${top}`, { status: 'restricted', status_note: 'abuse' });
    const end = new Date('2026-11-24T00:00:05Z');
    await runCampaignJobs(w.h.db.prisma, { now: () => end, maxSettlements: 0 });
    await settle(w.h.db.prisma, id, end);
    const awards = await w.h.db.prisma.campaignAward.findMany({ where: { campaignId: id } });
    expect(awards.map((a) => [a.customerId, a.rank])).toEqual([[next, 1]]);
  });
});

describe('claims', () => {
  it('an award unclaimed for 30 days expires', async () => {
    w.clock.set('2026-11-23T12:00:00Z');
    const id = await w.campaign(campaignBody());
    const player = await w.player();
    const won = await w.activity({ mode: 'campaign', player_id: player, campaign_id: id });
    const awardId = won.body.results[0].award.awardId;
    expect(won.body.results[0].award.expiresAt).toBe('2026-12-23T12:00:00.000Z');
    w.clock.set('2026-12-23T12:00:00Z');
    try {
      const late = await w.claim(player, awardId);
      expect([late.status, late.body.code]).toEqual([400, 'AWARD_EXPIRED']);
      const prizes = await w.p.get(`/players/${player}/prizes`);
      expect(prizes.body.prizes[0]).toMatchObject({ awardId, status: 'expired' });
      expect(await w.balance(player)).toBe(0);
    } finally {
      w.clock.set('2026-11-23T12:00:00Z');
    }
  });

  it('a product prize becomes a zero-coin order, visible on /api/v1/orders', async () => {
    w.clock.set('2026-11-23T12:00:00Z');
    const product = await listedProduct(w.h.db.prisma, w.p.subBrandId, {
      stock: 3,
      kind: 'digital',
    });
    const id = await w.campaign(
      campaignBody({
        prizes: [prize({ coinPrize: 0, productPrize: product.productId, quantity: 1 })],
      }),
    );
    const player = await w.player();
    const won = await w.activity({ mode: 'campaign', player_id: player, campaign_id: id });
    expect(won.body.results[0].award).toMatchObject({
      coins: 0,
      productId: product.productId,
      quantity: 1,
    });
    const claimed = await w.claim(player, won.body.results[0].award.awardId);
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body).toMatchObject({
      coins: null,
      orderId: expect.any(String),
      award: { status: 'claimed' },
    });
    const order = await w.p.get(`/api/v1/orders/${claimed.body.orderId}`);
    expect(order.status, order.text).toBe(200);
    expect(order.body.data).toMatchObject({
      customer_id: player,
      total_coins: 0,
      status: 'pending',
    });
    const list = await w.p.get(`/api/v1/orders?customer_id=${player}`);
    expect(list.body.data.map((o: any) => o.id)).toContain(claimed.body.orderId);
    expect(await w.balance(player)).toBe(0);
    const stock = await w.h.db.prisma.variantStock.findUniqueOrThrow({
      where: { variantId_environment: { variantId: product.variantId, environment: 'test' } },
    });
    expect(stock.available).toBe(2);
  });

  it('restricted players cannot claim; a banned one neither', async () => {
    w.clock.set('2026-11-23T12:00:00Z');
    const id = await w.campaign(campaignBody());
    const player = await w.player();
    const won = await w.activity({ mode: 'campaign', player_id: player, campaign_id: id });
    await w.p.patch(`/api/v1/customers/${player}`, { status: 'banned', status_note: 'fraud' });
    const res = await w.claim(player, won.body.results[0].award.awardId);
    expect([res.status, res.body.code]).toEqual([400, 'CUSTOMER_NOT_ELIGIBLE']);
  });
});

// The establishment player record's campaign side: `prizes` (the newest awards, claimed ones
// included) and `gameCredits` (plays left, keyed `<gameName>:<campaignId>`), in GET
// /players/{id} and in search results, loaded for a whole page at once (no query per player),
// and never showing another establishment's campaigns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { setGameTable } from '../../src/engine/campaigns/mini-games.js';
import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { campaignBody, campaignWorld, prize } from './support.js';

/** Every Prisma operation the server makes (model calls and raw SQL), counted. */
const counter = { n: 0 };
let w: Awaited<ReturnType<typeof campaignWorld>>;
beforeAll(async () => {
  const db = await testDatabase();
  const counted = db.prisma.$extends({
    query: {
      $allOperations: ({ args, query }) => {
        counter.n += 1;
        return query(args);
      },
    },
  }) as unknown as PrismaClient;
  w = await campaignWorld('2026-11-23T12:00:00Z', { prisma: counted });
});
afterAll(() => w.h.close());

type Partner = Awaited<ReturnType<typeof partner>>;

/** The campaign short-hands of `w`, for another tenant on the same server. */
function worldOf(own: Partner): typeof w {
  const base = `/establishments/${own.subBrandId}/campaigns`;
  return {
    ...w,
    p: own,
    base,
    player: async (fields: Record<string, unknown> = {}) =>
      (await own.customer(fields)).id as string,
    activity: (body: Record<string, unknown>) => own.post(`${base}/insert-activity`, body),
    claim: (playerId: string, awardId: string) =>
      own.post(`/players/${playerId}/claim`, { awardId }, null),
    async campaign(body: Record<string, unknown>) {
      const res = await own.post(base, body, null);
      expect(res.status, res.text).toBe(200);
      const id = res.body[0].campaignId as string;
      await own.put(`${base}/${id}/update-status`, { status: 'in_progress' });
      return id;
    },
  } as typeof w;
}

/** A player who won (and claimed) a daily prize worth 100 coins and 3 plays of `wheel`. */
async function playerWithPrizes(world = w) {
  const id = await world.campaign(
    campaignBody({
      prizes: [prize({ coinPrize: 100, catalogPrize: 'game:wheel', quantity: 3 })],
    }),
  );
  const player = await world.player({ email: 'ana@example.com' });
  const won = await world.activity({ mode: 'campaign', player_id: player, campaign_id: id });
  const awardId = won.body.results[0].award.awardId as string;
  const claimed = await world.claim(player, awardId);
  expect(claimed.status, claimed.text).toBe(200);
  return { campaignId: id, player, awardId };
}

describe('the player record', () => {
  it('carries a claimed prize and the plays it gave', async () => {
    const { campaignId, player, awardId } = await playerWithPrizes();
    const record = await w.p.get(`/players/${player}`);
    expect(record.status, record.text).toBe(200);
    expect(record.body.coins).toBe(100);
    expect(record.body.gameCredits).toEqual({ [`wheel:${campaignId}`]: 3 });
    expect(record.body.prizes).toHaveLength(1);
    expect(record.body.prizes[0]).toMatchObject({
      awardId,
      campaignId,
      playerId: player,
      coins: 100,
      catalogPrize: 'game:wheel',
      quantity: 3,
      status: 'claimed',
      claimedAt: '2026-11-23T12:00:00.000Z',
      movementId: expect.any(String),
    });
    // The same award as the prizes list shows it.
    const list = await w.p.get(`/players/${player}/prizes`);
    expect(list.body.prizes[0]).toEqual(record.body.prizes[0]);
    // A play taken shows at once; a game with none left is not listed.
    const tenant = { subBrandId: w.p.subBrandId, environment: 'test' as const };
    await setGameTable(w.h.db.prisma, tenant, campaignId, 'wheel', {
      prizes: [{ label: 'Nothing', coins: 0, weight: 1 }],
    });
    const play = () => w.p.post(`/players/${player}/game/wheel/${campaignId}/play`, {});
    expect((await play()).status).toBe(200);
    expect((await w.p.get(`/players/${player}`)).body.gameCredits).toEqual({
      [`wheel:${campaignId}`]: 2,
    });
    for (let i = 0; i < 2; i++) expect((await play()).status).toBe(200);
    expect((await w.p.get(`/players/${player}`)).body.gameCredits).toEqual({});
    expect((await w.p.get(`/players/${player}`)).body.prizes).toHaveLength(1);
  });

  it('a pending prize shows as pending, then expired once its claim window passes', async () => {
    const id = await w.campaign(campaignBody({ prizes: [prize({ coinPrize: 5 })] }));
    const player = await w.player();
    await w.activity({ mode: 'campaign', player_id: player, campaign_id: id });
    const record = await w.p.get(`/players/${player}`);
    expect(record.body.prizes).toMatchObject([{ status: 'pending', coins: 5, claimedAt: null }]);
    expect(record.body.gameCredits).toEqual({});
    w.clock.set('2026-12-24T12:00:00Z');
    try {
      const later = await w.p.get(`/players/${player}`);
      expect(later.body.prizes).toMatchObject([{ status: 'expired' }]);
    } finally {
      w.clock.set('2026-11-23T12:00:00Z');
    }
  });

  it('a player without campaigns has none, in the record that creating answers too', async () => {
    const created = await w.p.post(
      '/players',
      { establishmentId: w.p.subBrandId, name: 'Neo Anderson' },
      null,
    );
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ gameCredits: {}, prizes: [] });
    const record = await w.p.get(`/players/${created.body.playerId}`);
    expect(record.body).toMatchObject({ gameCredits: {}, prizes: [] });
  });

  it('search results carry them too, with as many queries for many players as for one', async () => {
    // A tenant of its own, so the search sees exactly its players.
    const own = await partner(w.h);
    const bound = worldOf(own);
    const searched = async () => {
      counter.n = 0;
      const res = await own.post('/players/search', {}, null);
      expect(res.status, res.text).toBe(200);
      return { players: res.body.data, queries: counter.n };
    };
    const first = await playerWithPrizes(bound);
    const one = await searched();
    expect(one.players).toHaveLength(1);
    expect(one.players[0]).toMatchObject({
      playerId: first.player,
      gameCredits: { [`wheel:${first.campaignId}`]: 3 },
      prizes: [{ awardId: first.awardId, status: 'claimed' }],
    });
    for (let i = 0; i < 4; i++) await playerWithPrizes(bound);
    const five = await searched();
    expect(five.players).toHaveLength(5);
    for (const p of five.players) {
      expect(Object.values(p.gameCredits)).toEqual([3]);
      expect(p.prizes).toHaveLength(1);
    }
    expect(one.queries).toBeGreaterThan(0);
    expect(five.queries).toBe(one.queries);
  });

  it("another establishment's campaigns never show, and its players are not found", async () => {
    const other = await partner(w.h);
    const theirs = await playerWithPrizes(worldOf(other));
    const mine = await playerWithPrizes();
    expect((await w.p.get(`/players/${theirs.player}`)).status).toBe(404);
    expect((await other.get(`/players/${mine.player}`)).status).toBe(404);
    // Each side sees its own prize and plays only.
    const ours = await w.p.get(`/players/${mine.player}`);
    expect(ours.body.prizes.map((p: any) => p.campaignId)).toEqual([mine.campaignId]);
    expect(Object.keys(ours.body.gameCredits)).toEqual([`wheel:${mine.campaignId}`]);
    const search = await other.post('/players/search', {}, null);
    expect(search.body.data).toHaveLength(1);
    expect(search.body.data[0]).toMatchObject({
      playerId: theirs.player,
      gameCredits: { [`wheel:${theirs.campaignId}`]: 3 },
      prizes: [{ campaignId: theirs.campaignId }],
    });
  });
});

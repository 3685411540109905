// Mini-games: plays come from claiming a game: prize, each play takes one and draws from the
// current table version with crypto.randomInt; every draw is recorded once per Idempotency-Key
// and plays never exceed the credits, even concurrently.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setGameTable } from '../../src/engine/campaigns/mini-games.js';
import { campaignBody, campaignWorld, prize } from './support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
beforeAll(async () => {
  w = await campaignWorld('2026-11-23T12:00:00Z');
});
afterAll(() => w.h.close());

const table = (prizes: { label: string; coins: number; weight: number }[]) => ({ prizes });

/** A player holding `plays` plays of `wheel` in a new campaign whose table is set. */
async function withPlays(plays: number) {
  const id = await w.campaign(
    campaignBody({
      prizes: [prize({ coinPrize: 0, catalogPrize: 'game:wheel', quantity: plays })],
    }),
  );
  const tenant = { subBrandId: w.p.subBrandId, environment: 'test' as const };
  await setGameTable(
    w.h.db.prisma,
    tenant,
    id,
    'wheel',
    table([
      { label: 'Nothing', coins: 0, weight: 1 },
      { label: 'Ten coins', coins: 10, weight: 1 },
    ]),
  );
  const player = await w.player();
  const won = await w.activity({ mode: 'campaign', player_id: player, campaign_id: id });
  const claimed = await w.claim(player, won.body.results[0].award.awardId);
  expect(claimed.status, claimed.text).toBe(200);
  const path = `/players/${player}/game/wheel/${id}`;
  return {
    id,
    player,
    path,
    tenant,
    play: (key: string | null = randomUUID()) => w.p.post(`${path}/play`, {}, key),
  };
}

describe('mini-games', () => {
  it('a game: prize grants plays; the game shows them, the table with chances, and the draws', async () => {
    const g = await withPlays(2);
    const state = await w.p.get(g.path);
    expect(state.status, state.text).toBe(200);
    expect(state.body).toMatchObject({
      playerId: g.player,
      campaignId: g.id,
      gameName: 'wheel',
      credits: 2,
      table: {
        version: 1,
        prizes: [
          { label: 'Nothing', chance: 0.5 },
          { label: 'Ten coins', chance: 0.5 },
        ],
      },
      draws: [],
    });
  });

  it('a play is recorded with the number drawn, the table version and the result, once per key', async () => {
    const g = await withPlays(2);
    const key = randomUUID();
    const first = await g.play(key);
    expect(first.status, first.text).toBe(200);
    const d = first.body.draw;
    expect(d).toMatchObject({ tableVersion: 1, totalWeight: 2 });
    expect(d.draw).toBeGreaterThanOrEqual(0);
    expect(d.draw).toBeLessThan(2);
    expect(d.resultIndex).toBe(d.draw); // weights 1 and 1: the number drawn is the prize's index
    expect(d.coins).toBe(d.resultIndex === 1 ? 10 : 0);
    const again = await g.play(key);
    expect(again.body).toEqual(first.body);
    // A new table is a new version; the next play names it.
    await setGameTable(
      w.h.db.prisma,
      g.tenant,
      g.id,
      'wheel',
      table([{ label: 'Five', coins: 5, weight: 3 }]),
    );
    const second = await g.play();
    expect(second.body.draw).toMatchObject({
      tableVersion: 2,
      label: 'Five',
      coins: 5,
      totalWeight: 3,
    });
    const none = await g.play();
    expect([none.status, none.body.code]).toEqual([400, 'NO_GAME_CREDITS']);
    const state = await w.p.get(g.path);
    expect(state.body.credits).toBe(0);
    expect(state.body.draws).toHaveLength(2);
    expect(await w.balance(g.player)).toBe(d.coins + 5);
    const noKey = await g.play(null);
    expect(noKey.status).toBe(400);
  });

  it('concurrent plays never exceed the credits', async () => {
    const g = await withPlays(3);
    const plays = await Promise.all(Array.from({ length: 8 }, () => g.play()));
    expect(plays.filter((p) => p.status === 200)).toHaveLength(3);
    for (const p of plays.filter((r) => r.status !== 200))
      expect(p.body.code).toBe('NO_GAME_CREDITS');
    const won = plays.filter((p) => p.status === 200).reduce((s, p) => s + p.body.draw.coins, 0);
    expect(await w.balance(g.player)).toBe(won);
    const draws = await w.h.db.prisma.campaignGameDraw.count({ where: { campaignId: g.id } });
    expect(draws).toBe(3);
  });

  it('another campaign, an unknown game or a malformed name is not found or refused', async () => {
    const g = await withPlays(1);
    expect((await w.p.get(`/players/${g.player}/game/wheel/${randomUUID()}`)).body.code).toBe(
      'CAMPAIGN_NOT_FOUND',
    );
    expect((await w.p.get(`/players/${g.player}/game/Bad Name!/${g.id}`)).status).toBe(400);
    const noTable = await w.p.post(`/players/${g.player}/game/dice/${g.id}/play`, {}, randomUUID());
    expect([noTable.status, noTable.body.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
  });
});

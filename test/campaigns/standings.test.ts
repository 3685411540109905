// Issue 32: a tournament's standings on the establishment API, paged, for its own establishment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partner } from '../support/partner.js';
import { campaignBody, campaignWorld, prize } from './support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
beforeAll(async () => {
  w = await campaignWorld('2026-11-23T12:00:00Z');
}, 60_000);
afterAll(() => w.h.close());

const tournament = () =>
  campaignBody({
    title: 'Race',
    type: 'tournament',
    startDate: '2026-11-20',
    endDate: '2026-12-20',
    prizes: [prize({ rank: '1-3', coinPrize: 10 })],
  });

describe('GET …/campaigns/{campaignId}/standings', () => {
  it('ranks by points, ties by who reached them first, from offset, and names the players', async () => {
    const id = await w.campaign(tournament());
    const [a, b, c] = [
      await w.player({ first_name: 'Ana', last_name: 'Ruiz', external_id: 'p-a' }),
      await w.player({ first_name: 'Bea' }),
      await w.player({ first_name: 'Carla' }),
    ];
    for (const [player, points] of [
      [a, 30],
      [b, 50],
      [c, 30],
    ] as const) {
      const res = await w.activity({
        mode: 'tournament',
        player_id: player,
        campaign_id: id,
        points,
      });
      expect(res.status, res.text).toBe(200);
    }
    const all = await w.p.get(`${w.base}/${id}/standings`);
    expect(all.status, all.text).toBe(200);
    expect(all.body).toMatchObject({ campaignId: id, status: 'in_progress' });
    expect(all.body.standings.map((s: { playerId: string }) => s.playerId)).toEqual([b, a, c]);
    expect(all.body.standings[1]).toMatchObject({
      rank: 2,
      playerId: a,
      externalId: 'p-a',
      playerName: 'Ana Ruiz',
      points: 30,
    });
    const page = await w.p.get(`${w.base}/${id}/standings?offset=1&limit=1`);
    expect(page.body.standings).toEqual([all.body.standings[1]]);
  });

  it('refuses bad paging, and another establishment or tenant', async () => {
    const id = await w.campaign(tournament());
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=ten']) {
      const res = await w.p.get(`${w.base}/${id}/standings?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    const other = await partner(w.h);
    const theirs = await other.get(`/establishments/${other.subBrandId}/campaigns/${id}/standings`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe('CAMPAIGN_NOT_FOUND');
    const crossed = await other.get(`${w.base}/${id}/standings`);
    expect([403, 404]).toContain(crossed.status);
    expect(JSON.stringify(crossed.body)).not.toContain('Race');
  });
});

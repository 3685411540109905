// Tournament positions come from campaign_point_counts (a trigger keeps it); this checks them
// against the exact rank, counted row by row over the standings, on random seeded data: ties of
// points and of instants, values across every level of the counts (up to 2^40), concurrent
// score changes, a player's hard delete and a campaign's erase.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertActivity } from '../../src/engine/campaigns/insert-activity.js';
import { tournamentPositions } from '../../src/engine/campaigns/tournament-positions.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { campaignBody, campaignWorld, prize } from './support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
let tenant: Tenant;
let players: string[];
beforeAll(async () => {
  w = await campaignWorld('2026-11-23T12:00:00Z');
  tenant = { subBrandId: w.p.subBrandId, environment: 'test' };
  players = await Promise.all(Array.from({ length: 16 }, () => w.player()));
}, 60_000);
afterAll(() => w.h.close());

const tournament = (multiplier: number) =>
  campaignBody({
    title: 'Race',
    type: 'tournament',
    multiplier,
    startDate: '2026-11-20',
    endDate: '2026-12-20',
    prizes: [prize({ rank: '1-3', coinPrize: 10 })],
  });

/** The rank by definition: 1 + players with more points + tied players who reached them first. */
async function exactRanks(campaignId: string) {
  const rows = await w.h.db.prisma.$queryRaw<
    { customer_id: string; points: bigint; rank: bigint; participants: bigint }[]
  >`
    SELECT p.customer_id, p.points,
      1 + (SELECT count(*) FROM campaign_progress o WHERE o.campaign_id = p.campaign_id
            AND (o.points > p.points OR (o.points = p.points
              AND (o.reached_at, o.customer_id) < (p.reached_at, p.customer_id)))) AS rank,
      (SELECT count(*) FROM campaign_progress o WHERE o.campaign_id = p.campaign_id AND o.points > 0) AS participants
    FROM campaign_progress p WHERE p.campaign_id = ${campaignId}::uuid AND p.points > 0`;
  return new Map(
    rows.map((r) => [
      r.customer_id,
      { rank: Number(r.rank), points: Number(r.points), participants: Number(r.participants) },
    ]),
  );
}

async function positionsOf(campaignId: string, now: Date) {
  const got = new Map<string, { rank: number; points: number; participants: number }>();
  for (const player of players) {
    const mine = (await tournamentPositions(w.h.db.prisma, tenant, player, now)).find(
      (t) => t.campaignId === campaignId,
    );
    if (mine)
      got.set(player, { rank: mine.rank, points: mine.points, participants: mine.participants });
  }
  return got;
}

/** Points that tie (1-3), cross level-0 and level-1 blocks (60-5000), and reach high levels (× the multiplier: up to 2^40). */
const points = fc.oneof(
  fc.integer({ min: 1, max: 3 }),
  fc.integer({ min: 60, max: 5000 }),
  fc.integer({ min: 1, max: 1_000_000_000 }),
);
const batch = fc.array(fc.record({ player: fc.integer({ min: 0, max: 15 }), points }), {
  minLength: 1,
  maxLength: 8,
});

describe('tournament positions', () => {
  it('equal the exact COUNT-based rank on random data, with ties and concurrent score changes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1000 }),
        fc.array(batch, { minLength: 1, maxLength: 5 }),
        async (multiplier, batches) => {
          run += 1;
          const id = await w.campaign(tournament(multiplier));
          for (const [i, b] of batches.entries()) {
            // One instant per batch: players reaching equal points at the same instant tie on
            // reached_at too, and the id decides. The batch runs concurrently.
            const now = new Date(Date.UTC(2026, 10, 23, 12, 0, i));
            await Promise.all(
              b.map((a) =>
                insertActivity(
                  w.h.db.prisma,
                  tenant,
                  {
                    mode: 'tournament',
                    player_id: players[a.player],
                    campaign_id: id,
                    points: a.points,
                  },
                  { now, idempotencyKey: `r${run}-${i}-${Math.random()}` },
                ),
              ),
            );
          }
          const now = new Date('2026-11-23T13:00:00Z');
          expect(await positionsOf(id, now)).toEqual(await exactRanks(id));
        },
      ),
      { seed: 1211, numRuns: 12 },
    );
  }, 120_000);

  it('stay exact after a player is deleted and drop the counts of an erased campaign', async () => {
    const id = await w.campaign(tournament(1));
    const now = new Date('2026-11-23T12:30:00Z');
    const gone = await w.player();
    const everyone = [...players, gone];
    await Promise.all(
      everyone.map((player, i) =>
        insertActivity(
          w.h.db.prisma,
          tenant,
          { mode: 'tournament', player_id: player, campaign_id: id, points: 1 + (i % 3) * 70 },
          { now, idempotencyKey: `del-${i}` },
        ),
      ),
    );
    expect((await exactRanks(id)).size).toBe(17);
    const del = await w.p.delete(`/api/v1/customers/${gone}`);
    expect(del.status, del.text).toBe(200);
    const exact = await exactRanks(id);
    expect(exact.size).toBe(16);
    expect(await positionsOf(id, now)).toEqual(exact);

    // A campaign that awarded nothing is erased: its counts go with it.
    const counts = () =>
      w.h.db.prisma.campaignPointCount.count({
        where: { subBrandId: tenant.subBrandId, campaignId: id },
      });
    expect(await counts()).toBeGreaterThan(0);
    const erased = await w.p.delete(`${w.base}/${id}`);
    expect(erased.status, erased.text).toBe(200);
    expect(await counts()).toBe(0);
  }, 60_000);
});

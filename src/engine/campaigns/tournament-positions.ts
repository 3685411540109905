// A player's live standing in each running tournament they are in: rank (points, then who
// reached them first, then id: the order settlement ranks by), points, participants, and the
// prize the rank would win if it ended now. Players above come from campaign_point_counts (kept
// by a trigger in the transaction that changes the points: a sum over at most 63 rows a level,
// whatever the field's size); the tied players ahead are counted through the standings' index
// (campaign_id, points DESC, reached_at, customer_id). docs/campaigns.md, "Positions".
import type { Db } from '../../domain/db.js';
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import type { Tenant } from '../../domain/tenant.js';
import { completeEndedCampaigns } from './complete-campaigns.js';
import type { Prize } from './schemas.js';
import { prizeForRank } from './settle-tournaments.js';

/** The tournaments a player has a live place in: running, or paused (and to resume). */
export const POSITION_STATUSES = ['in_progress', 'paused'] as const;

export type Position = {
  campaignId: string;
  title: string;
  status: (typeof POSITION_STATUSES)[number];
  endsAt: Date;
  rank: number;
  points: number;
  participants: number;
  prize: Prize | null;
};

export async function tournamentPositions(
  db: Db,
  tenant: Tenant,
  customerId: string,
  now: Date,
): Promise<Position[]> {
  if (!isUuid(customerId)) throw notFound('Customer');
  await completeEndedCampaigns(db, now, { tenant });
  // One statement: the player (no row: not this tenant's) and a row per running tournament.
  const rows = await db.$queryRaw<
    {
      campaign_id: string | null;
      title: string;
      status: Position['status'];
      ends_at: Date;
      prizes: Prize[];
      points: bigint;
      ahead: bigint;
      participants: bigint;
    }[]
  >`
    SELECT c.id AS campaign_id, c.title, c.status::text AS status, c.ends_at, c.prizes, p.points,
      campaign_players_above(p.sub_brand_id, p.campaign_id, p.points) +
      (SELECT count(*) FROM campaign_progress o
        WHERE o.campaign_id = p.campaign_id AND o.points = p.points
          AND (o.reached_at, o.customer_id) < (p.reached_at, p.customer_id)) AS ahead,
      campaign_participants(p.sub_brand_id, p.campaign_id) AS participants
    FROM customers pl
    LEFT JOIN (campaign_progress p
      JOIN campaigns c ON c.id = p.campaign_id AND c.sub_brand_id = p.sub_brand_id
        AND c.type = 'tournament' AND c.status IN ('in_progress', 'paused') AND c.deleted_at IS NULL)
      ON p.customer_id = pl.id AND p.sub_brand_id = pl.sub_brand_id
        AND p.environment = pl.environment AND p.points > 0
    WHERE pl.id = ${customerId}::uuid AND pl.sub_brand_id = ${tenant.subBrandId}::uuid
      AND pl.environment = ${tenant.environment}::environment
    ORDER BY c.ends_at, c.id`;
  if (!rows.length) throw notFound('Customer');
  return rows
    .filter((r) => r.campaign_id !== null)
    .map((r) => {
      const rank = Number(r.ahead) + 1;
      return {
        campaignId: r.campaign_id!,
        title: r.title,
        status: r.status,
        endsAt: r.ends_at,
        rank,
        points: Number(r.points),
        participants: Number(r.participants),
        prize: prizeForRank(r.prizes, rank),
      };
    });
}

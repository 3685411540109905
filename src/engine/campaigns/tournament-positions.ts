// A player's live standing in each running tournament they are in: rank (points, then who
// reached them first), points, participants, and the prize the rank would win if it ended now.
// Index range counts on (campaign_id, points DESC, reached_at, customer_id): no sort, but linear
// in the field, so far from the 20 ms goal at a million participants (docs/performance.md has
// the figures and the two ways to meet it).
import type { Db } from '../../domain/db.js';
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import type { Tenant } from '../../domain/tenant.js';
import { completeEndedCampaigns } from './complete-campaigns.js';
import type { Prize } from './schemas.js';
import { prizeForRank } from './settle-tournaments.js';

export type Position = {
  campaignId: string;
  title: string;
  status: string;
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
  const player = await db.customer.findFirst({
    where: { id: customerId, ...tenant },
    select: { id: true },
  });
  if (!player) throw notFound('Customer');
  await completeEndedCampaigns(db, now, { tenant });
  const rows = await db.$queryRaw<
    {
      campaign_id: string;
      title: string;
      status: string;
      ends_at: Date;
      prizes: Prize[];
      points: bigint;
      ahead: bigint;
      participants: bigint;
    }[]
  >`
    SELECT c.id AS campaign_id, c.title, c.status::text AS status, c.ends_at, c.prizes, p.points,
      (SELECT count(*) FROM campaign_progress o
        WHERE o.campaign_id = p.campaign_id AND o.points > p.points) +
      (SELECT count(*) FROM campaign_progress o
        WHERE o.campaign_id = p.campaign_id AND o.points = p.points
          AND (o.reached_at, o.customer_id) < (p.reached_at, p.customer_id)) AS ahead,
      (SELECT count(*) FROM campaign_progress o WHERE o.campaign_id = p.campaign_id AND o.points > 0) AS participants
    FROM campaign_progress p JOIN campaigns c ON c.id = p.campaign_id
    WHERE p.customer_id = ${customerId}::uuid AND p.sub_brand_id = ${tenant.subBrandId}::uuid
      AND p.environment = ${tenant.environment}::environment AND p.points > 0
      AND c.type = 'tournament' AND c.status IN ('in_progress', 'paused') AND c.deleted_at IS NULL
    ORDER BY c.ends_at, c.id`;
  return rows.map((r) => {
    const rank = Number(r.ahead) + 1;
    return {
      campaignId: r.campaign_id,
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

// Campaign performance (docs/reports.md): the tenant's campaigns running at some point of a
// window (not templates, not deleted), newest start first, with the players they reached (a
// progress row: the player took part), the awards they made, the coins those awards carry and
// how many were claimed. Totals over each campaign's life, not only the window.
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import { reportWindow, type ReportWindow } from './window.js';

export const CAMPAIGN_REPORT_LIMIT = 100;

export type CampaignPerformance = {
  campaignId: string;
  title: string;
  type: string;
  status: string;
  startsAt: Date;
  endsAt: Date;
  playersReached: number;
  awards: number;
  awardsClaimed: number;
  awardsExpired: number;
  /** Σ coins of its awards. */
  coinsAwarded: number;
  /** Σ coins of its claimed awards. */
  coinsClaimed: number;
};

export async function readCampaignPerformance(
  db: Db,
  tenant: Tenant,
  input: ReportWindow,
): Promise<{ from: Date; to: Date; campaigns: CampaignPerformance[] }> {
  const window = reportWindow(input);
  const sub = Prisma.sql`${tenant.subBrandId}::uuid`;
  const rows = await queryRaw<{
    id: string;
    title: string;
    type: string;
    status: string;
    starts_at: Date;
    ends_at: Date;
    players: bigint;
    awards: bigint;
    claimed: bigint;
    expired: bigint;
    coins: bigint;
    coins_claimed: bigint;
  }>(
    db,
    Prisma.sql`WITH c AS (
        SELECT id, title, type::text AS type, status::text AS status, starts_at, ends_at FROM campaigns
        WHERE sub_brand_id = ${sub} AND environment = ${tenant.environment}::environment
          AND deleted_at IS NULL AND NOT is_template
          AND starts_at < ${window.to}::timestamptz AND ends_at > ${window.from}::timestamptz
        ORDER BY starts_at DESC, id LIMIT ${CAMPAIGN_REPORT_LIMIT}
      )
      SELECT c.id::text, c.title, c.type, c.status, c.starts_at, c.ends_at,
        (SELECT count(*) FROM campaign_progress p WHERE p.sub_brand_id = ${sub} AND p.campaign_id = c.id)::bigint AS players,
        coalesce(a.awards, 0)::bigint AS awards, coalesce(a.claimed, 0)::bigint AS claimed,
        coalesce(a.expired, 0)::bigint AS expired, coalesce(a.coins, 0)::bigint AS coins,
        coalesce(a.coins_claimed, 0)::bigint AS coins_claimed
      FROM c LEFT JOIN LATERAL (
        SELECT count(*) AS awards, count(*) FILTER (WHERE status = 'claimed') AS claimed,
               count(*) FILTER (WHERE status = 'expired') AS expired, sum(coins) AS coins,
               sum(coins) FILTER (WHERE status = 'claimed') AS coins_claimed
        FROM campaign_awards WHERE sub_brand_id = ${sub} AND campaign_id = c.id
      ) a ON true
      ORDER BY c.starts_at DESC, c.id`,
  );
  return {
    ...window,
    campaigns: rows.map((r) => ({
      campaignId: r.id,
      title: r.title,
      type: r.type,
      status: r.status,
      startsAt: r.starts_at,
      endsAt: r.ends_at,
      playersReached: Number(r.players),
      awards: Number(r.awards),
      awardsClaimed: Number(r.claimed),
      awardsExpired: Number(r.expired),
      coinsAwarded: Number(r.coins),
      coinsClaimed: Number(r.coins_claimed),
    })),
  };
}

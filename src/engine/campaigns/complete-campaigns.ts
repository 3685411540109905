// Campaigns end by the clock, not by a caller: a running or paused campaign whose end has passed
// becomes completed, and a tournament gets its settlement job in the same statement (an outbox:
// the job exists exactly when the campaign is completed). Called on every read of a campaign and
// by the scheduled job (run-campaign-jobs.ts), so neither has to wait for the other.
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../domain/db.js';
import type { Tenant } from '../../domain/tenant.js';

export async function completeEndedCampaigns(
  db: Db,
  now: Date,
  where: { tenant?: Tenant; campaignId?: string } = {},
): Promise<number> {
  const tenant = where.tenant
    ? Prisma.sql`AND sub_brand_id = ${where.tenant.subBrandId}::uuid AND environment = ${where.tenant.environment}::environment`
    : Prisma.empty;
  const one = where.campaignId ? Prisma.sql`AND id = ${where.campaignId}::uuid` : Prisma.empty;
  const rows = await db.$queryRaw<{ n: bigint }[]>`
    WITH ended AS (
      UPDATE campaigns SET status = 'completed', updated_at = ${now}
      WHERE status IN ('in_progress', 'paused') AND ends_at <= ${now} ${tenant} ${one}
      RETURNING id, sub_brand_id, environment, type
    ), jobs AS (
      INSERT INTO campaign_settlements (campaign_id, sub_brand_id, environment, run_after, created_at)
      SELECT id, sub_brand_id, environment, ${now}, ${now} FROM ended WHERE type = 'tournament'
      ON CONFLICT (sub_brand_id, campaign_id) DO NOTHING
    )
    SELECT count(*) AS n FROM ended`;
  return Number(rows[0]?.n ?? 0);
}

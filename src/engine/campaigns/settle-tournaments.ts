// Tournament settlement: when a tournament completes, its prizes go by final rank, exactly once.
//
// The job table is campaign_settlements (one row per completed tournament, written by the same
// statement that completes it). A runner claims one pending row with FOR UPDATE SKIP LOCKED and
// settles it in that same transaction: the row lock keeps every other runner (in this process or
// another) off it, and the awards, the campaign's total and the row's `done` commit together. A
// crash before the commit rolls all of it back and releases the lock, so the next runner redoes
// it from the start; the awards' unique (campaign, player, 'rank') key is the backstop. Why not a
// job library: see docs/campaigns.md ("Settlement").
import type { RgState } from '../../generated/prisma/enums.js';
import { recordRgDecision, RG_ACTIVE_SQL } from '../../domain/responsible-gaming/gate.js';
import { Prisma, type Campaign, type PrismaClient } from '../../generated/prisma/client.js';
import { TRANSACTION_OPTIONS } from '../../domain/db.js';
import type { Db } from '../../domain/db.js';
import type { Tenant } from '../../domain/tenant.js';
import { grantAward } from './grant-award.js';
import { rankRange, type Prize } from './schemas.js';
import { tenantKey } from '../shared/keys.js';
import { recordEvent } from '../../domain/events/record-event.js';

/** Failed attempts before a settlement is marked failed (visible in the backoffice). */
export const MAX_ATTEMPTS = 5;

export type SettleOptions = {
  now: () => Date;
  /** Tests: called after each award, to crash a settlement half-way. */
  afterAward?: (campaignId: string, awarded: number) => Promise<void> | void;
};

export type Leader = { customerId: string; points: number; reachedAt: Date; rank: number };

/**
 * The final (or current) ranking's top `limit`: by points, then who reached them first, then id.
 * Restricted and banned players, and players under an active responsible-gaming state, are left
 * out, so their place goes to the next player.
 */
export async function leaderboard(
  db: Db,
  campaign: Pick<Campaign, 'subBrandId' | 'id'>,
  limit: number,
  offset = 0,
): Promise<Leader[]> {
  const rows = await db.$queryRaw<
    { customer_id: string; points: bigint; reached_at: Date; rank: bigint }[]
  >`
    SELECT p.customer_id, p.points, p.reached_at,
           row_number() OVER (ORDER BY p.points DESC, p.reached_at, p.customer_id) AS rank
    FROM campaign_progress p JOIN customers c ON c.sub_brand_id = p.sub_brand_id AND c.id = p.customer_id
    WHERE p.sub_brand_id = ${campaign.subBrandId}::uuid AND p.campaign_id = ${campaign.id}::uuid AND p.points > 0
      AND c.status NOT IN ('restricted', 'banned') AND NOT ${Prisma.raw(RG_ACTIVE_SQL)}
    ORDER BY p.points DESC, p.reached_at, p.customer_id
    LIMIT ${limit} OFFSET ${offset}`;
  return rows.map((r) => ({
    customerId: r.customer_id,
    points: Number(r.points),
    reachedAt: r.reached_at,
    rank: Number(r.rank),
  }));
}

/** Players under an active state who would rank within the top `limit` if they were not. */
function blockedWinners(db: Db, campaign: Pick<Campaign, 'subBrandId' | 'id'>, limit: number) {
  return db.$queryRaw<{ customer_id: string; state: RgState; until: Date | null }[]>`
    SELECT customer_id, state, until FROM (
      SELECT p.customer_id, c.rg_state AS state, c.rg_until AS until, ${Prisma.raw(RG_ACTIVE_SQL)} AS blocked,
             row_number() OVER (ORDER BY p.points DESC, p.reached_at, p.customer_id) AS rank
      FROM campaign_progress p JOIN customers c ON c.sub_brand_id = p.sub_brand_id AND c.id = p.customer_id
      WHERE p.sub_brand_id = ${campaign.subBrandId}::uuid AND p.campaign_id = ${campaign.id}::uuid AND p.points > 0
        AND c.status NOT IN ('restricted', 'banned')
    ) ranked
    WHERE blocked AND rank <= ${limit}`;
}

/** The prize a rank wins, if any. */
export function prizeForRank(prizes: Prize[], rank: number): Prize | null {
  return (
    prizes.find((p) => {
      const r = rankRange(p.rank);
      return r !== null && rank >= r[0] && rank <= r[1];
    }) ?? null
  );
}

/** Settles at most one pending tournament; answers its id, or null when none was waiting. */
export async function settleNextTournament(
  prisma: PrismaClient,
  options: SettleOptions,
): Promise<string | null> {
  let current: Pick<Campaign, 'subBrandId' | 'id'> | null = null;
  try {
    return await prisma.$transaction(async (tx) => {
      const now = options.now();
      const [job] = await tx.$queryRaw<
        { campaign_id: string; sub_brand_id: string; environment: Tenant['environment'] }[]
      >`
        SELECT campaign_id, sub_brand_id, environment FROM campaign_settlements
        WHERE status = 'pending' AND run_after <= ${now}
        ORDER BY run_after LIMIT 1
        FOR UPDATE SKIP LOCKED`;
      if (!job) return null;
      current = { subBrandId: job.sub_brand_id, id: job.campaign_id };
      await tx.$executeRaw`
        UPDATE campaign_settlements SET attempts = attempts + 1
        WHERE sub_brand_id = ${job.sub_brand_id}::uuid AND campaign_id = ${job.campaign_id}::uuid`;
      const campaign = await tx.campaign.findUniqueOrThrow({
        where: tenantKey(job.sub_brand_id, job.campaign_id),
      });
      const tenant: Tenant = { subBrandId: job.sub_brand_id, environment: job.environment };
      const prizes = campaign.prizes as Prize[];
      const deepest = Math.max(0, ...prizes.map((p) => rankRange(p.rank)?.[1] ?? 0));
      // The gate: a blocked player who would have ranked among the prizes gets none, on record.
      for (const blocked of await blockedWinners(tx, campaign, deepest))
        await recordRgDecision(
          tx,
          tenant,
          blocked.customer_id,
          'campaign_award',
          blocked,
          `campaign:${campaign.id} settlement`,
          now,
        );
      let awarded = 0;
      for (const leader of await leaderboard(tx, campaign, deepest)) {
        const prize = prizeForRank(prizes, leader.rank);
        if (!prize) continue;
        const granted = await grantAward(
          tx,
          tenant,
          campaign,
          leader.customerId,
          prize,
          { awardKey: 'rank', rank: leader.rank },
          now,
        );
        if (granted.outcome === 'awarded') awarded += 1;
        await options.afterAward?.(campaign.id, awarded);
      }
      await tx.$executeRaw`
        UPDATE campaign_settlements SET status = 'done', completed_at = ${now}, awarded = ${awarded}, last_error = NULL
        WHERE sub_brand_id = ${campaign.subBrandId}::uuid AND campaign_id = ${campaign.id}::uuid`;
      await recordEvent(tx, tenant, 'tournament.settled', campaign.id);
      return campaign.id;
    }, TRANSACTION_OPTIONS);
  } catch (error) {
    if (current) await recordFailure(prisma, current, options.now(), error);
    throw error;
  }
}

/**
 * After a rollback the attempt counter went with it, so the failure is recorded on its own: the
 * job waits with backoff (30 s, 60 s, …), and after MAX_ATTEMPTS it is `failed`, for people to see.
 */
async function recordFailure(
  prisma: PrismaClient,
  campaign: Pick<Campaign, 'subBrandId' | 'id'>,
  now: Date,
  error: unknown,
): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  await prisma.$executeRaw`
    UPDATE campaign_settlements
    SET attempts = attempts + 1, last_error = ${message},
        run_after = ${now}::timestamptz + make_interval(secs => 30 * power(2, attempts)),
        status = CASE WHEN attempts + 1 >= ${MAX_ATTEMPTS} THEN 'failed'::settlement_status ELSE status END
    WHERE sub_brand_id = ${campaign.subBrandId}::uuid AND campaign_id = ${campaign.id}::uuid
      AND status = 'pending'`;
}

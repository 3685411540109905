// Creating an award: the one place a campaign promises a prize. Exactly once by its key (a
// unique row per campaign, player and key), within the budget by a guarded UPDATE that the
// database serialises on the campaign's row (so 50 concurrent activities cannot overspend it).
import type { Campaign } from '../../generated/prisma/client.js';
import type { Db } from '../../domain/db.js';
import { txSqlFor } from '../../db/sql.js';
import { keyClaim } from '../../exactly-once/claim-key.js';
import { newId } from '../../domain/ids.js';
import type { Tenant } from '../../domain/tenant.js';
import { recordEvent } from '../../domain/events/record-event.js';
import { AWARD_CLAIM_DAYS, GAME_PRIZE, type Prize } from './schemas.js';

export type GrantedAward = {
  id: string;
  coins: number;
  productId: string | null;
  catalogPrize: string | null;
  quantity: number;
  day: number | null;
  rank: number | null;
  expiresAt: Date;
};

export type GrantOutcome =
  | { outcome: 'awarded'; award: GrantedAward }
  | { outcome: 'already_awarded' }
  | { outcome: 'budget_exhausted' };

/** The award, once per (campaign, player, award key): a second grant stops before the budget. */
const recordAward = keyClaim('campaignAward', [
  'id::uuid',
  'sub_brand_id::uuid',
  'environment::environment',
  'campaign_id::uuid',
  'customer_id::uuid',
  'award_key',
  'day::int',
  'rank::int',
  'coins::bigint',
  'product_id::uuid',
  'catalog_prize',
  'quantity::int',
  'expires_at::timestamptz',
  'activity_id::uuid',
  'created_at::timestamptz',
]);

export async function grantAward(
  db: Db,
  tenant: Tenant,
  campaign: Pick<Campaign, 'id'>,
  customerId: string,
  prize: Prize,
  key: { awardKey: string; day?: number; rank?: number; activityId?: string },
  now: Date,
  options: {
    /**
     * The campaign's budget and what it had awarded, as the caller read them without a lock in
     * this transaction: when they leave room for the award, the budget is counted with the
     * COMMIT (below). Not for a caller that grants several awards in one transaction.
     */
    seenBudget?: { budget: bigint | null; totalAwarded: bigint };
  } = {},
): Promise<GrantOutcome> {
  const id = newId();
  const expiresAt = new Date(now.getTime() + AWARD_CLAIM_DAYS * 86_400_000);
  const award: GrantedAward = {
    id,
    coins: prize.coinPrize,
    productId: prize.productPrize || null,
    catalogPrize: prize.catalogPrize || null,
    // Units of the product, or plays of a `game:<name>` prize.
    quantity: prize.productPrize || GAME_PRIZE.test(prize.catalogPrize) ? prize.quantity : 0,
    day: key.day ?? null,
    rank: key.rank ?? null,
    expiresAt,
  };
  // The row first: a second grant of the same key stops here, before it touches the budget.
  const granted = await recordAward(db, [
    id,
    tenant.subBrandId,
    tenant.environment,
    campaign.id,
    customerId,
    key.awardKey,
    award.day,
    award.rank,
    award.coins,
    award.productId,
    award.catalogPrize,
    award.quantity,
    expiresAt,
    key.activityId ?? null,
    now,
  ]);
  if (!granted) return { outcome: 'already_awarded' };
  const sql = txSqlFor(db);
  const seen = options.seenBudget;
  if (
    award.coins > 0 &&
    sql?.optimistic &&
    seen &&
    (seen.budget === null || seen.totalAwarded + BigInt(award.coins) <= seen.budget)
  ) {
    // Every award of the campaign updates its one row: sent with the COMMIT, the row is held for
    // the database's time only (as a prepaid brand's balance: docs/performance.md, "The prepaid
    // balance's lock, held for no server time"). Unguarded: a budget spent meanwhile fails the
    // table's CHECK (total_awarded <= budget), nothing commits, and the activity runs again from
    // the start and takes the guarded path below, which answers budget_exhausted.
    sql.commitIf(
      `UPDATE campaigns SET total_awarded = total_awarded + $1::bigint
       WHERE sub_brand_id = $2::uuid AND id = $3::uuid`,
      [award.coins, tenant.subBrandId, campaign.id],
    );
  } else if (award.coins > 0) {
    const within = await db.$executeRaw`
      UPDATE campaigns SET total_awarded = total_awarded + ${award.coins}::bigint
      WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND id = ${campaign.id}::uuid
        AND (budget IS NULL OR total_awarded + ${award.coins}::bigint <= budget)`;
    if (within === 0) {
      await db.$executeRaw`
        DELETE FROM campaign_awards WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND id = ${id}::uuid`;
      return { outcome: 'budget_exhausted' };
    }
  }
  await recordEvent(db, tenant, 'campaign_award.granted', id);
  return { outcome: 'awarded', award };
}

/** The prize of a streak's day N: day N's, or past the last day, the last day's again. */
export function prizeForDay(prizes: Prize[], streak: number): Prize | null {
  const exact = prizes.find((p) => p.day === streak);
  if (exact) return exact;
  const last = prizes.reduce<Prize | null>(
    (best, p) => (!best || p.day > best.day ? p : best),
    null,
  );
  return last && streak > last.day ? last : null;
}

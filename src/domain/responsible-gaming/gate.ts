// The responsible-gaming gate (docs/compliance.md): while a customer's state is active, every
// incentive path refuses, and each refusal writes one decision row. The state is read FOR SHARE
// in the transaction that would pay, so a change of state (which locks the row FOR UPDATE,
// state.ts) and a payment are ordered: a payment in flight commits before the change takes
// effect, and one that starts after the change sees it.
import { Prisma } from '../../generated/prisma/client.js';
import type { RgState } from '../../generated/prisma/enums.js';
import { executeRaw } from '../../db/sql.js';
import { inTransaction, isClient, type Db } from '../db.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import type { Tenant } from '../tenant.js';

/** The incentive paths the gate guards, as decision rows name them. */
export const RG_PATHS = [
  'engine_grant',
  'campaign_award',
  'tournament_points',
  'claim',
  'game_play',
  'store_session',
  'bulk_credit',
] as const;
export type RgPath = (typeof RG_PATHS)[number];

export type RgBlock = { state: RgState; until: Date | null };

/**
 * SQL true while a customer row `c` has an active state, for set-based reads (the tournament
 * ranking and its settlement). `now()` is the transaction's start.
 */
export const RG_ACTIVE_SQL = `(c.rg_state <> 'none' AND (c.rg_until IS NULL OR c.rg_until > now()))`;

/** The same condition as a Prisma `where` on customers. */
export const rgActiveWhere = (now: Date) => ({
  rgState: { not: 'none' as const },
  OR: [{ rgUntil: null }, { rgUntil: { gt: now } }],
});

/** The block in force for a row read with its state, or null. */
export function blockOf(
  row: { rg_state?: RgState | null; rg_until?: Date | string | null },
  now: Date,
): RgBlock | null {
  if (!row.rg_state || row.rg_state === 'none') return null;
  const until = row.rg_until ? new Date(row.rg_until) : null;
  if (until && until <= now) return null;
  return { state: row.rg_state, until };
}

/** Reads the customer's state, locked FOR SHARE until the transaction ends; null: not blocked. */
export async function rgGate(
  db: Db,
  tenant: Tenant,
  customerId: string,
  now: Date,
): Promise<RgBlock | null> {
  const rows = await db.$queryRaw<{ rg_state: RgState; rg_until: Date | null }[]>`
    SELECT rg_state, rg_until FROM customers
    WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND id = ${customerId}::uuid
    FOR SHARE`;
  return rows[0] ? blockOf(rows[0], now) : null;
}

/** One refusal, written in the transaction that decided it (or right after its rollback). */
export async function recordRgDecision(
  db: Db,
  tenant: Tenant,
  customerId: string,
  path: RgPath,
  block: RgBlock,
  reference: string | null,
  /** The request's clock (tests move it), as every other row of the request is stamped. */
  at: Date,
): Promise<void> {
  await executeRaw(
    db,
    Prisma.sql`INSERT INTO rg_decisions (id, sub_brand_id, environment, customer_id, path, state, until, reference, created_at)
      VALUES (${newId()}::uuid, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment,
              ${customerId}::uuid, ${path}, ${block.state}::rg_state, ${block.until}, ${reference?.slice(0, 255) ?? null}, ${at})`,
  );
}

/** The words of a refusal: the state, never the player's identifiers. */
export const rgWhy = (block: RgBlock): string =>
  `The player's responsible-gaming state (${block.state}${
    block.until ? ` until ${block.until.toISOString()}` : ''
  }) blocks incentives.`;

/**
 * Runs `work` in a transaction (or the caller's). Inside it, a path that finds the player blocked
 * throws `RgRefused`; the caller gets 409 `rg_blocked` (a store session: `customer_not_eligible`)
 * and the decision row is written after the rollback: here when this function opened the
 * transaction, else by whoever did (AppError.afterRollback, exactly-once/keyed-requests.ts).
 */
export async function refusingWhenBlocked<T>(
  db: Db,
  tenant: Tenant,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  try {
    return await inTransaction(db, work);
  } catch (error) {
    let refusal = error;
    if (error instanceof RgRefused) {
      // A store session is refused as the document refuses an ineligible customer's.
      const code = error.path === 'store_session' ? 'customer_not_eligible' : 'rg_blocked';
      refusal = new AppError(code, error.message, {
        afterRollback: (root) =>
          recordRgDecision(
            root,
            tenant,
            error.customerId,
            error.path,
            error.block,
            error.reference,
            error.at,
          ),
      });
    }
    // This function opened the transaction (or a nested call's refusal reached it): write now.
    if (refusal instanceof AppError && refusal.afterRollback && isClient(db)) {
      await refusal.afterRollback(db);
      throw new AppError(refusal.code, refusal.message);
    }
    throw refusal;
  }
}

/** Thrown inside `refusingWhenBlocked`'s work when the gate blocks. */
export class RgRefused extends Error {
  constructor(
    readonly block: RgBlock,
    readonly path: RgPath,
    readonly customerId: string,
    readonly reference: string | null,
    readonly at: Date,
  ) {
    super(rgWhy(block));
  }
}

/** The gate for a throwing path: throws RgRefused when blocked. */
export async function assertNotBlocked(
  tx: Db,
  tenant: Tenant,
  customerId: string,
  path: RgPath,
  reference: string | null,
  now: Date = new Date(),
): Promise<void> {
  const block = await rgGate(tx, tenant, customerId, now);
  if (block) throw new RgRefused(block, path, customerId, reference, now);
}

// The one function that moves coins. Everything that changes a balance (adjust, bulk adjust, the
// engine, orders, refunds, campaign claims) calls it. See DESIGN.md "Ledger" and
// notes/performance.md: the row lock is held from this statement to the commit, so the whole
// move is ONE statement, and the caller commits right after.
import type { CoinMovement } from '../../generated/prisma/client.js';
import type { Environment, MovementSource } from '../../generated/prisma/enums.js';
import type { Db } from '../db.js';
import { newId } from '../ids.js';
import type { Actor, Tenant } from '../tenant.js';
import { MAX_COINS } from './coins.js';

export type MoveRequest = { customerId: string; delta: number; reason: string | null };

export type AppliedMove = {
  movementId: string;
  customerId: string;
  delta: number;
  balanceAfter: number;
  createdAt: Date;
  /** The movement row as written, so callers need not read it back while the wallet is locked. */
  movement: CoinMovement;
};

export type RefusedMove = {
  customerId: string;
  /** not_found: no such customer in this tenant; balance_limit: above 2^53 - 1. */
  refusal: 'insufficient_balance' | 'balance_limit' | 'not_found';
  balance: number | null;
  delta: number;
};

export type MoveOptions = Actor & { source: MovementSource; bulkId?: string | null };

type Row = {
  id: string;
  customer_id: string;
  delta: bigint;
  reason: string | null;
  balance_after: bigint;
  created_at: Date;
};

/**
 * Applies signed deltas to the wallets of distinct customers of one tenant, atomically per
 * wallet: lock, refuse a balance below 0 (or above 2^53 - 1), write the movement with the
 * balance after it, update the balance. Moves that are refused are returned, not thrown, so a
 * cohort can skip a customer and go on; `moveCoins` below is the single-customer form.
 *
 * Wallets are locked in customer-id order, so two calls over overlapping cohorts cannot deadlock.
 */
export async function applyMovements(
  db: Db,
  tenant: Tenant,
  moves: MoveRequest[],
  options: MoveOptions,
): Promise<{ applied: AppliedMove[]; refused: RefusedMove[] }> {
  if (moves.length === 0) return { applied: [], refused: [] };
  if (new Set(moves.map((m) => m.customerId)).size !== moves.length) {
    throw new Error('applyMovements takes each customer at most once per call');
  }
  const ids = moves.map(() => newId());
  const rows = await db.$queryRaw<Row[]>`
    WITH input AS (
      SELECT * FROM unnest(${ids}::uuid[], ${moves.map((m) => m.customerId)}::uuid[],
                           ${moves.map((m) => m.delta)}::bigint[], ${moves.map((m) => m.reason)}::text[])
        AS i(movement_id, customer_id, delta, reason)
    ), locked AS (
      SELECT w.customer_id FROM wallets w JOIN input i ON i.customer_id = w.customer_id
      WHERE w.sub_brand_id = ${tenant.subBrandId}::uuid AND w.environment = ${tenant.environment}::environment
      ORDER BY w.customer_id
      FOR UPDATE OF w
    ), moved AS (
      UPDATE wallets w SET balance = w.balance + i.delta, updated_at = now()
      FROM input i JOIN locked l ON l.customer_id = i.customer_id
      WHERE w.customer_id = i.customer_id AND w.balance + i.delta BETWEEN 0 AND ${MAX_COINS}
      RETURNING w.customer_id, w.balance
    )
    INSERT INTO coin_movements
      (id, customer_id, sub_brand_id, environment, delta, reason, balance_after, source, api_key_id, request_id, bulk_id,
       staff_user_id)
    SELECT i.movement_id, m.customer_id, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment,
           i.delta, i.reason, m.balance, ${options.source}::movement_source,
           ${options.apiKeyId}::uuid, ${options.requestId}, ${options.bulkId ?? null}::uuid,
           ${options.staffUserId ?? null}::uuid
    FROM moved m JOIN input i ON i.customer_id = m.customer_id
    RETURNING id, customer_id, delta, reason, balance_after, created_at`;

  const applied = rows.map((r) => ({
    movementId: r.id,
    customerId: r.customer_id,
    delta: Number(r.delta),
    balanceAfter: Number(r.balance_after),
    createdAt: r.created_at,
    movement: {
      id: r.id,
      customerId: r.customer_id,
      subBrandId: tenant.subBrandId,
      environment: tenant.environment,
      delta: r.delta,
      reason: r.reason,
      balanceAfter: r.balance_after,
      source: options.source,
      apiKeyId: options.apiKeyId,
      requestId: options.requestId,
      bulkId: options.bulkId ?? null,
      staffUserId: options.staffUserId ?? null,
      createdAt: r.created_at,
    },
  }));
  if (applied.length === moves.length) return { applied, refused: [] };
  return {
    applied,
    refused: await explainRefusals(db, tenant, moves, new Set(applied.map((a) => a.customerId))),
  };
}

/** Why the moves that did not apply were refused (read after the fact, outside the hot path). */
async function explainRefusals(
  db: Db,
  tenant: Tenant,
  moves: MoveRequest[],
  done: Set<string>,
): Promise<RefusedMove[]> {
  const missing = moves.filter((m) => !done.has(m.customerId));
  const wallets = await db.wallet.findMany({
    where: {
      customerId: { in: missing.map((m) => m.customerId) },
      subBrandId: tenant.subBrandId,
      environment: tenant.environment as Environment,
    },
    select: { customerId: true, balance: true },
  });
  const balances = new Map(wallets.map((w) => [w.customerId, Number(w.balance)]));
  return missing.map((m) => {
    const balance = balances.get(m.customerId);
    if (balance === undefined)
      return { customerId: m.customerId, refusal: 'not_found', balance: null, delta: m.delta };
    return {
      customerId: m.customerId,
      refusal: balance + m.delta < 0 ? 'insufficient_balance' : 'balance_limit',
      balance,
      delta: m.delta,
    };
  });
}

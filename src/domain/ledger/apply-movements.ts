// The one function that moves coins. Everything that changes a balance (adjust, bulk adjust, the
// engine, orders, refunds, campaign claims) calls it. See DESIGN.md "Ledger" and
// notes/performance.md: the row lock is held from this statement to the commit, so the whole
// move is ONE statement, and the caller commits right after.
import type { CoinMovement } from '../../generated/prisma/client.js';
import type { MovementSource } from '../../generated/prisma/enums.js';
import { sqlFor, txSqlFor } from '../../db/sql.js';
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

export type MoveOptions = Actor & {
  source: MovementSource;
  bulkId?: string | null;
  /**
   * The caller sends nothing after this move in its transaction, and the movement is its answer:
   * the transaction may commit with the move's statement, recording the request's answer by
   * reference to the movement (`TxSql.finish`). One move only.
   */
  last?: boolean;
};

/** One per input move; the movement's columns are null when it was refused. */
type Row = {
  customer_id: string;
  requested: bigint;
  locked_balance: bigint | null;
  id: string | null;
  delta: bigint | null;
  reason: string | null;
  balance_after: bigint | null;
  created_at: Date | null;
  seq: bigint | null;
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
  // One statement locks, decides, moves and reports: every input row comes back, with the
  // balance it was decided on (read under the lock) and the movement if it applied. So a refusal
  // is decided and explained by the same balance, never by a read that a concurrent credit may
  // have changed (issue 13, item 4).
  const one = moves.length === 1;
  const tx = one && options.last ? txSqlFor(db) : undefined;
  const send = (text: string, values: unknown[]) =>
    tx ? tx.finish<Row>(text, values, ids[0]!) : sqlFor(db).query<Row>(text, values);
  const { rows } = await send(one ? MOVE_ONE : MOVE_MANY, [
    ...(one
      ? [ids[0], moves[0]!.customerId, moves[0]!.delta, moves[0]!.reason]
      : [
          ids,
          moves.map((m) => m.customerId),
          moves.map((m) => m.delta),
          moves.map((m) => m.reason),
        ]),
    tenant.subBrandId,
    tenant.environment,
    MAX_COINS,
    options.source,
    options.apiKeyId,
    options.requestId,
    options.bulkId ?? null,
    options.staffUserId ?? null,
    one ? newId() : moves.map(() => newId()), // each movement's event
  ]);

  const applied: AppliedMove[] = [];
  const refused: RefusedMove[] = [];
  for (const r of rows) {
    if (r.id === null) {
      refused.push(refusalOf(r));
      continue;
    }
    applied.push({
      movementId: r.id,
      customerId: r.customer_id,
      delta: Number(r.delta),
      balanceAfter: Number(r.balance_after),
      createdAt: r.created_at!,
      movement: {
        id: r.id,
        customerId: r.customer_id,
        subBrandId: tenant.subBrandId,
        environment: tenant.environment,
        delta: r.delta!,
        reason: r.reason,
        balanceAfter: r.balance_after!,
        source: options.source,
        apiKeyId: options.apiKeyId,
        requestId: options.requestId,
        bulkId: options.bulkId ?? null,
        staffUserId: options.staffUserId ?? null,
        createdAt: r.created_at!,
        seq: r.seq!,
      },
    });
  }
  return { applied, refused };
}

/**
 * The move, one statement: sent on the transaction's own connection (src/db/sql.ts), not through
 * Prisma's client, since every movement pays for it while holding the wallet's lock.
 *
 * Two texts of it, by how many moves it takes. PostgreSQL plans a prepared statement anew on
 * every execution while its generic plan looks dearer than a plan for the values at hand; over
 * arrays of unknown length (it guesses 10 rows) the generic plan always does, so the one-move
 * form, every adjustment, order and engine grant, was planned each time (a quarter of the
 * database's CPU per adjustment; docs/performance.md, sixth pass). Over one row of parameters the
 * generic plan is the custom one, and is kept after five executions. Many moves (a bulk batch, a
 * campaign's settlement) keep the arrays: their planning is shared by the batch.
 */
const move = (input: string, customers: string) => `
    WITH input AS (${input}), locked AS (
      -- By the key, not by a join with input, so no plan reads the tenant's other wallets.
      SELECT w.customer_id, w.balance FROM wallets w
      WHERE ${customers} AND w.sub_brand_id = $5::uuid AND w.environment = $6::environment
      ORDER BY w.customer_id
      FOR UPDATE OF w
    ), moved AS (
      -- Decided on l.balance, the balance as locked: the UPDATE's own scan reads the statement's
      -- snapshot, which a credit committed while we waited for the lock has already outdated
      -- (a condition on w.balance refused debits that the locked balance covered).
      UPDATE wallets w SET balance = l.balance + i.delta, updated_at = now()
      FROM input i JOIN locked l ON l.customer_id = i.customer_id
      WHERE w.customer_id = i.customer_id AND l.balance + i.delta BETWEEN 0 AND $7::bigint
      RETURNING w.customer_id, w.balance
    ), inserted AS (
      INSERT INTO coin_movements
        (id, customer_id, sub_brand_id, environment, delta, reason, balance_after, source, api_key_id, request_id, bulk_id,
         staff_user_id)
      SELECT i.movement_id, m.customer_id, $5::uuid, $6::environment,
             i.delta, i.reason, m.balance, $8::movement_source,
             $9::uuid, $10::text, $11::uuid, $12::uuid
      FROM moved m JOIN input i ON i.customer_id = m.customer_id
      RETURNING id, customer_id, delta, reason, balance_after, created_at, seq
    ), evented AS (
      -- Its outbound event, in the same statement (docs/webhooks.md): no round trip more.
      INSERT INTO events (id, sub_brand_id, environment, type, resource_type, resource_id)
      SELECT i.event_id, $5::uuid, $6::environment, 'coin_movement.created', 'coin_movement', ins.id::text
      FROM inserted ins JOIN input i ON i.customer_id = ins.customer_id
    )
    SELECT i.customer_id, i.delta AS requested, l.balance AS locked_balance,
           ins.id, ins.delta, ins.reason, ins.balance_after, ins.created_at, ins.seq
    FROM input i LEFT JOIN locked l ON l.customer_id = i.customer_id
                 LEFT JOIN inserted ins ON ins.customer_id = i.customer_id`;

const MOVE_ONE = move(
  `SELECT $1::uuid AS movement_id, $2::uuid AS customer_id, $3::bigint AS delta, $4::text AS reason,
          $13::uuid AS event_id`,
  'w.customer_id = $2::uuid',
);
const MOVE_MANY = move(
  `SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $13::uuid[])
       AS i(movement_id, customer_id, delta, reason, event_id)`,
  'w.customer_id = ANY($2::uuid[])',
);

/** Why a move did not apply, from the balance it was decided on under the lock. */
function refusalOf(r: Row): RefusedMove {
  const delta = Number(r.requested);
  if (r.locked_balance === null)
    return { customerId: r.customer_id, refusal: 'not_found', balance: null, delta };
  const balance = Number(r.locked_balance);
  return {
    customerId: r.customer_id,
    refusal: r.locked_balance + r.requested < 0n ? 'insufficient_balance' : 'balance_limit',
    balance,
    delta,
  };
}

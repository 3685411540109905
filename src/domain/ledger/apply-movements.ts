// The one function that moves coins. Everything that changes a balance (adjust, bulk adjust, the
// engine, orders, refunds, campaign claims) calls it. See DESIGN.md "Ledger" and
// notes/performance.md: the row lock is held from this call to the commit, so the whole move,
// coin lots included (docs/expiry-and-holds.md), is ONE call of the database's ledger function,
// one round trip, and the caller commits right after.
import type { CoinMovement } from '../../generated/prisma/client.js';
import type { MovementSource } from '../../generated/prisma/enums.js';
import { queryLater, sqlFor, txSqlFor } from '../../db/sql.js';
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
  /** Coins on hold, which a debit may not spend. */
  held: number;
  delta: number;
};

export type MoveOptions = Actor & {
  source: MovementSource;
  bulkId?: string | null;
  /**
   * A refund: the reason of the debit it gives back (`order:<id>`), whose lots get the coins back
   * (docs/expiry-and-holds.md). Else the credit opens a lot of its own.
   */
  refundOf?: string | null;
  /**
   * The instant of the move, by the server's clock (the app's `now`): the movement's time, its
   * lot's expiry and what has expired by then (docs/expiry-and-holds.md). Absent: now.
   */
  at?: Date;
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
  /** Coins on hold when a debit was decided (0 for a credit). */
  held: bigint;
  id: string | null;
  delta: bigint | null;
  reason: string | null;
  balance_after: bigint | null;
  created_at: Date | null;
  seq: bigint | null;
  lot_id: string | null;
};

/**
 * Applies signed deltas to the wallets of distinct customers of one tenant, atomically per
 * wallet: lock, write off its due lots, refuse a balance below 0 (or above 2^53 - 1, or a debit
 * of held coins), write the movement with the balance after it, keep its lots, update the
 * balance. Moves that are refused are returned, not thrown, so a
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
  const { ids, values } = moveStatement(tenant, moves, options);
  // One call locks, decides, moves and reports: every input row comes back, with the
  // balance it was decided on (read under the lock) and the movement if it applied. So a refusal
  // is decided and explained by the same balance, never by a read that a concurrent credit may
  // have changed (issue 13, item 4).
  const tx = moves.length === 1 && options.last ? txSqlFor(db) : undefined;
  const { rows } = tx
    ? // One wallet's lock, the hot row its neighbours' moves may commit with (db/hot-rows.ts).
      await tx.finish<Row>(MOVE, values, ids[0]!, `wallet:${moves[0]!.customerId}`)
    : await sqlFor(db).query<Row>(MOVE, values);
  return outcomeOf(tenant, options, rows);
}

/**
 * applyMovements, sent with the transaction's next statement (db/sql.ts, queryLater), its outcome
 * when asked: for a caller with more to send before it needs the answer (an order's rows, its
 * debit and its stock go in one round trip). Not for a `last` move, which commits.
 */
export function applyMovementsLater(
  db: Db,
  tenant: Tenant,
  moves: MoveRequest[],
  options: MoveOptions,
): () => Promise<{ applied: AppliedMove[]; refused: RefusedMove[] }> {
  if (options.last) throw new Error('applyMovementsLater: a last move commits; send it now');
  if (moves.length === 0) return async () => ({ applied: [], refused: [] });
  const rows = queryLater<Row>(db, MOVE, moveStatement(tenant, moves, options).values);
  return async () => outcomeOf(tenant, options, await rows());
}

/** MOVE's parameters for these moves, and the ids their movements will have. */
function moveStatement(tenant: Tenant, moves: MoveRequest[], options: MoveOptions) {
  if (new Set(moves.map((m) => m.customerId)).size !== moves.length) {
    throw new Error('applyMovements takes each customer at most once per call');
  }
  const ids = moves.map(() => newId());
  const values = [
    ids,
    moves.map((m) => m.customerId),
    moves.map((m) => m.delta),
    moves.map((m) => m.reason),
    tenant.subBrandId,
    tenant.environment,
    MAX_COINS,
    options.source,
    options.apiKeyId,
    options.requestId,
    options.bulkId ?? null,
    options.staffUserId ?? null,
    moves.map(() => newId()), // each movement's event
    options.at ?? new Date(),
    options.refundOf ?? null,
  ];
  return { ids, values };
}

/** MOVE's rows as the moves applied (each movement as written) and refused. */
function outcomeOf(
  tenant: Tenant,
  options: MoveOptions,
  rows: Row[],
): { applied: AppliedMove[]; refused: RefusedMove[] } {
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
        lotId: r.lot_id,
      },
    });
  }
  return { applied, refused };
}

/**
 * The move: the database's `ledger_move` function (its migration, coin_lots_and_holds, says what
 * it does line by line), called on the transaction's own connection (src/db/sql.ts), not through
 * Prisma's client, since every movement pays for it while holding the wallet's lock. A function
 * rather than one statement: each statement in it sees what committed before the wallet's lock
 * was granted (the lots and holds a waiting statement's snapshot would miss), and it is still one
 * round trip. Its statements run on one customer's row at a time, so their plans are the plans
 * for one row, cached by the function after the first call.
 */
const MOVE = `SELECT * FROM ledger_move($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::uuid,
  $6::environment, $7::bigint, $8::movement_source, $9::uuid, $10::text, $11::uuid, $12::uuid, $13::uuid[],
  $14::timestamptz, $15::text)`;

/**
 * A query that finds the movement the parameter `param` names: for a statement sent in the same
 * round trip as the move, which cannot wait for the move's rows to learn whether it applied (the
 * Idempotency-Key layer's answer by reference, exactly-once/keyed-requests.ts). The table stays
 * the ledger's to name (the lint rule in eslint.config.js).
 */
export const movementWritten = (param: string) =>
  `SELECT 1 FROM coin_movements WHERE id = ${param}::uuid`;

/** Why a move did not apply, from the balance it was decided on under the lock. */
function refusalOf(r: Row): RefusedMove {
  const delta = Number(r.requested);
  if (r.locked_balance === null)
    return { customerId: r.customer_id, refusal: 'not_found', balance: null, held: 0, delta };
  return {
    customerId: r.customer_id,
    refusal:
      r.locked_balance - r.held + r.requested < 0n ? 'insufficient_balance' : 'balance_limit',
    balance: Number(r.locked_balance),
    held: Number(r.held),
    delta,
  };
}

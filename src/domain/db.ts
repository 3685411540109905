// What domain functions take: the Prisma client or an open transaction. A function that must be
// atomic calls inTransaction, which joins the caller's transaction when there is one, so the
// REST layer can run an operation and its idempotency record in one commit.
import { queryRaw, transaction, TRANSACTION_OPTIONS, type Db } from '../db/sql.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';

// Declared by the database layer, which takes it too (it may not import the domain).
export type { Db };
export { TRANSACTION_OPTIONS };

/**
 * The top-level client, not a transaction. (Prisma 7 transaction clients also have
 * `$transaction`, for nested savepoints, which PGlite's adapter lacks; only the client has
 * `$connect`.)
 */
export const isClient = (db: Db): db is PrismaClient => '$connect' in db;

export function inTransaction<T>(
  db: Db,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  // Through db/sql.ts: the same Prisma transaction, with its connection known, so the ledger
  // statement inside it is sent on the driver directly.
  return isClient(db) ? transaction(db, (tx) => work(tx)) : work(db);
}

/**
 * `work` in a transaction with these settings, which end with it (`set_config(…, true)` is SET
 * LOCAL): e.g. `plan_cache_mode: 'force_custom_plan'` for a statement that must be planned for its
 * own values, where the driver's named statements would let PostgreSQL keep a generic plan.
 */
export function withSettings<T>(
  db: Db,
  settings: Record<string, string>,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  const set = Object.entries(settings).map(([k, v]) => Prisma.sql`set_config(${k}, ${v}, true)`);
  return inTransaction(db, async (tx) => {
    await queryRaw(tx, Prisma.sql`SELECT ${Prisma.join(set)}`);
    return work(tx);
  });
}

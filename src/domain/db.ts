// What domain functions take: the Prisma client or an open transaction. A function that must be
// atomic calls inTransaction, which joins the caller's transaction when there is one, so the
// REST layer can run an operation and its idempotency record in one commit.
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type Db = PrismaClient | Prisma.TransactionClient;

export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

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
  return isClient(db) ? db.$transaction(work, TRANSACTION_OPTIONS) : work(db);
}

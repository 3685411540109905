// A prepaid brand's money: orders reserve it atomically (one guarded UPDATE), cancellations
// release it, the backoffice tops it up. Every change is a prepaid movement.
import type { Environment } from '../../generated/prisma/enums.js';
import { queryLater, queryRaw, type TxSql } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { currencyCode } from '../catalog/inputs.js';
import { AppError, notFound } from '../errors.js';
import { isUuid, newId } from '../ids.js';
import { parseInput } from '../validation.js';

type Account = { brandId: string; environment: Environment; currency: string };

/** The account an existing order's money is held in: its brand's, its environment, its currency. */
export const prepaidAccountOf = (order: {
  subBrand: { brandId: string };
  environment: Environment;
  currency: string;
}): Account => ({
  brandId: order.subBrand.brandId,
  environment: order.environment,
  currency: order.currency,
});

/**
 * Moves a prepaid balance by a signed amount if it stays ≥ 0 and the account is in `currency`;
 * answers the balance after, or null when it does not fit (no account counts as a balance of 0).
 */
export async function movePrepaid(
  db: Db,
  account: Account,
  delta: number,
  reason: string,
  orderId: string | null,
): Promise<bigint | null> {
  if (delta === 0) return 0n;
  const rows = await queryRaw<{ balance: bigint }>(
    db,
    Prisma.sql`
    WITH moved AS (
      UPDATE prepaid_accounts SET balance = balance + ${delta}::bigint, updated_at = now()
      WHERE brand_id = ${account.brandId}::uuid AND environment = ${account.environment}::environment
        AND currency = ${account.currency} AND balance + ${delta}::bigint >= 0
      RETURNING balance
    ), logged AS (
      INSERT INTO prepaid_movements (id, brand_id, environment, delta, balance_after, reason, order_id)
      SELECT ${newId()}::uuid, ${account.brandId}::uuid, ${account.environment}::environment,
             ${delta}::bigint, balance, ${reason}, ${orderId}::uuid
      FROM moved
    )
    SELECT balance FROM moved`,
  );
  return rows[0]?.balance ?? null;
}

/**
 * The balance as this transaction's snapshot sees it, without a lock (null: no account), sent
 * with the transaction's next statement: whether an order may reserve its money at the commit
 * (`movePrepaidAtCommit`).
 */
export function prepaidBalanceLater(db: Db, account: Account): () => Promise<bigint | null> {
  const rows = queryLater<{ balance: bigint }>(
    db,
    `SELECT balance FROM prepaid_accounts
     WHERE brand_id = $1::uuid AND environment = $2::environment AND currency = $3`,
    [account.brandId, account.environment, account.currency],
  );
  return async () => (await rows())[0]?.balance ?? null;
}

/**
 * `movePrepaid` of an order's reservation, sent with the COMMIT (`TxSql.commitIf`): every order of
 * a prepaid brand locks its one balance, and this way holds it for the database's time only, not
 * for the server's turn between round trips (docs/performance.md, "The prepaid balance's lock,
 * held for no server time"). For a caller that read the balance covers the order: it has no
 * guard, so a balance spent meanwhile fails the CHECK (balance >= 0), and a missing account
 * leaves the movement without its balance (NOT NULL); then nothing commits, and the order runs
 * again and takes the locking path (`movePrepaid`), which answers blocked_balance.
 */
export function movePrepaidAtCommit(
  sql: TxSql,
  account: Account,
  delta: number,
  reason: string,
  orderId: string,
): void {
  sql.commitIf(
    `WITH moved AS (
       UPDATE prepaid_accounts SET balance = balance + $1::bigint, updated_at = now()
       WHERE brand_id = $2::uuid AND environment = $3::environment AND currency = $4
       RETURNING balance
     )
     INSERT INTO prepaid_movements (id, brand_id, environment, delta, balance_after, reason, order_id)
     VALUES ($5::uuid, $2::uuid, $3::environment, $1::bigint, (SELECT balance FROM moved), $6,
             $7::uuid)`,
    [delta, account.brandId, account.environment, account.currency, newId(), reason, orderId],
  );
}

/** Adds money to a brand's prepaid account (opening it in `currency` on the first top-up). */
export async function topUpPrepaid(
  db: Db,
  input: { brandId: string; environment: Environment; currency: string; amount: number },
) {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw new AppError('invalid_request', 'amount: must be a positive integer (minor units)');
  }
  parseInput(currencyCode, input.currency);
  if (!isUuid(input.brandId) || !(await db.brand.findUnique({ where: { id: input.brandId } }))) {
    throw notFound('Brand');
  }
  return inTransaction(db, async (tx) => {
    const existing = await tx.prepaidAccount.upsert({
      where: { brandId_environment: { brandId: input.brandId, environment: input.environment } },
      create: {
        brandId: input.brandId,
        environment: input.environment,
        currency: input.currency,
      },
      update: {},
    });
    if (existing.currency !== input.currency) {
      throw new AppError(
        'invalid_request',
        `currency: the account is held in ${existing.currency}; top it up in that currency`,
      );
    }
    const balance = await movePrepaid(tx, { ...input }, input.amount, 'topup', null);
    return { ...existing, balance: balance! };
  });
}

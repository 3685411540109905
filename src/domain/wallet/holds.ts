// Coin holds (docs/expiry-and-holds.md): coins set aside — a prize reserved, a buy-in — that
// lower what a customer can spend without moving the balance, until captured (a debit through
// the ledger), released, or past their expiry (then they released themselves).
//
// Lock order, as in the ledger: the wallet first (ledger_expire, which also writes off what is
// due, so a hold is decided on coins that still count), then the hold. The ledger's write-off
// cuts holds the smaller balance no longer covers while holding the wallet, so taking the hold
// first here could deadlock with it.
import { z } from 'zod';
import type { CoinHold } from '../../generated/prisma/client.js';
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError, invalidRequest, notFound } from '../errors.js';
import { recordEvent } from '../events/record-event.js';
import { isUuid, newId } from '../ids.js';
import { MAX_COINS } from '../ledger/coins.js';
import { moveCoins } from '../ledger/move-coins.js';
import type { Actor, Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';

/** The longest a hold may last: 90 days. */
export const MAX_HOLD_SECONDS = 90 * 86_400;

export const placeHoldInput = z.strictObject({
  amount: z.number().int().min(1).max(MAX_COINS),
  expiresInSeconds: z.number().int().min(1).max(MAX_HOLD_SECONDS),
  reason: z.string().min(1).max(500).nullish(),
});

export const captureHoldInput = z.strictObject({
  amount: z.number().int().min(1).max(MAX_COINS).nullish(),
});

export const HOLD_STATUSES = ['active', 'captured', 'released', 'expired'] as const;

/** A hold as read: one past its expiry is `expired` even before the job has closed it. */
export type HoldView = CoinHold & { status: (typeof HOLD_STATUSES)[number] };

export const holdView = (hold: CoinHold, now: Date): HoldView => ({
  ...hold,
  status:
    hold.status === 'active' && hold.expiresAt <= now
      ? 'expired'
      : (hold.status as HoldView['status']),
});

/**
 * Locks the customer's wallet (writing off what is due at `now`) and answers its balance and the
 * coins on hold; not_found for another tenant's or an unknown customer.
 */
async function lockWallet(
  tx: Db,
  tenant: Tenant,
  customerId: string,
  now: Date,
): Promise<{ balance: bigint; held: bigint }> {
  if (!isUuid(customerId)) throw notFound('Customer');
  await queryRaw(
    tx,
    Prisma.sql`SELECT ledger_expire(${customerId}::uuid, ${tenant.subBrandId}::uuid,
      ${tenant.environment}::environment, ${now}::timestamptz)`,
  );
  // A statement of its own, after the lock: it sees every hold committed before it was granted.
  const [wallet] = await queryRaw<{ balance: bigint; held: bigint }>(
    tx,
    Prisma.sql`SELECT w.balance, (SELECT coalesce(sum(h.amount), 0)::bigint FROM coin_holds h
        WHERE h.customer_id = w.customer_id AND h.status = 'active' AND h.expires_at > ${now}::timestamptz) AS held
      FROM wallets w WHERE w.customer_id = ${customerId}::uuid AND w.sub_brand_id = ${tenant.subBrandId}::uuid
        AND w.environment = ${tenant.environment}::environment`,
  );
  if (!wallet) throw notFound('Customer');
  return wallet;
}

/** Sets coins aside; never more than the customer can spend (balance less its other holds). */
export async function placeHold(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  customerId: string,
  input: z.input<typeof placeHoldInput>,
  now: Date,
): Promise<HoldView> {
  const { amount, expiresInSeconds, reason } = parseInput(placeHoldInput, input);
  return inTransaction(db, async (tx) => {
    const { balance, held } = await lockWallet(tx, tenant, customerId, now);
    const available = balance - held;
    if (BigInt(amount) > available) {
      throw new AppError(
        'insufficient_balance',
        `Insufficient balance: the customer has ${balance} coins, ${held} of them on hold, so ${available} to hold; a hold of ${amount} is more.`,
      );
    }
    const hold = await tx.coinHold.create({
      data: {
        id: newId(),
        customerId,
        ...tenant,
        amount: BigInt(amount),
        reason: reason ?? null,
        expiresAt: new Date(now.getTime() + expiresInSeconds * 1000),
        apiKeyId: actor.apiKeyId,
        requestId: actor.requestId,
        createdAt: now,
      },
    });
    await recordEvent(tx, tenant, 'coin_hold.created', hold.id);
    return holdView(hold, now);
  });
}

/** A hold's key: the tenant first, as every tenant table's. */
const keyOf = (tenant: Tenant, id: string) => ({
  subBrandId_id: { subBrandId: tenant.subBrandId, id },
});

/** The hold of this customer, locked; not_found for any other. */
async function lockHold(tx: Db, tenant: Tenant, customerId: string, holdId: string) {
  if (!isUuid(holdId)) throw notFound('Hold');
  const [row] = await queryRaw<{ id: string }>(
    tx,
    Prisma.sql`SELECT id FROM coin_holds WHERE id = ${holdId}::uuid AND customer_id = ${customerId}::uuid
      AND sub_brand_id = ${tenant.subBrandId}::uuid AND environment = ${tenant.environment}::environment
      FOR UPDATE`,
  );
  if (!row) throw notFound('Hold');
  return (tx as Prisma.TransactionClient).coinHold.findUniqueOrThrow({
    where: keyOf(tenant, holdId),
  });
}

function refuseClosed(hold: HoldView, action: 'captured' | 'released'): void {
  if (hold.status === 'expired') {
    throw new AppError(
      'hold_expired',
      `The hold expired at ${hold.expiresAt.toISOString()} and released its coins: it cannot be ${action}.`,
    );
  }
  if (hold.status !== 'active') {
    throw new AppError(
      'hold_not_active',
      `The hold is already ${hold.status}: it cannot be ${action}.`,
    );
  }
}

/**
 * Spends held coins: one debit movement (`hold:<id>`) of `amount` (at most the held amount;
 * absent: all of it), the rest released.
 */
export async function captureHold(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  customerId: string,
  holdId: string,
  input: z.input<typeof captureHoldInput>,
  now: Date,
): Promise<HoldView> {
  const { amount } = parseInput(captureHoldInput, input);
  return inTransaction(db, async (tx) => {
    await lockWallet(tx, tenant, customerId, now);
    const hold = holdView(await lockHold(tx, tenant, customerId, holdId), now);
    refuseClosed(hold, 'captured');
    const captured = BigInt(amount ?? hold.amount);
    if (captured > hold.amount) {
      throw invalidRequest([
        {
          field: 'amount',
          code: 'too_big',
          message: `must be at most the ${hold.amount} coins held`,
        },
      ]);
    }
    // Closed first, so the debit below does not count these coins as held by someone else.
    await tx.coinHold.update({
      where: keyOf(tenant, holdId),
      data: { status: 'captured', capturedAmount: captured, closedAt: now },
    });
    const moved = await moveCoins(
      tx,
      tenant,
      { customerId, delta: -Number(captured), reason: `hold:${holdId}` },
      { ...actor, source: 'api', at: now },
    );
    const closed = await tx.coinHold.update({
      where: keyOf(tenant, holdId),
      data: { movementId: moved.movementId },
    });
    await recordEvent(tx, tenant, 'coin_hold.captured', holdId);
    return holdView(closed, now);
  });
}

/** Gives held coins back to what the customer can spend. Releasing a released hold is a no-op. */
export async function releaseHold(
  db: Db,
  tenant: Tenant,
  customerId: string,
  holdId: string,
  now: Date,
): Promise<HoldView> {
  return inTransaction(db, async (tx) => {
    await lockWallet(tx, tenant, customerId, now);
    const hold = holdView(await lockHold(tx, tenant, customerId, holdId), now);
    if (hold.status === 'released') return hold;
    refuseClosed(hold, 'released');
    const closed = await tx.coinHold.update({
      where: keyOf(tenant, holdId),
      data: { status: 'released', closedAt: now },
    });
    await recordEvent(tx, tenant, 'coin_hold.released', holdId);
    return holdView(closed, now);
  });
}

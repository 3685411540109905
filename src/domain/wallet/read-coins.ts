// A wallet as a reader sees it (docs/expiry-and-holds.md): the balance, what is on hold and what
// can be spent, the next coins to expire, and the balance at any past instant.
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { invalidRequest, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Tenant } from '../tenant.js';

export type Expiring = { amount: bigint; expiresAt: Date };

export type CoinsView = {
  customerId: string;
  /** At `asOf` when one was asked for; else now. */
  balance: bigint;
  updatedAt: Date;
  /** Null with `asOf`: holds and expiries describe the present. */
  held: bigint | null;
  available: bigint | null;
  expiring: Expiring[] | null;
  asOf: Date | null;
};

/** How many of the next expiries a wallet read shows. */
export const EXPIRING_SHOWN = 5;

export async function readCoins(
  db: Db,
  tenant: Tenant,
  customerId: string,
  now: Date,
  asOf?: Date | null,
): Promise<CoinsView> {
  const wallet = isUuid(customerId)
    ? await db.wallet.findFirst({ where: { customerId, ...tenant } })
    : null;
  if (!wallet) throw notFound('Customer');
  if (asOf) {
    if (asOf > now) {
      throw invalidRequest([
        { field: 'as_of', code: 'invalid', message: 'must not be in the future' },
      ]);
    }
    // From the movements: each counts from its own instant, so the answer never depends on a
    // balance written later (the (customer_id, created_at) index reads only this wallet's rows).
    const [{ balance, at }] = (await queryRaw<{ balance: bigint; at: Date | null }>(
      db,
      Prisma.sql`SELECT coalesce(sum(delta), 0)::bigint AS balance, max(created_at) AS at FROM coin_movements
        WHERE customer_id = ${customerId}::uuid AND created_at <= ${asOf}::timestamptz`,
    )) as [{ balance: bigint; at: Date | null }];
    return {
      customerId,
      balance,
      updatedAt: at ?? wallet.updatedAt,
      held: null,
      available: null,
      expiring: null,
      asOf,
    };
  }
  const [holds, [due], expiring] = await Promise.all([
    db.coinHold.aggregate({
      _sum: { amount: true },
      where: { customerId, status: 'active', expiresAt: { gt: now } },
    }),
    // Lots already due but not yet written off: gone at the wallet's next movement or the job's
    // next pass (the balance shows them until then), and never spendable.
    queryRaw<{ amount: bigint }>(
      db,
      Prisma.sql`SELECT coalesce(sum(remaining), 0)::bigint AS "amount" FROM coin_lots
        WHERE customer_id = ${customerId}::uuid AND remaining > 0 AND expires_at <= ${now}::timestamptz`,
    ),
    queryRaw<Expiring>(
      db,
      Prisma.sql`SELECT sum(remaining)::bigint AS "amount", expires_at AS "expiresAt" FROM coin_lots
        WHERE customer_id = ${customerId}::uuid AND remaining > 0 AND expires_at > ${now}::timestamptz
        GROUP BY expires_at ORDER BY expires_at LIMIT ${EXPIRING_SHOWN}`,
    ),
  ]);
  const held = holds._sum.amount ?? 0n;
  const available = wallet.balance - due!.amount - held;
  return {
    customerId,
    balance: wallet.balance,
    updatedAt: wallet.updatedAt,
    held,
    available: available < 0n ? 0n : available,
    expiring,
    asOf: null,
  };
}

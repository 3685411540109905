// The customers who earned the most coins in a window (docs/reports.md). Earned: coins credited
// by every source but refunds (a refund gives back coins spent). Read from the ledger through its
// (sub_brand_id, environment, created_at) index: its cost grows with the window's movements.
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { AppError } from '../errors.js';
import type { Tenant } from '../tenant.js';
import { reportWindow, type ReportWindow } from './window.js';

export const TOP_EARNERS_MAX_DAYS = 93;
export const TOP_EARNERS_MAX_LIMIT = 100;

export type TopEarner = {
  customerId: string;
  externalId: string;
  earned: number;
  /** Movements that credited it. */
  credits: number;
  /** The customer's balance now. */
  balance: number;
};

export async function readTopEarners(
  db: Db,
  tenant: Tenant,
  input: ReportWindow & { limit?: number | null },
): Promise<{ from: Date; to: Date; customers: TopEarner[] }> {
  const window = reportWindow(input, TOP_EARNERS_MAX_DAYS);
  const limit = input.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > TOP_EARNERS_MAX_LIMIT)
    throw new AppError('invalid_request', `limit: must be 1 to ${TOP_EARNERS_MAX_LIMIT}.`);
  const rows = await queryRaw<{
    customer_id: string;
    external_id: string;
    earned: bigint;
    credits: bigint;
    balance: bigint | null;
  }>(
    db,
    Prisma.sql`WITH top AS (
        SELECT m.customer_id, sum(m.delta)::bigint AS earned, count(*)::bigint AS credits
        FROM coin_movements m
        WHERE m.sub_brand_id = ${tenant.subBrandId}::uuid AND m.environment = ${tenant.environment}::environment
          AND m.created_at >= ${window.from}::timestamptz AND m.created_at < ${window.to}::timestamptz
          AND m.delta > 0 AND m.source <> 'refund'
        GROUP BY m.customer_id ORDER BY earned DESC, m.customer_id LIMIT ${limit}
      )
      SELECT t.customer_id::text, c.external_id, t.earned, t.credits, w.balance
      FROM top t JOIN customers c ON c.id = t.customer_id
      LEFT JOIN wallets w ON w.customer_id = t.customer_id
      ORDER BY t.earned DESC, t.customer_id`,
  );
  return {
    ...window,
    customers: rows.map((r) => ({
      customerId: r.customer_id,
      externalId: r.external_id,
      earned: Number(r.earned),
      credits: Number(r.credits),
      balance: Number(r.balance ?? 0),
    })),
  };
}

// Orders per status and age (docs/reports.md): how many orders the tenant has in each status,
// their coins, and how long the open ones (pending, processing, shipped) have waited. Age is
// measured from the order's creation to `now`.
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { ORDER_STATUSES } from '../orders/schemas.js';
import type { Tenant } from '../tenant.js';

/** Age buckets, in days: [0, 1), [1, 3), [3, 7), [7, 30), 30 and more. */
export type OrderAges = {
  underOneDay: number;
  oneToThreeDays: number;
  threeToSevenDays: number;
  sevenToThirtyDays: number;
  overThirtyDays: number;
};

export type OrderStatusRow = {
  status: string;
  count: number;
  /** Σ of the orders' total_coins. */
  coins: number;
  oldestCreatedAt: Date | null;
  ages: OrderAges;
};

export async function readOrderReport(
  db: Db,
  tenant: Tenant,
  now: Date,
): Promise<{ asOf: Date; statuses: OrderStatusRow[] }> {
  const rows = await queryRaw<{
    status: string;
    count: bigint;
    coins: bigint;
    oldest: Date | null;
    d1: bigint;
    d3: bigint;
    d7: bigint;
    d30: bigint;
    older: bigint;
  }>(
    db,
    Prisma.sql`SELECT status::text AS status, count(*)::bigint AS count,
        coalesce(sum(total_coins), 0)::bigint AS coins, min(created_at) AS oldest,
        count(*) FILTER (WHERE created_at > ${now}::timestamptz - interval '1 day')::bigint AS d1,
        count(*) FILTER (WHERE created_at <= ${now}::timestamptz - interval '1 day'
                           AND created_at > ${now}::timestamptz - interval '3 days')::bigint AS d3,
        count(*) FILTER (WHERE created_at <= ${now}::timestamptz - interval '3 days'
                           AND created_at > ${now}::timestamptz - interval '7 days')::bigint AS d7,
        count(*) FILTER (WHERE created_at <= ${now}::timestamptz - interval '7 days'
                           AND created_at > ${now}::timestamptz - interval '30 days')::bigint AS d30,
        count(*) FILTER (WHERE created_at <= ${now}::timestamptz - interval '30 days')::bigint AS older
      FROM orders
      WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND environment = ${tenant.environment}::environment
      GROUP BY status`,
  );
  const byStatus = new Map(rows.map((r) => [r.status, r]));
  return {
    asOf: now,
    statuses: ORDER_STATUSES.map((status) => {
      const r = byStatus.get(status);
      return {
        status,
        count: Number(r?.count ?? 0),
        coins: Number(r?.coins ?? 0),
        oldestCreatedAt: r?.oldest ?? null,
        ages: {
          underOneDay: Number(r?.d1 ?? 0),
          oneToThreeDays: Number(r?.d3 ?? 0),
          threeToSevenDays: Number(r?.d7 ?? 0),
          sevenToThirtyDays: Number(r?.d30 ?? 0),
          overThirtyDays: Number(r?.older ?? 0),
        },
      };
    }),
  };
}

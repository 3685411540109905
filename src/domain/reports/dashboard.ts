// The backoffice dashboard's charts: a tenant's window [from, to) in four aggregates, one
// statement each, run together. Days are UTC calendar days. Its key figures: kpis.ts.
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import type { ReportWindow } from './window.js';

export type Dashboard = {
  coinsPerDay: { day: string; credited: number; spent: number }[];
  ordersByStatus: { status: string; count: number }[];
  engineOutcomesPerDay: { day: string; outcome: string; count: number }[];
  topProducts: { productId: string; name: string; units: number }[];
};

export async function readDashboard(
  db: Db,
  tenant: Tenant,
  { from: since, to: until }: ReportWindow,
): Promise<Dashboard> {
  const { subBrandId, environment } = tenant;
  const [coins, orders, engine, products] = await Promise.all([
    db.$queryRaw<{ day: string; credited: bigint; spent: bigint }[]>`
      SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
             COALESCE(SUM(delta) FILTER (WHERE delta > 0), 0)::bigint AS credited,
             COALESCE(-SUM(delta) FILTER (WHERE delta < 0), 0)::bigint AS spent
      FROM coin_movements
      WHERE sub_brand_id = ${subBrandId}::uuid AND environment = ${environment}::environment
        AND created_at >= ${since} AND created_at < ${until}
      GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<{ status: string; count: bigint }[]>`
      SELECT status::text AS status, COUNT(*)::bigint AS count FROM orders
      WHERE sub_brand_id = ${subBrandId}::uuid AND environment = ${environment}::environment
      GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<{ day: string; outcome: string; count: bigint }[]>`
      SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
             outcome, COUNT(*)::bigint AS count
      FROM engine_audit
      WHERE sub_brand_id = ${subBrandId}::uuid AND environment = ${environment}::environment
        AND created_at >= ${since} AND created_at < ${until}
      GROUP BY 1, 2 ORDER BY 1, 2`,
    db.$queryRaw<{ product_id: string; name: string; units: bigint }[]>`
      SELECT i.product_id::text, MAX(i.product_name) AS name, SUM(i.quantity)::bigint AS units
      FROM order_items i JOIN orders o ON o.id = i.order_id
      WHERE i.sub_brand_id = ${subBrandId}::uuid AND i.environment = ${environment}::environment
        AND o.status <> 'cancelled' AND o.created_at >= ${since} AND o.created_at < ${until}
      GROUP BY i.product_id ORDER BY units DESC, name LIMIT 5`,
  ]);
  return {
    coinsPerDay: coins.map((r) => ({
      day: r.day,
      credited: Number(r.credited),
      spent: Number(r.spent),
    })),
    ordersByStatus: orders.map((r) => ({ status: r.status, count: Number(r.count) })),
    engineOutcomesPerDay: engine.map((r) => ({
      day: r.day,
      outcome: r.outcome,
      count: Number(r.count),
    })),
    topProducts: products.map((r) => ({
      productId: r.product_id,
      name: r.name,
      units: Number(r.units),
    })),
  };
}

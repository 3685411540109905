import type { Db } from '../db.js';
import { matchOrderIds } from '../orders/order-where.js';
import type { Tenant } from '../tenant.js';
import type { SearchHit } from './hit.js';

/**
 * Orders named exactly: id, reservation id, reference, a tracking code, or the customer's
 * external id or e-mail (the Orders screen's own search, matchOrderIds); newest first.
 */
export async function searchOrders(
  db: Db,
  tenant: Tenant,
  term: string,
  limit: number,
): Promise<SearchHit[]> {
  const ids = await matchOrderIds(db, tenant, term, limit);
  if (ids.length === 0) return [];
  const rows = await db.order.findMany({
    where: { id: { in: ids }, subBrandId: tenant.subBrandId, environment: tenant.environment },
    select: {
      id: true,
      reference: true,
      status: true,
      totalCoins: true,
      createdAt: true,
      recipientName: true,
      items: { select: { trackingCode: true }, orderBy: { position: 'asc' } },
    },
    orderBy: { id: 'desc' },
  });
  return rows.map((o) => {
    const tracking = o.items.map((i) => i.trackingCode).filter(Boolean);
    return {
      kind: 'order' as const,
      id: o.id,
      title: o.reference ? `Order ${o.reference}` : `Order …${o.id.slice(-8)}`,
      subtitle: [
        o.status,
        `${o.totalCoins.toString()} coins`,
        o.createdAt.toISOString().slice(0, 10),
        o.recipientName,
        tracking.length ? `tracking ${tracking.join(', ')}` : null,
      ]
        .filter(Boolean)
        .join(' · '),
      url: `/orders/${o.id}`,
    };
  });
}

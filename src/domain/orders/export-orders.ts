// The tenant's orders for the backoffice's CSV export (backoffice/orders-csv.ts), filtered as the
// Orders screen filters them (orderSearchWhere, as GraphQL's `orders`), newest first, in keyset
// pages on id; each order with its lines (in order) and its customer's external id.
import type { Db } from '../db.js';
import { externalIds } from '../customers/external-ids.js';
import { keysetPages } from '../keyset.js';
import type { Tenant } from '../tenant.js';
import { orderSearchWhere } from './order-where.js';
import type { OrderFilter } from './schemas.js';

/**
 * The pages, once the filter is resolved: awaited before the first byte goes out, so a filter
 * the search refuses is an error answer, not a broken file.
 */
export async function exportOrders(db: Db, tenant: Tenant, filter: OrderFilter) {
  const where = await orderSearchWhere(db, tenant, filter);
  return pages();

  async function* pages() {
    for await (const page of keysetPages(
      (before: string | undefined, take) =>
        db.order.findMany({
          where: { AND: [where, before ? { id: { lt: before } } : {}] },
          orderBy: { id: 'desc' },
          take,
          include: {
            items: {
              orderBy: { position: 'asc' },
              select: {
                quantity: true,
                productName: true,
                sku: true,
                carrier: true,
                trackingCode: true,
              },
            },
          },
        }),
      (o) => o.id,
    )) {
      const external = await externalIds(
        db,
        tenant,
        page.map((o) => o.customerId),
      );
      yield page.map((o) => ({
        ...o,
        externalId: (o.customerId && external.get(o.customerId)) ?? null,
      }));
    }
  }
}

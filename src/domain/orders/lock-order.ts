import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Tenant } from '../tenant.js';

/**
 * Reads an order under a row lock, so two moves of one order (two cancels, a cancel and a ship)
 * run one after the other and the second sees what the first did. A tenant confines the lookup;
 * the backoffice passes none.
 */
export async function lockOrder(db: Db, id: string, tenant: Tenant | null) {
  if (!isUuid(id)) throw notFound('Order');
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM orders WHERE id = ${id}::uuid FOR UPDATE`;
  const order = rows[0]
    ? await db.order.findUnique({
        where: { id },
        include: {
          items: { orderBy: { position: 'asc' } },
          subBrand: { select: { brandId: true } },
        },
      })
    : null;
  if (
    !order ||
    (tenant && (order.subBrandId !== tenant.subBrandId || order.environment !== tenant.environment))
  ) {
    throw notFound('Order');
  }
  return order;
}

// The partner's own player ids (what people search by) beside ours, for a page of rows that name
// customers: one query per page (the backoffice's CSV exports).
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';

/** Each named customer's external id (null when it has none), in one query. */
export async function externalIds(
  db: Db,
  tenant: Tenant,
  customerIds: (string | null)[],
): Promise<Map<string, string | null>> {
  const ids = [...new Set(customerIds.filter((id): id is string => id !== null))];
  if (!ids.length) return new Map();
  const players = await db.customer.findMany({
    where: { ...tenant, id: { in: ids } },
    select: { id: true, externalId: true },
  });
  return new Map(players.map((p) => [p.id, p.externalId]));
}

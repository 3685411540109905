// The tenant's coin ledger over a window for the backoffice's CSV export (backoffice/
// movements-csv.ts): oldest first, in keyset pages on (created_at, id), served by the
// (sub_brand_id, environment, created_at) index, each movement with its customer's external id
// and its staff member's e-mail. A read: the ledger's writes stay in apply-movements.ts.
import type { Prisma } from '../../generated/prisma/client.js';
import { externalIds } from '../customers/external-ids.js';
import type { Db } from '../db.js';
import { keysetPages } from '../keyset.js';
import type { Tenant } from '../tenant.js';

export type MovementWindow = {
  /** Inclusive. */
  from: Date;
  /** Exclusive. */
  to: Date;
  customerId?: string | undefined;
};

type Key = { createdAt: Date; id: string };

export async function* exportMovements(db: Db, tenant: Tenant, window: MovementWindow) {
  for await (const page of keysetPages(
    (last: Key | undefined, take) => {
      const after: Prisma.CoinMovementWhereInput = last
        ? {
            OR: [
              { createdAt: { gt: last.createdAt } },
              { createdAt: last.createdAt, id: { gt: last.id } },
            ],
          }
        : {};
      return db.coinMovement.findMany({
        where: {
          AND: [
            { ...tenant, createdAt: { gte: window.from, lt: window.to } },
            window.customerId ? { customerId: window.customerId } : {},
            after,
          ],
        },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take,
      });
    },
    (m): Key => ({ createdAt: m.createdAt, id: m.id }),
  )) {
    const external = await externalIds(
      db,
      tenant,
      page.map((m) => m.customerId),
    );
    const staffIds = [...new Set(page.flatMap((m) => (m.staffUserId ? [m.staffUserId] : [])))];
    const staff = new Map(
      staffIds.length
        ? (
            await db.staffUser.findMany({
              where: { id: { in: staffIds } },
              select: { id: true, email: true },
            })
          ).map((s) => [s.id, s.email])
        : [],
    );
    yield page.map((m) => ({
      ...m,
      externalId: external.get(m.customerId) ?? null,
      staffEmail: m.staffUserId ? (staff.get(m.staffUserId) ?? null) : null,
    }));
  }
}

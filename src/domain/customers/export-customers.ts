// The tenant's customers for the backoffice's CSV export (backoffice/customers-csv.ts), filtered
// as the customer list filters them (customerWhere), newest first, in keyset pages on id, each
// with its wallet's balance (0 without a wallet).
import type { Db } from '../db.js';
import { keysetPages } from '../keyset.js';
import type { Tenant } from '../tenant.js';
import { customerWhere } from './customer-where.js';
import { readsByTenant, tenantRange } from './first-page.js';
import type { CustomerFilter } from './schemas.js';

export async function* exportCustomers(db: Db, tenant: Tenant, filter: CustomerFilter) {
  const where = customerWhere(tenant, filter);
  // The first page may be read by tenant (first-page.ts), the next ones start at the last id.
  const fromStart = await readsByTenant(db, tenant, filter);
  for await (const page of keysetPages(
    (before: string | undefined, take) =>
      db.customer.findMany({
        where: before
          ? { AND: [where, { id: { lt: before } }] }
          : fromStart
            ? customerWhere(tenant, filter, 'range')
            : where,
        orderBy: !before && fromStart ? tenantRange('desc') : { id: 'desc' },
        take,
        include: { wallet: { select: { balance: true } } },
      }),
    (c) => c.id,
  )) {
    yield page.map(({ wallet, ...c }) => ({ ...c, balance: wallet?.balance ?? 0n }));
  }
}

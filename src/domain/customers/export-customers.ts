// The tenant's customers for the backoffice's CSV export (backoffice/customers-csv.ts), filtered
// as the customer list filters them (customerWhere), newest first, in keyset pages on id, each
// with its wallet's balance (0 without a wallet).
import type { Db } from '../db.js';
import { keysetPages } from '../keyset.js';
import type { Tenant } from '../tenant.js';
import { customerWhere } from './customer-where.js';
import type { CustomerFilter } from './schemas.js';

export async function* exportCustomers(db: Db, tenant: Tenant, filter: CustomerFilter) {
  const where = customerWhere(tenant, filter);
  for await (const page of keysetPages(
    (before: string | undefined, take) =>
      db.customer.findMany({
        where: { AND: [where, before ? { id: { lt: before } } : {}] },
        orderBy: { id: 'desc' },
        take,
        include: { wallet: { select: { balance: true } } },
      }),
    (c) => c.id,
  )) {
    yield page.map(({ wallet, ...c }) => ({ ...c, balance: wallet?.balance ?? 0n }));
  }
}

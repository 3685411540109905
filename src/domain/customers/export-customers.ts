// The tenant's customers for the backoffice's CSV export (backoffice/customers-csv.ts), filtered
// as the customer list filters them (customer-list.ts), newest first, in keyset pages on id, each
// with its wallet's balance (0 without a wallet).
import type { Db } from '../db.js';
import { keysetPages } from '../keyset.js';
import type { Tenant } from '../tenant.js';
import { customerList } from './customer-list.js';
import type { CustomerFilter } from './schemas.js';

export async function* exportCustomers(db: Db, tenant: Tenant, filter: CustomerFilter) {
  const list = await customerList(db, tenant, filter);
  for await (const page of keysetPages(
    async (before: string | undefined, take) =>
      db.customer.findMany({
        // Each page as the list reads its own, the next ones past the last id.
        ...(await list.page(db, before, take)),
        take,
        include: { wallet: { select: { balance: true } } },
      }),
    (c) => c.id,
  )) {
    yield page.map(({ wallet, ...c }) => ({ ...c, balance: wallet?.balance ?? 0n }));
  }
}

// The customer list's e-mail filter, served by the (tenant, lower(email)) index.
//
// customerWhere compares the e-mail case-insensitively as Prisma says it (ILIKE), which no btree
// serves, so PostgreSQL narrowed by the trigram index on search_text first. At ten million
// customers that scan reads the posting lists of trigrams every address shares ("use", "com",
// "@ma"): 1.1 s for one match. So, first, one probe of the btree on lower(email) for the matching
// ids; the list then reads those rows by id (customerWhere's own conditions still hold, so the
// rows are the same). More than CAP customers on one address (no tenant has them): no narrowing.
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import { tenantConditions } from './customer-where.js';
import type { CustomerFilter } from './schemas.js';

const CAP = 1_000;

export async function emailMatches(
  db: Db,
  tenant: Tenant,
  f: CustomerFilter,
): Promise<Prisma.CustomerWhereInput | null> {
  if (!f.email) return null;
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM customers
    WHERE ${Prisma.join(tenantConditions(tenant), ' AND ')}
      AND lower(email) = lower(${f.email})
    LIMIT ${CAP + 1}`;
  return rows.length > CAP ? null : { id: { in: rows.map((r) => r.id) } };
}

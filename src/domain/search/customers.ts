import { customerWhere } from '../customers/customer-where.js';
import { textMatches } from '../customers/text-match.js';
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import { customerIdsByEmail, isEmail } from './email.js';
import type { SearchHit } from './hit.js';

/**
 * Players by name, part of an e-mail, external id or phone (any way it is typed): the customers
 * list's own `q` (customerWhere), served by the one trigram index on customers.search_text. A
 * whole e-mail address is matched exactly, in any case, by its own index. No ORDER BY, so
 * PostgreSQL stops at the first `limit` rows the index finds instead of sorting every match.
 */
export async function searchCustomers(
  db: Db,
  tenant: Tenant,
  term: string,
  limit: number,
): Promise<SearchHit[]> {
  // A whole e-mail is looked up exactly (its own index); a term whose trigrams most customers
  // share, by its few matches (text-match.ts); anything else through the trigram index.
  const where = isEmail(term)
    ? { id: { in: await customerIdsByEmail(db, tenant, term, limit) } }
    : ((await textMatches(db, tenant, term)) ?? customerWhere(tenant, { q: term }));
  const rows = await db.customer.findMany({
    where,
    select: {
      id: true,
      firstName: true,
      lastName: true,
      email: true,
      externalId: true,
      phone: true,
      status: true,
    },
    take: limit,
  });
  return rows
    .map((c) => ({
      kind: 'customer' as const,
      id: c.id,
      title: `${c.firstName} ${c.lastName}`.trim(),
      subtitle: [c.email, c.externalId && `ext. ${c.externalId}`, c.phone, c.status]
        .filter(Boolean)
        .join(' · '),
      url: `/customers/${c.id}`,
    }))
    .sort((a, b) => a.title.localeCompare(b.title));
}

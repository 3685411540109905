// The tenant's staff audit trail for the backoffice's CSV export (backoffice/audit-csv.ts),
// filtered as the Audit screen filters it (auditWhere, shared with `staffAudit`), newest first,
// in keyset pages on id, each entry with its staff member's e-mail.
import type { Db } from '../db.js';
import { keysetPages } from '../keyset.js';
import type { Tenant } from '../tenant.js';
import { auditWhere, type AuditFilter } from './audit-where.js';

export async function* exportAudit(db: Db, tenant: Tenant, filter: AuditFilter) {
  const where = auditWhere(tenant, filter);
  for await (const page of keysetPages(
    (before: string | undefined, take) =>
      db.staffAuditEntry.findMany({
        where: { AND: [where, before ? { id: { lt: before } } : {}] },
        orderBy: { id: 'desc' },
        take,
        include: { staffUser: { select: { email: true } } },
      }),
    (a) => a.id,
  )) {
    yield page.map(({ staffUser, ...a }) => ({ ...a, staffEmail: staffUser.email }));
  }
}

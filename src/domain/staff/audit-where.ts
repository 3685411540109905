// The staff audit trail's filter, shared by the Audit screen's `staffAudit` query and the
// backoffice's audit CSV export (backoffice/audit-csv.ts), so both select the same rows.
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Tenant } from '../tenant.js';

export const auditFilter = z.strictObject({
  /** The mutation's exact name, e.g. adjustCustomerCoins. */
  action: z.string().trim().min(1).max(80).optional(),
  /** The id the change was about. */
  targetId: z.string().trim().min(1).max(80).optional(),
});
export type AuditFilter = z.output<typeof auditFilter>;

/** The tenant's audit rows matching a filter (the list's order is id, newest first). */
export function auditWhere(tenant: Tenant, f: AuditFilter = {}): Prisma.StaffAuditEntryWhereInput {
  return {
    subBrandId: tenant.subBrandId,
    environment: tenant.environment,
    ...(f.action ? { action: f.action } : {}),
    ...(f.targetId ? { targetId: f.targetId } : {}),
  };
}

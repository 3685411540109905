// The staff audit trail's filter, shared by the Audit screen's `staffAudit` query and the
// backoffice's audit CSV export (backoffice/audit-csv.ts), so both select the same rows: by person
// (staff id or e-mail), date range, action and target.
import { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { invalidRequest } from '../errors.js';
import type { Tenant } from '../tenant.js';
import { dayOrInstant, parseInput, windowEnd } from '../validation.js';

/** The filter as it arrives (query parameters, GraphQL arguments): text, checked here. */
export const auditFilterInput = z
  .strictObject({
    /** The mutation's exact name, e.g. adjustCustomerCoins. */
    action: z.string().trim().min(1).max(80).optional(),
    /** The id the change was about. */
    targetId: z.string().trim().min(1).max(80).optional(),
    /** The staff member who made the change. */
    staffId: z.uuid().optional(),
    /** The same, by e-mail (case-insensitive). */
    staffEmail: z.string().trim().toLowerCase().max(254).pipe(z.email()).optional(),
    /** From this day or instant (inclusive). */
    from: dayOrInstant.optional(),
    /** Up to this instant (exclusive); a day takes that whole day in. */
    to: dayOrInstant.optional(),
  })
  .transform(({ from, to, ...rest }) => ({
    ...rest,
    ...(from ? { from: from.at } : {}),
    ...(to ? { to: windowEnd(to) } : {}),
  }))
  .superRefine((f, ctx) => {
    if (f.from && f.to && f.from >= f.to) {
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: 'must be before to',
        params: { rule: 'conflict' },
      });
    }
  });
export type AuditFilter = z.output<typeof auditFilterInput>;

/**
 * Parses a filter and checks what only the database knows: a staff id must name a staff account
 * (an unknown e-mail is not refused, it simply matches nothing: e-mails are not probed here).
 * Throws invalid_request naming the field; reads nothing of any tenant.
 */
export async function readAuditFilter(db: Db, input: unknown): Promise<AuditFilter> {
  const f = parseInput(auditFilterInput, input);
  if (f.staffId) {
    const staff = await db.staffUser.findUnique({ where: { id: f.staffId }, select: { id: true } });
    if (!staff) {
      throw invalidRequest([
        { field: 'staffId', code: 'invalid', message: 'is not a staff member' },
      ]);
    }
  }
  return f;
}

/** The filter as written to the export's own audit row (dates as ISO strings). */
export const auditFilterArgs = (f: AuditFilter) => ({
  ...f,
  ...(f.from ? { from: f.from.toISOString() } : {}),
  ...(f.to ? { to: f.to.toISOString() } : {}),
});

/** The tenant's audit rows matching a filter (the list's order is id, newest first). */
export function auditWhere(tenant: Tenant, f: AuditFilter = {}): Prisma.StaffAuditEntryWhereInput {
  return {
    subBrandId: tenant.subBrandId,
    environment: tenant.environment,
    ...(f.action ? { action: f.action } : {}),
    ...(f.targetId ? { targetId: f.targetId } : {}),
    ...(f.staffId ? { staffUserId: f.staffId } : {}),
    ...(f.staffEmail ? { staffUser: { email: f.staffEmail } } : {}),
    ...(f.from || f.to
      ? {
          createdAt: {
            ...(f.from ? { gte: f.from } : {}),
            ...(f.to ? { lt: f.to } : {}),
          },
        }
      : {}),
  };
}

/** The actions in the tenant's whole trail, by name (what the action filter offers). */
export async function auditActions(db: Db, tenant: Tenant): Promise<string[]> {
  const rows = await db.staffAuditEntry.groupBy({
    by: ['action'],
    where: { subBrandId: tenant.subBrandId, environment: tenant.environment },
    orderBy: { action: 'asc' },
  });
  return rows.map((r) => r.action);
}

/** The staff who appear in the tenant's whole trail, by e-mail (what the person filter offers). */
export async function auditPeople(db: Db, tenant: Tenant) {
  const rows = await db.staffAuditEntry.groupBy({
    by: ['staffUserId'],
    where: { subBrandId: tenant.subBrandId, environment: tenant.environment },
  });
  return rows.length
    ? db.staffUser.findMany({
        where: { id: { in: rows.map((r) => r.staffUserId) } },
        orderBy: { email: 'asc' },
      })
    : [];
}

// GET /admin/api/audit.csv?staffId=&staffEmail=&from=&to=&action=&targetId=: the chosen tenant's
// staff audit trail, filtered as the Audit screen filters it (domain/staff/audit-where.ts, shared with `staffAudit`), newest
// first, streamed in pages of 500 (keyset on id). Any staff member may read it, as on the screen;
// taking the file is itself audited (an `exportAuditCsv` row, written before the first byte, so
// it is the first row of the file it took). The rows come from domain/staff/export-audit.ts; this
// file parses the filter and writes them as CSV.
import type { Request, Response } from 'express';
import type { Db } from '../domain/db.js';
import { exportAudit } from '../domain/staff/export-audit.js';
import { auditFilterArgs, readAuditFilter } from '../domain/staff/audit-where.js';
import { exportTenant, queryText, streamCsv, type PageRow } from './csv-response.js';

const COLUMNS = [
  'id',
  'created_at',
  'staff_user_id',
  'staff_email',
  'action',
  'target_id',
  'request_id',
  'args',
  'before',
  'after',
];

const json = (value: unknown) =>
  value === null || value === undefined ? null : JSON.stringify(value);

export async function exportAuditCsv(db: Db, req: Request, res: Response): Promise<void> {
  // Checked before anything is read of the tenant or audited.
  const filter = await readAuditFilter(db, {
    action: queryText(req, 'action'),
    targetId: queryText(req, 'targetId'),
    staffId: queryText(req, 'staffId'),
    staffEmail: queryText(req, 'staffEmail'),
    from: queryText(req, 'from'),
    to: queryText(req, 'to'),
  });
  const tenant = await exportTenant(db, req, res, {
    scope: null,
    action: 'exportAuditCsv',
    args: auditFilterArgs(filter),
    refused: 'Your role cannot read the audit trail.',
  });
  const date = new Date().toISOString().slice(0, 10);
  await streamCsv(
    res,
    `audit-${tenant.environment}-${date}.csv`,
    COLUMNS,
    exportAudit(db, tenant, filter),
    cellsOf,
  );
}

/** One row's cells, in COLUMNS' order. */
const cellsOf = (a: PageRow<ReturnType<typeof exportAudit>>) => [
  a.id,
  a.createdAt.toISOString(),
  a.staffUserId,
  a.staffEmail,
  a.action,
  a.targetId,
  a.requestId,
  json(a.args),
  json(a.before),
  json(a.after),
];

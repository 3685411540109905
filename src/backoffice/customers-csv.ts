// GET /admin/api/customers.csv: the backoffice's customer list, as filtered on screen, streamed
// as CSV in pages of 500 (keyset on id, newest first), so a large tenant never sits in memory.
// The rows come from domain/customers/export-customers.ts; this file writes them as CSV.
// The read itself is audited: who took which tenant's players (csv-response.ts).
import type { Request, Response } from 'express';
import { exportCustomers } from '../domain/customers/export-customers.js';
import { customerFilter } from '../domain/customers/schemas.js';
import type { Db } from '../domain/db.js';
import { parseInput } from '../domain/validation.js';
import { exportTenant, queryText, streamCsv, type PageRow } from './csv-response.js';

const COLUMNS = [
  'id',
  'external_id',
  'first_name',
  'last_name',
  'nickname',
  'email',
  'phone',
  'country',
  'preferred_lang',
  'segment_id',
  'status',
  'balance',
  'order_count',
  'created_at',
];

export async function exportCustomersCsv(db: Db, req: Request, res: Response): Promise<void> {
  const filter = parseInput(customerFilter, {
    q: queryText(req, 'q'),
    status: queryText(req, 'status'),
    segmentId: queryText(req, 'segmentId'),
    country: queryText(req, 'country'),
  });
  const tenant = await exportTenant(db, req, res, {
    scope: 'customers:read',
    action: 'exportCustomersCsv',
    args: filter,
    refused: 'Your role cannot read customers.',
  });
  const date = new Date().toISOString().slice(0, 10);
  await streamCsv(
    res,
    `customers-${tenant.environment}-${date}.csv`,
    COLUMNS,
    exportCustomers(db, tenant, filter),
    cellsOf,
  );
}

/** One row's cells, in COLUMNS' order. */
const cellsOf = (c: PageRow<ReturnType<typeof exportCustomers>>) => [
  c.id,
  c.externalId,
  c.firstName,
  c.lastName,
  c.nickname,
  c.email,
  c.phone,
  c.country,
  c.preferredLang,
  c.segmentId,
  c.status,
  Number(c.balance),
  c.orderCount,
  c.createdAt.toISOString(),
];

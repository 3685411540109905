// GET /admin/api/movements.csv?from=&to=&customerId=: the coin ledger of the chosen tenant for a
// window, oldest first, for finance: every credit and debit with the balance it left, where it
// came from and who made it. Streamed in pages of 500 with a keyset on (created_at, id), served by
// the (sub_brand_id, environment, created_at) index, so millions of rows never sit in memory. The
// rows come from domain/ledger/export-movements.ts; this file reads the window and writes CSV.
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { exportMovements } from '../domain/ledger/export-movements.js';
import { dayOrInstant, parseInput, windowEnd } from '../domain/validation.js';
import { exportTenant, queryText, streamCsv, type PageRow } from './csv-response.js';

const DAY = 24 * 60 * 60 * 1000;
/** Without `from`, the window is the 30 days before `to` (or now). */
const DEFAULT_WINDOW_DAYS = 30;
const COLUMNS = [
  'id',
  'created_at',
  'customer_id',
  'external_id',
  'amount',
  'balance_after',
  'source',
  'reason',
  'request_id',
  'bulk_id',
  'lot_id',
  'api_key_id',
  'staff_user_id',
  'staff_email',
];

const window = z.strictObject({
  from: dayOrInstant.optional(),
  to: dayOrInstant.optional(),
  customerId: z.uuid().optional(),
});

export async function exportMovementsCsv(db: Db, req: Request, res: Response): Promise<void> {
  const input = parseInput(window, {
    from: queryText(req, 'from'),
    to: queryText(req, 'to'),
    customerId: queryText(req, 'customerId'),
  });
  // `from` inclusive, `to` exclusive; a day as `to` takes that whole day in.
  const to = input.to ? windowEnd(input.to) : new Date(Date.now() + 1);
  const from = input.from?.at ?? new Date(to.getTime() - DEFAULT_WINDOW_DAYS * DAY);
  if (from >= to) {
    throw new AppError('invalid_request', 'from must be before to.');
  }
  const args = {
    from: from.toISOString(),
    to: to.toISOString(),
    ...(input.customerId ? { customerId: input.customerId } : {}),
  };
  const tenant = await exportTenant(db, req, res, {
    scope: 'customers:read',
    action: 'exportMovementsCsv',
    args,
    refused: 'Your role cannot read customers’ coin movements.',
  });
  const name = `movements-${tenant.environment}-${args.from.slice(0, 10)}-to-${args.to.slice(0, 10)}.csv`;
  await streamCsv(
    res,
    name,
    COLUMNS,
    exportMovements(db, tenant, { from, to, customerId: input.customerId }),
    cellsOf,
  );
}

/** One row's cells, in COLUMNS' order. */
const cellsOf = (m: PageRow<ReturnType<typeof exportMovements>>) => [
  m.id,
  m.createdAt.toISOString(),
  m.customerId,
  m.externalId,
  Number(m.delta),
  Number(m.balanceAfter),
  m.source,
  m.reason,
  m.requestId,
  m.bulkId,
  m.lotId,
  m.apiKeyId,
  m.staffUserId,
  m.staffEmail,
];

// GET /admin/api/movements.csv?from=&to=&customerId=: the coin ledger of the chosen tenant for a
// window, oldest first, for finance: every credit and debit with the balance it left, where it
// came from and who made it. Streamed in pages of 500 with a keyset on (created_at, id), served by
// the (sub_brand_id, environment, created_at) index, so millions of rows never sit in memory.
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.js';
import { csvLine } from '../domain/csv.js';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { dayOrInstant, parseInput, windowEnd } from '../domain/validation.js';
import { exportTenant, externalIds, queryText, streamCsv } from './csv-response.js';

const PAGE = 500;
const DAY = 24 * 60 * 60 * 1000;
/** Without `from`, the window is the 30 days before `to` (or now). */
export const DEFAULT_WINDOW_DAYS = 30;
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
  await streamCsv(res, name, COLUMNS, pages());

  async function* pages() {
    let last: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const after: Prisma.CoinMovementWhereInput = last
        ? {
            OR: [
              { createdAt: { gt: last.createdAt } },
              { createdAt: last.createdAt, id: { gt: last.id } },
            ],
          }
        : {};
      const page = await db.coinMovement.findMany({
        where: {
          AND: [
            { ...tenant, createdAt: { gte: from, lt: to } },
            input.customerId ? { customerId: input.customerId } : {},
            after,
          ],
        },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: PAGE,
      });
      const external = await externalIds(
        db,
        tenant,
        page.map((m) => m.customerId),
      );
      const staffIds = [...new Set(page.flatMap((m) => (m.staffUserId ? [m.staffUserId] : [])))];
      const staff = new Map(
        staffIds.length
          ? (
              await db.staffUser.findMany({
                where: { id: { in: staffIds } },
                select: { id: true, email: true },
              })
            ).map((s) => [s.id, s.email])
          : [],
      );
      yield page
        .map((m) =>
          csvLine([
            m.id,
            m.createdAt.toISOString(),
            m.customerId,
            external.get(m.customerId) ?? null,
            Number(m.delta),
            Number(m.balanceAfter),
            m.source,
            m.reason,
            m.requestId,
            m.bulkId,
            m.lotId,
            m.apiKeyId,
            m.staffUserId,
            m.staffUserId ? (staff.get(m.staffUserId) ?? null) : null,
          ]),
        )
        .join('');
      if (page.length < PAGE) return;
      const tail = page[page.length - 1]!;
      last = { createdAt: tail.createdAt, id: tail.id };
    }
  }
}

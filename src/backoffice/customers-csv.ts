// GET /admin/api/customers.csv: the backoffice's customer list, as filtered on screen, streamed
// as CSV in pages of 500 (keyset on id, newest first), so a large tenant never sits in memory.
// The read itself is audited: who took which tenant's players (csv-response.ts).
import type { Request, Response } from 'express';
import { customerWhere } from '../domain/customers/customer-where.js';
import { customerFilter } from '../domain/customers/schemas.js';
import { csvLine } from '../domain/csv.js';
import type { Db } from '../domain/db.js';
import { parseInput } from '../domain/validation.js';
import { exportTenant, queryText, streamCsv } from './csv-response.js';

const PAGE = 500;
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
  await streamCsv(res, `customers-${tenant.environment}-${date}.csv`, COLUMNS, pages());

  async function* pages() {
    let before: string | undefined;
    for (;;) {
      const page = await db.customer.findMany({
        where: { AND: [customerWhere(tenant, filter), before ? { id: { lt: before } } : {}] },
        orderBy: { id: 'desc' },
        take: PAGE,
        include: { wallet: { select: { balance: true } } },
      });
      yield page
        .map((c) =>
          csvLine([
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
            Number(c.wallet?.balance ?? 0),
            c.orderCount,
            c.createdAt.toISOString(),
          ]),
        )
        .join('');
      if (page.length < PAGE) return;
      before = page[page.length - 1]!.id;
    }
  }
}

// GET /admin/api/rg-decisions.csv?from=&to=: the responsible-gaming gate's refusals in a window,
// oldest first, for a compliance officer's audit (docs/compliance.md), streamed in pages of 500.
import type { Request, Response } from 'express';
import { z } from 'zod';
import { csvLine } from '../domain/csv.js';
import type { Db } from '../domain/db.js';
import { parseInput } from '../domain/validation.js';
import { exportTenant, queryText, streamCsv } from './csv-response.js';

const PAGE = 500;
const COLUMNS = [
  'id',
  'created_at',
  'customer_id',
  'external_id',
  'path',
  'state',
  'until',
  'reference',
];
const window = z.object({ from: z.iso.datetime().optional(), to: z.iso.datetime().optional() });

export async function exportRgDecisionsCsv(db: Db, req: Request, res: Response): Promise<void> {
  const { from, to } = parseInput(window, {
    from: queryText(req, 'from'),
    to: queryText(req, 'to'),
  });
  const tenant = await exportTenant(db, req, res, {
    scope: 'customers:read',
    action: 'exportRgDecisionsCsv',
    args: { from, to },
    refused: 'Your role cannot read customers.',
  });
  const createdAt = {
    ...(from ? { gte: new Date(from) } : {}),
    ...(to ? { lt: new Date(to) } : {}),
  };
  await streamCsv(
    res,
    `rg-decisions-${tenant.environment}-${(from ?? 'all').slice(0, 10)}.csv`,
    COLUMNS,
    pages(),
  );

  async function* pages() {
    let after: string | undefined;
    for (;;) {
      const page = await db.rgDecision.findMany({
        where: { ...tenant, createdAt, ...(after ? { id: { gt: after } } : {}) },
        orderBy: { id: 'asc' },
        take: PAGE,
      });
      // The partner's own player id beside ours: what a compliance officer searches by.
      const players = await db.customer.findMany({
        where: { ...tenant, id: { in: [...new Set(page.map((d) => d.customerId))] } },
        select: { id: true, externalId: true },
      });
      const external = new Map(players.map((p) => [p.id, p.externalId]));
      yield page
        .map((d) =>
          csvLine([
            d.id,
            d.createdAt.toISOString(),
            d.customerId,
            external.get(d.customerId) ?? null,
            d.path,
            d.state,
            d.until?.toISOString() ?? null,
            d.reference,
          ]),
        )
        .join('');
      if (page.length < PAGE) return;
      after = page[page.length - 1]!.id;
    }
  }
}

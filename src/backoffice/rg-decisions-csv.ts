// GET /admin/api/rg-decisions.csv?from=&to=: the responsible-gaming gate's refusals in a window,
// oldest first, for a compliance officer's audit (docs/compliance.md), streamed in pages of 500.
// The rows come from domain/responsible-gaming/export-decisions.ts; this file writes them as CSV.
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Db } from '../domain/db.js';
import { exportRgDecisions } from '../domain/responsible-gaming/export-decisions.js';
import { parseInput } from '../domain/validation.js';
import { exportTenant, queryText, streamCsv, type PageRow } from './csv-response.js';

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
  await streamCsv(
    res,
    `rg-decisions-${tenant.environment}-${(from ?? 'all').slice(0, 10)}.csv`,
    COLUMNS,
    exportRgDecisions(db, tenant, {
      from: from ? new Date(from) : undefined,
      to: to ? new Date(to) : undefined,
    }),
    cellsOf,
  );
}

/** One row's cells, in COLUMNS' order. */
const cellsOf = (d: PageRow<ReturnType<typeof exportRgDecisions>>) => [
  d.id,
  d.createdAt.toISOString(),
  d.customerId,
  d.externalId,
  d.path,
  d.state,
  d.until?.toISOString() ?? null,
  d.reference,
];

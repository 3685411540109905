// CSV import of players (the backoffice, issue 14): a preview that checks every row, then an
// apply that creates only what is new. A row is matched on its external_id, which is unique per
// sub-brand and environment, so the same file applied twice creates nothing the second time, and
// two imports racing for one row create it once (the loser finds it there).
import type { z } from 'zod';
import { parseCsv } from '../csv.js';
import type { Db } from '../db.js';
import { AppError } from '../errors.js';
import type { Tenant } from '../tenant.js';
import { toFieldIssues } from '../validation.js';
import { createCustomer } from './create-customer.js';
import { createCustomerInput } from './schemas.js';

/** The columns a file may have (snake_case, as the partner API names them). */
export const IMPORT_COLUMNS = {
  external_id: 'externalId',
  first_name: 'firstName',
  last_name: 'lastName',
  nickname: 'nickname',
  email: 'email',
  phone: 'phone',
  country: 'country',
  preferred_lang: 'preferredLang',
  segment_id: 'segmentId',
  status: 'status',
} as const;
const REQUIRED = ['external_id', 'first_name', 'last_name'] as const;

/**
 * Columns of the backoffice's customers export (backoffice/customers-csv.ts) that an import reads
 * past, so an exported file re-imports as it is (issue 35, B10): the id is the platform's own (a
 * new one is made), the balance moves only by coin movements, the order count is kept by the
 * order book, and created_at is the moment of the import. `status` is imported.
 */
export const IGNORED_COLUMNS = ['id', 'balance', 'order_count', 'created_at'] as const;

/**
 * A cell as written: the export puts an apostrophe before a value a spreadsheet would run as a
 * formula (csv.ts csvField), so `'+34 600…` is read back as `+34 600…`.
 */
const cell = (value: string) => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);

/** One call reads at most this many rows; the backoffice sends a big file in slices. */
export const MAX_IMPORT_ROWS = 1000;

export type ImportOutcome = 'new' | 'existing' | 'invalid' | 'created';
export type ImportRow = {
  line: number;
  externalId: string | null;
  outcome: ImportOutcome;
  customerId: string | null;
  errors: string[];
};
export type ImportReport = {
  rows: ImportRow[];
  counts: Record<ImportOutcome, number>;
};

type Parsed = { row: ImportRow; data: z.input<typeof createCustomerInput> | null };

function readFile(csv: string): Parsed[] {
  const [header, ...rows] = parseCsv(csv);
  if (!header)
    throw new AppError('invalid_request', 'CSV: the file is empty; it needs a header row.');
  const columns = header.fields.map((f) => f.trim().toLowerCase());
  const ignored = new Set<string>(IGNORED_COLUMNS);
  const unknown = columns.filter((c) => !(c in IMPORT_COLUMNS) && !ignored.has(c));
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (unknown.length || missing.length) {
    throw new AppError(
      'invalid_request',
      [
        unknown.length && `unknown column(s) ${unknown.join(', ')}`,
        missing.length && `missing column(s) ${missing.join(', ')}`,
      ]
        .filter(Boolean)
        .join('; ') +
        `. Columns: ${Object.keys(IMPORT_COLUMNS).join(', ')} (an export's ${IGNORED_COLUMNS.join(', ')} are ignored).`,
    );
  }
  if (new Set(columns).size !== columns.length) {
    throw new AppError('invalid_request', 'CSV: a column appears twice in the header.');
  }
  if (rows.length > MAX_IMPORT_ROWS) {
    throw new AppError(
      'invalid_request',
      `CSV: at most ${MAX_IMPORT_ROWS} rows per request (got ${rows.length}); send the file in slices.`,
    );
  }
  const seen = new Map<string, number>();
  return rows.map(({ line, fields }) => {
    const raw = Object.fromEntries(
      columns.flatMap((c, i) => (ignored.has(c) ? [] : [[c, cell((fields[i] ?? '').trim())]])),
    );
    const externalId = raw.external_id || null;
    const errors: string[] = [];
    if (fields.length !== columns.length) {
      errors.push(`has ${fields.length} fields, the header ${columns.length}`);
    }
    // Empty cells are absent values, not empty strings.
    const input = Object.fromEntries(
      Object.entries(raw)
        .filter(([, v]) => v !== '')
        .map(([k, v]) => [IMPORT_COLUMNS[k as keyof typeof IMPORT_COLUMNS], v]),
    );
    const parsed = createCustomerInput.safeParse(input);
    if (!parsed.success) {
      const snake = Object.fromEntries(Object.entries(IMPORT_COLUMNS).map(([s, c]) => [c, s]));
      errors.push(
        ...toFieldIssues(parsed.error).map((i) => `${snake[i.field] ?? i.field} ${i.message}`),
      );
    }
    if (!externalId)
      errors.push('external_id is required (it makes a re-run create nothing twice)');
    else if (seen.has(externalId)) {
      errors.push(`external_id repeats line ${seen.get(externalId)}`);
    } else seen.set(externalId, line);
    return {
      row: {
        line,
        externalId,
        outcome: errors.length ? 'invalid' : 'new',
        customerId: null,
        errors,
      },
      data: errors.length ? null : (input as z.input<typeof createCustomerInput>),
    };
  });
}

function report(rows: ImportRow[]): ImportReport {
  const counts = { new: 0, existing: 0, invalid: 0, created: 0 };
  for (const r of rows) counts[r.outcome]++;
  return { rows, counts };
}

/** Marks the rows whose external_id the tenant already has. */
async function matchExisting(db: Db, tenant: Tenant, parsed: Parsed[]): Promise<void> {
  const ids = parsed.filter((p) => p.data).map((p) => p.row.externalId!);
  if (!ids.length) return;
  const found = await db.customer.findMany({
    where: { ...tenant, externalId: { in: ids } },
    select: { id: true, externalId: true },
  });
  const byExternal = new Map(found.map((c) => [c.externalId, c.id]));
  for (const p of parsed) {
    const id = p.row.externalId && byExternal.get(p.row.externalId);
    if (p.data && id) {
      p.row.outcome = 'existing';
      p.row.customerId = id;
      p.data = null;
    }
  }
}

/** What applying the file would do, row by row; writes nothing. */
export async function previewPlayerImport(db: Db, tenant: Tenant, csv: string) {
  const parsed = readFile(csv);
  await matchExisting(db, tenant, parsed);
  return report(parsed.map((p) => p.row));
}

/**
 * Creates the new rows, each in its own transaction (a row taken meanwhile by a racing import is
 * "existing", not an error). Invalid rows are reported and skipped; valid ones are not held back
 * by them, as the preview said.
 */
export async function importPlayers(db: Db, tenant: Tenant, csv: string) {
  const parsed = readFile(csv);
  await matchExisting(db, tenant, parsed);
  for (const p of parsed) {
    if (!p.data) continue;
    try {
      const created = await createCustomer(db, tenant, p.data);
      p.row.outcome = 'created';
      p.row.customerId = created.id;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'conflict')) throw error;
      const existing = await db.customer.findFirst({
        where: { ...tenant, externalId: p.row.externalId },
        select: { id: true },
      });
      p.row.outcome = 'existing';
      p.row.customerId = existing?.id ?? null;
    }
  }
  return report(parsed.map((p) => p.row));
}

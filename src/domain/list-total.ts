// A list's total, for the backoffice's "1,234 customers" (issue 35): exact while it is small,
// estimated past a cap, and saying which. Counting a big tenant exactly would read every
// matching row on each page view; a capped count reads at most cap + 1 of them (through the
// filter's index), and past that PostgreSQL's planner answers from its statistics for free.
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from './db.js';

/**
 * `value` is exact when `exact`; otherwise the planner's estimate, never below cap + 1. Exactly
 * cap + 1 with `exact: false` means "more than the cap": the statistics did not know better (a
 * table never analysed, as on PGlite, which has no autovacuum, until someone runs ANALYZE).
 */
export type ListTotal = { value: number; exact: boolean };

/** Totals under this are exact; at or above it they are estimated (and said so). */
export const EXACT_TOTAL_CAP = 10_000;

/**
 * The total of a list: `countUpTo(n)` counts at most n matching rows (Prisma's
 * `count({ where, take: n })`, a `SELECT count(*) FROM (SELECT … LIMIT n)`); when it finds more
 * than `cap`, `estimate()` answers instead (see `plannedRows`), raised to the cap + 1 rows
 * already seen.
 */
export async function listTotal(options: {
  countUpTo: (take: number) => Promise<number>;
  estimate: () => Promise<number>;
  cap?: number;
}): Promise<ListTotal> {
  const cap = options.cap ?? EXACT_TOTAL_CAP;
  const counted = await options.countUpTo(cap + 1);
  if (counted <= cap) return { value: counted, exact: true };
  const estimated = await options.estimate();
  return { value: Math.max(Math.round(estimated), cap + 1), exact: false };
}

/**
 * PostgreSQL's planner estimate of the rows `SELECT 1 FROM <table> WHERE <conditions>` returns,
 * by EXPLAIN (FORMAT JSON): no row is read, the statistics (ANALYZE, autovacuum) answer. Works
 * on PGlite too. `table` is a trusted identifier; conditions are parameterised fragments.
 */
export async function plannedRows(
  db: Db,
  table: string,
  conditions: Prisma.Sql[],
): Promise<number> {
  const where = conditions.length ? Prisma.join(conditions, ' AND ') : Prisma.sql`true`;
  const rows = await db.$queryRaw<{ 'QUERY PLAN': unknown }[]>(
    Prisma.sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${Prisma.raw(quoteIdent(table))} WHERE ${where}`,
  );
  const plan = rows[0]?.['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as
    [{ Plan: { 'Plan Rows': number } }] | undefined;
  return Number(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
}

/**
 * How many rows `SELECT 1 FROM <table> WHERE <conditions>` returns, counting at most `upTo`: what
 * Prisma's `count({ where, take })` sends, for conditions a Prisma where cannot say. `table` is a
 * trusted identifier; conditions are parameterised fragments.
 */
export async function countedRows(
  db: Db,
  table: string,
  conditions: Prisma.Sql[],
  upTo: number,
): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>(
    Prisma.sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${Prisma.raw(quoteIdent(table))}
      WHERE ${Prisma.join(conditions, ' AND ')} LIMIT ${upTo}) AS counted`,
  );
  return row!.n;
}

const quoteIdent = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a table name: ${name}`);
  return `"${name}"`;
};

// The coin report (docs/reports.md): coins credited and debited in a window, per UTC day, ISO
// week (Monday 00:00 UTC) or report source. Exact and current: whole hours come from the rollups
// for the movements folded so far plus the ledger for those above the watermark (coin-rollups.ts),
// the window's partial hours at its edges from the ledger; one statement, so one snapshot.
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import { EVENT_MOVEMENT } from './coin-rollups.js';
import { REPORT_SOURCES } from './sources.js';
import { reportWindow, type ReportWindow } from './window.js';

export const COIN_REPORT_GROUPINGS = ['day', 'week', 'source'] as const;
export type CoinReportGrouping = (typeof COIN_REPORT_GROUPINGS)[number];

export type CoinSums = {
  /** Coins credited (Σ of positive deltas). */
  credited: number;
  /** Coins debited, as a positive number (Σ of |negative deltas|). */
  debited: number;
  /** credited − debited. */
  net: number;
  /** Movements that credited. */
  credits: number;
  /** Movements that debited. */
  debits: number;
};

export type CoinReportRow = CoinSums & {
  /** Day or week grouping: the period's first instant (00:00 UTC; a week starts on Monday). */
  periodStart: Date | null;
  /** Source grouping: the report source. */
  source: string | null;
};

export type CoinReport = ReportWindow & {
  groupBy: CoinReportGrouping;
  totals: CoinSums;
  /** Every period (or source) of the window, in order, zeros included. */
  rows: CoinReportRow[];
};

type SumRow = {
  k: Date | string;
  credited: bigint;
  debited: bigint;
  credits: bigint;
  debits: bigint;
};

const HOUR_MS = 3_600_000;

/** The report's SQL; also what the benchmark sends from raw `pg` for its baseline. */
export function coinReportSql(tenant: Tenant, window: ReportWindow, groupBy: CoinReportGrouping) {
  const { from, to } = window;
  // The whole hours of the window, [fullFrom, fullTo): empty when fullFrom >= fullTo.
  const fullFrom = new Date(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS);
  const fullTo = new Date(Math.floor(to.getTime() / HOUR_MS) * HOUR_MS);
  const key =
    groupBy === 'source' ? Prisma.sql`source` : Prisma.sql`date_trunc(${groupBy}, at, 'UTC')`;
  const sub = Prisma.sql`${tenant.subBrandId}::uuid`;
  const env = Prisma.sql`${tenant.environment}::environment`;
  const movement = Prisma.sql`m.created_at AS at, report_source(m.source, m.delta, m.reason) AS source,
    greatest(m.delta, 0) AS credited, greatest(-m.delta, 0) AS debited,
    (m.delta > 0)::int AS credits, (m.delta < 0)::int AS debits`;
  return Prisma.sql`WITH parts AS (
      SELECT r.hour AS at, r.source, r.credited, r.debited, r.credits, r.debits
      FROM coin_report_hours r
      WHERE r.sub_brand_id = ${sub} AND r.environment = ${env}
        AND r.hour >= ${fullFrom}::timestamptz AND r.hour < ${fullTo}::timestamptz
      UNION ALL
      SELECT ${movement}
      FROM events e JOIN coin_movements m ON m.id = ${EVENT_MOVEMENT}
      WHERE e.sub_brand_id = ${sub} AND e.environment = ${env}
        AND e.xid >= (SELECT xid FROM report_watermarks WHERE name = 'coins')
        AND m.created_at >= ${fullFrom}::timestamptz AND m.created_at < ${fullTo}::timestamptz
      UNION ALL
      SELECT ${movement}
      FROM coin_movements m
      WHERE m.sub_brand_id = ${sub} AND m.environment = ${env}
        AND ((m.created_at >= ${from}::timestamptz AND m.created_at < least(${fullFrom}::timestamptz, ${to}::timestamptz))
          OR (m.created_at >= greatest(${fullTo}::timestamptz, ${fullFrom}::timestamptz) AND m.created_at < ${to}::timestamptz))
    )
    SELECT ${key} AS k, sum(credited)::bigint AS credited, sum(debited)::bigint AS debited,
           sum(credits)::bigint AS credits, sum(debits)::bigint AS debits
    FROM parts GROUP BY 1 ORDER BY 1`;
}

export async function readCoinReport(
  db: Db,
  tenant: Tenant,
  input: ReportWindow & { groupBy: CoinReportGrouping },
): Promise<CoinReport> {
  const window = reportWindow(input);
  const { groupBy } = input;
  const found = await queryRaw<SumRow>(db, coinReportSql(tenant, window, groupBy));
  const byKey = new Map(
    found.map((r) => [r.k instanceof Date ? r.k.getTime() : String(r.k), sumsOf(r)]),
  );
  const rows: CoinReportRow[] =
    groupBy === 'source'
      ? REPORT_SOURCES.map((source) => ({
          periodStart: null,
          source,
          ...(byKey.get(source) ?? ZERO),
        }))
      : periods(window, groupBy).map((start) => ({
          periodStart: start,
          source: null,
          ...(byKey.get(start.getTime()) ?? ZERO),
        }));
  const totals = rows.reduce<CoinSums>(
    (t, r) => ({
      credited: t.credited + r.credited,
      debited: t.debited + r.debited,
      net: t.net + r.net,
      credits: t.credits + r.credits,
      debits: t.debits + r.debits,
    }),
    ZERO,
  );
  return { ...window, groupBy, totals, rows };
}

const ZERO: CoinSums = { credited: 0, debited: 0, net: 0, credits: 0, debits: 0 };

function sumsOf(r: SumRow): CoinSums {
  const credited = Number(r.credited);
  const debited = Number(r.debited);
  return {
    credited,
    debited,
    net: credited - debited,
    credits: Number(r.credits),
    debits: Number(r.debits),
  };
}

/** The starts of the UTC days (or ISO weeks) the window touches. */
export function periods({ from, to }: ReportWindow, unit: 'day' | 'week'): Date[] {
  const start = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  if (unit === 'week') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  const step = unit === 'week' ? 7 : 1;
  const out: Date[] = [];
  for (const d = start; d < to; d.setUTCDate(d.getUTCDate() + step)) out.push(new Date(d));
  return out;
}

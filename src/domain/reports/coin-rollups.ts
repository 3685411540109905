// The reports' rollup job (docs/reports.md): folds the ledger's new movements into
// `coin_report_hours` (coins credited and debited per tenant, UTC hour and report source) and
// moves the watermark, in one statement. Run by every server process on the jobs machinery
// (start-server.ts); any number may run it at once (the watermark row is claimed with SKIP LOCKED).
//
// Which movements are new is decided by transaction id, as the event relay decides it
// (domain/events/relay-store.ts): every movement writes a `coin_movement.created` event in its
// own transaction, whose `xid` is that transaction's. A pass folds the events at or above the
// watermark and below the oldest transaction still running (`pg_snapshot_xmin`): no transaction
// that could still commit is below that horizon, so a movement is folded exactly once, whenever
// it commits and whatever its `created_at`. A report reads the rollups for what is below the
// watermark and the ledger for what is above it (coin-report.ts), in one snapshot: exact and current.
import { queryRaw } from '../../db/sql.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { every, type Periodic } from '../every.js';

export type FoldPass = { folded: number; watermark: bigint | null };

/** The movement an event names: cast only for movement events (other ids need not be uuids). */
export const EVENT_MOVEMENT = Prisma.sql`(CASE WHEN e.type = 'coin_movement.created'
  AND e.resource_type = 'coin_movement' THEN e.resource_id::uuid END)`;

/**
 * One pass: folds every movement committed since the watermark. Answers the hour rows it added
 * to or created, and the new watermark (null: another process was folding, or nothing ended).
 */
export async function foldCoinMovements(db: Db): Promise<FoldPass> {
  const [row] = await queryRaw<{ folded: bigint; watermark: bigint | null }>(
    db,
    Prisma.sql`WITH w AS (
        SELECT xid FROM report_watermarks WHERE name = 'coins' FOR UPDATE SKIP LOCKED
      ), h AS (
        SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS xid
      ), folded AS (
        INSERT INTO coin_report_hours AS r (sub_brand_id, environment, hour, source, credited, debited, credits, debits)
        SELECT m.sub_brand_id, m.environment, date_trunc('hour', m.created_at, 'UTC'),
               report_source(m.source, m.delta, m.reason),
               coalesce(sum(m.delta) FILTER (WHERE m.delta > 0), 0),
               coalesce(-sum(m.delta) FILTER (WHERE m.delta < 0), 0),
               count(*) FILTER (WHERE m.delta > 0), count(*) FILTER (WHERE m.delta < 0)
        FROM w, h, events e JOIN coin_movements m ON m.id = ${EVENT_MOVEMENT}
        WHERE e.xid >= w.xid AND e.xid < h.xid
        GROUP BY 1, 2, 3, 4
        ON CONFLICT (sub_brand_id, environment, hour, source) DO UPDATE SET
          credited = r.credited + EXCLUDED.credited, debited = r.debited + EXCLUDED.debited,
          credits = r.credits + EXCLUDED.credits, debits = r.debits + EXCLUDED.debits
        RETURNING 1
      ), moved AS (
        UPDATE report_watermarks r SET xid = h.xid, folded_at = now()
        FROM w, h WHERE r.name = 'coins' AND h.xid > w.xid
        RETURNING r.xid
      )
      SELECT (SELECT count(*) FROM folded)::bigint AS folded, (SELECT xid FROM moved) AS watermark`,
  );
  return {
    folded: Number(row?.folded ?? 0),
    watermark: row?.watermark == null ? null : BigInt(row.watermark),
  };
}

/**
 * Folds the whole ledger again from scratch (a benchmark's seeded movements, which wrote no
 * events; a repair): rollups of everything committed below a new watermark, in one transaction.
 * Holds the watermark row while it works, so the job waits.
 */
export async function rebuildCoinRollups(prisma: PrismaClient): Promise<void> {
  await prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM report_watermarks WHERE name = 'coins' FOR UPDATE`;
      await tx.$executeRaw`DELETE FROM coin_report_hours`;
      await tx.$executeRaw`UPDATE report_watermarks
        SET xid = pg_snapshot_xmin(pg_current_snapshot())::text::bigint, folded_at = now() WHERE name = 'coins'`;
      await tx.$executeRaw`INSERT INTO coin_report_hours (sub_brand_id, environment, hour, source, credited, debited, credits, debits)
        SELECT m.sub_brand_id, m.environment, date_trunc('hour', m.created_at, 'UTC'), report_source(m.source, m.delta, m.reason),
               coalesce(sum(m.delta) FILTER (WHERE m.delta > 0), 0), coalesce(-sum(m.delta) FILTER (WHERE m.delta < 0), 0),
               count(*) FILTER (WHERE m.delta > 0), count(*) FILTER (WHERE m.delta < 0)
        FROM coin_movements m
        WHERE NOT EXISTS (
          SELECT 1 FROM events e
          WHERE e.type = 'coin_movement.created' AND e.resource_type = 'coin_movement' AND e.resource_id = m.id::text
            AND e.xid >= (SELECT xid FROM report_watermarks WHERE name = 'coins'))
        GROUP BY 1, 2, 3, 4`;
    },
    { maxWait: 10_000, timeout: 30 * 60_000 },
  );
}

/** How often each process folds: a report's live tail is at most about this old. */
export const COIN_ROLLUP_EVERY_MS = 5_000;

export function startCoinRollups(
  prisma: PrismaClient,
  options: { everyMs?: number; onError: (err: unknown) => void },
): Periodic {
  return every(
    options.everyMs ?? COIN_ROLLUP_EVERY_MS,
    () => foldCoinMovements(prisma),
    options.onError,
  );
}

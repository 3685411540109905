// The coin expiry job (docs/expiry-and-holds.md), run by every server process on the jobs
// machinery (start-server.ts). Any number of processes may run it at once:
// - a wallet's due lots are written off by `ledger_expire` under the wallet's lock, each lot once
//   (a second process, or a movement of the wallet that did it first, finds nothing due);
// - a lot's `coins.expiring` notice and a hold's closing are claimed with FOR UPDATE SKIP LOCKED
//   and a condition the claim itself clears, so each is written once.
import { queryRaw } from '../../db/sql.js';
import { Prisma, type PrismaClient } from '../../generated/prisma/client.js';
import { every, type Periodic } from '../every.js';

/** How far ahead `coins.expiring` is announced. */
export const EXPIRING_NOTICE_DAYS = 7;
/** Rows per statement: a pass goes on while statements come back full. */
const BATCH = 500;

export type ExpiryPass = { lotsExpired: number; noticed: number; holdsExpired: number };

export async function runCoinExpiry(prisma: PrismaClient, now: Date): Promise<ExpiryPass> {
  const pass: ExpiryPass = { lotsExpired: 0, noticed: 0, holdsExpired: 0 };
  for (;;) {
    const wallets = await queryRaw<{
      customer_id: string;
      sub_brand_id: string;
      environment: string;
    }>(
      prisma,
      Prisma.sql`SELECT DISTINCT customer_id, sub_brand_id, environment FROM coin_lots
        WHERE remaining > 0 AND expires_at <= ${now}::timestamptz LIMIT ${BATCH}`,
    );
    for (const w of wallets) {
      // One statement: its own transaction, so each wallet commits (or not) alone.
      const [{ n }] = (await queryRaw<{ n: number }>(
        prisma,
        Prisma.sql`SELECT ledger_expire(${w.customer_id}::uuid, ${w.sub_brand_id}::uuid,
          ${w.environment}::environment, ${now}::timestamptz) AS n`,
      )) as [{ n: number }];
      pass.lotsExpired += Number(n);
    }
    if (wallets.length < BATCH) break;
  }
  for (;;) {
    const [{ n }] = (await queryRaw<{ n: bigint }>(
      prisma,
      Prisma.sql`WITH due AS (
          SELECT sub_brand_id, id FROM coin_lots
          WHERE remaining > 0 AND expires_at > ${now}::timestamptz AND expiring_notice_at IS NULL
            AND expires_at <= ${now}::timestamptz + make_interval(days => ${EXPIRING_NOTICE_DAYS})
          ORDER BY expires_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
        ), marked AS (
          UPDATE coin_lots l SET expiring_notice_at = ${now}::timestamptz FROM due
          WHERE l.sub_brand_id = due.sub_brand_id AND l.id = due.id
          RETURNING l.id, l.customer_id, l.sub_brand_id, l.environment, l.remaining, l.expires_at
        ), evented AS (
          INSERT INTO events (id, sub_brand_id, environment, type, resource_type, resource_id, data)
          SELECT ledger_uuid7(), sub_brand_id, environment, 'coins.expiring', 'coin_lot', id::text,
                 jsonb_build_object('lot_id', id, 'customer_id', customer_id, 'amount', remaining,
                   'expires_at', to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
          FROM marked RETURNING 1
        )
        SELECT count(*)::bigint AS n FROM evented`,
    )) as [{ n: bigint }];
    pass.noticed += Number(n);
    if (Number(n) < BATCH) break;
  }
  for (;;) {
    const [{ n }] = (await queryRaw<{ n: bigint }>(
      prisma,
      Prisma.sql`WITH due AS (
          SELECT sub_brand_id, id FROM coin_holds WHERE status = 'active' AND expires_at <= ${now}::timestamptz
          LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
        ), closed AS (
          UPDATE coin_holds h SET status = 'expired', closed_at = h.expires_at FROM due
          WHERE h.sub_brand_id = due.sub_brand_id AND h.id = due.id
          RETURNING h.id, h.sub_brand_id, h.environment
        ), evented AS (
          INSERT INTO events (id, sub_brand_id, environment, type, resource_type, resource_id)
          SELECT ledger_uuid7(), sub_brand_id, environment, 'coin_hold.expired', 'coin_hold', id::text
          FROM closed RETURNING 1
        )
        SELECT count(*)::bigint AS n FROM evented`,
    )) as [{ n: bigint }];
    pass.holdsExpired += Number(n);
    if (Number(n) < BATCH) break;
  }
  return pass;
}

/** Runs a pass every COIN_EXPIRY_EVERY_MS until the returned stop is called (and awaited). */
export const COIN_EXPIRY_EVERY_MS = 30_000;

export function startCoinExpiry(
  prisma: PrismaClient,
  options: { now?: () => Date; everyMs?: number; onError: (err: unknown) => void },
): Periodic {
  const now = options.now ?? (() => new Date());
  return every(
    options.everyMs ?? COIN_EXPIRY_EVERY_MS,
    () => runCoinExpiry(prisma, now()),
    options.onError,
  );
}

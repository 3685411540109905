// Events, deliveries and attempts are kept EVENTS_RETENTION_DAYS (30 by default), as Stripe keeps
// events 30 days: the feed and replays reach that far back. The sweep runs with the others
// (start-server.ts), every 10 minutes, so each run deletes about 10 minutes' worth.
import { executeRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';

export async function sweepOldEvents(db: Db, now: Date, days: number): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  await executeRaw(db, Prisma.sql`DELETE FROM webhook_attempts WHERE at < ${cutoff}`);
  await executeRaw(db, Prisma.sql`DELETE FROM webhook_deliveries WHERE created_at < ${cutoff}`);
  // Only what the relay passed (a relay stopped for a month keeps them until it has).
  return executeRaw(
    db,
    Prisma.sql`DELETE FROM events WHERE created_at < ${cutoff}
      AND (xid, id) <= (SELECT xid, last_id FROM event_relay WHERE name = 'main')`,
  );
}

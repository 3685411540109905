// Unclaimed awards past their claim window become `expired`, each with its outbound event in the
// same transaction (docs/webhooks.md). Every server process may run this at once: the guarded
// UPDATE hands each award to one of them, and a batch at a time keeps the transaction short.
import type { PrismaClient } from '../../generated/prisma/client.js';
import { Prisma } from '../../generated/prisma/client.js';
import { queryRaw, executeRaw } from '../../db/sql.js';
import { inTransaction } from '../../domain/db.js';
import { newId } from '../../domain/ids.js';

const BATCH = 1000;

/** Answers how many awards expired. */
export async function expireAwards(prisma: PrismaClient, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await inTransaction(prisma, async (tx) => {
      const rows = await queryRaw<{ id: string; sub_brand_id: string; environment: string }>(
        tx,
        Prisma.sql`
        UPDATE campaign_awards SET status = 'expired'
        WHERE (sub_brand_id, id) IN (
          SELECT sub_brand_id, id FROM campaign_awards
          WHERE status = 'pending' AND expires_at <= ${now}
          LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id, sub_brand_id, environment`,
      );
      if (rows.length) {
        await executeRaw(
          tx,
          Prisma.sql`
          INSERT INTO events (id, sub_brand_id, environment, type, resource_type, resource_id)
          SELECT e, s, v::environment, 'campaign_award.expired', 'campaign_award', r::text
          FROM unnest(${rows.map(() => newId())}::uuid[], ${rows.map((r) => r.sub_brand_id)}::uuid[],
                      ${rows.map((r) => r.environment)}::text[], ${rows.map((r) => r.id)}::uuid[])
            AS x(e, s, v, r)`,
        );
      }
      return rows.length;
    });
    total += count;
    if (count < BATCH) return total;
  }
}

// Writes an outbound event in the transaction of the effect it reports (docs/webhooks.md): one
// statement, on the effect's own connection, so the event commits (or rolls back) with it. The
// hot paths write theirs inside the statement they already send (the ledger statement, the order
// insert), not through here.
import { executeRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { newId } from '../ids.js';
import type { Tenant } from '../tenant.js';
import { EVENT_TYPES, type EventType } from './types.js';

export async function recordEvent(
  db: Db,
  tenant: Tenant,
  type: EventType,
  resourceId: string,
  /** What the event shows when the resource will be gone (a deletion). */
  data?: unknown,
): Promise<void> {
  await executeRaw(
    db,
    Prisma.sql`INSERT INTO events (id, sub_brand_id, environment, type, resource_type, resource_id, data)
      VALUES (${newId()}::uuid, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment,
              ${type}, ${EVENT_TYPES[type].resource}, ${resourceId},
              ${data === undefined ? null : JSON.stringify(data)}::jsonb)`,
  );
}

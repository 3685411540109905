// The event feed (GET /api/v1/events; docs/webhooks.md): a tenant's events, oldest first, in the
// order the relay handed them on, (xid, id). The relay moves past an event only once every
// transaction that could still write one before it has ended (relay.ts), and the feed shows only
// what the relay has passed, with its `data` frozen: so a reader following the cursor never
// misses an event that commits late, never sees one twice, and reads the same page twice alike.
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { invalidCursor, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Tenant } from '../tenant.js';

export type FeedEvent = {
  id: string;
  type: string;
  resourceType: string;
  resourceId: string;
  data: unknown;
  xid: bigint;
  environment: Tenant['environment'];
  createdAt: Date;
};

/** A place in the feed: after the event (xid, id). */
export type FeedPosition = { xid: bigint; id: string };

/** Opaque on the wire: `<xid>.<id>` in base64url. */
export const encodeCursor = (p: FeedPosition) =>
  Buffer.from(`${p.xid}.${p.id}`).toString('base64url');

export function decodeCursor(cursor: string): FeedPosition {
  const [xid, id] = Buffer.from(cursor, 'base64url').toString().split('.');
  if (!xid || !/^\d{1,19}$/.test(xid) || !id || !isUuid(id)) {
    throw invalidCursor();
  }
  return { xid: BigInt(xid), id };
}

const COLUMNS = Prisma.sql`e.id, e.type, e.resource_type AS "resourceType", e.resource_id AS "resourceId",
  e.data, e.xid, e.environment, e.created_at AS "createdAt"`;

/** Relayed: at or before the relay's position. */
const RELAYED = Prisma.sql`(e.xid, e.id) <= (SELECT r.xid, r.last_id FROM event_relay r WHERE r.name = 'main')`;

/**
 * One page, oldest first (the feed) or newest first (the backoffice's log, where the cursor goes
 * back in time); `limit + 1` rows are read to know whether there is more.
 */
export async function readEvents(
  db: Db,
  tenant: Tenant,
  page: {
    after: FeedPosition | null;
    limit: number;
    types: string[] | null;
    newestFirst?: boolean;
  },
): Promise<{ events: FeedEvent[]; hasMore: boolean }> {
  const from = page.after
    ? Prisma.sql`AND (e.xid, e.id) ${page.newestFirst ? Prisma.raw('<') : Prisma.raw('>')} (${page.after.xid}::bigint, ${page.after.id}::uuid)`
    : Prisma.empty;
  const rows = await queryRaw<FeedEvent>(
    db,
    Prisma.sql`SELECT ${COLUMNS} FROM events e
      WHERE e.sub_brand_id = ${tenant.subBrandId}::uuid AND e.environment = ${tenant.environment}::environment
        ${from} AND ${RELAYED}
        ${page.types ? Prisma.sql`AND e.type = ANY(${page.types}::text[])` : Prisma.empty}
      ORDER BY ${page.newestFirst ? Prisma.sql`e.xid DESC, e.id DESC` : Prisma.sql`e.xid, e.id`}
      LIMIT ${page.limit + 1}`,
  );
  return { events: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
}

/** How many relayed events of the tenant (of these types) there are, counting at most `upTo`. */
export async function countEvents(
  db: Db,
  tenant: Tenant,
  types: string[] | null,
  upTo: number,
): Promise<number> {
  const [row] = await queryRaw<{ n: number }>(
    db,
    Prisma.sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM events e
      WHERE e.sub_brand_id = ${tenant.subBrandId}::uuid AND e.environment = ${tenant.environment}::environment
        AND ${RELAYED}
        ${types ? Prisma.sql`AND e.type = ANY(${types}::text[])` : Prisma.empty}
      LIMIT ${upTo}) s`,
  );
  return row?.n ?? 0;
}

/** One relayed event of the tenant. */
export async function readEvent(db: Db, tenant: Tenant, id: string): Promise<FeedEvent> {
  const [row] = isUuid(id)
    ? await queryRaw<FeedEvent>(
        db,
        Prisma.sql`SELECT ${COLUMNS} FROM events e
          WHERE e.sub_brand_id = ${tenant.subBrandId}::uuid AND e.id = ${id}::uuid
            AND e.environment = ${tenant.environment}::environment AND ${RELAYED}`,
      )
    : [];
  if (!row) throw notFound('Event');
  return row;
}

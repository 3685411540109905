// The relay's reads and writes (the loop is src/events/relay.ts; docs/webhooks.md). Events are
// handed on in (xid, id) order, and only those whose transaction is older than every transaction
// still running (`pg_snapshot_xmin`): a transaction that began earlier and commits later has a
// lower xid than the horizon until it ends, so nothing can appear behind the relay's position.
import { executeRaw, queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { newId } from '../ids.js';
import type { Tenant } from '../tenant.js';
import type { FeedPosition } from './feed.js';

export type RelayEvent = {
  id: string;
  subBrandId: string;
  environment: Tenant['environment'];
  type: string;
  resourceType: string;
  resourceId: string;
  /** Set when written (a deletion) or rendered already. */
  data: unknown;
  xid: bigint;
  createdAt: Date;
};

export type RelayName = 'main' | 'nats';

/** The main relay's position: the feed shows what is at or before it. */
export async function relayPosition(db: Db): Promise<FeedPosition> {
  const [row] = await queryRaw<FeedPosition>(
    db,
    Prisma.sql`SELECT xid, last_id AS id FROM event_relay WHERE name = 'main'`,
  );
  return row!;
}

/**
 * Takes (or renews) the relay's lease for `holder`; answers its position, or null while another
 * process holds it. A holder that died loses it when the lease runs out.
 */
export async function claimRelay(
  db: Db,
  name: RelayName,
  holder: string,
  leaseUntil: Date,
): Promise<FeedPosition | null> {
  const [row] = await queryRaw<FeedPosition>(
    db,
    Prisma.sql`UPDATE event_relay SET holder = ${holder}, leased_until = ${leaseUntil}
      WHERE name = ${name} AND (holder IS NULL OR holder = ${holder} OR leased_until < now())
      RETURNING xid, last_id AS id`,
  );
  return row ?? null;
}

/** Gives the lease up (a process stopping): another takes over at once. */
export async function releaseRelay(db: Db, name: RelayName, holder: string) {
  await executeRaw(
    db,
    Prisma.sql`UPDATE event_relay SET holder = NULL, leased_until = NULL
      WHERE name = ${name} AND holder = ${holder}`,
  );
}

const EVENT_COLUMNS = Prisma.sql`id, sub_brand_id AS "subBrandId", environment, type, resource_type AS "resourceType",
  resource_id AS "resourceId", data, xid, created_at AS "createdAt"`;

/** The last event committed so far, in relay order (null: none yet). */
export async function lastEvent(db: Db): Promise<FeedPosition | null> {
  const [row] = await queryRaw<FeedPosition>(
    db,
    Prisma.sql`SELECT xid, id FROM events ORDER BY xid DESC, id DESC LIMIT 1`,
  );
  return row ?? null;
}

/** The next events past `after` that the main relay handed on (their data is frozen). */
export function relayedEventsAfter(db: Db, after: FeedPosition, limit: number) {
  return queryRaw<RelayEvent>(
    db,
    Prisma.sql`SELECT ${EVENT_COLUMNS} FROM events
      WHERE (xid, id) > (${after.xid}::bigint, ${after.id}::uuid)
        AND (xid, id) <= (SELECT xid, last_id FROM event_relay WHERE name = 'main')
      ORDER BY xid, id
      LIMIT ${limit}`,
  );
}

/** Moves a relay from `from` to `to`, unless it moved meanwhile (answers whether it did). */
export async function advanceRelay(
  db: Db,
  name: RelayName,
  from: FeedPosition,
  to: FeedPosition,
): Promise<boolean> {
  const moved = await executeRaw(
    db,
    Prisma.sql`UPDATE event_relay SET xid = ${to.xid}::bigint, last_id = ${to.id}::uuid
      WHERE name = ${name} AND xid = ${from.xid}::bigint AND last_id = ${from.id}::uuid`,
  );
  return moved === 1;
}

/** The next events past `after` that no running transaction can precede any more. */
export function finalEventsAfter(db: Db, after: FeedPosition, limit: number) {
  return queryRaw<RelayEvent>(
    db,
    Prisma.sql`SELECT ${EVENT_COLUMNS} FROM events
      WHERE (xid, id) > (${after.xid}::bigint, ${after.id}::uuid)
        AND xid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
      ORDER BY xid, id
      LIMIT ${limit}`,
  );
}

/**
 * Hands a batch on, in one transaction, if no other process did it first: freezes the `data`
 * rendered for it, writes one delivery per event and active endpoint that wants its type, and
 * moves the position to its last event. Answers how many deliveries it wrote, or null when the
 * position had moved (the batch was another process's; nothing written).
 */
export async function handOn(
  tx: Db,
  from: FeedPosition,
  batch: (RelayEvent & { data: unknown })[],
): Promise<number | null> {
  // The position first, guarded: a batch another process handed on already changes nothing.
  const last = batch[batch.length - 1]!;
  if (!(await advanceRelay(tx, 'main', from, last))) return null;
  const rendered = batch.filter((e) => e.data !== null);
  await executeRaw(
    tx,
    Prisma.sql`UPDATE events e SET data = x.data
      FROM unnest(${rendered.map((e) => e.subBrandId)}::uuid[], ${rendered.map((e) => e.id)}::uuid[],
                  ${rendered.map((e) => JSON.stringify(e.data))}::jsonb[]) AS x(s, i, data)
      WHERE e.sub_brand_id = x.s AND e.id = x.i AND e.data IS NULL`,
  );
  const tenants = [...new Set(batch.map((e) => e.subBrandId))];
  const endpoints = await queryRaw<{
    id: string;
    subBrandId: string;
    environment: string;
    eventTypes: string[];
  }>(
    tx,
    Prisma.sql`SELECT id, sub_brand_id AS "subBrandId", environment, event_types AS "eventTypes"
      FROM webhook_endpoints WHERE status = 'active' AND sub_brand_id = ANY(${tenants}::uuid[])`,
  );
  const deliveries = batch.flatMap((e) =>
    endpoints
      .filter(
        (p) =>
          p.subBrandId === e.subBrandId &&
          p.environment === e.environment &&
          (p.eventTypes.length === 0 || p.eventTypes.includes(e.type)),
      )
      .map((p) => ({ id: newId(), event: e, endpointId: p.id })),
  );
  if (deliveries.length) await insertDeliveries(tx, deliveries, false);
  return deliveries.length;
}

/** Deliveries due now; `replay` marks those asked for again (a replay, a redelivery). */
export function insertDeliveries(
  tx: Db,
  rows: {
    id: string;
    event: { id: string; subBrandId: string; environment: string };
    endpointId: string;
  }[],
  replay: boolean,
) {
  return executeRaw(
    tx,
    Prisma.sql`INSERT INTO webhook_deliveries (id, sub_brand_id, environment, endpoint_id, event_id, replay)
      SELECT i, s, v::environment, p, e, ${replay}
      FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.event.subBrandId)}::uuid[],
                  ${rows.map((r) => r.event.environment)}::text[], ${rows.map((r) => r.endpointId)}::uuid[],
                  ${rows.map((r) => r.event.id)}::uuid[]) AS x(i, s, v, p, e)`,
  );
}

// Deliveries of events to endpoints (docs/webhooks.md): the queue the sender works from, what
// owners read of it, and the deliveries asked for again (a replay of a window, one event).
import { z } from 'zod';
import { executeRaw, queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError, invalidCursor, invalidRequest, notFound } from '../errors.js';
import { isUuid, newId } from '../ids.js';
import type { Tenant } from '../tenant.js';
import { parseInput, utcInstant } from '../validation.js';
import { getEndpoint } from './endpoints.js';
import { readEvent } from './feed.js';
import { insertDeliveries, relayPosition } from './relay-store.js';
import { failedTooLong, nextAttemptAt } from './retry-schedule.js';

/** Attempts shown per delivery in the owner's list. */
const ATTEMPTS_SHOWN = 10;
/** Events one replay may ask for: a larger window is refused (ask for smaller ones). */
export const MAX_REPLAY = 10_000;

/** How many deliveries an endpoint of the tenant has had, counting at most `upTo`. */
export async function countDeliveries(db: Db, tenant: Tenant, endpointId: string, upTo: number) {
  await getEndpoint(db, tenant, endpointId);
  return db.webhookDelivery.count({
    where: { subBrandId: tenant.subBrandId, endpointId },
    take: upTo,
  });
}

export async function listDeliveries(
  db: Db,
  tenant: Tenant,
  endpointId: string,
  page: { first: number; after: string | null },
) {
  // The cursor is the last delivery's id.
  if (page.after && !isUuid(page.after)) throw invalidCursor();
  await getEndpoint(db, tenant, endpointId);
  const rows = await db.webhookDelivery.findMany({
    where: {
      subBrandId: tenant.subBrandId,
      endpointId,
      ...(page.after ? { id: { lt: page.after } } : {}),
    },
    orderBy: { id: 'desc' },
    take: page.first + 1,
  });
  const shown = rows.slice(0, page.first);
  const attempts = shown.length
    ? await db.webhookAttempt.findMany({
        where: { subBrandId: tenant.subBrandId, deliveryId: { in: shown.map((d) => d.id) } },
        orderBy: { id: 'desc' },
      })
    : [];
  const events = shown.length
    ? await db.event.findMany({
        where: { subBrandId: tenant.subBrandId, id: { in: shown.map((d) => d.eventId) } },
        select: { id: true, type: true },
      })
    : [];
  const typeOf = new Map(events.map((e) => [e.id, e.type]));
  return {
    deliveries: shown.map((d) => ({
      ...d,
      eventType: typeOf.get(d.eventId) ?? null,
      attemptList: attempts.filter((a) => a.deliveryId === d.id).slice(0, ATTEMPTS_SHOWN),
    })),
    hasMore: rows.length > page.first,
  };
}

export const replayInput = z
  .strictObject({
    from: utcInstant.describe('Events created at or after this instant.'),
    to: utcInstant.describe('…and before this one.'),
  })
  .refine((w) => w.from <= w.to, {
    path: ['to'],
    message: 'must not be before from',
    params: { rule: 'too_small' },
  });

/**
 * Sends the endpoint again every event of the window it would receive (its types), relayed ones
 * only (later ones reach it anyway), as new deliveries with the events' own ids.
 */
export async function replayEvents(db: Db, tenant: Tenant, endpointId: string, input: unknown) {
  const w = parseInput(replayInput, input);
  return inTransaction(db, async (tx) => {
    const endpoint = await tx.webhookEndpoint.findFirst({
      where: { id: endpointId, ...tenant },
    });
    if (!endpoint) throw notFound('Webhook endpoint');
    const relayed = await relayPosition(tx);
    const events = await queryRaw<{ id: string }>(
      tx,
      Prisma.sql`SELECT id FROM events
        WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND environment = ${tenant.environment}::environment
          AND created_at >= ${new Date(w.from)} AND created_at < ${new Date(w.to)}
          AND (xid, id) <= (${relayed.xid}::bigint, ${relayed.id}::uuid)
          ${endpoint.eventTypes.length ? Prisma.sql`AND type = ANY(${endpoint.eventTypes}::text[])` : Prisma.empty}
        LIMIT ${MAX_REPLAY + 1}`,
    );
    if (events.length > MAX_REPLAY)
      throw invalidRequest([
        {
          field: 'to',
          code: 'too_big',
          message: `the window holds more than ${MAX_REPLAY} events: replay it in smaller windows`,
        },
      ]);
    await insertDeliveries(
      tx,
      events.map((e) => ({ id: newId(), event: { ...tenant, id: e.id }, endpointId })),
      true,
    );
    return { endpointId, deliveries: events.length };
  });
}

/** One event again, to every active endpoint of the tenant that receives its type (or to one). */
export async function redeliverEvent(
  db: Db,
  tenant: Tenant,
  eventId: string,
  endpointId: string | null,
) {
  const event = await readEvent(db, tenant, eventId);
  const endpoints = endpointId
    ? [await getEndpoint(db, tenant, endpointId)]
    : await db.webhookEndpoint.findMany({ where: { ...tenant, status: 'active' } });
  const receiving = endpoints.filter(
    (p) => p.eventTypes.length === 0 || p.eventTypes.includes(event.type),
  );
  if (endpointId && receiving.length === 0)
    throw new AppError('conflict', `The endpoint does not receive ${event.type} events.`);
  await insertDeliveries(
    db,
    receiving.map((p) => ({ id: newId(), event: { ...tenant, id: event.id }, endpointId: p.id })),
    true,
  );
  return { eventId: event.id, deliveries: receiving.length };
}

/** A delivery the sender holds: what to send where, signed with which secrets. */
export type DeliveryJob = {
  id: string;
  subBrandId: string;
  environment: Tenant['environment'];
  endpointId: string;
  attempts: number;
  createdAt: Date;
  firstAttemptAt: Date;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: Date | null;
  failingSince: Date | null;
  eventId: string;
  type: string;
  data: unknown;
  eventCreatedAt: Date;
};

/**
 * Takes up to `limit` due deliveries of active endpoints, at most `perEndpoint` of each less what
 * this process has in flight to it (`inFlight`), and leases them until `leaseUntil` (no other process takes them before;
 * after it, a crashed sender's deliveries are taken again). One statement: SKIP LOCKED keeps
 * two processes from taking the same delivery.
 */
export function claimDeliveries(
  db: Db,
  o: {
    now: Date;
    leaseUntil: Date;
    limit: number;
    perEndpoint: number;
    inFlight: ReadonlyMap<string, number>;
  },
) {
  const full = [...o.inFlight].filter(([, n]) => n >= o.perEndpoint).map(([id]) => id);
  return queryRaw<DeliveryJob>(
    db,
    Prisma.sql`
    WITH due AS (
      -- The earliest due deliveries first (the index on status, next_attempt_at), so the window
      -- below numbers a few rows, not the whole backlog.
      SELECT d.sub_brand_id, d.id, d.endpoint_id, d.next_attempt_at
      FROM webhook_deliveries d
      JOIN webhook_endpoints p ON p.sub_brand_id = d.sub_brand_id AND p.id = d.endpoint_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${o.now} AND p.status = 'active'
        AND NOT (d.endpoint_id = ANY(${full}::uuid[]))
      ORDER BY d.next_attempt_at
      LIMIT ${o.limit * 4}
    ), candidates AS (
      SELECT sub_brand_id, id FROM (
        SELECT due.sub_brand_id, due.id, due.endpoint_id,
               row_number() OVER (PARTITION BY due.endpoint_id ORDER BY due.next_attempt_at) AS n
        FROM due) c
      LEFT JOIN unnest(${[...o.inFlight.keys()]}::uuid[], ${[...o.inFlight.values()]}::int[])
        AS busy(endpoint_id, sending) USING (endpoint_id)
      WHERE n <= ${o.perEndpoint} - coalesce(busy.sending, 0)
    ), taken AS (
      SELECT d.sub_brand_id, d.id FROM webhook_deliveries d JOIN candidates c USING (sub_brand_id, id)
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${o.now}
      LIMIT ${o.limit}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE webhook_deliveries d SET next_attempt_at = ${o.leaseUntil}, attempts = d.attempts + 1,
           first_attempt_at = coalesce(d.first_attempt_at, ${o.now})
    FROM taken t, events e, webhook_endpoints p
    WHERE d.sub_brand_id = t.sub_brand_id AND d.id = t.id
      AND e.sub_brand_id = d.sub_brand_id AND e.id = d.event_id
      AND p.sub_brand_id = d.sub_brand_id AND p.id = d.endpoint_id
    RETURNING d.id, d.sub_brand_id AS "subBrandId", d.environment, d.endpoint_id AS "endpointId",
              d.attempts, d.created_at AS "createdAt", d.first_attempt_at AS "firstAttemptAt", p.url, p.secret, p.previous_secret AS "previousSecret",
              p.previous_expires_at AS "previousExpiresAt", p.failing_since AS "failingSince",
              e.id AS "eventId", e.type, e.data, e.created_at AS "eventCreatedAt"`,
  );
}

export type AttemptOutcome = {
  at: Date;
  statusCode: number | null;
  durationMs: number;
  /** Null when the endpoint answered 2xx. */
  error: string | null;
};

/**
 * Records an attempt and what follows from it, in one statement: the delivery succeeded, waits
 * for its next try, or failed for good; the endpoint's failing streak starts, ends, or (3 days
 * long) disables it with the reason its owners will read.
 */
export async function recordAttempt(
  db: Db,
  job: DeliveryJob,
  outcome: AttemptOutcome,
  random: () => number = Math.random,
): Promise<'succeeded' | 'pending' | 'failed'> {
  const ok = outcome.error === null;
  const next = ok ? null : nextAttemptAt(job.attempts, job.createdAt, outcome.at, random);
  const status = ok ? 'succeeded' : next ? 'pending' : 'failed';
  // Failing for 3 days: measured from the streak's start, or (the last events of a quiet
  // endpoint) a delivery given up while every attempt since its first has failed.
  const disable =
    !ok &&
    (failedTooLong(job.failingSince, outcome.at) ||
      (status === 'failed' && job.failingSince !== null && job.failingSince <= job.firstAttemptAt))
      ? `Every delivery failed for 3 days, since ${job.failingSince!.toISOString()}; the last: ${outcome.error}`.slice(
          0,
          500,
        )
      : null;
  await executeRaw(
    db,
    Prisma.sql`
    WITH attempt AS (
      INSERT INTO webhook_attempts (id, sub_brand_id, delivery_id, endpoint_id, at, status_code, duration_ms, error)
      VALUES (${newId()}::uuid, ${job.subBrandId}::uuid, ${job.id}::uuid, ${job.endpointId}::uuid, ${outcome.at},
              ${outcome.statusCode}::int, ${outcome.durationMs}::int, ${outcome.error?.slice(0, 500) ?? null})
    ), delivery AS (
      UPDATE webhook_deliveries SET status = ${status}, next_attempt_at = ${next ?? outcome.at}, updated_at = ${outcome.at}
      WHERE sub_brand_id = ${job.subBrandId}::uuid AND id = ${job.id}::uuid
    )
    UPDATE webhook_endpoints SET ${
      ok
        ? Prisma.sql`failing_since = NULL`
        : disable
          ? Prisma.sql`status = 'disabled', disabled_reason = ${disable}`
          : Prisma.sql`failing_since = ${outcome.at}`
    }
    WHERE sub_brand_id = ${job.subBrandId}::uuid AND id = ${job.endpointId}::uuid
      -- Written only when the streak starts or ends: not a hot row's update per delivery.
      AND ${ok ? Prisma.sql`failing_since IS NOT NULL` : disable ? Prisma.sql`status = 'active'` : Prisma.sql`failing_since IS NULL`}`,
  );
  return status;
}

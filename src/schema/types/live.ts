// The backoffice's live screens (issue 35): GraphQL subscriptions, which graphql-yoga serves over
// server-sent events to a request that accepts `text/event-stream` (the backoffice POSTs with its
// session cookie and CSRF header: web/src/api/subscribe.ts). A subscription answers what its
// query answers (`campaign` with its leaderboard, `fulfilmentOrders`) at once, then again each
// time what it shows changed, in whichever server process the change was made.
//
// How a change is seen: every LIVE_CHECK_MS the subscription reads a fingerprint of what it shows
// (one indexed read of the top of the table, a few hundred bytes) and answers again only when
// the fingerprint differs. Not a NOTIFY from the writers' transactions: PostgreSQL serialises the
// commits of every transaction that notifies (a lock held through the commit's WAL flush), and on
// this machine kind that cut concurrent order inserts from about 5,500-7,700 a second to
// 1,500-1,700 (pgbench, 8 clients, docs/backoffice.md "Live updates"). The check costs the
// watchers, not the writers, and nothing while nobody watches. A stream ends after MAX_STREAM_MS
// (the client opens the next), so a signed-out session or a revoked key stops receiving within
// that bound.
import { Prisma } from '../../generated/prisma/client.js';
import { getCampaign } from '../../engine/campaigns/manage-campaigns.js';
import { tenantKey } from '../../engine/shared/keys.js';
import type { Db } from '../../domain/db.js';
import { builder } from '../builder.js';
import { tenantOf } from '../tenant.js';
import { EnvironmentEnum } from './environment.js';
import { OrderStatusEnum } from './order.js';

/** How often a subscription checks whether what it shows changed. */
export const LIVE_CHECK_MS = 1_000;
/** A stream's longest life; the backoffice opens the next one at once. */
export const MAX_STREAM_MS = 10 * 60_000;
/** The leaderboard rows a fingerprint covers: the most the screen shows. */
const LEADERBOARD_ROWS = 100;

const open = new Set<() => void>();
/** Streams open in this process (tests: a client's abort ends its stream here). */
export const liveStreams = () => open.size;
/** Ends every open stream (a server stopping: they would keep its connections open). */
export function endLiveStreams(): void {
  for (const end of [...open]) end();
}

/**
 * The ticks of one subscription: one at once, then one each time `fingerprint` answers something
 * new. graphql-js reads the next tick only once the previous one's answer is sent, so a
 * subscription never has two reads in flight; changes between two checks cost one answer.
 */
function ticks(fingerprint: () => Promise<string>): AsyncIterableIterator<number> {
  let last: string | null = null;
  let done = false;
  let count = 0;
  let wake: (() => void) | null = null;
  const end = () => {
    if (done) return;
    done = true;
    clearTimeout(lifetime);
    open.delete(end);
    wake?.();
    wake = null;
  };
  const lifetime = setTimeout(end, MAX_STREAM_MS).unref();
  open.add(end);
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, LIVE_CHECK_MS);
      wake = () => (clearTimeout(timer), resolve());
    });
  // A failed check (the database away for a moment) is a check that saw no change.
  const read = () => fingerprint().catch(() => last);
  const iterator: AsyncIterableIterator<number> = {
    async next() {
      if (last === null && !done) {
        last = (await read()) ?? '';
        return { done: false, value: ++count };
      }
      while (!done) {
        await pause();
        if (done) break;
        const now = await read();
        if (now !== last) {
          last = now;
          return { done: false, value: ++count };
        }
      }
      return { done: true, value: undefined };
    },
    async return() {
      end();
      return { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      end();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

const one = async (db: Db, sql: Prisma.Sql) =>
  (await db.$queryRaw<{ f: string | null }[]>(sql))[0]?.f ?? '';

/** What a leaderboard shows: the campaign's state and the top of its table, by the table's index. */
const leaderboardFingerprint = (db: Db, subBrandId: string, campaignId: string) =>
  one(
    db,
    Prisma.sql`SELECT concat_ws('|', c.status, c.title, c.ends_at, c.prizes::text,
        (SELECT string_agg(p.customer_id || ':' || p.points || ':' || p.reached_at, ',')
         FROM (SELECT customer_id, points, reached_at FROM campaign_progress
               WHERE campaign_id = ${campaignId}::uuid AND sub_brand_id = ${subBrandId}::uuid
               ORDER BY points DESC, reached_at, customer_id LIMIT ${LEADERBOARD_ROWS}) p)) AS f
      FROM campaigns c WHERE c.sub_brand_id = ${subBrandId}::uuid AND c.id = ${campaignId}::uuid`,
  );

/** What a queue page shows: its orders (by the (status, id) index), their state and tracking. */
const queueFingerprint = (db: Db, status: string, environment: string | null, rows: number) =>
  one(
    db,
    Prisma.sql`SELECT string_agg(o.id || ':' || o.status_changed_at || ':' || o.updated_at || ':' ||
        coalesce((SELECT string_agg(coalesce(i.carrier, '') || '/' || coalesce(i.tracking_code, ''), ',')
                  FROM order_items i WHERE i.order_id = o.id), ''), ',') AS f
      FROM (SELECT id, status_changed_at, updated_at FROM orders
            WHERE status = ${status}::order_status
              ${environment ? Prisma.sql`AND environment = ${environment}::environment` : Prisma.empty}
            ORDER BY id LIMIT ${rows}) o`,
  );

builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  tournamentLeaderboard: t.prismaField({
    type: 'Campaign',
    authScopes: { scope: 'campaigns:read' },
    description:
      "Backoffice, live: the campaign (select its `leaderboard`) at once, then again within a second of each change of its state or of its top 100, made by any server process. Another tenant's campaign is not found.",
    args: { campaignId: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      // Refused before any answer: not found, as the query says it.
      const c = await getCampaign(ctx.db, tenantOf(ctx), String(args.campaignId), ctx.now());
      return ticks(() => leaderboardFingerprint(ctx.db, c.subBrandId, c.id));
    },
    resolve: async (query, _tick, args, ctx) => {
      const c = await getCampaign(ctx.db, tenantOf(ctx), String(args.campaignId), ctx.now());
      return ctx.db.campaign.findUniqueOrThrow({ ...query, where: tenantKey(c.subBrandId, c.id) });
    },
  }),
  fulfilmentQueue: t.prismaConnection({
    type: 'Order',
    cursor: 'id',
    authScopes: { admin: true },
    description:
      'Backoffice, live: what `fulfilmentOrders` answers (every tenant’s orders in a state, oldest first) at once, then again within a second of each order of the page placed, moved, cancelled or tracked, in any server process.',
    args: {
      status: t.arg({ type: OrderStatusEnum, required: true }),
      environment: t.arg({ type: EnvironmentEnum }),
    },
    subscribe: (_root, args, ctx) =>
      ticks(() =>
        queueFingerprint(
          ctx.db,
          args.status,
          args.environment ?? null,
          Math.min(args.first ?? 50, 100) + 1,
        ),
      ),
    resolve: (query, _tick, { status, environment }, ctx) =>
      ctx.db.order.findMany({
        ...query,
        where: { status, ...(environment ? { environment } : {}) },
        orderBy: { id: 'asc' },
      }),
  }),
}));

// Timelines (issue 35): what happened to one record, newest first, in words, from the tables that
// already record it. A player's (customers/timeline.ts) and an order's (orders/timeline.ts) are
// each a list of branches; this module pages them and says each row in words.
//
// One UNION ALL statement ordered by (at, key) DESC with LIMIT first + 1: every branch reads one
// record's rows through an index that starts with it, the keyset predicate is applied to each
// branch before the merge, and a page costs one round trip whatever the number of sources.
// Fetching `first` rows per source and merging in memory would read up to seven times the rows
// and still need a per-source cursor.
import { queryRaw } from '../db/sql.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from './db.js';
import { invalidCursor, invalidRequest } from './errors.js';

export const TIMELINE_KINDS = [
  'coins',
  'expiry',
  'order',
  'order_status',
  'order_update',
  'award',
  'claim',
  'email',
  'responsible_gaming',
  'audit',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export type TimelineEntry = {
  kind: TimelineKind;
  at: Date;
  /** Unique within the timeline: the source and the row's id (`movement:<uuid>`). */
  id: string;
  title: string;
  detail: string | null;
  /** A backoffice path that shows more, when there is one. */
  linkPath: string | null;
};

export type TimelinePage = { entries: TimelineEntry[]; nextCursor: string | null };

export const DEFAULT_TIMELINE_PAGE = 25;
export const MAX_TIMELINE_PAGE = 100;

type Row = {
  source: string;
  at: Date | string;
  key: string;
  data: Record<string, unknown> | string;
};

const KEY = /^[a-z_]+:[0-9a-f-]{36}$/;

export function encodeTimelineCursor(at: Date, key: string): string {
  return Buffer.from(`${at.toISOString()}|${key}`, 'utf8').toString('base64url');
}

export function decodeTimelineCursor(cursor: string, field = 'after'): { at: Date; key: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const bar = text.indexOf('|');
  const at = new Date(text.slice(0, bar));
  const key = text.slice(bar + 1);
  if (bar < 0 || Number.isNaN(at.getTime()) || !KEY.test(key)) throw invalidCursor(field);
  return { at, key };
}

const coins = (n: unknown) => Number(n).toLocaleString('en-US');
/** `1 coin`, `1,200 coins`. */
const coinsOf = (n: unknown) => `${coins(n)} ${Math.abs(Number(n)) === 1 ? 'coin' : 'coins'}`;
const day = (d: unknown) => (d == null ? null : new Date(String(d)).toISOString().slice(0, 10));
const orderName = (d: Record<string, unknown>) =>
  `Order ${d.reference ? String(d.reference) : String(d.order_id).slice(0, 8)}`;

const SOURCE_WORDS: Record<string, string> = {
  api: 'Partner API',
  bulk: 'Bulk adjustment',
  engine: 'Rule engine',
  order: 'Order',
  refund: 'Refund',
  campaign: 'Campaign',
  expiry: 'Expiry',
};

const UPDATE_WORDS: Record<string, string> = {
  shipping: 'shipping address changed',
  billing: 'billing details changed',
  tracking: 'tracking number set',
};

const RG_WORDS: Record<string, string> = {
  cool_off: 'Cooling-off',
  self_excluded: 'Self-excluded',
  limit_reached: 'Limit reached',
};

function title(kind: TimelineKind, d: Record<string, unknown>): string {
  switch (kind) {
    case 'expiry':
      return `${coinsOf(-Number(d.delta))} expired (written off)`;
    case 'coins': {
      const delta = Number(d.delta);
      // A reason that only names a row (`order:<id>`, `refund:<id>`) says it in words instead.
      const reason = d.reason && !KEY.test(String(d.reason)) ? String(d.reason) : null;
      const what =
        reason ??
        (d.reference
          ? `${d.source === 'refund' ? 'Refund of order' : 'Order'} ${String(d.reference)}`
          : SOURCE_WORDS[String(d.source)]);
      return `${delta >= 0 ? 'Credited' : 'Debited'} ${coinsOf(Math.abs(delta))} — ${what}`;
    }
    case 'order':
      return `${orderName(d)} placed (${coinsOf(d.total_coins)})`;
    case 'order_status':
      return `${orderName(d)} ${String(d.to_status)}`;
    case 'order_update':
      return `${orderName(d)}: ${UPDATE_WORDS[String(d.event_kind)] ?? String(d.event_kind)}${
        d.tracking ? ` ${String(d.tracking)}` : ''
      }`;
    case 'award': {
      const prize = Number(d.coins) > 0 ? coinsOf(d.coins) : String(d.prize ?? 'a prize');
      return `Won ${prize} — ${String(d.campaign)}`;
    }
    case 'claim': {
      const prize = Number(d.coins) > 0 ? coinsOf(d.coins) : String(d.prize ?? 'a prize');
      return `Claimed ${prize} — ${String(d.campaign)}`;
    }
    case 'email': {
      const status = d.status === 'pending' ? 'queued' : String(d.status);
      return `E-mail “${String(d.subject)}” ${status}`;
    }
    case 'responsible_gaming': {
      const by = `by the ${String(d.source)}`;
      if (d.state === 'none') return `Responsible-gaming restriction lifted ${by}`;
      const until = day(d.until);
      return `${RG_WORDS[String(d.state)] ?? String(d.state)} ${by} ${until ? `until ${until}` : 'indefinitely'}`;
    }
    case 'audit': {
      const words = String(d.action)
        .replace(/([A-Z])/g, ' $1')
        .toLowerCase();
      return `${words.charAt(0).toUpperCase()}${words.slice(1)} — by ${String(d.staff)}`;
    }
  }
}

function detail(kind: TimelineKind, d: Record<string, unknown>): string | null {
  switch (kind) {
    case 'coins':
    case 'expiry':
      return `Balance after: ${coinsOf(d.balance_after)}${d.source ? ` · ${SOURCE_WORDS[String(d.source)]}` : ''}`;
    case 'order':
    case 'order_status':
    case 'order_update':
      return (
        [d.from_status ? `From ${String(d.from_status)}` : null, d.by ? `By ${String(d.by)}` : null]
          .filter(Boolean)
          .join(' · ') || null
      );
    case 'award':
      return d.status === 'pending'
        ? `To claim by ${day(d.expires_at)}`
        : `Now ${String(d.status)}`;
    case 'claim':
      return null;
    case 'email':
      return [`To ${String(d.recipient)}`, d.last_error ? String(d.last_error) : null]
        .filter(Boolean)
        .join(' · ');
    case 'responsible_gaming':
      return (
        [
          d.reason ? `Reason: ${String(d.reason)}` : null,
          d.note ? `Note: ${String(d.note)}` : null,
          `Via ${String(d.via)}`,
        ]
          .filter(Boolean)
          .join(' · ') || null
      );
    case 'audit':
      return d.request_id ? `Request ${String(d.request_id)}` : null;
  }
}

function linkPath(kind: TimelineKind, d: Record<string, unknown>): string | null {
  if ((kind === 'award' || kind === 'claim') && d.campaign_id) return `/campaigns/${d.campaign_id}`;
  // The order's own page (its timeline and lines).
  if ((kind === 'order' || kind === 'order_status' || kind === 'order_update') && d.order_id)
    return `/orders/${String(d.order_id)}`;
  return null;
}

/** One source of a timeline: its rows as (source, at, key, data), newest first. */
export type Branch = (
  source: string,
  at: Prisma.Sql,
  key: Prisma.Sql,
  data: Prisma.Sql,
  from: Prisma.Sql,
) => Prisma.Sql;

/**
 * One page of a timeline made of `branches` (built with the branch function given, which applies
 * the page's cursor and size to each), newest first.
 */
export async function readTimeline(
  db: Db,
  args: { first?: number | null; after?: string | null },
  branches: (branch: Branch) => Prisma.Sql[],
): Promise<TimelinePage> {
  const first = args.first ?? DEFAULT_TIMELINE_PAGE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_TIMELINE_PAGE) {
    throw invalidRequest([
      {
        field: 'first',
        code: first < 1 ? 'too_small' : 'too_big',
        message: `must be 1 to ${MAX_TIMELINE_PAGE}`,
      },
    ]);
  }
  const cursor = args.after ? decodeTimelineCursor(args.after) : null;
  // Applied inside each branch, so each reads only what precedes the cursor.
  const before = (at: Prisma.Sql, key: Prisma.Sql) =>
    cursor
      ? Prisma.sql`AND (${at}, ${key} COLLATE "C") < (${cursor.at}::timestamptz, ${cursor.key} COLLATE "C")`
      : Prisma.empty;
  const branch: Branch = (source, at, key, data, from) =>
    Prisma.sql`(SELECT ${source}::text AS source, ${at} AS at, ${key} COLLATE "C" AS key, ${data} AS data
      ${from} ${before(at, key)}
      ORDER BY ${at} DESC, ${key} COLLATE "C" DESC LIMIT ${first + 1})`;

  const rows = await queryRaw<Row>(
    db,
    Prisma.sql`SELECT source, at, key, data FROM (
      ${Prisma.join(branches(branch), ' UNION ALL ')}
    ) t ORDER BY at DESC, key DESC LIMIT ${first + 1}`,
  );

  const entries = rows.slice(0, first).map((r): TimelineEntry => {
    const d = typeof r.data === 'string' ? (JSON.parse(r.data) as Record<string, unknown>) : r.data;
    const kind: TimelineKind =
      r.source === 'movement'
        ? d.source === 'expiry'
          ? 'expiry'
          : 'coins'
        : r.source === 'rg'
          ? 'responsible_gaming'
          : (r.source as TimelineKind);
    return {
      kind,
      at: new Date(r.at),
      id: r.key,
      title: title(kind, d),
      detail: detail(kind, d),
      linkPath: linkPath(kind, d),
    };
  });
  const last = entries.at(-1);
  return {
    entries,
    nextCursor: rows.length > first && last ? encodeTimelineCursor(last.at, last.id) : null,
  };
}

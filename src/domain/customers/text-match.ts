// A text search (`q`) that shares trigrams with most customers, served by its rare part.
//
// search_text's trigram index answers `ILIKE '%q%'` by the posting lists of q's trigrams. Where
// most customers hold some of them ("use" and "ser" of "user…" in every seeded e-mail; "gma",
// "ail" and "com" in many real ones), PostgreSQL 15 reads those long lists through, though
// q's rare trigrams alone leave a handful of candidates: at a million customers
// `q=user123456@` read 889 index pages (16 ms) for one match, its rare part `123456@` 57 (1.6 ms);
// the cost grows with the customers (docs/performance.md, "A text search by its rare part").
//
// So, first, one probe: the index is given only the spans of q whose trigrams are rare, the
// whole of q is then checked on each candidate row (as an expression the index cannot serve, or
// the planner would hand it the common trigrams again), and when the candidates are few the
// list reads the matches by id (as email-match.ts does for an e-mail), in place of q's
// condition. When the candidates are too many, a count and a page still give the index only the
// rare part (rareFirst). Which trigrams are common is read off the column's statistics
// (ANALYZE's sample of search_text values, ~100 of them): no statistics, no common trigram, or
// no rare span, and nothing changes.
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import { likeEscape } from '../validation.js';
import { phoneDigits, tenantConditions } from './customer-where.js';

/**
 * A trigram in this share of the sampled values or more is common. Its posting list is long
 * (at ten million customers, "er1" of "user1…", in 19 % of them, cost 750 of a probe's 1,000
 * index pages); leaving it out admits more candidates, which CANDIDATES bounds.
 */
const COMMON_SHARE = 0.1;
/**
 * The most rows the rare spans may admit, all tenants together: past that they do not narrow
 * enough, and the search runs as before. It bounds the probe's reads of rows (a few ms cold), and
 * so the ids a list then reads.
 */
const CANDIDATES = 1_000;

/** The rare part of a search the probe gives the index (rarePattern), and whether it is narrow. */
export type RarePart = {
  pattern: string;
  /**
   * The sample holds q itself often enough that, at the table's size, q matches more than
   * CANDIDATES customers: a probe would find too many to read by id, so none is sent. A count or
   * a page may still give the index only the rare part (rareFirst).
   */
  many: boolean;
  /**
   * A span of three rare trigrams or more (`%r1234567%`) admits the rows holding all of them,
   * most often a handful. A shorter one (`%l77%` or `%il77%` of "@mail77.", as the sample
   * rates "il7", one customer in nine) may admit a few % of the customers, and its probe, bounded,
   * then reads its posting list and 1,000 rows in vain (~8-50 ms at ten million). The customer
   * list probes first for a narrow part only (customer-list.ts).
   */
  narrow: boolean;
};

/**
 * The rare part of `q` when its trigrams include common ones; null otherwise (the search then
 * runs on its own condition).
 */
export async function rarePart(db: Db, q: string | undefined): Promise<RarePart | null> {
  // A phone-like search also looks for its digits (customerWhere): left as it is.
  if (!q || phoneDigits(q) !== undefined) return null;
  const sample = await sampledValues(db);
  const pattern = rarePattern(q, sample);
  if (pattern === null) return null;
  // Spans are runs of letters and digits: `%` only separates them.
  const narrow = pattern.split('%').some((span) => [...span].length >= 5);
  return { pattern, narrow, many: share(q.toLowerCase(), sample) * sample.rows > CANDIDATES };
}

/**
 * q's condition in SQL (customerConditions' text) with only its rare part given to the trigram
 * index, the whole of q checked on each candidate row. For a count, or a page, of a search that
 * matches too many to read by id (customer-list.ts, search-players.ts): at ten million customers, `first99`'s count up to 10,001 (the player
 * search's) read 1,027 pages in 18 ms this way, 17,632 in 130 ms through all of q's trigrams.
 */
export const rareFirst = (q: string, rare: RarePart): Prisma.Sql =>
  Prisma.sql`search_text ILIKE ${rare.pattern}
    AND (search_text || '') ILIKE ${`%${likeEscape(q)}%`}`;

/**
 * The tenant's customers matching `q`, when its rare part admits at most CANDIDATES rows, as a
 * Prisma where that stands for customerWhere's text condition; null otherwise.
 */
export async function probeMatches(
  db: Db,
  tenant: Tenant,
  q: string,
  rare: RarePart,
): Promise<Prisma.CustomerWhereInput | null> {
  if (rare.many) return null; // no probe for nothing
  const [probe] = await db.$queryRaw<{ seen: bigint; ids: string[] }[]>`
    WITH candidates AS (
      SELECT id, sub_brand_id, environment, search_text FROM customers
      WHERE search_text ILIKE ${rare.pattern}
      LIMIT ${CANDIDATES + 1})
    SELECT (SELECT count(*) FROM candidates) AS seen,
           ARRAY(SELECT id::text FROM candidates
                 WHERE ${Prisma.join(tenantConditions(tenant), ' AND ')}
                   AND (search_text || '') ILIKE ${`%${likeEscape(q)}%`}) AS ids`;
  return Number(probe!.seen) > CANDIDATES ? null : { ...tenant, id: { in: probe!.ids } };
}

/** probeMatches of q's rare part, when it has one. */
export async function textMatches(
  db: Db,
  tenant: Tenant,
  q: string | undefined,
): Promise<Prisma.CustomerWhereInput | null> {
  const rare = await rarePart(db, q);
  return rare && probeMatches(db, tenant, q!, rare);
}

/** ANALYZE's sample of search_text (its most common values, then its histogram's bounds). */
async function sampledValues(db: Db): Promise<Sample> {
  const [stats] = await db.$queryRaw<
    { common: string[] | null; freqs: number[] | null; bounds: string[] | null; rows: number }[]
  >`
    SELECT most_common_vals::text::text[] AS common, most_common_freqs AS freqs,
           histogram_bounds::text::text[] AS bounds,
           (SELECT reltuples FROM pg_class WHERE oid = 'customers'::regclass)::float8 AS rows
    FROM pg_stats
    WHERE schemaname = current_schema() AND tablename = 'customers' AND attname = 'search_text'`;
  return {
    common: (stats?.common ?? []).map((v, i) => ({ value: v, share: stats!.freqs![i]! })),
    bounds: stats?.bounds ?? [],
    rows: stats?.rows ?? 0,
  };
}

/** ANALYZE's sample of a column: its common values with their shares, its histogram's bounds. */
export type Sample = {
  common: { value: string; share: number }[];
  bounds: string[];
  /** The table's rows, as ANALYZE last counted them. */
  rows: number;
};

/**
 * The share of customers whose search_text holds `text` (lower case), as the sample tells: each
 * common value by its own frequency, the histogram's bounds for the rest (as PostgreSQL's own
 * estimate of a LIKE does).
 */
function share(text: string, sample: Sample): number {
  let common = 0;
  let found = 0;
  for (const c of sample.common) {
    common += c.share;
    if (c.value.toLowerCase().includes(text)) found += c.share;
  }
  if (sample.bounds.length) {
    const held = sample.bounds.filter((b) => b.toLowerCase().includes(text)).length;
    found += ((1 - common) * held) / sample.bounds.length;
  }
  return found;
}

/**
 * The LIKE pattern of q's rare spans, in order (`%123456%`), or null when q has no common
 * trigram (nothing to leave out) or no rare one (nothing to narrow by). A span is a run of
 * letters and digits (pg_trgm's words) whose every 3-character window is rare; a row holding q
 * holds each of them, in that order, so the pattern only ever admits more rows than q.
 */
export function rarePattern(q: string, sample: Sample): string | null {
  const spans: string[] = [];
  let sawCommon = false;
  for (const run of q.match(/[\p{L}\p{N}]+/gu) ?? []) {
    const chars = [...run];
    // Whether each 3-character window is rare; then `false` past the end, to close a last span.
    const window = (i: number) =>
      chars
        .slice(i, i + 3)
        .join('')
        .toLowerCase();
    const rare = chars.slice(2).map((_, i) => share(window(i), sample) < COMMON_SHARE);
    if (rare.includes(false)) sawCommon = true;
    let start = -1; // the first window of the span being read
    for (const [i, isRare] of [...rare, false].entries()) {
      if (isRare && start < 0) start = i;
      if (!isRare && start >= 0) {
        spans.push(chars.slice(start, i + 2).join(''));
        start = -1;
      }
    }
  }
  return sawCommon && spans.length ? `%${spans.join('%')}%` : null;
}

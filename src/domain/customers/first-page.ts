// How the first page of a customer list is read: by the tenant-led indexes, or as PostgreSQL's
// planner chooses.
//
// With `sub_brand_id = x … ORDER BY id DESC LIMIT 26`, the planner may walk the primary key (id
// alone) backwards and filter by tenant, expecting a tenant that holds most customers to fill the
// page at once. When another tenant's customers are newer, it walks past all of them first: 440
// ms at ten million customers beside a newer million (docs/performance.md, "Ten million
// customers"), where the (tenant, environment, id) index reads the page in 0.2 ms. The costs of
// the two plans differ by about 1 %, so the planner cannot be trusted to pick either, and it drops
// an ORDER BY column that an equality fixes, so it cannot be told which. A range on the tenant is
// not an equality: `sub_brand_id BETWEEN x AND x … ORDER BY sub_brand_id, id DESC` is an order
// the primary key cannot give, so only the tenant-led indexes serve it. Same rows, same order.
//
// But after a range a btree cannot position on the columns that follow, so a selective filter
// served by its own index (a country no one has, an external_id, a text search) would scan the
// tenant's whole part of it: 1.6 s for an absent country, 0.4 ms as an equality. So the range is
// for a first page that the tenant's newest customers fill quickly, and the equality, with the
// planner's choice, for the rest. A page after a cursor keeps the equality: the cursor's id bound
// positions the walk. The lasting fix is a primary key led by the tenant (docs/scaling.md).
//
// Two first pages are read otherwise, each from what narrows it: a text search from the tenant's
// newest customers (walkedMatches), and a coin filter few wallets pass from those wallets
// (fewWalletsMatching).
import { Prisma } from '../../generated/prisma/client.js';
import { withSettings, type Db } from '../db.js';
import { plannedRows } from '../list-total.js';
import type { Tenant } from '../tenant.js';
import { customerConditions, walletConditions } from './customer-where.js';
import type { CustomerFilter } from './schemas.js';

/** The order of a page read with the tenant as a range (customerWhere's `range`). */
export const tenantRange = (order: 'asc' | 'desc') =>
  [{ subBrandId: 'asc' }, { id: order }] satisfies Prisma.CustomerOrderByWithRelationInput[];

const unfiltered = (f: CustomerFilter) => Object.values(f).every((v) => v === undefined);

/** A filter with a condition an index of its own positions on: its matches are read from it. */
const positioned = (f: CustomerFilter) =>
  Boolean(
    f.q ||
    f.externalId ||
    f.email ||
    f.createdAfter ||
    f.createdBefore ||
    f.registeredAfter ||
    f.registeredBefore,
  );

/**
 * A first page walks at most about this many of the tenant's customers per row it shows (26 rows:
 * ~5,200 index entries and rows, a few ms) when read by tenant.
 */
const WALK = 200;

/**
 * Whether the first page of a list with this filter is read by tenant (customerWhere's `range`
 * with `tenantRange`): without a filter, always; with a filter an index positions on (text,
 * external_id, e-mail, a created or registered window), never; otherwise when the planner
 * expects at least one of every WALK of the tenant's customers to match. Two planner estimates
 * (EXPLAIN, no row read: about 1 ms together).
 */
export async function readsByTenant(db: Db, tenant: Tenant, f: CustomerFilter): Promise<boolean> {
  if (unfiltered(f)) return true;
  if (positioned(f)) return false;
  const [matching, all] = await Promise.all([
    plannedRows(db, 'customers', customerConditions(tenant, f)),
    plannedRows(db, 'customers', customerConditions(tenant, {})),
  ]);
  return matching * WALK >= all;
}

/**
 * A page of ids: `skip` rows, then `take`, in id order (`desc`: newest first), starting past the
 * id `after` when given (a page after a cursor: the cursor's row is not in it).
 */
export type IdPage = { order: 'asc' | 'desc'; skip: number; take: number; after?: string };

const sqlOrder = (order: IdPage['order']) =>
  order === 'desc' ? Prisma.sql`DESC` : Prisma.sql`ASC`;

/** `customers.id` past `after` in the page's order, or nothing to add. */
const pastCursor = ({ order, after }: IdPage): Prisma.Sql[] =>
  after === undefined
    ? []
    : [
        order === 'desc'
          ? Prisma.sql`customers.id < ${after}::uuid`
          : Prisma.sql`customers.id > ${after}::uuid`,
      ];

/**
 * The most of the tenant's customers a walk reads per row it answers, for up to 26 rows (the
 * partner API's default page and one to know there are more): 10,400 customers, 10-20 ms at ten
 * million when walked in vain, however many rows a bigger or deeper page wants. A search that
 * matches one customer in 400 or more fills a default page within them wherever its matches lie,
 * in runs or spread. (800 filled the same pages at ten million, and cost a search that matches
 * no one 32 ms p50 / 51 p99 against 22 / 34.)
 */
const WALK_PER_ROW = 400;
const WALK_ROWS = 26;
/** The deepest row a walk answers (a few pages of 100): deeper pages as the planner chooses. */
const WALK_DEPTH = 300;

/**
 * The ids of the tenant's customers matching `conditions` (SQL over `customers`), from `skip` to
 * skip + take in id order (`desc`: newest first), found by walking the tenant's customers in that
 * order and checking each, at most min(skip + take, WALK_ROWS) × WALK_PER_ROW of them; null when
 * those do not hold the page (the caller then reads as the planner chooses), or when the page
 * lies deeper than WALK_DEPTH. The walk stops as soon as the page is full.
 *
 * Why: a text search's matches are read through the trigram index, every one of them, then
 * sorted. A search that matches many (one customer in 119 at ten million) read and sorted 84,000
 * rows for a page of 25 (150-340 ms), where a few thousand of the tenant's newest customers hold
 * it. The planner's estimate of a substring's matches is a guess, so the walk is tried instead: a
 * rare search pays it (bounded) before its trigram scan, which is why a text whose rare part is
 * narrow is probed first (customer-list.ts). When the tenant has fewer customers than the walk's
 * bound, the answer is complete either way.
 */
export async function walkedMatches(
  db: Db,
  tenant: Tenant,
  conditions: Prisma.Sql[],
  page: IdPage,
): Promise<string[] | null> {
  const { order, skip, take } = page;
  const wanted = skip + take;
  if (wanted > WALK_DEPTH) return null;
  const bound = Math.min(wanted, WALK_ROWS) * WALK_PER_ROW;
  const direction = sqlOrder(order);
  // The walk reads the (tenant, environment, id) index by the tenant as a range (see the top of
  // this file) and checks each row as it goes; the outer LIMIT stops it once the page is full.
  // A cursor's bound on id still positions it: the range's bound on the tenant is inclusive in the
  // walk's direction, so the btree goes on to the columns after it (EXPLAIN shows it as an Index
  // Cond). The walk's last row (`walked = bound`) comes out whether it matches or not: it says
  // the tenant has customers past the walk, so a page it did not fill may hold older ones.
  const rows = await db.$queryRaw<{ id: string; hit: boolean; walked: bigint }[]>`
    SELECT id::text AS id, hit, walked FROM (
      SELECT customers.id, (${Prisma.join(conditions, ' AND ')}) AS hit,
             row_number() OVER (ORDER BY customers.sub_brand_id, customers.id ${direction}) AS walked
      FROM customers
      WHERE sub_brand_id BETWEEN ${tenant.subBrandId}::uuid AND ${tenant.subBrandId}::uuid
        AND ${Prisma.join([Prisma.sql`environment = ${tenant.environment}::environment`, ...pastCursor(page)], ' AND ')}
      ORDER BY sub_brand_id, id ${direction}
      LIMIT ${bound}) AS walk
    WHERE hit OR walked = ${bound}
    LIMIT ${wanted}`;
  const hits = rows.filter((r) => r.hit).map((r) => r.id);
  const pastTheWalk = rows.some((r) => Number(r.walked) === bound);
  if (hits.length < wanted && pastTheWalk) return null;
  return hits.slice(skip, wanted);
}

/**
 * The ids of the customers matching `conditions` (SQL over `customers`, the tenant's among them),
 * from `skip` to skip + take in id order, as the planner reads them. For conditions a Prisma where
 * cannot say: a text's with only its rare part given to the trigram index (text-match.ts).
 */
export async function matchingIds(
  db: Db,
  conditions: Prisma.Sql[],
  page: IdPage,
): Promise<string[]> {
  const { order, skip, take } = page;
  const direction = sqlOrder(order);
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM customers
    WHERE ${Prisma.join([...conditions, ...pastCursor(page)], ' AND ')}
    ORDER BY customers.id ${direction} OFFSET ${skip} LIMIT ${take}`;
  return rows.map((r) => r.id);
}

/**
 * The most wallets a first page with a coin filter reads and sorts by customer (~20,000 took a
 * few ms at ten million customers, docs/performance.md); past that, the tenant walk or the
 * planner's plan.
 */
const FEW_WALLETS = 50_000;

/**
 * The ids of a first page of a list with a coin filter that few of the tenant's wallets pass
 * (the planner's estimate, from the balance's statistics: at most FEW_WALLETS), or null (also
 * when another condition is positioned by an index of its own, which narrows better). Those
 * wallets' customers, newest first, each checked against the rest of the filter until the page
 * is full. A filter that one customer in 500 passes otherwise walked 13,000 customers probing
 * their wallets, or joined every passing wallet to its customer before sorting: 130-330 ms at
 * ten million, where the wallets alone are an index range.
 */
export async function fewWalletsMatching(
  db: Db,
  tenant: Tenant,
  f: CustomerFilter,
  take: number,
): Promise<string[] | null> {
  const passing = walletConditions(tenant, f);
  if (!passing || positioned(f)) return null;
  if ((await plannedRows(db, 'wallets', passing)) > FEW_WALLETS) return null;
  const rest = customerConditions(tenant, { ...f, minCoins: undefined, maxCoins: undefined });
  // LIMIT 1 keeps the lateral a lookup per wallet, in the wallets' order: flattened into a join,
  // the planner may join every passing wallet before it sorts. Without parallel workers: for
  // 20,000 wallets it planned two, whose start took longer than the sort (12-18 ms against 6).
  const rows = await withSettings(
    db,
    { max_parallel_workers_per_gather: '0' },
    (tx) => tx.$queryRaw<{ id: string }[]>`
    SELECT customers.id::text AS id
    FROM (SELECT customer_id FROM wallets WHERE ${Prisma.join(passing, ' AND ')}
          ORDER BY customer_id DESC) AS passing
    CROSS JOIN LATERAL (
      SELECT customers.id FROM customers
      WHERE customers.id = passing.customer_id AND ${Prisma.join(rest, ' AND ')}
      LIMIT 1) AS customers
    LIMIT ${take}`,
  );
  return rows.map((r) => r.id);
}

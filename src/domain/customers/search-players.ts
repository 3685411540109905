// The establishment API's player search: page numbers with a total. An exact total over a big
// tenant means counting every match, so totals are exact up to TOTAL_BOUND matches and reported
// as "at least TOTAL_BOUND" beyond (`totalExact: false`), and pages reach that far: the same
// window search engines keep (docs/establishment-api.md, "Player search"). Cursor lists on the
// partner API walk any number of customers.
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { invalidRequest } from '../errors.js';
import { isUuid } from '../ids.js';
import { MAX_COINS } from '../ledger/coins.js';
import { NUMBERED_PAGE, numberedPageSize, pageNumber } from '../pages.js';
import type { Tenant } from '../tenant.js';
import { parseInput, utcInstant } from '../validation.js';
import { countedRows } from '../list-total.js';
import { customerConditions, customerWhere } from './customer-where.js';
import { matchingIds, readsByTenant, tenantRange, walkedMatches } from './first-page.js';
import { CUSTOMER_STATUSES } from './schemas.js';
import { probeMatches, rareFirst, rarePart } from './text-match.js';

const TOTAL_BOUND = NUMBERED_PAGE.window;

const coins = z.number().int().min(0).max(MAX_COINS);

export const playerSearchInput = z.strictObject({
  /** Part of the name or e-mail, or a player id. */
  search: z.string().trim().min(1).max(200).optional(),
  statuses: z.array(z.enum(CUSTOMER_STATUSES)).max(CUSTOMER_STATUSES.length).optional(),
  minCoins: coins.optional(),
  maxCoins: coins.optional(),
  createdAfter: utcInstant.optional(),
  createdBefore: utcInstant.optional(),
  page: pageNumber,
  limit: numberedPageSize,
  order: z.enum(['asc', 'desc']).default('desc'),
});

export type PlayerSearch = z.output<typeof playerSearchInput>;

export function playerWhere(
  tenant: Tenant,
  s: PlayerSearch,
  as: 'equal' | 'range' = 'equal',
): Prisma.CustomerWhereInput {
  const base = customerWhere(tenant, playerFilter(s), as);
  const and = [base];
  if (s.statuses?.length) and.push({ status: { in: s.statuses } });
  if (s.search) {
    const byText = customerWhere(tenant, { q: s.search }, as);
    and.push(isUuid(s.search) ? { OR: [{ id: s.search.toLowerCase() }, byText] } : byText);
  }
  return { AND: and };
}

const playerFilter = (s: PlayerSearch) => ({
  minCoins: s.minCoins,
  maxCoins: s.maxCoins,
  createdAfter: s.createdAfter,
  createdBefore: s.createdBefore,
});

/** The page's rows are read by the caller (GraphQL selects their fields); this counts. */
export async function searchPlayers(db: Db, tenant: Tenant, input: unknown) {
  const search = parseInput(playerSearchInput, input);
  const skip = (search.page - 1) * search.limit;
  if (skip + search.limit > TOTAL_BOUND) {
    throw invalidRequest([
      {
        field: 'page',
        code: 'too_big',
        message: `pages reach the first ${TOTAL_BOUND} matches; narrow the search with filters`,
      },
    ]);
  }
  // A text's few matches by id, in place of its condition (text-match.ts); a player id's search
  // also looks the id up, which those matches would leave out.
  const text = search.search && !isUuid(search.search) ? search.search : undefined;
  const rare = text ? await rarePart(db, text) : null;
  const matches = rare && (await probeMatches(db, tenant, text!, rare));
  const where = matches
    ? { AND: [playerWhere(tenant, { ...search, search: undefined }), matches] }
    : playerWhere(tenant, search);
  // Too many to read by id, a text is counted (and, unless walked, read) with only its rare part
  // given to the trigram index (text-match.ts).
  const byRarePart =
    rare && !matches ? playerConditions(tenant, search, rareFirst(text!, rare)) : null;
  const counted = byRarePart
    ? await countedRows(db, 'customers', byRarePart, TOTAL_BOUND + 1)
    : await db.customer.count({ where, take: TOTAL_BOUND + 1 });
  const totalExact = counted <= TOTAL_BOUND;
  const total = Math.min(counted, TOTAL_BOUND);
  const page = {
    skip,
    page: search.page,
    limit: search.limit,
    total,
    totalExact,
    // Beyond the bound there are more matches than the window shows, so always more.
    hasMore: !totalExact || skip + search.limit < total,
  };
  const paged = { order: search.order, skip, take: search.limit };
  // A text that matches more than the window most likely has a first few pages among the
  // tenant's newest (or oldest) few thousand customers: walked to (first-page.ts), not read
  // through the trigram index and sorted (84,000 matches at ten million: 240 ms).
  const walked =
    text && !matches && !totalExact
      ? await walkedMatches(db, tenant, playerConditions(tenant, search), paged)
      : null;
  const ids = walked ?? (byRarePart && (await matchingIds(db, byRarePart, paged)));
  if (ids)
    return {
      ...page,
      where: { ...tenant, id: { in: ids } },
      orderBy: { id: search.order },
      skip: 0,
    };
  // Every page counts from the start (skip), so every page is read as a first page is
  // (first-page.ts); a text or status search as the planner chooses.
  const byTenant =
    !search.search &&
    !search.statuses?.length &&
    (await readsByTenant(db, tenant, playerFilter(search)));
  return {
    ...page,
    where: byTenant ? playerWhere(tenant, search, 'range') : where,
    orderBy: byTenant ? tenantRange(search.order) : { id: search.order },
  };
}

/**
 * playerWhere in SQL (customerConditions), with `text` in place of the search's own condition
 * when given. A player id's search is not walked or counted this way.
 */
function playerConditions(tenant: Tenant, s: PlayerSearch, text?: Prisma.Sql): Prisma.Sql[] {
  const and = customerConditions(tenant, { ...playerFilter(s), q: text ? undefined : s.search });
  if (s.statuses?.length) {
    // One parameter each: PGlite's driver does not send a JavaScript array as a PostgreSQL one.
    const statuses = s.statuses.map((status) => Prisma.sql`${status}::customer_status`);
    and.push(Prisma.sql`status IN (${Prisma.join(statuses)})`);
  }
  if (text) and.push(text);
  return and;
}

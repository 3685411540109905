// The customer list's query for a filter (the GraphQL `customers` connection, and through it the
// partner API's list): what narrows it is read first from its own index (a narrow registration
// window's ids, an e-mail's ids, a text's few matches), then a page's where and order.
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { countedRows } from '../list-total.js';
import type { Tenant } from '../tenant.js';
import { customerConditions, customerWhere } from './customer-where.js';
import { emailMatches } from './email-match.js';
import {
  fewWalletsMatching,
  matchingIds,
  readsByTenant,
  tenantRange,
  walkedMatches,
} from './first-page.js';
import { registeredWindowBounds } from './registered-window.js';
import type { CustomerFilter } from './schemas.js';
import { probeMatches, rareFirst, rarePart, type RarePart } from './text-match.js';

const orderBy = { id: 'desc' } as const;

export async function customerList(db: Db, tenant: Tenant, f: CustomerFilter) {
  const narrowed = [
    await registeredWindowBounds(db, tenant, f),
    await emailMatches(db, tenant, f),
  ].filter((w) => w !== null);
  /** A first page whose ids a probe found (each matched the whole filter). */
  const byIds = (ids: string[]): { where: Prisma.CustomerWhereInput; orderBy: typeof orderBy } => ({
    where: { ...tenant, id: { in: ids } },
    orderBy,
  });
  // A text's few matches (text-match.ts), probed once, stand for the text's condition, which
  // would let the planner read the trigram index again.
  let rare: Promise<RarePart | null> | undefined;
  let text: Promise<Prisma.CustomerWhereInput | null> | undefined;
  const rarePartOfText = () => (rare ??= rarePart(db, f.q));
  const textMatches = () =>
    (text ??= rarePartOfText().then((r) => r && probeMatches(db, tenant, f.q!, r)));
  // A text too many to read by id, with only its rare part given to the trigram index (rareFirst):
  // at ten million customers, a count of `first99` read 18 ms in place of 130, and a first page of
  // `Last7777` (1,262 matches among 28,814 candidates) 45 ms in place of 140 (docs/performance.md).
  const rareFirstConditions = async (): Promise<Prisma.Sql[] | null> => {
    const rare = await rarePartOfText();
    if (!rare || (await textMatches())) return null;
    return [...customerConditions(tenant, { ...f, q: undefined }), rareFirst(f.q!, rare)];
  };
  const where = async (as: 'equal' | 'range'): Promise<Prisma.CustomerWhereInput> => {
    const matched = await textMatches();
    return {
      AND: [
        customerWhere(tenant, matched ? { ...f, q: undefined } : f, as),
        ...narrowed,
        ...(matched ? [matched] : []),
      ],
    };
  };
  return {
    /** Every matching customer. */
    where: () => where('equal'),
    /**
     * How many customers match, counting at most `take` (the list's total). A text too many to
     * read by id is counted with only its rare part given to the trigram index (rareFirst).
     */
    async countUpTo(reader: Db, take: number) {
      const byRarePart = await rareFirstConditions();
      if (byRarePart) return countedRows(reader, 'customers', byRarePart, take);
      return reader.customer.count({ where: await where('equal'), take });
    },
    /**
     * A page of `take` rows (negative: from the oldest), newest first: a first page may be read
     * by tenant, a text search's from its few matches or its newest customers, a rare coin
     * filter's from its wallets (first-page.ts says when and why). A page after `cursor` (an id)
     * holds the rows past it (negative `take`: the newer ones), and a text search's is read as
     * its first page is, from there (at ten million customers, `first99`'s second page took
     * 376-456 ms p50 through q's condition and Prisma's cursor, 8 ms walked; docs/performance.md).
     * `reader` may be a replica. The answer is spread over findMany's arguments: where it reads
     * past the cursor itself, it replaces Prisma's own.
     */
    async page(reader: Db, cursor: string | undefined, take: number) {
      const first = cursor === undefined;
      const past = { cursor: undefined, skip: 0 };
      const byIdsPast = (ids: string[]) => ({ ...byIds(ids), ...past });
      if (f.q && take !== 0) {
        // Forwards, newest first past the cursor; backwards (`last`, and `before` a cursor), the
        // oldest first past it, which Prisma's negative take then shows newest first.
        const idPage = {
          order: take > 0 ? 'desc' : 'asc',
          skip: 0,
          take: Math.abs(take),
          after: cursor,
        } as const;
        // A text with a narrow rare part (text-match.ts) is most likely rare: its probe (~10 ms
        // at ten million customers) or its rare part finds its matches, which the walk of the
        // newest customers (~20 ms) would most likely not hold. Any other text may match many,
        // and the newest customers may hold its page.
        if (!(await rarePartOfText())?.narrow) {
          const ids = await walkedMatches(reader, tenant, customerConditions(tenant, f), idPage);
          // Those ids matched every condition already: repeating the text's would let the
          // planner read its trigram index again.
          if (ids) return byIdsPast(ids);
        }
        const byRarePart = await rareFirstConditions();
        if (byRarePart) return byIdsPast(await matchingIds(reader, byRarePart, idPage));
      }
      // Backwards from a cursor, Prisma's cursor reads the page.
      if (!first && take < 0) return { where: await where('equal'), orderBy };
      if (!first) {
        return { where: { AND: [await where('equal'), { id: { lt: cursor } }] }, orderBy, ...past };
      }
      const byTenant = await readsByTenant(reader, tenant, f);
      if (!byTenant && take > 0) {
        const ids = await fewWalletsMatching(reader, tenant, f, take);
        if (ids) return byIds(ids);
      }
      return {
        where: await where(byTenant ? 'range' : 'equal'),
        orderBy: byTenant ? tenantRange('desc') : orderBy,
      };
    },
  };
}

import { Prisma } from '../../generated/prisma/client.js';
import { idFloor } from '../ids.js';
import type { Tenant } from '../tenant.js';
import { likeEscape } from '../validation.js';
import type { CustomerFilter } from './schemas.js';

/**
 * The tenant's customers matching a filter (window starts inclusive, ends exclusive). `as` says
 * how the tenant is named: `equal` everywhere but in a first page read by tenant (first-page.ts).
 */
export function customerWhere(
  tenant: Tenant,
  f: CustomerFilter = {},
  as: 'equal' | 'range' = 'equal',
): Prisma.CustomerWhereInput {
  const { subBrandId, environment } = tenant;
  const and: Prisma.CustomerWhereInput[] = [
    { subBrandId: as === 'range' ? { gte: subBrandId, lte: subBrandId } : subBrandId, environment },
  ];
  // search_text holds first_name, last_name, email, external_id and the phone's digits (a
  // generated column), so a full name such as "Ana García" matches too. A phone-like `q`
  // ("+34 600 11 22 33", "+34600") is also looked for as its digits; both terms are served by the
  // one trigram index (a BitmapOr of two scans).
  if (f.q) {
    const text: Prisma.CustomerWhereInput = {
      searchText: { contains: likeEscape(f.q), mode: 'insensitive' },
    };
    const digits = phoneDigits(f.q);
    and.push(digits ? { OR: [text, { searchText: { contains: digits } }] } : text);
  }
  if (f.status) and.push({ status: f.status });
  if (f.segmentId) and.push({ segmentId: f.segmentId });
  if (f.externalId) and.push({ externalId: f.externalId });
  // An exact e-mail in any case: the containment is served by search_text's trigram index, the
  // equality then keeps the one match. The list narrows by the (tenant, lower(email)) index first
  // (email-match.ts), which at ten million customers costs a probe where the trigrams cost 1 s.
  if (f.email) {
    and.push({ searchText: { contains: likeEscape(f.email), mode: 'insensitive' } });
    // Prisma says an insensitive equals as ILIKE, where _ and % are wildcards: escaped.
    and.push({ email: { equals: likeEscape(f.email), mode: 'insensitive' } });
  }
  if (f.country) and.push({ country: f.country });
  if (f.createdAfter || f.createdBefore) {
    and.push({ createdAt: { gte: f.createdAfter, lt: f.createdBefore } });
    // created_at is the id's own instant (create-customer), so the window bounds the id too: a
    // range of the (tenant, id) index, already in the list's order.
    and.push({
      id: {
        gte: f.createdAfter && idFloor(f.createdAfter),
        lt: f.createdBefore && idFloor(f.createdBefore),
      },
    });
  }
  if (f.registeredAfter || f.registeredBefore) {
    and.push({ platformRegisteredAt: { gte: f.registeredAfter, lt: f.registeredBefore } });
  }
  if (f.minCoins !== undefined || f.maxCoins !== undefined) {
    // A wallet's tenant is its customer's: naming it lets the coin filters' index, led by the
    // tenant, read the passing wallets as one range (at ten million customers a rare filter's
    // capped count took 1.2 s through a scan of every wallet, 78 ms through the range).
    and.push({
      wallet: {
        subBrandId,
        environment,
        balance: { gte: bigint(f.minCoins), lte: bigint(f.maxCoins) },
      },
    });
  }
  if (f.minOrders !== undefined || f.maxOrders !== undefined) {
    // The wire allows counts up to 2^53 - 1 (spec), the column is a 32-bit integer: a bound past
    // its range is decided here (no customer has that many orders) instead of overflowing the
    // query's parameter.
    if (f.minOrders !== undefined && f.minOrders > MAX_ORDER_COUNT) and.push({ id: { in: [] } });
    else {
      const max =
        f.maxOrders !== undefined && f.maxOrders < MAX_ORDER_COUNT ? f.maxOrders : undefined;
      and.push({ orderCount: { gte: f.minOrders, lte: max } });
    }
  }
  return { AND: and };
}

/**
 * The digits of a search that looks like a phone number (digits with +, spaces, dots, dashes,
 * slashes or brackets, at least 3 digits), as search_text keeps phones; undefined otherwise, or
 * when the search is digits already (the text term finds them).
 */
export function phoneDigits(q: string): string | undefined {
  if (!/^[+\d\s().\-/]+$/.test(q)) return undefined;
  const digits = q.replace(/\D/g, '');
  return digits.length >= 3 && digits !== q ? digits : undefined;
}

/**
 * customerWhere in SQL, for the planner's estimates: a big list's total (only asked once more
 * than 10,000 match) and how a first page is read (first-page.ts). The same conditions, over the
 * same columns and indexes.
 */
export function customerConditions(tenant: Tenant, f: CustomerFilter): Prisma.Sql[] {
  const and = tenantConditions(tenant);
  if (f.q) {
    const text = Prisma.sql`search_text ILIKE ${`%${likeEscape(f.q)}%`}`;
    const digits = phoneDigits(f.q);
    and.push(digits ? Prisma.sql`(${text} OR search_text LIKE ${`%${digits}%`})` : text);
  }
  if (f.status) and.push(Prisma.sql`status = ${f.status}::customer_status`);
  if (f.segmentId) and.push(Prisma.sql`segment_id = ${f.segmentId}`);
  if (f.externalId) and.push(Prisma.sql`external_id = ${f.externalId}`);
  if (f.email) and.push(Prisma.sql`lower(email) = lower(${f.email})`);
  if (f.country) and.push(Prisma.sql`country = ${f.country}`);
  if (f.createdAfter) and.push(Prisma.sql`created_at >= ${f.createdAfter}`);
  if (f.createdBefore) and.push(Prisma.sql`created_at < ${f.createdBefore}`);
  if (f.registeredAfter) and.push(Prisma.sql`platform_registered_at >= ${f.registeredAfter}`);
  if (f.registeredBefore) and.push(Prisma.sql`platform_registered_at < ${f.registeredBefore}`);
  // The wire allows counts past the integer column's range (customerWhere): compared as bigint.
  if (f.minOrders !== undefined) and.push(Prisma.sql`order_count >= ${f.minOrders}::bigint`);
  if (f.maxOrders !== undefined) and.push(Prisma.sql`order_count <= ${f.maxOrders}::bigint`);
  const coins = walletConditions(tenant, f);
  if (coins) {
    and.push(
      Prisma.sql`EXISTS (SELECT 1 FROM wallets WHERE customer_id = customers.id AND ${Prisma.join(coins, ' AND ')})`,
    );
  }
  return and;
}

/** A table's rows of the tenant, in SQL (the columns unqualified). */
export const tenantConditions = (tenant: Tenant) => [
  Prisma.sql`sub_brand_id = ${tenant.subBrandId}::uuid`,
  Prisma.sql`environment = ${tenant.environment}::environment`,
];

/**
 * The wallets a coin filter passes, in SQL over `wallets`, or null without a coin bound. The
 * columns are unqualified: inside customerConditions' EXISTS they name the wallet's, its FROM
 * being the nearest. A wallet's tenant is its customer's; naming it lets the coin index, led by
 * the tenant, read the passing wallets as one range (customerWhere says what that saved).
 */
export function walletConditions(tenant: Tenant, f: CustomerFilter): Prisma.Sql[] | null {
  if (f.minCoins === undefined && f.maxCoins === undefined) return null;
  const and = tenantConditions(tenant);
  if (f.minCoins !== undefined) and.push(Prisma.sql`balance >= ${f.minCoins}`);
  if (f.maxCoins !== undefined) and.push(Prisma.sql`balance <= ${f.maxCoins}`);
  return and;
}

/** customers.order_count is a PostgreSQL integer. */
const MAX_ORDER_COUNT = 2 ** 31 - 1;

const bigint = (value: number | undefined) => (value === undefined ? undefined : BigInt(value));

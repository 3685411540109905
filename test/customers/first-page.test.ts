// How a customer list's first page is read (domain/customers/first-page.ts): by tenant when the
// tenant's newest customers fill it quickly, as the planner chooses when a filter is selective or
// positioned by an index of its own. Either way the rows are the same: list.test.ts checks them.
// Here, the choice, from the planner's estimates after ANALYZE, on a database of this test's own
// (the estimates read the whole table's statistics).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerList } from '../../src/domain/customers/customer-list.js';
import { customerConditions, customerWhere } from '../../src/domain/customers/customer-where.js';
import { exportCustomers } from '../../src/domain/customers/export-customers.js';
import {
  fewWalletsMatching,
  matchingIds,
  readsByTenant,
  tenantRange,
  walkedMatches,
} from '../../src/domain/customers/first-page.js';
import type { CustomerFilter } from '../../src/domain/customers/schemas.js';
import { newId } from '../../src/domain/ids.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let tenant: Tenant;

beforeAll(async () => {
  h = await startHarness({ ownDatabase: true });
  tenant = { subBrandId: (await createTenant(h.db.prisma)).subBrandId, environment: 'live' };
  // 3,000 customers: all but 3 in Spain, a third of them watched, 3 in Andorra; customer i holds
  // i coins, but the newest 100 have no wallet.
  const ids = Array.from({ length: 3000 }, () => newId());
  await h.db.prisma.customer.createMany({
    data: ids.map((id, i) => ({
      id,
      ...tenant,
      firstName: `F${i}`,
      lastName: 'Plan',
      country: i < 3 ? 'AD' : 'ES',
      status: i % 3 === 0 ? ('watch' as const) : ('active' as const),
      statusChangedAt: new Date(),
    })),
  });
  await h.db.prisma.wallet.createMany({
    data: ids.slice(0, 2900).map((customerId, i) => ({ customerId, ...tenant, balance: i })),
  });
  await h.db.prisma.$executeRawUnsafe('ANALYZE customers');
  await h.db.prisma.$executeRawUnsafe('ANALYZE wallets');
});
afterAll(() => h.close());

/** The first names of these customers, in the order given (null stays null). */
async function names(ids: string[] | null) {
  if (!ids) return null;
  const rows = await h.db.prisma.customer.findMany({
    where: { id: { in: ids } },
    select: { id: true, firstName: true },
  });
  return ids.map((id) => rows.find((r) => r.id === id)?.firstName);
}

/** A filter's first page as the list reads it, and as the planner alone would (the same rows). */
async function firstPages(filter: CustomerFilter, take: number) {
  const list = await customerList(h.db.prisma, tenant, filter);
  const page = await h.db.prisma.customer.findMany({
    ...(await list.page(h.db.prisma, undefined, take)),
    take,
    select: { id: true },
  });
  const plain = await h.db.prisma.customer.findMany({
    where: customerWhere(tenant, filter),
    orderBy: { id: 'desc' },
    take,
    select: { id: true },
  });
  return { page, plain };
}

describe('readsByTenant', () => {
  it.each([
    ['no filter', {}, true],
    ['a country most customers have', { country: 'ES' }, true],
    ['a status a third have', { status: 'watch' as const }, true],
    ['a country one in a thousand have', { country: 'AD' }, false],
    ['a country no one has', { country: 'FR' }, false],
    ['a text search', { q: 'F1' }, false],
    ['an external id', { externalId: 'x' }, false],
    ['an e-mail', { email: 'a@b.es' }, false],
    ['a registration window', { registeredAfter: new Date(0) }, false],
    ['coins most customers have', { minCoins: 100 }, true],
    ['coins one in 300 has', { minCoins: 2890 }, false],
  ])('%s', async (_name, filter, expected) => {
    expect(await readsByTenant(h.db.prisma, tenant, filter)).toBe(expected);
  });
});

describe('a page read by walking the newest (or oldest) customers (text search)', () => {
  const walk = (q: string, take: number, order: 'asc' | 'desc' = 'desc', skip = 0) =>
    walkedMatches(h.db.prisma, tenant, customerConditions(tenant, { q }), { order, skip, take });

  it('answers when the walk fills the page, and only then', async () => {
    // take 2: at most the newest 800 customers (F2999 … F2200) are walked.
    expect(await names(await walk('plan', 2))).toEqual(['F2999', 'F2998']);
    expect(await names(await walk('F27', 2))).toEqual(['F2799', 'F2798']);
    expect(await names(await walk('F22', 2))).toEqual(['F2299', 'F2298']);
    // One match among them: an older one may exist, so no answer.
    expect(await walk('F2999', 2)).toBeNull();
    // None among them (F1, F10 … F1999 are older).
    expect(await walk('F1', 2)).toBeNull();
    // take 8: the walk's bound (3,200) holds the whole tenant: the answer is complete.
    expect(await names(await walk('F1999', 8))).toEqual(['F1999']);
    expect(await walk('nobody', 8)).toEqual([]);
  });

  it('walks from the oldest, and past the pages before', async () => {
    expect(await names(await walk('F1', 2, 'asc'))).toEqual(['F1', 'F10']);
    expect(await names(await walk('plan', 2, 'desc', 2))).toEqual(['F2997', 'F2996']);
    // A page deeper than the walk answers is left to the planner.
    expect(await walk('plan', 20, 'desc', 300)).toBeNull();
  });

  it('walks from past a cursor, either way, and bounds the walk from there', async () => {
    const [f2500] = await h.db.prisma.customer.findMany({ where: { firstName: 'F2500' } });
    const past = (q: string, take: number, order: 'asc' | 'desc') =>
      walkedMatches(h.db.prisma, tenant, customerConditions(tenant, { q }), {
        order,
        skip: 0,
        take,
        after: f2500!.id,
      });
    expect(await names(await past('plan', 2, 'desc'))).toEqual(['F2499', 'F2498']);
    expect(await names(await past('plan', 2, 'asc'))).toEqual(['F2501', 'F2502']);
    expect(await names(await past('F24', 2, 'desc'))).toEqual(['F2499', 'F2498']);
    // The 800 walked past F2500 (F2499 … F1700) hold no F1 but F17xx: no answer.
    expect(await past('F16', 2, 'desc')).toBeNull();
    expect(await names(await past('F25', 3, 'asc'))).toEqual(['F2501', 'F2502', 'F2503']);
  });

  it('reads ids past a cursor by any conditions (matchingIds)', async () => {
    const [f2500] = await h.db.prisma.customer.findMany({ where: { firstName: 'F2500' } });
    const conditions = customerConditions(tenant, { q: 'F25' });
    const after = f2500!.id;
    const read = (order: 'asc' | 'desc') =>
      matchingIds(h.db.prisma, conditions, { order, skip: 1, take: 2, after });
    expect(await names(await read('desc'))).toEqual(['F258', 'F257']); // F259 skipped
    expect(await names(await read('asc'))).toEqual(['F2502', 'F2503']);
  });

  it.each<[string, CustomerFilter, number]>([
    ['many matches', { q: 'plan' }, 3],
    ['newest matches', { q: 'F29' }, 5],
    ['one old match', { q: 'F17' }, 2],
    ['text and status', { q: 'F2', status: 'watch' }, 4],
    ['no match', { q: 'nobody' }, 2],
    ['the whole tenant in the window', { q: 'F1' }, 30],
  ])('the page is the planner’s page: %s', async (_name, filter, take) => {
    const { page, plain } = await firstPages(filter, take);
    expect(page).toEqual(plain);
  });
});

describe('a first page read from the wallets (a rare coin filter)', () => {
  it('answers when the planner expects few wallets to pass, and only with a coin filter', async () => {
    const ids = await fewWalletsMatching(h.db.prisma, tenant, { minCoins: 2890 }, 4);
    // The newest 100 (F2900 …) have no wallet.
    expect(await names(ids)).toEqual(['F2899', 'F2898', 'F2897', 'F2896']);
    expect(await fewWalletsMatching(h.db.prisma, tenant, { country: 'AD' }, 4)).toBeNull();
    // An external id's own index narrows it to one customer.
    expect(
      await fewWalletsMatching(h.db.prisma, tenant, { minCoins: 2890, externalId: 'x' }, 4),
    ).toBeNull();
    // The list's first page is read from them; a common coin filter's is read by tenant.
    const rare = await customerList(h.db.prisma, tenant, { minCoins: 2890 });
    expect((await rare.page(h.db.prisma, undefined, 4)).where).toEqual({
      ...tenant,
      id: { in: ids },
    });
    const common = await customerList(h.db.prisma, tenant, { minCoins: 100 });
    expect((await common.page(h.db.prisma, undefined, 4)).orderBy).toEqual(tenantRange('desc'));
  });

  it.each<[string, CustomerFilter, number, number]>([
    ['a rare minimum', { minCoins: 2890 }, 26, 10],
    ['a rare minimum, more than the page', { minCoins: 2890 }, 3, 3],
    ['a rare maximum', { maxCoins: 5 }, 26, 6],
    ['a narrow range', { minCoins: 1000, maxCoins: 1004 }, 26, 5],
    ['a range no wallet is in', { minCoins: 5000 }, 26, 0],
    ['a rare minimum and a status', { minCoins: 2850, status: 'watch' }, 26, 17],
    ['a rare minimum and a country none of them has', { minCoins: 2890, country: 'AD' }, 26, 0],
    ['a rare minimum and a text', { minCoins: 2890, q: 'F2895' }, 26, 1],
  ])('the page is the planner’s page: %s', async (_name, filter, take, rows) => {
    const { page, plain } = await firstPages(filter, take);
    expect(page).toEqual(plain);
    expect(page).toHaveLength(rows);
  });
});

// The CSV export reads its first page as the list does, then keyset pages of 500 after it.
describe('the export, page after page', () => {
  it.each<[string, CustomerFilter]>([
    ['no filter', {}],
    ['a common country', { country: 'ES' }],
    ['a text search', { q: 'F2' }],
    ['a rare coin filter', { minCoins: 2800 }],
  ])('%s: every match once, newest first', async (_name, filter) => {
    const exported: string[] = [];
    for await (const page of exportCustomers(h.db.prisma, tenant, filter))
      exported.push(...page.map((c) => c.id));
    const expected = await h.db.prisma.customer.findMany({
      where: customerWhere(tenant, filter),
      orderBy: { id: 'desc' },
      select: { id: true },
    });
    expect(exported).toEqual(expected.map((c) => c.id));
  });
});

// A text search whose rare part admits too many customers to read by id (more than the probe's
// 1,000 candidates, domain/customers/text-match.ts), and whose matches the tenant's newest
// customers do not hold (so the walk of first-page.ts finds no page): its count and its pages are
// read with only its rare part given to the trigram index, the whole of q checked on each row
// (rareFirst). The same customers, the same totals, in the same order as q's own condition finds.
// Its own database: which trigrams are common is read from the table's statistics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerList } from '../../src/domain/customers/customer-list.js';
import { customerWhere } from '../../src/domain/customers/customer-where.js';
import type { CustomerFilter } from '../../src/domain/customers/schemas.js';
import { searchPlayers } from '../../src/domain/customers/search-players.js';
import { rarePart, textMatches } from '../../src/domain/customers/text-match.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

let h: Harness;
let tenant: Tenant;
let admin: StaffClient;

beforeAll(async () => {
  h = await startHarness({ ownDatabase: true });
  tenant = { subBrandId: (await createTenant(h.db.prisma)).subBrandId, environment: 'test' };
  admin = await signInAs(h.url, (await createStaff(h.db.prisma, 'platform_admin')).email);
  // 14,000 customers, ids in the order of g (the oldest first), "Common …" or (one in three)
  // "Other …"; among the oldest 6,000, one in five "… Zqx<g>". "zqx" is the only rare trigram
  // of q = "common zqx" (1,200 rows hold it, too many for the probe); 800 rows match q, none of
  // them among the newest 8,000.
  await h.db.prisma.$executeRaw`
    INSERT INTO customers (id, sub_brand_id, environment, first_name, last_name, status, status_changed_at)
    SELECT ('00000000-0000-7000-8000-' || lpad(to_hex(g), 12, '0'))::uuid,
           ${tenant.subBrandId}::uuid, 'test',
           CASE WHEN g % 3 = 0 THEN 'Other' ELSE 'Common' END,
           CASE WHEN g % 5 = 0 AND g <= 6000 THEN 'Zqx' || g ELSE 'Last' || g END,
           CASE WHEN g % 2 = 0 THEN 'watch' ELSE 'active' END::customer_status, now()
    FROM generate_series(1, 14000) g`;
  await h.db.prisma.$executeRawUnsafe('ANALYZE customers');
});
afterAll(() => h.close());

const plainCount = (filter: CustomerFilter) =>
  h.db.prisma.customer.count({ where: customerWhere(tenant, filter) });
const plainIds = async (
  filter: CustomerFilter,
  order: 'asc' | 'desc',
  skip: number,
  take: number,
) =>
  (
    await h.db.prisma.customer.findMany({
      where: customerWhere(tenant, filter),
      orderBy: { id: order },
      skip,
      take,
      select: { id: true },
    })
  ).map((r) => r.id);

const FILTERS: CustomerFilter[] = [
  { q: 'common zqx' },
  { q: 'COMMON ZQX1' },
  { q: 'common zqx', status: 'watch' },
];

describe('a text whose rare part admits too many to read by id', () => {
  it('is such a text here', async () => {
    expect(await rarePart(h.db.prisma, 'common zqx')).toMatchObject({ pattern: '%zqx%' });
    expect(await textMatches(h.db.prisma, tenant, 'common zqx')).toBeNull();
    expect(await plainCount({ q: 'common zqx' })).toBe(800);
  });

  it.each(FILTERS)('the list counts and pages it as its own condition does: %o', async (filter) => {
    const list = await customerList(h.db.prisma, tenant, filter);
    expect(await list.countUpTo(h.db.prisma, 20_000)).toBe(await plainCount(filter));
    expect(await list.countUpTo(h.db.prisma, 100)).toBe(Math.min(100, await plainCount(filter)));
    for (const take of [2, 30]) {
      const page = await h.db.prisma.customer.findMany({
        ...(await list.page(h.db.prisma, undefined, take)),
        take,
        select: { id: true },
      });
      expect(page.map((r) => r.id)).toEqual(await plainIds(filter, 'desc', 0, take));
    }
  });

  it.each([...FILTERS, { q: 'other' }, { q: 'common last1' }])(
    'the list pages past a cursor as its own condition does: %o',
    async (filter) => {
      // Past the cursor a text is read as a first page is: its rare part, or the walk of the
      // customers past the cursor (`other` and `common last1` have no rare part).
      const list = await customerList(h.db.prisma, tenant, filter);
      const take = 30;
      const seen: string[] = [];
      for (let cursor: string | undefined; seen.length < 40 * take;) {
        const page = await h.db.prisma.customer.findMany({
          ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}), // as the GraphQL connection asks
          ...(await list.page(h.db.prisma, cursor, take)),
          take,
          select: { id: true },
        });
        seen.push(...page.map((r) => r.id));
        if (page.length < take) break;
        cursor = page.at(-1)!.id;
      }
      expect(seen).toEqual(await plainIds(filter, 'desc', 0, seen.length));
      expect(seen.length).toBe(Math.min(40 * take, await plainCount(filter)));
    },
  );

  it.each([...FILTERS, { q: 'other' }])(
    'the list pages backwards from a cursor, and from the oldest, as its own condition does: %o',
    async (filter) => {
      const list = await customerList(h.db.prisma, tenant, filter);
      const all = await plainIds(filter, 'desc', 0, 20_000);
      // As the GraphQL connection asks for `last: 30` (one more, to know of a previous page),
      // `before` a cursor or not.
      for (const cursor of [all[100]!, all.at(-40)!, undefined]) {
        const asked: { cursor?: { id: string }; skip?: number } = cursor
          ? { cursor: { id: cursor }, skip: 1 }
          : {};
        const page = await h.db.prisma.customer.findMany({
          ...asked,
          ...(await list.page(h.db.prisma, cursor, -31)),
          take: -31,
          select: { id: true },
        });
        const plain = await h.db.prisma.customer.findMany({
          ...asked,
          where: customerWhere(tenant, filter),
          orderBy: { id: 'desc' },
          take: -31,
          select: { id: true },
        });
        expect(page).toEqual(plain);
        expect(page).toHaveLength(31);
      }
    },
  );

  it.each(FILTERS)('the player search pages it as its own condition does: %o', async (filter) => {
    for (const [page, order] of [
      [1, 'desc'],
      [2, 'desc'],
      [1, 'asc'],
      [7, 'asc'],
    ] as const) {
      const input = {
        search: filter.q,
        statuses: filter.status && [filter.status],
        page,
        limit: 20,
        order,
      };
      const found = await searchPlayers(h.db.prisma, tenant, input);
      const rows = await h.db.prisma.customer.findMany({
        where: found.where,
        orderBy: found.orderBy,
        skip: found.skip,
        take: found.limit,
        select: { id: true },
      });
      expect(rows.map((r) => r.id)).toEqual(await plainIds(filter, order, (page - 1) * 20, 20));
      expect(found.total).toBe(await plainCount(filter));
    }
  });

  it('the backoffice shows its total', async () => {
    const res = await admin.gql(
      `query($filter: CustomerFilter, $subBrandId: ID) {
        customers(filter: $filter, subBrandId: $subBrandId, first: 2) { total { value exact } } }`,
      { filter: { q: 'Common Zqx' }, subBrandId: tenant.subBrandId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.customers.total).toEqual({ value: 800, exact: true });
  });

  it('the backoffice pages it forwards and back by cursor', async () => {
    const page = async (args: string, variables: Record<string, unknown>) => {
      const res = await admin.gql(
        `query($filter: CustomerFilter, $subBrandId: ID${Object.keys(variables)
          .map((v) => `, $${v}: String`)
          .join('')}) {
          customers(filter: $filter, subBrandId: $subBrandId, ${args}) {
            edges { node { id } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }`,
        { filter: { q: 'common zqx' }, subBrandId: tenant.subBrandId, ...variables },
      );
      expect(res.body.errors).toBeUndefined();
      const { edges, pageInfo } = res.body.data.customers;
      return { ids: edges.map((e: { node: { id: string } }) => e.node.id), pageInfo };
    };
    const expected = await plainIds({ q: 'common zqx' }, 'desc', 0, 9);
    const one = await page('first: 3', {});
    const two = await page('first: 3, after: $after', { after: one.pageInfo.endCursor });
    const three = await page('first: 3, after: $after', { after: two.pageInfo.endCursor });
    expect([...one.ids, ...two.ids, ...three.ids]).toEqual(expected);
    expect(three.pageInfo.hasNextPage).toBe(true);
    const back = await page('last: 3, before: $before', { before: three.pageInfo.startCursor });
    expect(back.ids).toEqual(two.ids);
    expect(back.pageInfo.hasPreviousPage).toBe(true);
    const first = await page('last: 3, before: $before', { before: back.pageInfo.startCursor });
    expect(first.ids).toEqual(one.ids);
    expect(first.pageInfo.hasPreviousPage).toBe(false);
  });
});

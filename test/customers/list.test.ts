import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { customerWhere } from '../../src/domain/customers/customer-where.js';
import { moveCoins } from '../../src/domain/ledger/move-coins.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { createStaff, signInAs } from '../support/staff.js';

let h: Harness;
let p: Awaited<ReturnType<typeof partner>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness();
  p = await partner(h);
  const tenant = { subBrandId: p.subBrandId, environment: 'test' as const };
  const make = async (name: string, fields: Record<string, unknown>, coins = 0, orders = 0) => {
    const c = await createCustomer(h.db.prisma, tenant, {
      firstName: name,
      lastName: 'Test',
      ...fields,
    });
    if (coins)
      await moveCoins(
        h.db.prisma,
        tenant,
        { customerId: c.id, delta: coins, reason: null },
        { source: 'api', apiKeyId: null, requestId: null },
      );
    if (orders)
      await h.db.prisma.customer.update({ where: { id: c.id }, data: { orderCount: orders } });
    ids[name] = c.id;
  };
  await make(
    'Alba',
    {
      email: 'alba@casino.es',
      country: 'ES',
      segmentId: 'vip',
      platformRegisteredAt: '2024-01-01T00:00:00Z',
    },
    500,
    3,
  );
  await make(
    'Bruno',
    {
      externalId: 'EXT-Bruno_1',
      country: 'PT',
      status: 'watch',
      platformRegisteredAt: '2024-06-01T00:00:00Z',
    },
    50,
    0,
  );
  await make(
    'Carla',
    { email: 'carla@mail.it', country: 'IT', segmentId: 'vip', status: 'banned' },
    0,
    10,
  );
  await make('Dario', { lastName: 'Percent%Name', country: 'ES' }, 1000, 1);
});
afterAll(() => h.close());

const names = (res: { body: any }) =>
  res.body.data.map((c: { first_name: string }) => c.first_name);
const list = (query: string) => p.get(`/api/v1/customers${query}`);

describe('GET /api/v1/customers filters', () => {
  it('lists newest first with coin balance and order count', async () => {
    const res = await list('');
    expect(names(res)).toEqual(['Dario', 'Carla', 'Bruno', 'Alba']);
    expect(res.body.data[0]).toMatchObject({ coin_balance: 1000, order_count: 1 });
  });

  it.each([
    ['?q=ALBA', ['Alba']],
    ['?q=casino.ES', ['Alba']],
    ['?q=ext-bruno', ['Bruno']],
    ['?q=test', ['Carla', 'Bruno', 'Alba']],
    ['?q=%25', ['Dario']], // a literal %, not a wildcard
    ['?q=_', ['Bruno']], // a literal _, not a wildcard
    ['?email=ALBA@Casino.ES', ['Alba']], // any case
    ['?email=alb_@casino.es', []], // exact: _ is not a wildcard
    ['?email=alba@casino', []], // the whole address, not a part
    ['?status=watch', ['Bruno']],
    ['?segment_id=vip', ['Carla', 'Alba']],
    ['?country=ES', ['Dario', 'Alba']],
    ['?min_coins=50', ['Dario', 'Bruno', 'Alba']],
    ['?max_coins=50', ['Carla', 'Bruno']],
    ['?min_coins=50&max_coins=500', ['Bruno', 'Alba']],
    ['?min_orders=1', ['Dario', 'Carla', 'Alba']],
    ['?max_orders=0', ['Bruno']],
    ['?registered_after=2024-01-01T00:00:00Z', ['Bruno', 'Alba']], // inclusive
    ['?registered_before=2024-06-01T00:00:00Z', ['Alba']], // exclusive
    ['?registered_after=2030-01-01T00:00:00Z', []], // an empty window
    ['?registered_after=2024-01-01T00:00:00Z&registered_before=2024-01-01T00:00:00.001Z', ['Alba']],
    ['?country=ES&segment_id=vip&min_coins=100', ['Alba']],
    ['?q=a&status=banned', ['Carla']],
  ])('%s', async (query, expected) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(expected);
  });

  it('created window: after inclusive, before exclusive', async () => {
    const carla = (await p.get(`/api/v1/customers/${ids.Carla}`)).body.data.created_at;
    expect(names(await list(`?created_after=${carla}`))).toEqual(['Dario', 'Carla']);
    expect(names(await list(`?created_before=${carla}`))).toEqual(['Bruno', 'Alba']);
  });

  it.each([
    ['q=', 'q'],
    [`q=${'x'.repeat(201)}`, 'q'],
    ['status=gold', 'status'],
    [`segment_id=${'x'.repeat(37)}`, 'segment_id'],
    ['country=Spain', 'country'],
    ['created_after=yesterday', 'created_after'],
    ['registered_before=2024-01-01', 'registered_before'],
    ['min_coins=1.5', 'min_coins'],
    ['max_coins=lots', 'max_coins'],
    ['min_coins=99999999999999999', 'min_coins'],
    ['min_orders=-1', 'min_orders'],
    ['max_orders=x', 'max_orders'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['cursor=nope', 'cursor'],
    // A text's later pages are read in SQL of their own (first-page.ts): a cursor we did not
    // issue, or one naming no uuid (GPC:S:nope), is refused there too.
    ['q=walk&cursor=nope', 'cursor'],
    ['q=walk&cursor=R1BDOlM6bm9wZQ', 'cursor'],
    ['cursor=R1BDOlM6bm9wZQ', 'cursor'],
    ['colour=red', 'colour'],
    ['status=active&status=banned', 'status'],
  ])('?%s is 400 naming %s', async (query, field) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(`${field}:`);
  });
});

describe('cursor walk', () => {
  it('walks a registration window page by page: every match once, newest first', async () => {
    const walker = await partner(h);
    const tenant = { subBrandId: walker.subBrandId, environment: 'test' as const };
    // Registration order unlike creation order, so the window's matches are scattered among ids.
    const day = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString();
    for (let i = 0; i < 60; i++) {
      await createCustomer(h.db.prisma, tenant, {
        firstName: `R${i}`,
        lastName: 'Window',
        platformRegisteredAt: day((i * 37) % 60),
      });
    }
    const expected = (
      await h.db.prisma.customer.findMany({
        where: { ...tenant, platformRegisteredAt: { gte: day(10), lt: day(30) } },
        orderBy: { id: 'desc' },
        select: { id: true },
      })
    ).map((c) => c.id);
    expect(expected).toHaveLength(20);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: any } = await walker.get(
        `/api/v1/customers?registered_after=${day(10)}&registered_before=${day(30)}&limit=7` +
          (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''),
      );
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected);
  });

  it('walks a text search page by page: every match once, newest first', async () => {
    const walker = await partner(h);
    const tenant = { subBrandId: walker.subBrandId, environment: 'test' as const };
    for (let i = 0; i < 90; i++) {
      await createCustomer(h.db.prisma, tenant, {
        firstName: `T${i}`,
        lastName: i % 3 ? 'Texted' : 'Other',
      });
    }
    const expected = (
      await h.db.prisma.customer.findMany({
        where: { ...tenant, lastName: 'Texted' },
        orderBy: { id: 'desc' },
        select: { id: true },
      })
    ).map((c) => c.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: any } = await walker.get(
        `/api/v1/customers?q=texted&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    expect(seen).toHaveLength(60);
  });

  it('walks a few hundred customers with no duplicates and no gaps while others are created', async () => {
    const walker = await partner(h);
    const tenant = { subBrandId: walker.subBrandId, environment: 'test' as const };
    for (let i = 0; i < 300; i++)
      await createCustomer(h.db.prisma, tenant, { firstName: `W${i}`, lastName: 'Walk' });
    const before = (
      await h.db.prisma.customer.findMany({ where: tenant, select: { id: true } })
    ).map((c) => c.id);
    let inserting = true;
    const inserter = (async () => {
      for (let i = 0; inserting && i < 300; i++)
        await createCustomer(h.db.prisma, tenant, { firstName: `N${i}`, lastName: 'New' });
    })();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: any } = await walker.get(
        `/api/v1/customers?limit=17${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.page.next_cursor;
    } while (cursor);
    inserting = false;
    await inserter;
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
    expect([...seen].sort().reverse()).toEqual(seen);
  });
});

// A first page reads the tenant-led indexes with the tenant named as a range
// (customer-where.ts, tenantRange); a page after a cursor, as an equality. Both must give the
// tenant's own customers in id order, with another sub-brand's customers newer than all of
// them (the layout that made PostgreSQL walk the primary key past the newer ones).
describe('first page and later pages beside a newer sub-brand', () => {
  it('lists its own customers newest first, filtered, and in GraphQL from either end', async () => {
    const newer = await partner(h);
    for (let i = 0; i < 5; i++) await newer.customer({ first_name: `Newer${i}`, country: 'ES' });
    expect(names(await list(''))).toEqual(['Dario', 'Carla', 'Bruno', 'Alba']);
    expect(names(await list('?country=ES'))).toEqual(['Dario', 'Alba']);
    expect(names(await list('?q=a&min_coins=1'))).toEqual(['Dario', 'Alba']);
    const first = await list('?limit=3');
    expect(names(first)).toEqual(['Dario', 'Carla', 'Bruno']);
    const next = await list(`?limit=3&cursor=${encodeURIComponent(first.body.page.next_cursor)}`);
    expect(names(next)).toEqual(['Alba']);
    expect(next.body.page.next_cursor).toBeNull();

    const operator = await signInAs(
      h.url,
      (await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: p.subBrandId }))
        .email,
    );
    const gql = async (args: string) => {
      const res = await operator.gql(`{ customers(${args}) { edges { node { firstName } } } }`);
      expect(res.status).toBe(200);
      return res.body.data.customers.edges.map((e: any) => e.node.firstName);
    };
    expect(await gql('first: 2')).toEqual(['Dario', 'Carla']);
    expect(await gql('last: 2')).toEqual(['Bruno', 'Alba']);
    expect(await gql('last: 2, filter: { country: "ES" }')).toEqual(['Dario', 'Alba']);
  });
});

// The e-mail filter outside the list (a bulk adjustment's cohort, the CSV export) reads
// customerWhere alone, without the list's narrowing by the e-mail's index: exact there too.
describe('customerWhere e-mail', () => {
  it('is exact in any case: _ and % in the address are not wildcards', async () => {
    const owner = await partner(h);
    const tenant = { subBrandId: owner.subBrandId, environment: 'test' as const };
    // search_text holds the external id too, so the containment alone would let it through.
    await createCustomer(h.db.prisma, tenant, {
      firstName: 'Wild',
      lastName: 'Card',
      email: 'albx@casino.es',
      externalId: 'alb_@casino.es',
    });
    const count = (email: string) =>
      h.db.prisma.customer.count({ where: customerWhere(tenant, { email }) });
    expect(await count('ALBX@Casino.es')).toBe(1);
    expect(await count('alb_@casino.es')).toBe(0);
    expect(await count('alb%@casino.es')).toBe(0);
  });
});

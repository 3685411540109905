// `search` (the backoffice's ⌘K): every kind, inside the caller's tenant only, each kind only
// with its read scope, short searches refused; the Orders screen's `orders(filter: { q })`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { search as searchDomain } from '../../src/domain/search/search.js';
import { backoffice, shop } from '../orders/support.js';
import { call, startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

let h: Harness;
let bo: Awaited<ReturnType<typeof backoffice>>;
let mine: Awaited<ReturnType<typeof shop>>;
let other: Awaited<ReturnType<typeof shop>>;
let player: string;
let operator: StaffClient;
let platform: StaffClient;
let order: { id: string; reservationId: string; itemId: string; reference: string | null };
const tag = newId().slice(-6).toUpperCase();

// Partner keys have the REST API; GraphQL is the backoffice's: staff sign in.
const gql = (who: StaffClient, query: string, variables: Record<string, unknown> = {}) =>
  who.gql(query, variables, { subBrandId: mine.subBrandId });

const SEARCH = `query($q: String!, $first: Int) { search(query: $q, first: $first) {
  query searched hits { kind id title subtitle url } } }`;
const search = async (who: StaffClient, q: string, first?: number) => {
  const res = await gql(who, SEARCH, { q, first });
  return res.body as {
    data?: { search: { searched: string[]; hits: { kind: string; id: string; url: string }[] } };
    errors?: { message: string; extensions: { code: string } }[];
  };
};
const hitsOf = async (who: StaffClient, q: string) => (await search(who, q)).data!.search.hits;

async function placeOrder(s: typeof mine, customer: string) {
  const res = await s.order({
    customer_id: customer,
    listing_market_id: s.listing.listing_market_id,
    recipient_name: 'Ana García',
    shipping_address: 'Calle Mayor 1, 28013 Madrid',
  });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
  const data = res.body.data;
  const row = await h.db.prisma.order.findUniqueOrThrow({ where: { id: data.id } });
  return {
    id: data.id as string,
    reservationId: data.reservation_id as string,
    itemId: data.items[0].id as string,
    reference: row.reference,
  };
}

beforeAll(async () => {
  h = await startHarness();
  bo = await backoffice(h);
  mine = await shop(h, { kind: 'physical', stock: 20, name: `Zephyr Lamp ${tag}` });
  other = await shop(h, { kind: 'physical', stock: 20, name: `Zephyr Lamp ${tag} other` });
  player = await mine.buyer(1_000_000, {
    first_name: 'Wilhelmina',
    last_name: `Quist${tag}`,
    email: `wq${tag}@casino.example`,
    external_id: `EXT-${tag}`,
    phone: '+34 611 22 33 44',
  });
  // The other sub-brand's player shares the name, the phone and the tracking code.
  const stranger = await other.buyer(1_000_000, {
    first_name: 'Wilhelmina',
    last_name: `Quist${tag}`,
    email: `wq${tag}@other.example`,
    external_id: `EXT-${tag}`,
    phone: '+34 611 22 33 44',
  });
  operator = await signInAs(
    h.url,
    (await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: mine.subBrandId }))
      .email,
  );
  platform = await signInAs(h.url, (await createStaff(h.db.prisma, 'platform_admin')).email);
  order = await placeOrder(mine, player);
  const strangers = await placeOrder(other, stranger);
  expect((await bo.track(order.itemId, 'Correos', `PK${tag}ES`)).body.errors).toBeUndefined();
  expect((await bo.track(strangers.itemId, 'Correos', `PK${tag}ES`)).body.errors).toBeUndefined();
  for (const [s, title] of [
    [mine, `Spring Marathon ${tag}`],
    [other, `Spring Marathon ${tag} other`],
  ] as const) {
    const now = Date.now();
    await h.db.prisma.campaign.create({
      data: {
        id: newId(),
        subBrandId: s.subBrandId,
        environment: 'test',
        title,
        startsAt: new Date(now + 86_400_000),
        endsAt: new Date(now + 7 * 86_400_000),
        type: 'tournament',
        termsAccepted: true,
        prizes: [],
      },
    });
  }
});
afterAll(() => h.close());

describe('search', () => {
  it('finds a player by name, e-mail, external id and phone typed any way, in its tenant only', async () => {
    for (const q of [
      `quist${tag}`,
      `Wilhelmina Quist${tag}`,
      `WQ${tag}@casino.example`,
      `EXT-${tag}`,
      '+34 611 22 33 44',
      '611223344',
      '611 22 33',
    ]) {
      const hits = (await hitsOf(operator, q)).filter((x) => x.kind === 'customer');
      expect(
        hits.map((x) => x.id),
        q,
      ).toEqual([player]);
      expect(hits[0]!.url).toBe(`/customers/${player}`);
    }
  });

  it('finds an order by id, reservation id, reference, tracking code and its customer, never the other tenant’s', async () => {
    const terms = [order.id, order.reservationId, `PK${tag}ES`, `pk${tag}es`, `EXT-${tag}`];
    if (order.reference) terms.push(order.reference, order.reference.toLowerCase());
    for (const q of terms) {
      const hits = (await hitsOf(operator, q)).filter((x) => x.kind === 'order');
      expect(
        hits.map((x) => x.id),
        q,
      ).toEqual([order.id]);
    }
    const [hit] = (await search(operator, `PK${tag}ES`)).data!.search.hits.filter(
      (x) => x.kind === 'order',
    );
    expect(hit).toMatchObject({
      url: `/orders/${order.id}`,
      subtitle: expect.stringContaining('pending'),
    });
  });

  it('finds the tenant’s listed products and campaigns by name, not another tenant’s', async () => {
    const hits = await hitsOf(operator, `lamp ${tag}`);
    expect(hits.filter((x) => x.kind === 'product').map((x) => x.id)).toEqual([
      mine.prize.productId,
    ]);
    const campaigns = (await hitsOf(operator, `marathon ${tag}`)).filter(
      (x) => x.kind === 'campaign',
    );
    expect(campaigns).toHaveLength(1);
    expect(campaigns[0]!.url).toMatch(/^\/campaigns\//);
    // An operator gets no product screen's path (the products screen is platform admins').
    expect(hits.find((x) => x.kind === 'product')!.url).toBeNull();
  });

  it('searches only the kinds the caller may read', async () => {
    // Every staff role holds the four read scopes; a caller without some is searched without them.
    const tenant = { subBrandId: mine.subBrandId, environment: 'test' as const };
    const ordersOnly = await searchDomain(
      h.db.prisma,
      { tenant, scopes: new Set(['orders:read']), platformAdmin: false },
      `EXT-${tag}`,
    );
    expect(ordersOnly.searched).toEqual(['order']);
    expect(ordersOnly.hits.map((x) => x.kind)).toEqual(['order']);
    const none = await searchDomain(
      h.db.prisma,
      { tenant, scopes: new Set(['customers:create']), platformAdmin: false },
      `EXT-${tag}`,
    );
    expect(none).toEqual({ query: `EXT-${tag}`, searched: [], hits: [] });
  });

  it('gives a platform admin the product screen’s path, in the chosen sub-brand only', async () => {
    const hits = await hitsOf(platform, `lamp ${tag}`);
    expect(hits.filter((x) => x.kind === 'product').map((x) => x.url)).toEqual([
      `/catalog/products/${mine.prize.productId}`,
    ]);
  });

  it('refuses a search shorter than 2 characters (or longer than 100) and a bad first', async () => {
    for (const q of ['', ' ', 'a', ' b ', 'x'.repeat(101)]) {
      const res = await search(operator, q);
      expect(res.errors![0]!.extensions.code, JSON.stringify(q)).toBe('invalid_request');
    }
    expect((await search(operator, 'ab', 0)).errors![0]!.extensions.code).toBe('invalid_request');
    expect((await search(operator, 'ab', 21)).errors![0]!.extensions.code).toBe('invalid_request');
    expect((await search(operator, 'ab')).data!.search.searched).toHaveLength(4);
  });

  it('escapes LIKE wildcards: % and _ match themselves', async () => {
    expect(await hitsOf(operator, '%%')).toEqual([]);
    expect(await hitsOf(operator, '__')).toEqual([]);
  });
});

describe('orders(filter: { q }) — the Orders screen and its CSV', () => {
  const ORDERS = `query($f: OrderFilter) { orders(filter: $f, first: 10) { edges { node { id } } } }`;
  const ids = async (filter: Record<string, unknown>) => {
    const res = await gql(operator, ORDERS, { f: filter });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.orders.edges.map((e: { node: { id: string } }) => e.node.id);
  };

  it('matches id, tracking code, external id and e-mail, combined with status and dates', async () => {
    expect(await ids({ q: order.id })).toEqual([order.id]);
    expect(await ids({ q: `PK${tag}ES` })).toEqual([order.id]);
    expect(await ids({ q: `ext-${tag}`.toUpperCase() })).toEqual([order.id]);
    expect(await ids({ q: `WQ${tag}@CASINO.example` })).toEqual([order.id]);
    expect(await ids({ q: `PK${tag}ES`, status: 'shipped' })).toEqual([]);
    expect(await ids({ q: `PK${tag}ES`, createdAfter: new Date(Date.now() + 60_000) })).toEqual([]);
    expect(await ids({ q: 'nothing-like-it' })).toEqual([]);
    const short = await gql(operator, ORDERS, { f: { q: 'a' } });
    expect(short.body.errors[0].extensions.code).toBe('invalid_request');
  });

  it('the CSV export takes the same q', async () => {
    const csv = await call(
      h.url,
      'GET',
      `/admin/api/orders.csv?subBrandId=${mine.subBrandId}&q=PK${tag}ES`,
      { headers: { cookie: operator.cookie } },
    );
    expect(csv.status, csv.text).toBe(200);
    const lines = csv.text.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(order.id);
    const short = await call(h.url, 'GET', `/admin/api/orders.csv?q=a`, {
      headers: { cookie: operator.cookie },
    });
    expect(short.status).toBe(400);
  });
});

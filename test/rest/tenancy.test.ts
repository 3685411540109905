// Cross-tenant isolation, generated from the route table: for every route of both families that
// addresses a record by id (in its path, or a record id in its body), another tenant's key and a
// live key of the same tenant get the family's not-found, never data. A new route is covered the
// day it is added; an id this test cannot resolve fails it, naming the id to add below.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalog,
  createStore,
  reviewCatalog,
} from '../../src/domain/catalog/author-catalog.js';
import { insertActivity } from '../../src/engine/campaigns/insert-activity.js';
import {
  createCampaign,
  updateCampaignStatus,
} from '../../src/engine/campaigns/manage-campaigns.js';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { jsonSchema } from '../../src/rest/openapi.js';
import type { Route } from '../../src/rest/route.js';
import { ROUTES } from '../../src/rest/table.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { shop } from '../orders/support.js';
import { eventWorkers } from '../support/events.js';

type JsonSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  minimum?: number;
  pattern?: string;
};

/** Text that fits a pattern, for the few patterned fields (currency, country, language). */
const PATTERNED = ['EUR', 'ES', 'en', 'Tenancy Check'];

/** Tenant A's records, by the name an id goes by. `env`: it belongs to one environment. */
type Fixture = Record<string, { id: string; env: boolean }>;

let h: Harness;
let a: Awaited<ReturnType<typeof shop>>;
let fixture: Fixture;
let other: string;
let live: string;
beforeAll(async () => {
  h = await startHarness();
  a = await shop(h);
  const customer = await a.buyer(10 * a.listing.coin_price);
  const order = await a.order({
    customer_id: customer,
    listing_market_id: a.listing.listing_market_id,
  });
  if (order.status !== 201) throw new Error(`order: ${order.text}`);
  const store = await createStore(h.db.prisma, {
    subBrandId: a.subBrandId,
    name: 'A store',
    slug: 'a-store',
  });
  const catalog = await createCatalog(h.db.prisma, {
    subBrandId: a.subBrandId,
    name: 'A proposal',
    productIds: [a.prize.productId],
  });
  await reviewCatalog(h.db.prisma, catalog.id, 'approved', null, new Date());
  const definition = await createDefinition(h.db.prisma, {
    subBrandId: a.subBrandId,
    code: 'a_only',
    points: 5,
  });
  // A running campaign of A's (test environment) with one award won by A's customer.
  const tenantA = { subBrandId: a.subBrandId, environment: 'test' as const };
  const campaign = await createCampaign(
    h.db.prisma,
    tenantA,
    {
      title: 'A only',
      type: 'daily_reward_simple',
      duration: 'custom',
      startDate: '2020-01-01',
      endDate: '2099-01-01',
      termsAccepted: true,
      prizes: [{ coinPrize: 5, catalogPrize: '', productPrize: '', quantity: 0, day: 0, rank: '' }],
    },
    new Date(),
  );
  await updateCampaignStatus(
    h.db.prisma,
    tenantA,
    campaign.id,
    { status: 'in_progress' },
    new Date(),
  );
  const won = await insertActivity(
    h.db.prisma,
    tenantA,
    { mode: 'campaign', player_id: customer, campaign_id: campaign.id },
    { now: new Date(), idempotencyKey: null },
  );
  const endpoint = await a.post('/api/v1/webhook-endpoints', {
    url: 'https://hooks.example.com/a',
  });
  if (endpoint.status !== 201) throw new Error(`endpoint: ${endpoint.text}`);
  const hold = await a.post(`/api/v1/customers/${customer}/coins/holds`, {
    amount: 1,
    expires_in_seconds: 86_400,
  });
  if (hold.status !== 201) throw new Error(`hold: ${hold.text}`);
  const bulk = await a.post('/api/v1/customers/bulk/coins', { all: true, delta: 1 });
  if (bulk.status !== 200) throw new Error(`bulk: ${bulk.text}`);
  await eventWorkers(h).drain(); // the feed shows relayed events
  const [event] = (await a.get('/api/v1/events')).body.data;
  const own = (id: string) => ({ id, env: false });
  const test = (id: string) => ({ id, env: true });
  fixture = {
    customers: test(customer),
    players: test(customer),
    customer: test(customer),
    player: test(customer),
    orders: test(order.body.data.id),
    // Establishment transactions are the same orders.
    transaction: test(order.body.data.id),
    product: own(a.prize.productId),
    'order-reservations': test(order.body.data.reservation_id),
    products: own(a.prize.productId),
    listingmarket: own(a.listing.listing_market_id),
    stores: own(store.id),
    catalogs: own(catalog.id),
    webhooks: own(definition.code),
    brands: own(a.brandId),
    'sub-brands': own(a.subBrandId),
    establishments: own(a.subBrandId),
    establishment: own(a.subBrandId),
    campaigns: test(campaign.id),
    campaign: test(campaign.id),
    award: test(won.results[0]!.award!.id),
    // /players/{playerId}/game/{gameName}/{campaignId}: the segment before a path id names it.
    game: own('wheel'),
    events: test(event.id),
    'webhook-endpoints': test(endpoint.body.data.id),
    endpoint: test(endpoint.body.data.id),
    holds: test(hold.body.data.id),
    'bulk-adjustments': test(bulk.body.data.id),
    '{gameName}': test(campaign.id),
  };
  other = (await partner(h)).key;
  live = await a.otherKey({ env: 'live' });
});
afterAll(() => h.close());

/** The fixture name of a body field holding a record id (`customer_id`, `playerId`…). */
const recordOf = (field: string) =>
  field
    .replace(/_?ids?$/i, '')
    .replace(/_/g, '')
    .toLowerCase();

function isUuidField(schema: JsonSchema): boolean {
  if (schema.format === 'uuid') return true;
  if (schema.items) return isUuidField(schema.items);
  return (schema.anyOf ?? []).some(isUuidField);
}

/** A valid body: the required fields and record ids (else the first field), ids from the fixture. */
function sampleOf(schema: JsonSchema, field = ''): unknown {
  // A union of types; an object's `anyOf` beside its properties is a rule between its fields.
  if (schema.anyOf && !schema.properties)
    return sampleOf(schema.anyOf.find((s) => s.type !== 'null') ?? {}, field);
  if (schema.enum) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (isUuidField(schema)) {
    const record = fixture[recordOf(field)];
    if (!record) throw new Error(`No fixture for the id field "${field}": add it to this test`);
    return type === 'array' ? [record.id] : record.id;
  }
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      // The required fields, and the optional ids of records (one of `x_id` and `x_ids`).
      const ids = Object.keys(properties).filter(
        (n) => isUuidField(properties[n]!) && fixture[recordOf(n)] && !hasSingleTwin(n, properties),
      );
      const required = schema.required ?? [];
      const names = [...new Set([...required, ...ids])];
      if (!names.length && Object.keys(properties).length) names.push(Object.keys(properties)[0]!);
      return Object.fromEntries(names.map((n) => [n, sampleOf(properties[n] ?? {}, n)]));
    }
    case 'array':
      return [sampleOf(schema.items ?? {}, field)];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      return schema.format === 'email'
        ? 'someone@example.com'
        : schema.format === 'date-time'
          ? new Date().toISOString()
          : schema.format === 'uri'
            ? 'https://tenancy.example/check'
            : schema.pattern
              ? PATTERNED.find((t) => new RegExp(schema.pattern!).test(t))
              : 'Tenancy Check';
    default:
      return {};
  }
}

/** A list field whose single twin (`listing_market_id` for `…_ids`) is there too. */
const hasSingleTwin = (name: string, properties: Record<string, JsonSchema>) =>
  name.endsWith('s') && name.slice(0, -1) in properties;

/** The required body fields that hold record ids (`customer_id`, `playerId`…). */
function requiredBodyIds(route: Route): string[] {
  if (!route.body) return [];
  const schema = jsonSchema(route.body, 'input', 'inline') as JsonSchema;
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {})
    .filter(([name, s]) => required.has(name) && isUuidField(s))
    .map(([name]) => name);
}

/** The concrete request for tenant A's records, and whether they are environment-scoped. */
function requestFor(route: Route) {
  let env = false;
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string, offset: number) => {
    const collection = route.path.slice(0, offset).split('/').filter(Boolean).at(-1)!;
    // A parameter named for its record (`{playerId}`, `{transactionId}`) is that record, wherever
    // it sits (`/orders/{playerId}/send/{transactionId}`); a bare `{id}` is its collection's.
    const record = fixture[recordOf(name)] ?? fixture[collection];
    if (!record) throw new Error(`No fixture for ids under "${collection}": add it to this test`);
    env ||= record.env;
    return encodeURIComponent(record.id);
  });
  for (const field of requiredBodyIds(route)) env ||= fixture[recordOf(field)]?.env ?? false;
  const body = route.body
    ? sampleOf(jsonSchema(route.body, 'input', 'inline') as JsonSchema)
    : undefined;
  return { path, body, env };
}

const addressed = ROUTES.filter((r) => r.path.includes('{') || requiredBodyIds(r).length > 0);

const expectNotFound = (
  route: Route,
  request: { path: string; body: unknown },
  res: { status: number; body: any; text: string },
) => {
  expect(res.status, res.text).toBe(404);
  if (route.family === 'partner') expect(res.body.error.code).toBe('not_found');
  // A route documenting `{ message }` for its 404 (send) answers just that.
  else if (route.wire?.messageBody?.includes(404))
    expect(Object.keys(res.body)).toEqual(['message']);
  else expect(res.body.code).toMatch(/_NOT_FOUND$/);
  // Nothing of A's beyond what the caller sent itself.
  const sent = request.path + JSON.stringify(request.body ?? null);
  for (const { id } of Object.values(fixture)) {
    if (!sent.includes(id)) expect(res.text).not.toContain(id);
  }
};

describe('tenancy, for every route that addresses a record', () => {
  it('covers both families', () => {
    expect(addressed.some((r) => r.family === 'partner')).toBe(true);
    expect(addressed.some((r) => r.family === 'establishment')).toBe(true);
  });

  it.each(addressed.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: another tenant gets not-found',
    async (_name, route) => {
      const request = requestFor(route);
      if (route.scope === 'admin') {
        // A platform-admin route refuses every establishment's key outright: no lookup, no data.
        const refused = await h.call(route.method, request.path, {
          key: other,
          body: request.body,
        });
        expect(refused.status, refused.text).toBe(403);
        return;
      }
      const res = await h.call(route.method, request.path, {
        key: other,
        body: request.body,
        headers: { 'idempotency-key': `tenancy-${route.name}` },
      });
      expectNotFound(route, request, res);
    },
  );

  it.each(addressed.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: a live key gets not-found for test records',
    async (_name, route) => {
      const request = requestFor(route);
      if (!request.env) return; // a sub-brand, brand, product or store is in both environments
      const res = await h.call(route.method, request.path, {
        key: live,
        body: request.body,
        headers: { 'idempotency-key': `tenancy-live-${route.name}` },
      });
      // A test-mode-only route (test helpers) refuses a live key outright: no lookup, no data.
      if (route.path.includes('/test-helpers/') || route.scope === 'admin') {
        expect(res.status, res.text).toBe(403);
        return;
      }
      expectNotFound(route, request, res);
    },
  );

  it('the records were untouched and are still the owner’s', async () => {
    for (const route of addressed.filter((r) => r.method === 'GET')) {
      const { path } = requestFor(route);
      const res = await h.call('GET', path, { key: a.key });
      expect(res.status, `${route.path}: ${res.text}`).toBe(200);
    }
  });
});

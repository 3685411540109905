// Issue 32, part 5: the documents' own request examples pass the server. Every request body
// example of both OpenAPI documents is sent, as an integrator copying it would, to a running
// server, with the example ids replaced by records of one seeded tenant (the path's too). A
// refusal of the example's shape (partner 400 `invalid_request`; establishment 400
// `VALIDATION_ERROR`/`INVALID_PARAMETERS`, or the 422 field map) fails the test, naming the
// operation and what the server said. Refusals of record state (404, 409, a 400 state code) are
// not the example's fault and pass: the records a route needs may have moved on by its turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createStore } from '../../src/domain/catalog/author-catalog.js';
import { insertActivity } from '../../src/engine/campaigns/insert-activity.js';
import {
  createCampaign,
  updateCampaignStatus,
} from '../../src/engine/campaigns/manage-campaigns.js';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { EXAMPLE_UUID } from '../../src/rest/openapi-examples.js';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { shop } from '../orders/support.js';
import { eventWorkers } from '../support/events.js';

type Doc = {
  paths: Record<string, Record<string, Operation>>;
};
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  security?: { bearerAuth: string[] }[];
};

let h: Harness;
let key: string;
let admin: string;
/** The seeded record for an id, by the name it goes by (`playerId`, `{id}` under `/customers`). */
let ids: Record<string, string>;
let overrides: [RegExp, string][];

beforeAll(async () => {
  h = await startHarness();
  const a = await shop(h, { kind: 'physical' });
  key = a.key;
  const platform = await adminKey(h.db.prisma);
  admin = platform.key;
  await h.db.prisma.apiKey.update({
    where: { id: platform.id },
    data: { readLimit: 1_000_000, writeLimit: 1_000_000 },
  });
  const customer = await a.buyer(100_000 * a.listing.coin_price, { email: 'ana@example.com' });
  // The responsible-gaming examples self-exclude their player: another one, so the rest still run.
  const excluded = await a.buyer(0);
  const owned = await a.post(
    '/products',
    {
      establishmentId: a.subBrandId,
      stock: 5,
      valueInEuros: 10,
      translations: { en: { name: 'Owned prize' } },
    },
    null,
  );
  if (owned.status !== 200) throw new Error(`product: ${owned.text}`);
  const store = await createStore(h.db.prisma, {
    subBrandId: a.subBrandId,
    name: 'Replay store',
    slug: 'replay-store',
  });
  const category = await createCategory(h.db.prisma, {
    slug: 'replay',
    names: { en: 'Replay' },
  });
  const definition = await createDefinition(h.db.prisma, {
    subBrandId: a.subBrandId,
    code: 'replay',
    points: 5,
  });
  const tenant = { subBrandId: a.subBrandId, environment: 'test' as const };
  const campaign = await createCampaign(
    h.db.prisma,
    tenant,
    {
      title: 'Replay',
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
    tenant,
    campaign.id,
    { status: 'in_progress' },
    new Date(),
  );
  const won = await insertActivity(
    h.db.prisma,
    tenant,
    { mode: 'campaign', player_id: customer, campaign_id: campaign.id },
    { now: new Date(), idempotencyKey: null },
  );
  const order = await a.order({
    customer_id: customer,
    listing_market_id: a.listing.listing_market_id,
    recipient_name: 'Ana García',
    shipping_address: 'Calle Mayor 1\n28013 Madrid\nES',
  });
  if (order.status !== 201) throw new Error(`order: ${order.text}`);
  const reservation = await a.post(
    `/orders/${customer}/reservation`,
    { productId: a.prize.productId, establishmentId: a.subBrandId },
    null,
  );
  if (reservation.status !== 200) throw new Error(`reservation: ${reservation.text}`);
  const hold = await a.post(`/api/v1/customers/${customer}/coins/holds`, {
    amount: 1,
    expires_in_seconds: 86_400,
  });
  const endpoint = await a.post('/api/v1/webhook-endpoints', {
    url: 'https://hooks.example.com/replay',
  });
  if (endpoint.status !== 201) throw new Error(`endpoint: ${endpoint.text}`);
  const catalog = await a.post(
    `/establishments/${a.subBrandId}/catalogs`,
    { name: 'Replay', category: 'sports', productIds: [a.prize.productId] },
    null,
  );
  if (catalog.status !== 200) throw new Error(`catalog: ${catalog.text}`);
  await eventWorkers(h).drain();
  const [event] = (await a.get('/api/v1/events')).body.data;
  ids = {
    customer,
    customers: customer,
    player: customer,
    players: customer,
    establishment: a.subBrandId,
    establishments: a.subBrandId,
    parentcasino: a.brandId,
    accountmanager: customer,
    product: a.prize.productId,
    products: a.prize.productId,
    listingmarket: a.listing.listing_market_id,
    orders: order.body.data.id,
    transaction: reservation.body.transactionId,
    hold: hold.body.data.id,
    holds: hold.body.data.id,
    store: store.id,
    campaign: campaign.id,
    campaigns: campaign.id,
    award: won.results[0]!.award!.id,
    catalog: catalog.body.catalogId,
    catalogs: catalog.body.catalogId,
    category: category.id,
    categories: category.id,
    endpoint: endpoint.body.data.id,
    'webhook-endpoints': endpoint.body.data.id,
    events: event.id,
    webhooks: definition.code,
    game: 'wheel',
  };
  // Paths that change a player's responsible gaming, or a product itself, get their own records.
  overrides = [
    [/responsible-gaming$/, excluded],
    [/^\/products\/\{productId\}$/, owned.body.productId],
  ];
});
afterAll(() => h.close());

/** `playerId`, `customer_id`, `productIds` → the fixture's name for that record. */
const recordOf = (field: string) =>
  field
    .replace(/_?ids?$/i, '')
    .replace(/_/g, '')
    .toLowerCase();

/** The example with every example id replaced by the seeded record its field names. */
function seeded(value: unknown, field = ''): unknown {
  if (value === EXAMPLE_UUID) {
    const id = ids[recordOf(field)];
    if (!id) throw new Error(`No seeded record for the id field "${field}": add it to this test`);
    return id;
  }
  if (Array.isArray(value)) return value.map((v) => seeded(v, field));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, seeded(v, k)]));
  return value;
}

function pathOf(template: string): string {
  const own = overrides.find(([pattern]) => pattern.test(template))?.[1];
  return template.replace(/\{(\w+)\}/g, (_m, name: string, offset: number) => {
    const collection = template.slice(0, offset).split('/').filter(Boolean).at(-1)!;
    const id =
      (own && (name === 'id' || name === 'playerId' || name === 'productId') ? own : undefined) ??
      ids[recordOf(name)] ??
      ids[collection];
    if (!id) throw new Error(`No seeded record for {${name}} under "${collection}"`);
    return encodeURIComponent(id);
  });
}

/** The example's query: required parameters from their examples, seeded. */
function queryOf(op: Operation): string {
  const pairs = (op.parameters ?? [])
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => [p.name, String(seeded(p.example, p.name))]);
  return pairs.length ? `?${new URLSearchParams(pairs)}` : '';
}

/** A refusal of the request's shape, in the family's words; null when it was not one. */
function shapeRefusal(family: 'partner' | 'establishment', status: number, body: any) {
  if (family === 'partner')
    return status === 400 && ['invalid_request', 'invalid_json'].includes(body?.error?.code)
      ? body.error.message
      : null;
  if (status === 422) return JSON.stringify(body);
  if (status === 400 && ['VALIDATION_ERROR', 'INVALID_PARAMETERS'].includes(body?.code))
    return body.message;
  return null;
}

const documents = [
  ['partner', '/openapi.json'],
  ['establishment', '/openapi/establishment.json'],
] as const;

describe('the documents’ request examples', () => {
  it.each(documents)('every %s example is accepted by the server', async (family, url) => {
    const doc = (await h.call('GET', url)).body as Doc;
    const refused: string[] = [];
    let sent = 0;
    for (const [template, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const example = op.requestBody?.content['application/json']?.example;
        if (example === undefined) continue;
        const scopes = op.security?.[0]?.bearerAuth ?? [];
        const path = pathOf(template) + queryOf(op);
        const res = await h.call(method.toUpperCase(), path, {
          key: scopes.includes('admin') ? admin : key,
          body: seeded(example),
          headers: { 'idempotency-key': `replay-${op.operationId}` },
        });
        sent++;
        const problem = shapeRefusal(family, res.status, res.body);
        if (problem) refused.push(`${method.toUpperCase()} ${template}: ${res.status} ${problem}`);
      }
    }
    expect(sent).toBeGreaterThan(10);
    expect(refused).toEqual([]);
  });
});

// Issue 29: every route that takes an Idempotency-Key, generated from the route table, succeeds
// with one and keeps exactly-once under a same-key burst. Two twin tenants walk the same steps in
// the same order: tenant A sends each request once, tenant B sends it eight times at once under
// one key. B's eight answers must be byte for byte the same, with A's status, and the burst must
// leave the database with exactly the rows A's single request left (one effect). A keyed route
// without a step here fails the test, so a new one is covered the day it is added.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/domain/catalog/author-catalog.js';
import { setGameTable } from '../../src/engine/campaigns/mini-games.js';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { ROUTES } from '../../src/rest/table.js';
import { ADDRESS } from '../establishment/orders-support.js';
import { shop } from '../orders/support.js';
import { eventWorkers } from '../support/events.js';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness, type Reply } from '../support/harness.js';

const BURST = 8;

let h: Harness;
beforeAll(async () => {
  // Its counts are of every table: no other file's rows may land in them meanwhile.
  h = await startHarness({ ownDatabase: true });
});
afterAll(() => h.close());

type Twin = Awaited<ReturnType<typeof twin>>;

/** One tenant: a partner with a listed prize, a store, an event definition and an admin key. */
async function twin(label: string) {
  const s = await shop(h, { kind: 'physical', stock: 50 });
  await createStore(h.db.prisma, {
    subBrandId: s.subBrandId,
    name: 'Store',
    slug: `store-${label}`,
  });
  await createDefinition(h.db.prisma, { subBrandId: s.subBrandId, code: 'burst', points: 10 });
  const customer = await s.buyer(0, { external_id: `burst-${label}` });
  // A template to clone (a template never runs).
  const template = await s.post(
    `/establishments/${s.subBrandId}/campaigns`,
    { ...CAMPAIGN, title: 'Spin template', isTemplate: true },
    null,
  );
  if (template.status !== 200) throw new Error(`template: ${template.text}`);
  const admin = await adminKey(h.db.prisma);
  await h.db.prisma.apiKey.updateMany({
    where: { id: { in: [admin.id] } },
    data: { writeLimit: 1_000_000, readLimit: 1_000_000 },
  });
  await h.db.prisma.apiKey.updateMany({
    where: { subBrandId: s.subBrandId },
    data: { writeLimit: 1_000_000, readLimit: 1_000_000 },
  });
  return {
    label,
    s,
    est: s.subBrandId,
    admin: admin.key,
    /** Ids the steps learn from earlier answers (this tenant's own). */
    ids: {
      customer,
      externalId: `burst-${label}`,
      template: template.body[0].campaignId,
    } as Record<string, string>,
  };
}

type Request = { method: string; path: string; body?: unknown; admin?: boolean };
type Step = {
  route: string;
  request: (t: Twin) => Request | Promise<Request>;
  /** Learns ids from this tenant's answer, or sets the stage after it. */
  after?: (t: Twin, answer: Reply) => Promise<void> | void;
};

const campaigns = (t: Twin) => `/establishments/${t.est}/campaigns`;

/** A campaign whose prize is two plays of the wheel, from 2020 to 2099. */
const CAMPAIGN = {
  title: 'Spin day',
  type: 'daily_reward_simple',
  duration: 'custom',
  startDate: '2020-01-01',
  endDate: '2099-12-31',
  termsAccepted: true,
  prizes: [
    { coinPrize: 0, catalogPrize: 'game:wheel', productPrize: '', quantity: 2, day: 0, rank: '' },
  ],
};

const STEPS: Step[] = [
  // The partner API.
  {
    route: 'create_customer',
    request: () => ({
      method: 'POST',
      path: '/api/v1/customers',
      body: { external_id: 'burst-new', first_name: 'Nia', last_name: 'New' },
    }),
  },
  {
    route: 'update_customer',
    request: (t) => ({
      method: 'PATCH',
      path: `/api/v1/customers/${t.ids.customer}`,
      body: { nickname: 'Bursty' },
    }),
  },
  {
    route: 'adjust_customer_coins',
    request: (t) => ({
      method: 'POST',
      path: `/api/v1/customers/${t.ids.customer}/coins`,
      body: { delta: 50_000, reason: 'burst' },
    }),
  },
  {
    route: 'create_coin_hold',
    request: (t) => ({
      method: 'POST',
      path: `/api/v1/customers/${t.ids.customer}/coins/holds`,
      body: { amount: 30, expires_in_seconds: 3600, reason: 'burst' },
    }),
    after: (t, a) => void (t.ids.hold = a.body.data.id),
  },
  {
    route: 'capture_coin_hold',
    request: (t) => ({
      method: 'POST',
      path: `/api/v1/customers/${t.ids.customer}/coins/holds/${t.ids.hold}/capture`,
      body: { amount: 20 },
    }),
  },
  {
    route: 'release_coin_hold',
    // A hold of its own, set aside by a plain call first.
    request: async (t) => {
      const placed = await t.s.post(`/api/v1/customers/${t.ids.customer}/coins/holds`, {
        amount: 5,
        expires_in_seconds: 3600,
      });
      return {
        method: 'POST',
        path: `/api/v1/customers/${t.ids.customer}/coins/holds/${placed.body.data.id}/release`,
        body: {},
      };
    },
  },
  {
    route: 'bulk_adjust_customer_coins',
    request: (t) => ({
      method: 'POST',
      path: '/api/v1/customers/bulk/coins',
      body: { filter: { q: t.ids.externalId }, delta: 5, reason: 'bulk burst' },
    }),
  },
  {
    route: 'reserve_order',
    request: (t) => ({
      method: 'POST',
      path: '/api/v1/orders',
      body: {
        customer_id: t.ids.customer,
        listing_market_id: t.s.listing.listing_market_id,
        recipient_name: 'Ana García',
        shipping_address: 'Calle Mayor 1, Madrid',
      },
    }),
    after: (t, a) => void (t.ids.order = a.body.data.id),
  },
  {
    route: 'update_order_shipping',
    request: (t) => ({
      method: 'PATCH',
      path: `/api/v1/orders/${t.ids.order}/shipping`,
      body: { recipient_name: 'Ana G.' },
    }),
  },
  {
    route: 'advance_test_order',
    request: (t) => ({
      method: 'POST',
      path: `/api/v1/test-helpers/orders/${t.ids.order}/advance`,
    }),
  },
  {
    route: 'create_store_session',
    request: (t) => ({
      method: 'POST',
      path: '/api/v1/store-sessions',
      body: { customer_id: t.ids.customer },
    }),
  },
  {
    route: 'ingest_engine_event',
    request: (t) => ({
      method: 'POST',
      path: '/api/v1/engine/events',
      body: { event_code: 'burst', data: { externalUserId: t.ids.externalId } },
    }),
  },
  // The establishment API.
  {
    route: 'update_establishment',
    // PUT replaces the profile: the current one, re-sent with a new description.
    async request(t) {
      const current = (await h.call('GET', `/establishments/${t.est}`, { key: t.s.key })).body;
      return {
        method: 'PUT',
        path: `/establishments/${t.est}`,
        body: { ...current, description: 'A burst casino' },
      };
    },
  },
  {
    route: 'create_player',
    request: (t) => ({
      method: 'POST',
      path: '/players',
      body: { establishmentId: t.est, name: 'Pia Player', email: 'pia@example.com' },
    }),
    after: (t, a) => void (t.ids.player = a.body.playerId),
  },
  {
    route: 'update_player',
    request: (t) => ({
      method: 'PUT',
      path: `/players/${t.ids.player}`,
      body: { name: 'Pia P.', playerStatus: 'active' },
    }),
  },
  {
    route: 'adjust_player_coins',
    request: (t) => ({
      method: 'PUT',
      path: '/coins',
      body: { playerId: t.ids.player, amount: 100_000, reason: 'burst' },
    }),
  },
  {
    route: 'create_campaign',
    request: (t) => ({ method: 'POST', path: campaigns(t), body: CAMPAIGN }),
    async after(t, a) {
      t.ids.campaign = a.body[0].campaignId;
      await setGameTable(
        h.db.prisma,
        { subBrandId: t.est, environment: 'test' },
        t.ids.campaign!,
        'wheel',
        { prizes: [{ label: 'Ten coins', coins: 10, weight: 1 }] },
      );
    },
  },
  {
    route: 'update_campaign',
    request: (t) => ({
      method: 'PUT',
      path: `${campaigns(t)}/${t.ids.campaign}`,
      body: { ...CAMPAIGN, title: 'Spin day!' },
    }),
  },
  {
    route: 'update_campaign_status',
    request: (t) => ({
      method: 'PUT',
      path: `${campaigns(t)}/${t.ids.campaign}/update-status`,
      body: { status: 'in_progress' },
    }),
  },
  {
    route: 'clone_campaign',
    request: (t) => ({
      method: 'POST',
      path: `${campaigns(t)}/${t.ids.template}/clone`,
      body: { title: 'Spin day, again' },
    }),
    after: (t, a) => void (t.ids.clone = a.body.campaignId),
  },
  {
    route: 'insert_campaign_activity',
    request: (t) => ({
      method: 'POST',
      path: `${campaigns(t)}/insert-activity`,
      body: { mode: 'campaign', player_id: t.ids.player, campaign_id: t.ids.campaign },
    }),
    after: (t, a) => void (t.ids.award = a.body.results[0].award.awardId),
  },
  {
    route: 'claim_prize',
    request: (t) => ({
      method: 'POST',
      path: `/players/${t.ids.player}/claim`,
      body: { awardId: t.ids.award },
    }),
  },
  {
    route: 'play_game',
    request: (t) => ({
      method: 'POST',
      path: `/players/${t.ids.player}/game/wheel/${t.ids.campaign}/play`,
      body: {},
    }),
  },
  {
    route: 'rotate_game_seed',
    request: (t) => ({
      method: 'POST',
      path: `/campaigns/${t.ids.campaign}/game/wheel/rotate-seed`,
      body: {},
    }),
  },
  {
    route: 'delete_campaign',
    request: (t) => ({ method: 'DELETE', path: `${campaigns(t)}/${t.ids.clone}` }),
  },
  {
    route: 'iframe_login',
    request: (t) => ({ method: 'POST', path: '/iframe/login', body: { playerId: t.ids.player } }),
    after: (t, a) => void (t.ids.token = a.body.token),
  },
  {
    route: 'iframe_logout',
    request: (t) => ({ method: 'POST', path: '/iframe/logout', body: { token: t.ids.token } }),
  },
  {
    route: 'create_establishment_product',
    request: (t) => ({
      method: 'POST',
      path: '/products',
      body: {
        establishmentId: t.est,
        stock: 5,
        valueInEuros: 12.34,
        translations: { en: { name: 'Signed jersey' } },
      },
    }),
    after: (t, a) => void (t.ids.product = a.body.productId),
  },
  {
    route: 'update_establishment_product',
    request: (t) => ({ method: 'PUT', path: `/products/${t.ids.product}`, body: { order: 3 } }),
  },
  {
    route: 'reserve_player_order',
    request: (t) => ({
      method: 'POST',
      path: `/orders/${t.ids.player}/reservation`,
      body: { productId: t.s.prize.productId, establishmentId: t.est },
    }),
    after: (t, a) => void (t.ids.transaction = a.body.transactionId),
  },
  {
    route: 'request_order',
    request: (t) => ({
      method: 'POST',
      path: '/orders/request',
      body: { playerId: t.ids.player, productId: t.ids.product, establishmentId: t.est },
    }),
    after: (t, a) => void (t.ids.requested = a.body.transactionId),
  },
  {
    route: 'capture_order_details',
    request: (t) => ({
      method: 'PUT',
      path: `/orders/${t.ids.player}/details/${t.ids.transaction}`,
      body: { city: 'Madrid' },
    }),
  },
  {
    route: 'send_order',
    request: (t) => ({
      method: 'POST',
      path: `/orders/${t.ids.player}/send/${t.ids.transaction}`,
      body: ADDRESS,
    }),
  },
  {
    route: 'track_order',
    request: (t) => ({
      method: 'POST',
      path: `/orders/${t.ids.player}/track/${t.ids.transaction}`,
      body: { trackingNumber: 'TRK-1' },
    }),
  },
  {
    route: 'acquire_order',
    request: (t) => ({
      method: 'POST',
      path: `/orders/${t.ids.player}/acquisition/${t.ids.transaction}`,
    }),
  },
  {
    route: 'reverse_acquisition',
    request: (t) => ({
      method: 'DELETE',
      path: `/orders/${t.ids.player}/acquisition/${t.ids.transaction}`,
      body: { refund: true },
    }),
  },
  {
    route: 'cancel_reservation',
    request: (t) => ({
      method: 'DELETE',
      path: `/orders/${t.ids.player}/reservation/${t.ids.requested}`,
    }),
  },
  {
    route: 'create_establishment_catalog',
    request: (t) => ({
      method: 'POST',
      path: `/establishments/${t.est}/catalogs`,
      body: { name: 'Football', category: 'sports', productIds: [t.s.prize.productId] },
    }),
    after: (t, a) => void (t.ids.catalog = a.body.catalogId ?? a.body.id),
  },
  {
    route: 'rename_establishment_catalog',
    request: (t) => ({
      method: 'PUT',
      path: `/establishments/${t.est}/catalogs/${t.ids.catalog}`,
      body: { name: 'Football prizes' },
    }),
  },
  {
    route: 'add_establishment_catalog_products',
    request: (t) => ({
      method: 'POST',
      path: `/establishments/${t.est}/catalogs/${t.ids.catalog}/products`,
      body: { productIds: [t.ids.product] },
    }),
  },
  {
    route: 'request_product_exclusivity',
    request: (t) => ({
      method: 'POST',
      path: '/exclusive',
      body: { productId: t.s.prize.productId, days: 7 },
    }),
  },
  {
    route: 'admin_product_exclusivity',
    request: (t) => ({
      method: 'POST',
      path: '/admin/exclusive',
      body: { productId: t.ids.product },
      admin: true,
    }),
  },
  // Webhooks (issue 31).
  {
    route: 'create_webhook_endpoint',
    request: () => ({
      method: 'POST',
      path: '/api/v1/webhook-endpoints',
      body: { url: 'https://hooks.example.com/burst', event_types: ['order.shipped'] },
    }),
    async after(t, answer) {
      t.ids.endpoint = answer.body.data.id;
      await eventWorkers(h).drain(); // the feed (and so redelivery) has what was relayed
      t.ids.event = (await h.call('GET', '/api/v1/events', { key: t.s.key })).body.data[0].id;
    },
  },
  {
    route: 'update_webhook_endpoint',
    request: (t) => ({
      method: 'PATCH',
      path: `/api/v1/webhook-endpoints/${t.ids.endpoint}`,
      body: { event_types: [], description: 'Everything' },
    }),
  },
  {
    route: 'rotate_webhook_endpoint_secret',
    request: (t) => ({
      method: 'POST',
      path: `/api/v1/webhook-endpoints/${t.ids.endpoint}/rotate-secret`,
    }),
  },
  {
    route: 'redeliver_event',
    request: (t) => ({ method: 'POST', path: `/api/v1/events/${t.ids.event}/redeliver`, body: {} }),
  },
  {
    route: 'replay_webhook_events',
    request: (t) => ({
      method: 'POST',
      path: `/api/v1/webhook-endpoints/${t.ids.endpoint}/replay`,
      body: { from: '2020-01-01T00:00:00Z', to: '2099-01-01T00:00:00Z' },
    }),
  },
  // Last: a blocked player would change what the incentive steps above answer.
  {
    route: 'set_customer_responsible_gaming',
    request: (t) => ({
      method: 'PUT',
      path: `/api/v1/customers/${t.ids.customer}/responsible-gaming`,
      body: { state: 'cool_off', until: '2030-01-01T00:00:00.000Z', source: 'player' },
    }),
  },
  {
    route: 'set_player_responsible_gaming',
    request: (t) => ({
      method: 'PUT',
      path: `/players/${t.ids.player}/responsible-gaming`,
      body: { state: 'self_excluded', note: 'asked by phone' },
    }),
  },
];

/** Rows in every table, but the logs that record each delivery (a replay is one more). */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await h.db.prisma.$queryRaw<{ name: string }[]>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    if (REPLAY_LOGS.has(name)) continue;
    const [row] = await h.db.prisma.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT count(*) AS n FROM "${name}"`,
    );
    counts[name] = Number(row!.n);
  }
  return counts;
}

/**
 * The engine's audit: one row per delivery, replays included (docs/engine.md); and the
 * process-wide secrets made on first use (the development fairness key), which the first
 * tenant's play makes and the second's finds.
 */
const REPLAY_LOGS = new Set(['engine_audit', 'platform_settings']);

const delta = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(
    Object.keys(after)
      .filter((t) => after[t] !== before[t])
      .map((t) => [t, after[t]! - (before[t] ?? 0)]),
  );

/** Each tenant's key of its own: the admin keys of both share the platform's key space. */
const send = (t: Twin, request: Request, key: string) =>
  h.call(request.method, request.path, {
    key: request.admin ? t.admin : t.s.key,
    ...(request.body === undefined ? {} : { body: request.body }),
    headers: { 'idempotency-key': `${key}-${t.label}` },
  });

describe('every keyed route, once and in a same-key burst', () => {
  let a: Twin;
  let b: Twin;
  beforeAll(async () => {
    a = await twin('a');
    b = await twin('b');
    // The store-session secret is made once per database, by the first request that signs.
    await h.call('POST', '/api/v1/store-sessions', {
      key: a.s.key,
      body: { customer_id: a.ids.customer },
    });
  });

  it('has a step for every route that takes an Idempotency-Key', () => {
    const keyed = ROUTES.filter((r) => r.idempotency !== 'none').map((r) => r.name);
    expect(STEPS.map((s) => s.route).sort()).toEqual([...keyed].sort());
  });

  it.each(STEPS.map((s) => [s.route, s] as const))(
    '%s: eight at once under one key are one effect, with identical answers',
    async (_name, step) => {
      const key = `burst-${randomUUID()}`;
      const start = await rowCounts();
      const once = await send(a, await step.request(a), key);
      expect(once.status, once.text).toBeLessThan(300);
      const single = delta(start, await rowCounts());
      await step.after?.(a, once);

      const middle = await rowCounts();
      const request = await step.request(b);
      const answers = await Promise.all(Array.from({ length: BURST }, () => send(b, request, key)));
      const burst = delta(middle, await rowCounts());
      for (const answer of answers) expect(answer.status, answer.text).toBe(once.status);
      expect(new Set(answers.map((x) => x.text)).size).toBe(1);
      expect(burst).toEqual(single);
      await step.after?.(b, answers[0]!);
      // Sent again once the burst is over, it is a replay too.
      const again = await send(b, request, key);
      expect(again.text).toBe(answers[0]!.text);
      expect(again.headers.get('idempotent-replay')).toBe('true');
    },
  );
});

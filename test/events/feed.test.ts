// Issue 31: every effect writes one event in its own transaction, and the feed (GET
// /api/v1/events) shows them oldest first, rendered as the partner API renders the resource,
// per tenant and environment, without a gap or a repeat however transactions commit.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPE_NAMES } from '../../src/domain/events/types.js';
import type { Harness } from '../support/harness.js';
import { startHarness, TEST_DB } from '../support/harness.js';
import { recordEvent } from '../../src/domain/events/record-event.js';
import { partner } from '../support/partner.js';
import { createStaff, signInAs } from '../support/staff.js';
import { eventWorkers } from '../support/events.js';

let h: Harness;
let workers: ReturnType<typeof eventWorkers>;
beforeAll(async () => {
  // The relay reads every tenant's events: a database of this file's own.
  h = await startHarness({ ownDatabase: true });
  workers = eventWorkers(h);
});
afterAll(() => h.close());

type Api = Awaited<ReturnType<typeof partner>>;

/** Every event the key reads, following the cursor. */
async function feed(api: Api, query = '', from: string | null = null) {
  const events: any[] = [];
  let cursor: string | null = from;
  for (;;) {
    const sep = query ? '&' : '';
    const res = await api.get(
      `/api/v1/events?${query}${sep}limit=7${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    events.push(...res.body.data);
    cursor = res.body.page.next_cursor;
    if (!res.body.page.has_more) return { events, cursor };
  }
}

describe('the event log', () => {
  it('writes one event per effect, rendered as the partner API reads the resource', async () => {
    const api = await partner(h);
    const customer = await api.customer({ external_id: 'ev-1' });
    const moved = await api.credit(customer.id, 500, 'welcome');
    const patched = await api.patch(`/api/v1/customers/${customer.id}`, { nickname: 'Ana' });
    expect(patched.status).toBe(200);
    await workers.drain();

    const { events } = await feed(api);
    expect(events.map((e) => e.type)).toEqual([
      'customer.created',
      'coin_movement.created',
      'customer.updated',
    ]);
    for (const e of events) {
      expect(e).toMatchObject({ environment: 'test', api_version: 'v1' });
      expect(Date.parse(e.created_at)).not.toBeNaN();
    }
    // `data` is what GET answers (the movement exactly; the customer as it was when relayed).
    expect(events[1].data).toEqual(moved);
    expect(events[2].data).toEqual((await api.get(`/api/v1/customers/${customer.id}`)).body.data);
    expect(events[0].data.id).toBe(customer.id);

    const removed = await api.delete(`/api/v1/customers/${customer.id}`);
    expect(removed.status).toBe(200);
    await workers.drain();
    const after = await feed(api);
    expect(after.events.at(-1)).toMatchObject({
      type: 'customer.deleted',
      data: { id: customer.id, external_id: 'ev-1', deleted: true },
    });
    // An event read twice is the same: its data was frozen when relayed.
    expect(after.events.slice(0, 3)).toEqual(events);
  });

  it('renders a batch of many customers in one pass, each as GET answers it', async () => {
    const api = await partner(h);
    const made = [];
    for (let i = 0; i < 6; i++) made.push(await api.customer({ external_id: `batch-${i}` }));
    await api.patch(`/api/v1/customers/${made[2]!.id}`, { nickname: 'Eva' });
    await workers.drain();
    const { events } = await feed(api);
    // One relay pass read all seven events' customers (the batch), each as it was when relayed.
    expect(events.map((e) => [e.type, e.data.id])).toEqual([
      ...made.map((c) => ['customer.created', c.id]),
      ['customer.updated', made[2]!.id],
    ]);
    for (const e of events.slice(3)) {
      if (e.data.id === made[2]!.id) expect(e.data.nickname).toBe('Eva');
      expect(e.data).toEqual((await api.get(`/api/v1/customers/${e.data.id}`)).body.data);
    }
  });

  it('the batch reads keep to the key’s tenant and skip what is not an id', async () => {
    const api = await partner(h);
    const other = await partner(h);
    const mine = await api.customer();
    const theirs = await other.customer();
    const admin = await createStaff(h.db.prisma, 'brand_admin', { brandId: api.brandId });
    const staff = await signInAs(h.url, admin.email);
    const res = await staff.gql(
      `query($ids: [ID!]!) { customersByIds(ids: $ids) { id } ordersByIds(ids: $ids) { id } }`,
      { ids: [mine.id, theirs.id, 'not-an-id'] },
      { subBrandId: api.subBrandId },
    );
    expect(res.body.errors, res.text).toBeUndefined();
    expect(res.body.data).toEqual({ customersByIds: [{ id: mine.id }], ordersByIds: [] });
  });

  it('a refused effect writes no event', async () => {
    const api = await partner(h);
    const customer = await api.customer();
    const refused = await api.post(`/api/v1/customers/${customer.id}/coins`, { delta: -5 });
    expect(refused.status).toBe(409);
    await workers.drain();
    expect((await feed(api)).events.map((e) => e.type)).toEqual(['customer.created']);
  });

  // Two connections at once: PostgreSQL only (PGlite has one).
  it.runIf(TEST_DB === 'postgres')(
    'a reader misses nothing and repeats nothing when the transaction with the lower id commits last',
    async () => {
      const api = await partner(h);
      const customer = await api.customer();
      await workers.drain();
      const start = (await feed(api)).cursor;

      // A: takes its transaction id and writes its event (the lower id), then waits.
      let commitA!: () => void;
      const mayCommit = new Promise<void>((resolve) => (commitA = resolve));
      let written!: () => void;
      const aWrote = new Promise<void>((resolve) => (written = resolve));
      const a = h.db.prisma.$transaction(
        async (tx) => {
          await tx.customer.update({ where: { id: customer.id }, data: { nickname: 'late' } });
          await recordEvent(
            tx,
            { subBrandId: api.subBrandId, environment: 'test' },
            'customer.updated',
            customer.id,
          );
          written();
          await mayCommit;
        },
        { timeout: 30_000 },
      );
      await aWrote;
      // B: a higher id, committed first.
      await api.credit(customer.id, 5);
      for (let i = 0; i < 3; i++) await workers.relay();
      const meanwhile = await api.get(`/api/v1/events?cursor=${start}`);
      expect(meanwhile.body.data).toEqual([]); // B waits for A: nothing is shown out of order

      commitA();
      await a;
      await workers.drain();
      const after = await feed(api, '', start);
      expect(after.events.map((e) => e.type)).toEqual([
        'customer.updated',
        'coin_movement.created',
      ]);
      expect(after.events[0].id < after.events[1].id).toBe(true);
      expect((await feed(api, '', after.cursor)).events).toEqual([]);
    },
  );

  it('pages oldest first, filters by type, and keeps tenants and environments apart', async () => {
    const api = await partner(h);
    const other = await partner(h);
    const live = await partner(h, { env: 'live' });
    const customer = await api.customer();
    for (let i = 1; i <= 10; i++) await api.credit(customer.id, i);
    await other.customer();
    await workers.drain();

    const all = await feed(api);
    expect(all.events).toHaveLength(11);
    expect(all.events.slice(1).map((e) => e.data.delta)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const moves = await feed(api, 'type=coin_movement.created');
    expect(moves.events).toHaveLength(10);
    const both = await feed(api, 'type=coin_movement.created,customer.created');
    expect(both.events).toHaveLength(11);
    expect((await feed(other)).events).toHaveLength(1);
    expect((await feed(live)).events).toHaveLength(0);

    // The same tenant's live key sees only live events; one event by id, another tenant's: 404.
    const liveKey = await api.otherKey({ env: 'live' });
    const liveFeed = await h.call('GET', '/api/v1/events', { key: liveKey });
    expect(liveFeed.body.data).toEqual([]);
    const one = await api.get(`/api/v1/events/${all.events[3].id}`);
    expect(one.body.data).toEqual(all.events[3]);
    expect((await other.get(`/api/v1/events/${all.events[3].id}`)).status).toBe(404);

    // Polling the last cursor: nothing, then exactly what is new.
    const empty = await api.get(`/api/v1/events?cursor=${all.cursor}`);
    expect(empty.body).toEqual({ data: [], page: { has_more: false, next_cursor: all.cursor } });
    await api.credit(customer.id, 99);
    await workers.drain();
    const next = await api.get(`/api/v1/events?cursor=${all.cursor}`);
    expect(next.body.data.map((e: any) => e.data.delta)).toEqual([99]);
  });

  it('GraphQL: the log newest first, paged back in time, and the list of types', async () => {
    const api = await partner(h);
    const customer = await api.customer();
    for (let i = 1; i <= 5; i++) await api.credit(customer.id, i);
    await workers.drain();
    // The backoffice's audience: a brand admin of the tenant.
    const admin = await createStaff(h.db.prisma, 'brand_admin', { brandId: api.brandId });
    const staff = await signInAs(h.url, admin.email);
    const gql = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await staff.gql(query, variables, { subBrandId: api.subBrandId });
      expect(res.body.errors, res.text).toBeUndefined();
      return res.body.data;
    };
    const LOG = `query Log($after: String) {
      events(newestFirst: true, first: 4, after: $after) {
        edges { node { type data } } pageInfo { hasNextPage endCursor }
      }
    }`;
    const first = (await gql(LOG)).events;
    expect(first.edges.map((e: any) => e.node.data.delta)).toEqual([5, 4, 3, 2]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const next = (await gql(LOG, { after: first.pageInfo.endCursor })).events;
    expect(next.edges.map((e: any) => e.node.type)).toEqual([
      'coin_movement.created',
      'customer.created',
    ]);
    expect(next.pageInfo.hasNextPage).toBe(false);
    const types = (await gql('{ eventTypes { name description } }')).eventTypes;
    expect(types.map((t: any) => t.name)).toContain('order.shipped');
    expect(types.every((t: any) => t.description.length > 10)).toBe(true);
  });

  it('refuses bad input in the partner envelope', async () => {
    const api = await partner(h);
    const unknownType = await api.get('/api/v1/events?type=coin_movement.created,order.teleported');
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.error.message).toMatch(/order\.teleported/);
    expect((await api.get('/api/v1/events?cursor=bm9wZQ')).status).toBe(400);
    expect((await api.get('/api/v1/events?limit=0')).status).toBe(400);
    expect((await api.get('/api/v1/events?limit=101')).status).toBe(400);
    expect((await api.get('/api/v1/events?since=yesterday')).status).toBe(400);
    expect((await api.get('/api/v1/events/not-a-uuid')).status).toBe(404);
    const noScope = await api.otherKey({ scopes: ['customers:read'] });
    const refused = await h.call('GET', '/api/v1/events', { key: noScope });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/events:read/);
  });
});

describe('docs/webhooks.md', () => {
  it('lists every event type in its table, and no other', () => {
    const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    const listed = [...doc.matchAll(/^\| `([a-z_]+\.[a-z_]+)` +\|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...EVENT_TYPE_NAMES].sort());
  });
});

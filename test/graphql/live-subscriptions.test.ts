// The backoffice's live screens (src/schema/types/live.ts): GraphQL subscriptions over
// server-sent events, pushed within a second of each change of what they show, made by any server
// process (each subscription checks a fingerprint of its rows), never another tenant's, and
// nothing pushed while nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CHECK_MS, liveStreams } from '../../src/schema/types/live.js';
import { campaignBody, campaignWorld, prize } from '../campaigns/support.js';
import { backoffice, shop } from '../orders/support.js';
import { TEST_DB } from '../support/harness.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';
import { adminKey } from '../support/factories.js';

type Payload = { data?: any; errors?: { message: string; extensions: { code: string } }[] };

/** A subscription over SSE as the backoffice opens it: POST, Accept: text/event-stream. */
function subscribe(
  base: string,
  query: string,
  variables: object,
  headers: Record<string, string>,
) {
  const abort = new AbortController();
  const queue: Payload[] = [];
  const waiting: ((p: Payload | null) => void)[] = [];
  let ended = false;
  const push = (p: Payload | null) => {
    if (p === null) ended = true;
    const w = waiting.shift();
    if (w) w(p);
    else if (p) queue.push(p);
  };
  const done = (async () => {
    try {
      const res = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
        body: JSON.stringify({ query, variables }),
        signal: abort.signal,
      });
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done: over } = await reader.read();
        if (over) break;
        buffer += value;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === 'next' && data) push(JSON.parse(data) as Payload);
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    } finally {
      push(null);
      while (waiting.length) push(null);
    }
  })();
  return {
    done,
    abort: () => abort.abort(),
    /** The next answer pushed (null once the stream ended). */
    next(timeoutMs = 10_000): Promise<Payload | null> {
      if (queue.length) return Promise.resolve(queue.shift()!);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no answer pushed in time')), timeoutMs);
        waiting.push((p) => {
          clearTimeout(timer);
          resolve(p);
        });
      });
    },
    /** Answers until one satisfies `ok` (changes of other tests' rows may come first). */
    async until(ok: (p: Payload) => boolean, timeoutMs = 10_000): Promise<Payload> {
      const by = Date.now() + timeoutMs;
      for (;;) {
        const p = await this.next(Math.max(1, by - Date.now()));
        if (!p) throw new Error('the stream ended');
        if (ok(p)) return p;
      }
    },
  };
}

const LEADERBOARD = `subscription($id: ID!) { tournamentLeaderboard(campaignId: $id) {
  id status leaderboard(first: 10) { rank externalId points } } }`;
const QUEUE = `subscription($env: Environment) { fulfilmentQueue(status: pending, environment: $env, first: 50) {
  edges { node { id status subBrandId } } } }`;

const day = (offset: number) =>
  new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let w: Awaited<ReturnType<typeof campaignWorld>>;
let staff: StaffClient;
let campaignId: string;
let ana: string;

beforeAll(async () => {
  // Its own database: a server process runs the campaign job on the real clock, and the queue
  // is every tenant's.
  w = await campaignWorld(new Date().toISOString(), { ownDatabase: true });
  const member = await createStaff(w.h.db.prisma, 'establishment_operator', {
    subBrandId: w.p.subBrandId,
  });
  staff = await signInAs(w.h.url, member.email);
  campaignId = await w.campaign(
    campaignBody({
      type: 'tournament',
      title: 'Live cup',
      startDate: day(-1),
      endDate: day(20),
      prizes: [prize({ rank: '1', coinPrize: 500 })],
    }),
  );
  ana = await w.player({ first_name: 'Ana', last_name: 'Live', external_id: 'ana-live' });
}, 60_000);
afterAll(() => w.h.close());

const staffHeaders = (s: StaffClient, subBrandId: string) => ({
  cookie: s.cookie,
  'x-csrf-token': s.csrf,
  'x-environment': 'test',
  'x-sub-brand-id': subBrandId,
});
const points = (p: Payload) =>
  (p.data?.tournamentLeaderboard?.leaderboard ?? []).find(
    (l: { externalId: string }) => l.externalId === 'ana-live',
  )?.points as number | undefined;
const score = async (n: number) => {
  const res = await w.activity({
    mode: 'tournament',
    player_id: ana,
    campaign_id: campaignId,
    points: n,
  });
  expect(res.status, res.text).toBe(200);
};

describe('tournamentLeaderboard', () => {
  it('answers the leaderboard at once, then again after a score change, with no request from the client', async () => {
    const s = subscribe(
      w.h.url,
      LEADERBOARD,
      { id: campaignId },
      staffHeaders(staff, w.p.subBrandId),
    );
    const first = await s.next();
    expect(first?.errors).toBeUndefined();
    expect(first?.data.tournamentLeaderboard).toMatchObject({
      id: campaignId,
      status: 'in_progress',
    });
    const before = points(first!) ?? 0;
    await score(5);
    const after = await s.until((p) => points(p) === before + 5);
    expect(after.data.tournamentLeaderboard.leaderboard[0]).toMatchObject({
      rank: 1,
      externalId: 'ana-live',
    });
    s.abort();
    await s.done;
  });

  it("refuses another tenant's campaign as not found, and sends no data", async () => {
    const other = await campaignWorld(new Date().toISOString(), { database: w.h.db });
    try {
      const stranger = await signInAs(
        other.h.url,
        (
          await createStaff(other.h.db.prisma, 'establishment_operator', {
            subBrandId: other.p.subBrandId,
          })
        ).email,
      );
      const s = subscribe(
        w.h.url,
        LEADERBOARD,
        { id: campaignId },
        staffHeaders(stranger, other.p.subBrandId),
      );
      const answer = await s.next();
      expect(answer?.data ?? null).toBeNull();
      expect(answer?.errors?.[0]?.extensions.code).toBe('not_found');
      expect(await s.next()).toBeNull(); // the stream ends
      await s.done;
    } finally {
      await other.h.close();
    }
  });

  it('ends its stream on the server when the client goes away', async () => {
    const s = subscribe(
      w.h.url,
      LEADERBOARD,
      { id: campaignId },
      staffHeaders(staff, w.p.subBrandId),
    );
    expect((await s.next())?.data.tournamentLeaderboard.id).toBe(campaignId);
    expect(liveStreams()).toBeGreaterThan(0);
    s.abort();
    await s.done;
    const by = Date.now() + 5_000;
    while (liveStreams() > 0 && Date.now() < by) await new Promise((r) => setTimeout(r, 20));
    expect(liveStreams()).toBe(0);
    // Changes after it cost nothing and break nothing.
    await score(1);
  });

  it('sends nothing while nothing changes', async () => {
    const s = subscribe(
      w.h.url,
      LEADERBOARD,
      { id: campaignId },
      staffHeaders(staff, w.p.subBrandId),
    );
    const before = points((await s.next())!) ?? 0;
    // Three checks go by with nothing new: no answer. Then a change: one.
    await new Promise((r) => setTimeout(r, 3 * LIVE_CHECK_MS + 200));
    await score(2);
    const next = await s.next();
    expect(points(next!)).toBe(before + 2);
    s.abort();
    await s.done;
  });

  it('coalesces a burst: the last answer holds every change', async () => {
    const s = subscribe(
      w.h.url,
      LEADERBOARD,
      { id: campaignId },
      staffHeaders(staff, w.p.subBrandId),
    );
    const before = points((await s.next())!) ?? 0;
    await Promise.all([1, 2, 3, 4, 5].map((n) => score(n)));
    await s.until((p) => points(p) === before + 15);
    s.abort();
    await s.done;
  });
});

describe('fulfilmentQueue', () => {
  it("pushes the queue again when an order is placed, with the query's shape", async () => {
    const admin = await adminKey(w.h.db.prisma);
    const s = subscribe(w.h.url, QUEUE, { env: 'test' }, { authorization: `Bearer ${admin.key}` });
    const first = await s.next();
    expect(first?.errors).toBeUndefined();
    expect(first?.data.fulfilmentQueue.edges).toBeInstanceOf(Array);
    const store = await shop(w.h, { kind: 'physical' });
    const buyer = await store.buyer(1_000_000);
    const placed = await store.order({
      customer_id: buyer,
      listing_market_id: store.listing.listing_market_id,
      recipient_name: 'Ana Live',
      shipping_address: 'Calle 1, Madrid',
    });
    expect(placed.status, placed.text).toBe(201);
    const orderId = placed.body.data.id as string;
    const seen = (p: Payload) =>
      p.data?.fulfilmentQueue.edges.some((e: { node: { id: string } }) => e.node.id === orderId);
    await s.until(seen);
    // Moved on: it leaves the pending queue.
    const moved = await (await backoffice(w.h)).move(orderId, 'processing');
    expect(moved.status, moved.text).toBe(200);
    await s.until((p) => !seen(p));
    s.abort();
    await s.done;
  });

  it('is the platform admins’ alone', async () => {
    const s = subscribe(w.h.url, QUEUE, {}, staffHeaders(staff, w.p.subBrandId));
    const answer = await s.next();
    expect(answer?.data ?? null).toBeNull();
    expect(answer?.errors?.[0]?.extensions.code).toBe('forbidden');
    await s.done;
  });
});

describe.skipIf(TEST_DB !== 'postgres')('across server processes (PostgreSQL)', () => {
  let other: ServerProcess;
  beforeAll(async () => {
    other = await startServerProcess({ DATABASE_URL: w.h.databaseUrl! });
  }, 60_000);
  afterAll(() => other?.stop());

  it('a subscriber on one process receives the leaderboard after a score change made by another', async () => {
    const member = await signInAs(other.url, staff.signIn.body.staff.email);
    const s = subscribe(
      other.url,
      LEADERBOARD,
      { id: campaignId },
      staffHeaders(member, w.p.subBrandId),
    );
    const before = points((await s.next(20_000))!) ?? 0;
    await score(7); // through this test's own server, another process
    await s.until((p) => points(p) === before + 7);
    s.abort();
    await s.done;
  });
});

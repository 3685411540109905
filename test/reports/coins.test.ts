// Issue 32 part 2: the coin report. Sums equal the movements per source and period, whatever part
// of them the rollup job has folded; window edges; tenant and environment isolation; scopes; bad
// input; exact while movements commit during a fold.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { createStaff, signInAs } from '../support/staff.js';
import { moveCoins } from '../../src/domain/ledger/move-coins.js';
import type { MovementSource } from '../../src/generated/prisma/enums.js';
import { foldCoinMovements } from '../../src/domain/reports/coin-rollups.js';
import { REPORT_SOURCES } from '../../src/domain/reports/sources.js';

let h: Harness;
let clock = new Date('2026-03-02T10:00:00.000Z');
beforeAll(async () => {
  // The rollup job folds every tenant's movements: a database of this file's own.
  h = await startHarness({ ownDatabase: true, now: () => clock });
});
afterAll(() => h.close());

type Api = Awaited<ReturnType<typeof partner>>;
const fold = () => foldCoinMovements(h.db.prisma);

/** A movement of any source at `at`, through the one ledger function. */
async function move(
  api: Api,
  customerId: string,
  delta: number,
  source: MovementSource,
  at: string,
  env: 'live' | 'test' = 'test',
) {
  await moveCoins(
    h.db.prisma,
    { subBrandId: api.subBrandId, environment: env },
    { customerId, delta, reason: null },
    { source, apiKeyId: null, requestId: null, at: new Date(at) },
  );
}

/** Σ of the tenant's movements in [from, to), by `key` of a movement, from the ledger itself. */
async function expected(api: Api, from: string, to: string, by: 'day' | 'week' | 'source') {
  const rows = (await h.db.prisma.$queryRawUnsafe(
    `SELECT created_at, delta, report_source(source, delta, reason) AS source FROM coin_movements
     WHERE sub_brand_id = $1::uuid AND environment = 'test' AND created_at >= $2::timestamptz AND created_at < $3::timestamptz`,
    api.subBrandId,
    from,
    to,
  )) as { created_at: Date; delta: bigint; source: string }[];
  const out = new Map<string, { credited: number; debited: number }>();
  for (const r of rows) {
    const d = new Date(r.created_at);
    let k: string;
    if (by === 'source') k = r.source;
    else {
      const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
      if (by === 'week') day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
      k = day.toISOString();
    }
    const s = out.get(k) ?? { credited: 0, debited: 0 };
    const delta = Number(r.delta);
    if (delta > 0) s.credited += delta;
    else s.debited -= delta;
    out.set(k, s);
  }
  return out;
}

async function report(api: Api, from: string, to: string, groupBy = 'day', key = api.key) {
  const res = await h.call(
    'GET',
    `/api/v1/reports/coins?from=${from}&to=${to}&group_by=${groupBy}`,
    { key },
  );
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** The report's non-zero rows as the same map `expected` makes. */
function asMap(data: any) {
  const out = new Map<string, { credited: number; debited: number }>();
  for (const r of data.rows) {
    if (r.credited === 0 && r.debited === 0) continue;
    expect(r.net).toBe(r.credited - r.debited);
    out.set(r.source ?? new Date(r.period_start).toISOString(), {
      credited: r.credited,
      debited: r.debited,
    });
  }
  return out;
}

async function expectExact(api: Api, from: string, to: string) {
  for (const by of ['day', 'week', 'source'] as const)
    expect(asMap(await report(api, from, to, by)), by).toEqual(await expected(api, from, to, by));
}

describe('the coin report', () => {
  let a: Api;
  let b: Api;
  let ana: string;
  let bea: string;
  let bob: string;
  beforeAll(async () => {
    a = await partner(h);
    b = await partner(h);
    ana = (await a.customer({ external_id: 'ana' })).id;
    bea = (await a.customer({ external_id: 'bea' })).id;
    bob = (await b.customer({ external_id: 'bob' })).id;
    // Tenant A: every source, over two weeks, at hour edges and inside hours.
    const at = [
      '2026-03-02T10:00:00.000Z',
      '2026-03-02T10:59:59.999Z',
      '2026-03-03T00:00:00.000Z',
      '2026-03-04T23:30:00.000Z',
      '2026-03-08T23:59:59.999Z', // Sunday: last instant of the ISO week
      '2026-03-09T00:00:00.000Z', // Monday: a new week
      '2026-03-12T07:15:00.000Z',
    ];
    const sources: MovementSource[] = ['api', 'engine', 'campaign', 'bulk', 'refund'];
    let i = 0;
    for (const t of at)
      for (const source of sources) {
        await move(a, i % 2 ? ana : bea, 100 + i, source, t);
        i++;
      }
    await move(a, ana, -40, 'order', '2026-03-04T12:00:00.000Z');
    await move(a, bea, -30, 'expiry', '2026-03-09T05:00:00.000Z');
    await move(a, ana, -7, 'api', '2026-03-12T07:16:00.000Z');
    // A hold captured: an api debit reported as `hold`.
    clock = new Date('2026-03-10T08:20:00.000Z');
    const hold = await a.post(`/api/v1/customers/${ana}/coins/holds`, {
      amount: 25,
      expires_in_seconds: 3600,
    });
    expect(hold.status, hold.text).toBe(201);
    const captured = await a.post(
      `/api/v1/customers/${ana}/coins/holds/${hold.body.data.id}/capture`,
      {},
    );
    expect(captured.status, captured.text).toBe(200);
    // Tenant B and A's live environment, at the same instants: never in A's test report.
    for (const t of at) await move(b, bob, 1000, 'api', t);
    const live = await a.otherKey({ env: 'live' });
    const liveCustomer = await h.call('POST', '/api/v1/customers', {
      key: live,
      body: { first_name: 'L', last_name: 'Ive', external_id: 'live-1' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(liveCustomer.status).toBe(201);
    await move(a, liveCustomer.body.data.id, 5000, 'api', '2026-03-03T12:00:00.000Z', 'live');
  });

  it('equals the movements per day, week and source, folded or not', async () => {
    const from = '2026-03-01T00:00:00.000Z';
    const to = '2026-03-16T00:00:00.000Z';
    await expectExact(a, from, to); // nothing folded yet: all from the live tail
    await fold();
    await expectExact(a, from, to); // all from the rollups
    await move(a, ana, 11, 'engine', '2026-03-03T00:30:00.000Z');
    await move(a, bea, 13, 'campaign', '2026-03-12T07:00:00.000Z');
    await expectExact(a, from, to); // rollups plus a tail
    await fold();
    await expectExact(a, from, to);
    const bySource = await report(a, from, to, 'source');
    expect(bySource.rows.map((r: any) => r.source)).toEqual([...REPORT_SOURCES]);
    expect(bySource.rows.find((r: any) => r.source === 'hold')).toMatchObject({
      debited: 25,
      debits: 1,
    });
    expect(bySource.totals.credited).toBe(
      bySource.rows.reduce((s: number, r: any) => s + r.credited, 0),
    );
  });

  it('lists every day and week of the window, zeros included', async () => {
    const days = await report(a, '2026-03-01T00:00:00.000Z', '2026-03-16T00:00:00.000Z', 'day');
    expect(days.rows).toHaveLength(15);
    expect(days.rows[0].period_start).toBe('2026-03-01T00:00:00.000Z');
    expect(days.rows[0]).toMatchObject({ credited: 0, debited: 0, net: 0 });
    const weeks = await report(a, '2026-03-01T00:00:00.000Z', '2026-03-16T00:00:00.000Z', 'week');
    expect(weeks.rows.map((r: any) => r.period_start)).toEqual([
      '2026-02-23T00:00:00.000Z',
      '2026-03-02T00:00:00.000Z',
      '2026-03-09T00:00:00.000Z',
    ]);
  });

  it('counts from inclusive and to exclusive, at any instant', async () => {
    await fold();
    // Edges inside hours, on hours, and a window inside one hour.
    const windows: [string, string][] = [
      ['2026-03-02T10:00:00.000Z', '2026-03-09T00:00:00.000Z'],
      ['2026-03-02T10:00:00.001Z', '2026-03-08T23:59:59.999Z'],
      ['2026-03-02T10:30:00.000Z', '2026-03-12T07:15:00.001Z'],
      ['2026-03-12T07:10:00.000Z', '2026-03-12T07:20:00.000Z'],
      ['2026-03-02T09:00:00.000Z', '2026-03-02T10:00:00.000Z'],
    ];
    for (const [from, to] of windows) await expectExact(a, from, to);
    const exactlyFrom = await report(a, '2026-03-09T00:00:00.000Z', '2026-03-09T00:00:00.001Z');
    expect(exactlyFrom.totals.credits).toBe(5);
    const exactlyTo = await report(a, '2026-03-08T23:00:00.000Z', '2026-03-09T00:00:00.000Z');
    expect(exactlyTo.totals.credits).toBe(5); // the Sunday's, not the Monday's
  });

  it("never counts another sub-brand's or environment's movements", async () => {
    const from = '2026-03-01T00:00:00.000Z';
    const to = '2026-03-16T00:00:00.000Z';
    const theirs = await report(b, from, to, 'source');
    expect(theirs.totals).toMatchObject({ credited: 7000, debited: 0, credits: 7 });
    const live = await report(a, from, to, 'source', await a.otherKey({ env: 'live' }));
    expect(live.totals).toMatchObject({ credited: 5000, credits: 1 });
    const ours = await report(a, from, to, 'source');
    expect(ours.totals.credited).toBe(
      [...(await expected(a, from, to, 'source')).values()].reduce((s, v) => s + v.credited, 0),
    );
  });

  it('needs reports:read', async () => {
    const key = await a.otherKey({ scopes: ['customers:read', 'orders:read'] });
    const res = await h.call(
      'GET',
      '/api/v1/reports/coins?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z',
      { key },
    );
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    const narrow = await a.otherKey({ scopes: ['reports:read'] });
    for (const path of ['coins', 'top-customers', 'campaigns'])
      expect(
        (
          await h.call(
            'GET',
            `/api/v1/reports/${path}?from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z`,
            { key: narrow },
          )
        ).status,
      ).toBe(200);
    expect((await h.call('GET', '/api/v1/reports/orders', { key: narrow })).status).toBe(200);
  });

  it('refuses bad windows and groupings, naming the field', async () => {
    const cases: [string, string][] = [
      ['to=2026-03-02T00:00:00Z', 'from'],
      ['from=2026-03-01T00:00:00Z', 'to'],
      ['from=yesterday&to=2026-03-02T00:00:00Z', 'from'],
      ['from=2026-03-01&to=2026-03-02T00:00:00Z', 'from'],
      ['from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', 'to'],
      ['from=2026-03-02T00:00:00Z&to=2026-03-02T00:00:00Z', 'to'],
      ['from=2025-01-01T00:00:00Z&to=2026-03-02T00:00:00Z', 'to'],
      ['from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z&group_by=month', 'group_by'],
      ['from=2026-03-01T00:00:00Z&to=2026-03-02T00:00:00Z&currency=EUR', 'currency'],
    ];
    for (const [query, field] of cases) {
      const res = await a.get(`/api/v1/reports/coins?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe('invalid_request');
      expect(JSON.stringify(res.body.error), query).toContain(field);
    }
    const wide = await a.get(
      '/api/v1/reports/top-customers?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z',
    );
    expect(wide.status).toBe(400);
  });

  it('answers the same through GraphQL, for the backoffice', async () => {
    const query = `query($from: DateTime!, $to: DateTime!) {
      coinReport(from: $from, to: $to, groupBy: source) { totals { credited debited } rows { source credited } }
    }`;
    const variables = { from: '2026-03-01T00:00:00.000Z', to: '2026-03-16T00:00:00.000Z' };
    const rest = await report(a, variables.from, variables.to, 'source');
    // Read-only support staff hold every :read scope, reports:read included.
    const support = await createStaff(h.db.prisma, 'support', { subBrandId: a.subBrandId });
    const staff = await signInAs(h.url, support.email);
    const viaStaff = await staff.gql(query, variables, { subBrandId: a.subBrandId, env: 'test' });
    expect(viaStaff.status, viaStaff.text).toBe(200);
    expect(viaStaff.body.data.coinReport.totals).toEqual({
      credited: rest.totals.credited,
      debited: rest.totals.debited,
    });
    expect(viaStaff.body.data.coinReport.rows).toHaveLength(REPORT_SOURCES.length);
    const others = await staff.gql(
      `{ orderReport { statuses { status count } } topEarners(from: "2026-03-01T00:00:00Z", to: "2026-03-16T00:00:00Z", limit: 2) { customers { externalId earned } } campaignPerformance(from: "2026-03-01T00:00:00Z", to: "2026-03-16T00:00:00Z") { campaigns { title } } }`,
      {},
      { subBrandId: a.subBrandId, env: 'test' },
    );
    expect(others.status, others.text).toBe(200);
    expect(others.body.data.orderReport.statuses).toHaveLength(5);
    expect(others.body.data.topEarners.customers).toHaveLength(2);
    const bad = await staff.gql(
      query,
      { from: variables.to, to: variables.from },
      { subBrandId: a.subBrandId, env: 'test' },
    );
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
  });

  it('stays exact while movements commit during folds', async () => {
    const c = await partner(h);
    const ids = await Promise.all(
      Array.from({ length: 8 }, async (_, n) => (await c.customer({ external_id: `c${n}` })).id),
    );
    clock = new Date('2026-04-01T12:00:00.000Z');
    let folding = true;
    const folds = (async () => {
      let passes = 0;
      while (folding) {
        await fold();
        passes++;
      }
      return passes;
    })();
    await Promise.all(
      ids.map(async (id) => {
        for (let k = 0; k < 15; k++) {
          const at = new Date(Date.UTC(2026, 3, 1 + (k % 3), k, 30)).toISOString();
          await move(c, id, k + 1, k % 2 ? 'engine' : 'api', at);
        }
      }),
    );
    folding = false;
    expect(await folds).toBeGreaterThan(0);
    const from = '2026-04-01T00:00:00.000Z';
    const to = '2026-04-05T00:00:00.000Z';
    const total = 8 * ((15 * 16) / 2);
    expect((await report(c, from, to, 'source')).totals.credited).toBe(total);
    await expectExact(c, from, to);
    await fold();
    expect((await report(c, from, to, 'source')).totals.credited).toBe(total);
    await expectExact(c, from, to);
  });

  it.runIf(TEST_DB === 'postgres')(
    'never folds past a transaction still open, and folds it once it commits',
    async () => {
      const d = await partner(h);
      const id = (await d.customer({ external_id: 'open' })).id;
      const other = (await d.customer({ external_id: 'other' })).id;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let moved!: () => void;
      const inside = new Promise<void>((r) => (moved = r));
      const open = h.db.prisma.$transaction(async (tx) => {
        await moveCoins(
          tx,
          { subBrandId: d.subBrandId, environment: 'test' },
          { customerId: id, delta: 77, reason: null },
          { source: 'api', apiKeyId: null, requestId: null, at: new Date('2026-05-01T10:10:00Z') },
        );
        moved();
        await held;
      });
      await inside;
      await fold(); // the open transaction holds the horizon below its movement
      await move(d, other, 5, 'api', '2026-05-01T10:20:00.000Z'); // committed after the open one began
      await fold();
      const from = '2026-05-01T00:00:00.000Z';
      const to = '2026-05-02T00:00:00.000Z';
      expect((await report(d, from, to, 'source')).totals.credited).toBe(5);
      release();
      await open;
      expect((await report(d, from, to, 'source')).totals.credited).toBe(82);
      await fold();
      await fold();
      expect((await report(d, from, to, 'source')).totals.credited).toBe(82);
    },
  );
});

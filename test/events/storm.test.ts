// Issue 31, "done when": a server process is killed (-9) twice in the middle of a storm of coin
// adjustments, orders and engine events. Afterwards, checked by SQL, every committed effect has
// exactly one event and every event its effect, and the receiver has every event id at least
// once: the event commits with its effect, and the relay and sender lose nothing through a crash.
// STORM_SECONDS sets the storm's length (30 by default, as the issue asks).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { Webhook } from 'standardwebhooks';
import { shop } from '../orders/support.js';
import { webhookReceiver } from '../support/events.js';
import { call, startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { ensureBuilt } from '../support/build.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

const SECONDS = Number(process.env.STORM_SECONDS ?? 30);
const WORKERS = 6;
const CUSTOMERS = 20;

let h: Harness;
beforeAll(async () => {
  if (TEST_DB === 'postgres') h = await startHarness({ ownDatabase: true });
});
afterAll(() => h?.close());

describe.runIf(TEST_DB === 'postgres')('events through kill -9', () => {
  it('every committed effect has one event, every event its effect, and every event arrives', async () => {
    const s = await shop(h, { stock: 1_000_000 });
    const receiver = await webhookReceiver();
    // The endpoint first: every event of the tenant is then delivered.
    const endpoint = await s.post('/api/v1/webhook-endpoints', {
      url: receiver.url,
      event_types: [],
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    const verifier = new Webhook(endpoint.body.data.secret);
    await createDefinition(h.db.prisma, { subBrandId: s.subBrandId, code: 'spin', points: 5 });
    const players = await Promise.all(
      Array.from({ length: CUSTOMERS }, (_, i) =>
        s.customer({ external_id: `storm-${i}` }).then(async (c) => {
          await s.credit(c.id, 100_000);
          return c;
        }),
      ),
    );

    const env = { DATABASE_URL: h.databaseUrl! };
    // The production build: it starts in a moment, so most of the storm meets a server.
    ensureBuilt();
    const start = () => startServerProcess(env, 45_000, 'dist');
    let server: ServerProcess = await start();
    const counts = { sent: 0, ok: 0, failed: 0 };
    const statuses: number[] = [];
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    async function one() {
      const p = pick(players);
      const roll = Math.random();
      const [path, body] =
        roll < 0.5
          ? [`/api/v1/customers/${p.id}/coins`, { delta: roll < 0.35 ? 7 : -3, reason: 'storm' }]
          : roll < 0.75
            ? [
                '/api/v1/orders',
                { customer_id: p.id, listing_market_ids: [s.listing.listing_market_id] },
              ]
            : [
                '/api/v1/engine/events',
                { event_code: 'spin', data: { externalUserId: p.external_id } },
              ];
      counts.sent++;
      const res = await call(server.url, 'POST', path, {
        key: s.key,
        body,
        headers: { 'idempotency-key': randomUUID() },
      });
      if (res.status < 300) counts.ok++;
      else statuses.push(res.status);
    }
    const end = Date.now() + SECONDS * 1000;
    const storm = Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (Date.now() < end) {
          // A request cut by the kill, or sent while no server listens, just goes on to the next.
          await one().catch(async () => {
            counts.failed++;
            await new Promise((r) => setTimeout(r, 50));
          });
        }
      }),
    );
    const kills: number[] = [];
    for (const at of [SECONDS / 3, (2 * SECONDS) / 3]) {
      await new Promise((r) => setTimeout(r, end - SECONDS * 1000 + at * 1000 - Date.now()));
      const exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGKILL');
      await exited;
      kills.push(Date.now());
      server = await start();
    }
    await storm;
    const t0 = Date.now();

    // The last server relays and sends what is left.
    const eventIds = async () =>
      (
        await h.db.prisma.$queryRawUnsafe<{ id: string }[]>(
          `SELECT id::text FROM events WHERE sub_brand_id = $1::uuid`,
          s.subBrandId,
        )
      ).map((r) => r.id);
    const deadline = Date.now() + 90_000;
    let missing: string[];
    for (;;) {
      const got = receiver.ids();
      missing = (await eventIds()).filter((id) => !got.has(id));
      if (!missing.length || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const drained = Date.now() - t0;
    expect(await server.stop()).toBe(0);
    await receiver.close();
    expect(kills).toHaveLength(2);
    expect(counts.ok).toBeGreaterThan(100);

    const scalar = async (sql: string) =>
      Number((await h.db.prisma.$queryRawUnsafe<{ n: bigint }[]>(sql, s.subBrandId))[0]!.n);
    const events = (type: string, table: string, where = 'true') => `
      SELECT count(*) AS n FROM ${table} r
      WHERE r.sub_brand_id = $1::uuid AND ${where} AND (
        SELECT count(*) FROM events e
        WHERE e.sub_brand_id = $1::uuid AND e.type LIKE '${type}' AND e.resource_id = r.id::text
      ) <> 1`;
    // Every effect, exactly one event.
    expect(await scalar(events('coin_movement.created', 'coin_movements'))).toBe(0);
    expect(await scalar(events('customer.created', 'customers'))).toBe(0);
    expect(await scalar(events('order.created', 'orders'))).toBe(0);
    expect(
      await scalar(events('engine_execution.%', 'engine_executions', `r.status <> 'processing'`)),
    ).toBe(0);
    // Every event, its effect.
    const orphans = await scalar(`
      SELECT count(*) AS n FROM events e WHERE e.sub_brand_id = $1::uuid AND NOT EXISTS (
        SELECT 1 FROM coin_movements r WHERE r.id::text = e.resource_id
        UNION ALL SELECT 1 FROM customers r WHERE r.id::text = e.resource_id
        UNION ALL SELECT 1 FROM orders r WHERE r.id::text = e.resource_id
        UNION ALL SELECT 1 FROM engine_executions r
          WHERE r.id::text = e.resource_id AND r.status <> 'processing')`);
    expect(orphans).toBe(0);
    // The receiver got every event, each signed as Standard Webhooks' library verifies.
    expect(missing).toEqual([]);
    for (const r of receiver.received.slice(0, 50)) {
      verifier.verify(r.body, {
        'webhook-id': r.id,
        'webhook-timestamp': r.timestamp,
        'webhook-signature': r.signature,
      });
    }
    const total = (await eventIds()).length;
    console.log(
      `events storm: ${SECONDS} s, ${counts.sent} requests (${counts.ok} applied, ${counts.failed} cut), ` +
        `2 kills, ${total} events, refused ${JSON.stringify(statuses.slice(0, 5))},  ${receiver.received.length} deliveries (${receiver.received.length - total} again), all received ${drained} ms after the storm`,
    );
  }, 240_000);
});

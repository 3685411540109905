// Several server processes behind PgBouncer in transaction pooling mode (docs/scaling.md), with
// named prepared statements off as PgBouncer 1.18 requires: money still moves exactly once, every
// balance is the sum of its movements, and the rate budget is still shared through Redis.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from './support/factories.js';
import { call, ownDatabase, TEST_DB, type OwnDatabase } from './support/harness.js';
import { startPgBouncer, type PgBouncer } from './support/pgbouncer.js';
import { startServerProcess } from './support/server-process.js';

describe.runIf(TEST_DB === 'postgres')('behind PgBouncer (transaction pooling)', () => {
  let own: OwnDatabase;
  let bouncer: PgBouncer;
  beforeAll(async () => {
    // The server processes run the campaign job on the real clock: on the run's shared database
    // it would complete the campaigns that the files beside run on their own clocks.
    own = await ownDatabase();
    bouncer = await startPgBouncer(own.url!);
  }, 30_000);
  afterAll(async () => {
    await bouncer?.stop();
    await own?.drop();
  });

  it('two processes of two workers each: concurrent money moves once per key, balances add up', async () => {
    const db = own.db;
    const tenant = await createTenant(db.prisma);
    const { key } = await tenant.key({ readLimit: 1_000_000, writeLimit: 1_000_000 });
    const env = {
      DATABASE_URL: bouncer.url(own.url!),
      DATABASE_PREPARED_STATEMENTS: 'false',
      DATABASE_POOL_SIZE: '4',
      WEB_CONCURRENCY: '2',
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    };
    const servers = await Promise.all([
      startServerProcess(env, 90_000),
      startServerProcess(env, 90_000),
    ]);
    try {
      const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
      const customers: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await call(a.url, 'POST', '/api/v1/customers', {
          key,
          headers: { 'idempotency-key': randomUUID() },
          body: { first_name: 'Pool', last_name: String(i) },
        });
        expect(res.status, res.text).toBe(201);
        customers.push(res.body.data.id);
      }
      // 60 credits over both processes, each key sent twice (once to each): 30 effects.
      const keys = Array.from({ length: 30 }, () => randomUUID());
      const replies = await Promise.all(
        keys.flatMap((k, i) =>
          [a, b].map((server) =>
            call(server.url, 'POST', `/api/v1/customers/${customers[i % 3]}/coins`, {
              key,
              headers: { 'idempotency-key': k },
              body: { delta: 10, reason: 'pooled' },
            }),
          ),
        ),
      );
      // A key's twin may still be in flight: 409 idempotency_in_progress, never a second effect.
      // A 500 is told with what the servers logged for its request id, so a failure names its cause.
      const logged = (r: (typeof replies)[number]) => {
        const id = String(r.body?.error?.request_id ?? '');
        const lines = servers.flatMap((s) => s.output().split('\n'));
        return [r.text, ...lines.filter((l) => id && l.includes(id))].join('\n');
      };
      for (const r of replies) expect([200, 201, 409], logged(r)).toContain(r.status);
      for (const id of customers) {
        const wallet = await db.prisma.wallet.findUniqueOrThrow({ where: { customerId: id } });
        const moves = await db.prisma.coinMovement.findMany({ where: { customerId: id } });
        expect(Number(wallet.balance)).toBe(100);
        expect(moves.reduce((sum, m) => sum + Number(m.delta), 0)).toBe(100);
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }, 180_000);
});

// A replay finds its stored answer through the claim itself (no read before it, issue 16): when
// the first execution has committed, and when it is still in flight and commits while the
// replay waits on the claim.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { driverOf } from '../../src/db/sql.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { until, untilGiven } from '../support/poll.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const movements = (customerId: string) => h.db.prisma.coinMovement.count({ where: { customerId } });

describe('a replay without a read before the claim', () => {
  it('answers the stored answer byte for byte, and moves nothing', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const key = randomUUID();
    const first = await p.post(`/api/v1/customers/${c.id}/coins`, { delta: 7 }, key);
    const again = await p.post(`/api/v1/customers/${c.id}/coins`, { delta: 7 }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    const other = await p.post(`/api/v1/customers/${c.id}/coins`, { delta: 8 }, key);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
    expect(await movements(c.id)).toBe(1);
  });

  // The replay sent to another server process (its own pool) waits in the database, on the
  // claim's conflict; sent to the same process it waits there for the wallet's commit in flight
  // (db/hot-rows.ts), holding no connection, and then finds the key taken.
  it.skipIf(TEST_DB !== 'postgres').each(['another server process', 'the same process'])(
    'waits for a first execution still in flight, then answers its answer (replay to %s)',
    async (where) => {
      const p = await partner(h);
      const c = await p.customer();
      const key = randomUUID();
      const url = h.db.pool!.options.connectionString!;
      const other = where === 'the same process' ? undefined : await openDatabase({ url });
      const h2 = other ? await startHarness({ database: other }) : h;
      // Hold the wallet's row lock from outside, so the first execution claims the key and
      // then waits at the ledger statement.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM wallets WHERE customer_id = $1 FOR UPDATE', [c.id]);
        const holderPid: number = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0]
          .pid;
        const first = p.post(`/api/v1/customers/${c.id}/coins`, { delta: 5 }, key);
        // Waiting on the wallet means it has claimed the key (the claim comes first).
        const firstPid = await untilGiven(
          async () => (await blockedBy(holderPid))[0],
          'a request waits on the held lock',
        );
        const replay = h2.call('POST', `/api/v1/customers/${c.id}/coins`, {
          key: p.key,
          body: { delta: 5 },
          headers: { 'idempotency-key': key },
        });
        if (other) {
          await untilGiven(
            async () => (await blockedBy(firstPid))[0],
            'the second request waits on the first',
          );
        } else {
          const hotRows = driverOf(h.db.prisma)!.pool!.hotRows;
          await until(
            () => hotRows.waiting(`wallet:${c.id}`) > 0,
            'a request is parked on the wallet',
          );
        }
        await holder.query('COMMIT');
        const [a, b] = await Promise.all([first, replay]);
        expect(a.status).toBe(201);
        expect(a.headers.get('idempotent-replay')).toBeNull();
        expect(b.status).toBe(201);
        expect(b.headers.get('idempotent-replay')).toBe('true');
        expect(b.text).toBe(a.text);
        expect(await movements(c.id)).toBe(1);
      } finally {
        await holder.end();
        if (other) await h2.close();
        await other?.close();
      }
    },
  );
});

/**
 * The backends waiting for a lock that `pid` holds. Not every backend waiting on a lock: the run's
 * database is shared by the files running beside, whose own lock waits would count.
 */
const blockedBy = async (pid: number): Promise<number[]> =>
  (
    await h.db.pool!.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
      [pid],
    )
  ).rows.map((r) => r.pid);

// Issue 36, "reads on a streaming replica": with DATABASE_READ_URL, lists, searches, reports and
// leaderboards read from a hot standby, and no caller reads its own write missing. A primary and
// a standby of this file's own (initdb, pg_basebackup), the standby applying what it receives
// 1.5 s late (recovery_min_apply_delay): a key that has just written reads its write (the read
// waited for the standby to replay it, or went to the primary past the bounded wait); another key
// of the same tenant reads the standby at once, 1.5 s behind; when the standby stops, reads go to
// the primary and nothing fails. A second server process on the same databases learns the
// writer's position through Redis. Run once, with the PostgreSQL suite (it starts its own servers).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { redisPositions } from '../../src/db/redis-positions.js';
import { createTenant } from '../support/factories.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { createStaff, signInAs } from '../support/staff.js';
import { startPrimaryAndStandby, type PrimaryAndStandby } from '../support/standby.js';

const APPLY_DELAY_MS = 1500;

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** This run's own keys in the shared Redis. */
const PREFIX = `rr-test-${randomUUID()}`;

let servers: PrimaryAndStandby;
let db: Database;
let h: Harness;
/** A second server process on the same primary and standby, sharing positions through Redis. */
let db2: Database;
let h2: Harness;
let writer: string;
let reader: string;
let subBrandId: string;

/** Until the standby has replayed everything the primary has written so far. */
async function standbyCaughtUp() {
  const primary = new pg.Client({ connectionString: servers.primaryUrl });
  const standby = new pg.Client({ connectionString: servers.standbyUrl });
  await primary.connect();
  await standby.connect();
  try {
    const { rows } = await primary.query('SELECT pg_current_wal_lsn() AS lsn');
    for (;;) {
      const { rows: r } = await standby.query(
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
        [rows[0].lsn],
      );
      if (r[0].done) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await primary.end();
    await standby.end();
  }
}

const as = (key: string) => ({
  get: (path: string) => h.call('GET', path, { key }),
  post: (path: string, body: unknown) =>
    h.call('POST', path, { key, body, headers: { 'idempotency-key': randomUUID() } }),
});

describe.skipIf(TEST_DB !== 'postgres')(
  'reads on a streaming replica',
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      servers = await startPrimaryAndStandby({ applyDelayMs: APPLY_DELAY_MS });
      const open = () =>
        openDatabase({
          url: servers.primaryUrl,
          readUrl: servers.standbyUrl,
          poolSize: 4,
          replica: { maxWaitMs: 10_000, downMs: 60_000, shared: redisPositions(REDIS_URL, PREFIX) },
        });
      db = await open();
      db2 = await open();
      h = await startHarness({ database: db });
      h2 = await startHarness({ database: db2 });
      const tenant = await createTenant(db.prisma);
      subBrandId = tenant.subBrandId;
      writer = (await tenant.key({ readLimit: 1_000_000, writeLimit: 1_000_000 })).key;
      reader = (await tenant.key({ readLimit: 1_000_000, writeLimit: 1_000_000 })).key;
      await standbyCaughtUp();
    }, 120_000);

    afterAll(async () => {
      await h?.close();
      await h2?.close();
      await db?.close();
      await db2?.close();
      servers?.stop();
    });

    it('answers a caller’s read after its own write; another caller reads the standby, behind', async () => {
      const before = { ...db.replica!.counts };
      const created = await as(writer).post('/api/v1/customers', {
        first_name: 'Rita',
        last_name: 'Replica',
        external_id: 'rw-1',
      });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;

      // Another key has written nothing: it reads the standby at once, which has not applied the
      // write yet. (This is what makes the standby worth having, and why the writer must wait.)
      const stale = await as(reader).get(`/api/v1/customers/${id}`);
      expect(stale.status).toBe(404);

      // The writer reads its write: the read waited for the standby to replay it.
      const own = await as(writer).get(`/api/v1/customers/${id}`);
      expect(own.status).toBe(200);
      expect(own.body.data.external_id).toBe('rw-1');
      const listed = await as(writer).get('/api/v1/customers?external_id=rw-1');
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(id);
      expect(db.replica!.counts.waited).toBeGreaterThan(before.waited);
      expect(db.replica!.counts.replica - before.replica).toBeGreaterThanOrEqual(3);

      // Once replayed, everyone reads it from the standby.
      await standbyCaughtUp();
      expect((await as(reader).get(`/api/v1/customers/${id}`)).status).toBe(200);
    });

    it('the same for a staff member’s GraphQL mutation and the query after it', async () => {
      const staff = await createStaff(db.prisma, 'establishment_operator', { subBrandId });
      const client = await signInAs(h.url, staff.email);
      const made = await client.gql(
        `mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { id } }`,
        { input: { firstName: 'Gina', lastName: 'Graph', externalId: 'rw-gql' } },
      );
      expect(made.body.errors).toBeUndefined();
      const read = await client.gql(`query($id: ID!) { customer(id: $id) { externalId } }`, {
        id: made.body.data.createCustomer.id,
      });
      expect(read.body.errors).toBeUndefined();
      expect(read.body.data.customer.externalId).toBe('rw-gql');
      // A report whose statement runs in a read-only transaction on the standby (kpis.ts).
      const replicaReads = db.replica!.counts.replica;
      const kpis = await client.gql(
        `query($from: DateTime!, $to: DateTime!) { dashboardKpis(from: $from, to: $to) { ordersWaiting activePlayers } }`,
        { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date().toISOString() },
      );
      expect(kpis.body.errors).toBeUndefined();
      expect(kpis.body.data.dashboardKpis.ordersWaiting).toBe(0);
      expect(db.replica!.counts.replica).toBe(replicaReads + 1);
    });

    it('a write answered by one server process is read by another (positions in Redis)', async () => {
      const created = await as(writer).post('/api/v1/customers', {
        first_name: 'Otto',
        last_name: 'Other',
        external_id: 'rw-other',
      });
      expect(created.status).toBe(201);
      const waited = db2.replica!.counts.waited;
      const there = await h2.call('GET', `/api/v1/customers/${created.body.data.id}`, {
        key: writer,
      });
      expect(there.status).toBe(200);
      expect(db2.replica!.counts.waited).toBe(waited + 1);
    });

    it('reads from the primary when the standby cannot catch up within the bounded wait', async () => {
      db.replica!.maxWaitMs = 100; // well under the standby's 1.5 s delay
      try {
        const before = { ...db.replica!.counts };
        const created = await as(writer).post('/api/v1/customers', {
          first_name: 'Pablo',
          last_name: 'Primary',
          external_id: 'rw-2',
        });
        expect(created.status).toBe(201);
        const own = await as(writer).get(`/api/v1/customers/${created.body.data.id}`);
        expect(own.status).toBe(200);
        expect(db.replica!.counts.primary).toBeGreaterThan(before.primary);
      } finally {
        db.replica!.maxWaitMs = 10_000;
      }
    });

    it('goes on from the primary when the standby stops', async () => {
      servers.stopStandby();
      const before = { ...db.replica!.counts };
      // The reader has no write to wait for: its read goes to the standby, fails, and is answered
      // by the primary; then the standby is left alone for a while (downMs).
      const listed = await as(reader).get('/api/v1/customers?external_id=rw-1');
      expect(listed.status).toBe(200);
      expect(listed.body.data).toHaveLength(1);
      const created = await as(writer).post('/api/v1/customers', {
        first_name: 'Olga',
        last_name: 'Outage',
        external_id: 'rw-3',
      });
      expect(created.status).toBe(201);
      const own = await as(writer).get(`/api/v1/customers/${created.body.data.id}`);
      expect(own.status).toBe(200);
      expect(db.replica!.counts.down).toBeGreaterThan(before.down);
      expect(db.replica!.counts.primary - before.primary).toBeGreaterThanOrEqual(2);
    });
  },
);

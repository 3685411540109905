// Issue 13 item 6, the fault test: PostgreSQL stopped under load. The test runs its own
// throwaway cluster (initdb + pg_ctl into a temp folder on a free port; never the machine's
// PostgreSQL): while it is down every request is 503 service_unavailable with Retry-After, the
// outage is logged once and readiness reports it; when it is back the same server answers again,
// and every Idempotency-Key applied exactly once.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../support/ports.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import type { DatabaseHealth } from '../../src/http/db-outage.js';
import { createRateLimitStore } from '../../src/http/rate-limit.js';
import { createHttpServer } from '../../src/http/server-options.js';
import { createTenant } from '../support/factories.js';
import { call, silentLogger, TEST_DB, type Reply } from '../support/harness.js';
import { until } from '../support/poll.js';

const BIN = '/usr/lib/postgresql/15/bin';
const runnable = TEST_DB === 'postgres' && existsSync(`${BIN}/pg_ctl`);
/** A wait across the outage: the test's own limit (120 s) is the one that matters. */
const OUTAGE_WAIT = 100_000;

/** A PostgreSQL cluster of its own, as the `postgres` user when the tests run as root. */
class ThrowawayCluster {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'rewards-outage-'));
  port = 0;

  private run(binary: string, args: string[]) {
    const asRoot = process.getuid?.() === 0;
    const [command, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', `${BIN}/${binary}`, ...args]]
      : [`${BIN}/${binary}`, args];
    execFileSync(command, argv, { stdio: 'pipe', cwd: this.dir });
  }

  async init() {
    if (process.getuid?.() === 0) chownSync(this.dir, uid('postgres'), gid('postgres'));
    this.port = await freePort();
    this.run('initdb', ['-D', `${this.dir}/data`, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  }

  start() {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.run('pg_ctl', [
      '-D',
      `${this.dir}/data`,
      '-o',
      options,
      '-l',
      `${this.dir}/log`,
      '-w',
      'start',
    ]);
  }

  /** Immediate: in-flight transactions are cut off, as in a crash. */
  stop() {
    this.run('pg_ctl', ['-D', `${this.dir}/data`, '-m', 'immediate', '-w', 'stop']);
  }

  destroy() {
    try {
      this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  get url() {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }
}

const uid = (user: string) => Number(execFileSync('id', ['-u', user]).toString());
const gid = (user: string) => Number(execFileSync('id', ['-g', user]).toString());
describe.runIf(runnable)('PostgreSQL stopped under load', () => {
  const cluster = new ThrowawayCluster();
  const logLines: { msg?: string }[] = [];
  let db: Database;
  let server: Server;
  let url: string;
  let health: DatabaseHealth;

  beforeAll(async () => {
    await cluster.init();
    cluster.start();
    db = await openDatabase({ url: cluster.url, poolSize: 8 });
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          logLines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const app = createApp({
      prisma: db.prisma,
      logger,
      rateLimits: createRateLimitStore({ logger: silentLogger }),
    });
    health = app.locals.databaseHealth as DatabaseHealth;
    server = await new Promise((resolve) => {
      const s = createHttpServer(app).listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server?.close(() => resolve());
      server?.closeAllConnections();
    });
    health?.close();
    await db?.close().catch(() => {});
    cluster.destroy();
  });

  it('answers 503 while down, recovers without a restart, applies every key once', async () => {
    const tenant = await createTenant(db.prisma);
    const { key } = await tenant.key({ readLimit: 1_000_000, writeLimit: 1_000_000 });
    const customer = await call(url, 'POST', '/api/v1/customers', {
      key,
      body: { first_name: 'Ana', last_name: 'García' },
      headers: { 'idempotency-key': randomUUID() },
    });
    const coins = `/api/v1/customers/${customer.body.data.id}/coins`;

    const keys = Array.from({ length: 96 }, () => randomUUID());
    const outcomes = new Map<string, Reply>();
    const unavailable: Reply[] = [];
    const others: Reply[] = [];
    let completed = 0;
    // Each worker sends its keys in turn, and retries a key while it is answered 503 (or the
    // connection fails), as a partner following Retry-After would, only faster.
    const worker = async (mine: string[]) => {
      for (const k of mine) {
        for (;;) {
          const reply = await call(url, 'POST', coins, {
            key,
            body: { delta: 1, reason: k },
            headers: { 'idempotency-key': k },
          });
          if (reply.status === 503) {
            unavailable.push(reply);
            await new Promise((resolve) => setTimeout(resolve, 50));
            continue;
          }
          if (reply.status !== 201) others.push(reply);
          outcomes.set(k, reply);
          completed++;
          break;
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(keys.filter((_, i) => i % 8 === w)));

    await until(() => completed >= 16, 'the first 16 requests are answered', OUTAGE_WAIT);
    cluster.stop();
    await until(() => unavailable.length >= 20, '20 requests are refused', OUTAGE_WAIT);
    expect(health.state.available).toBe(false);
    const readsWhileDown = await call(url, 'GET', '/api/v1/health', { key });
    expect(readsWhileDown.status).toBe(503);
    cluster.start();
    await Promise.all(workers);
    await until(() => health.state.available, 'the database is available again', OUTAGE_WAIT);

    // While down: the documented 503, never a 500.
    for (const r of unavailable) {
      expect(r.body.error.code).toBe('service_unavailable');
      expect(r.headers.get('retry-after')).toBe('5');
      expect(r.body.error.request_id).toBe(r.headers.get('x-request-id'));
    }
    expect(others.map((r) => `${r.status} ${r.text}`)).toEqual([]);

    // Back, without a restart, and every key applied exactly once.
    const movements = await db.prisma.coinMovement.findMany({
      where: { customerId: customer.body.data.id },
    });
    expect(movements.map((m) => m.reason).sort()).toEqual([...keys].sort());
    const balance = await call(url, 'GET', coins, { key });
    expect(balance.body.data.balance).toBe(keys.length);
    // A replay of any key answers what its first success answered.
    const replay = await call(url, 'POST', coins, {
      key,
      body: { delta: 1, reason: keys[0] },
      headers: { 'idempotency-key': keys[0]! },
    });
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(replay.text).toBe(outcomes.get(keys[0]!)!.text);

    // Logged once for the outage (and once for its end), not once per request.
    expect(logLines.filter((l) => l.msg?.startsWith('database unavailable'))).toHaveLength(1);
    expect(logLines.filter((l) => l.msg === 'database available again')).toHaveLength(1);
    expect(logLines.filter((l) => l.msg === 'internal error')).toHaveLength(0);
  }, 120_000);
});

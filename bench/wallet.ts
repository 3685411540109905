// `npm run bench -- wallet`: coin adjustments through the whole HTTP stack (auth, rate limit,
// Idempotency-Key, GraphQL, ledger) against the same SQL transaction sent (a) from Node with raw
// `pg` and (b) by pgbench; on one hot wallet and on 1,000 spread wallets; and replays of used
// keys. Scenarios are interleaved (A, B, C, A, B, C, …) and reported as medians and ratios.
// PostgreSQL only; needs pgbench (Debian: postgresql-client).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { newId } from '../src/domain/ids.js';
import { scratchDatabase } from './scratch-db.js';
import {
  CONNECTIONS,
  load,
  median as medianOf,
  ROUNDS,
  SECONDS,
  startServer,
  type Sample,
  benchCustomerId,
  seedBenchTenant,
  rawLoad,
  interleave,
  walletsOffTheirSum,
  printRows,
  saveResults,
  machineTicks,
  machineUse,
} from './support.js';

const WALLETS = 1000;
/** Adjustments per transaction in the coalesced baseline: the server's pool less one. */
const BATCH = CONNECTIONS - 1;

/** A bench customer by number, or a customer id as it is (bench/scale.ts's seeded ones). */
const customerId = (pick: number | string) =>
  typeof pick === 'string' ? pick : benchCustomerId(pick);

export async function benchWallet() {
  const { url, drop } = await scratchDatabase('wallet');
  const server = { stop: async () => {} };
  try {
    const { subBrand, key } = await seedBenchTenant(url, {
      scopes: ['customers:coins', 'customers:read'],
      customers: WALLETS,
    });

    const base = await startServer(url, server);
    const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
    pool.on('error', () => {}); // the scratch database is dropped at the end

    // The sub-brand's coin expiry policy for the next scenario (docs/expiry-and-holds.md): with
    // one, every credit's lot gets an expiry and every move looks for due lots to write off.
    const policy = (on: boolean) =>
      pool.query(
        on
          ? `UPDATE sub_brands SET expiry_policy = 'rolling_days', expiry_days = 30 WHERE id = $1`
          : `UPDATE sub_brands SET expiry_policy = 'none', expiry_days = NULL WHERE id = $1`,
        [subBrand],
      );
    const spread = () => 1 + Math.floor(Math.random() * WALLETS);
    const scenarios: Record<string, () => Promise<Sample>> = {
      'http spread': async () => (await policy(false), http(base, key, spread)),
      'http spread expiry': async () => (await policy(true), http(base, key, spread)),
      'raw pg spread': () => raw(pool, subBrand, () => 1 + Math.floor(Math.random() * WALLETS)),
      'pgbench spread': () => pgbench(url, subBrand, `random(1, ${WALLETS})`),
      'http hot': async () => (await policy(false), http(base, key, () => 1)),
      'http hot expiry': async () => (await policy(true), http(base, key, () => 1)),
      'raw pg hot': () => raw(pool, subBrand, () => 1),
      'pgbench hot': () => pgbench(url, subBrand, '1'),
      // The shape a coalesced commit sends (src/db/hot-rows.ts): several adjustments of the one
      // wallet in one transaction. What the database can do on a hot row once the commit is
      // shared; the HTTP path's ceiling is then the server's CPU.
      [`pgbench hot, ${BATCH} per transaction`]: () => pgbench(url, subBrand, '1', BATCH),
      // One client at a time: the latency of a lone request, which must not wait for a batch.
      'http hot, one client': async () => (
        await policy(false),
        http(base, key, () => 1, undefined, 1)
      ),
      'pgbench hot, one client': () => pgbench(url, subBrand, '1', 1, 1),
      // Replays of 500 requests answered just before (not timed), as a client's retries come:
      // keys primed once at the start would have left the process's 10,000 recent answers after a
      // round or two of other scenarios, and replays of those take the claim path instead.
      'http replay': async () => (
        await policy(false),
        replay(base, key, await primeReplays(base, key))
      ),
    };
    // This machine's PostgreSQL runs without autovacuum: dead wallet and idempotency rows would
    // slow later rounds (notes/performance.md), so each scenario starts from a vacuumed table.
    const vacuum = async () => {
      await pool.query('VACUUM ANALYZE wallets, coin_movements, coin_lots, idempotency_records');
    };
    // Adjustments per commit on the hot wallet's HTTP scenarios: what coalescing does, read from
    // PostgreSQL's own count of commits (pg_stat_database, flushed within a second: approximate).
    const perCommit: Record<string, number[]> = {};
    const commits = async () =>
      Number(
        (
          await pool.query<{ n: string }>(
            'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()',
          )
        ).rows[0]!.n,
      );
    for (const name of ['http hot', 'http spread']) {
      const run = scenarios[name]!;
      scenarios[name] = async () => {
        const before = await commits();
        const sample = await run();
        await new Promise((r) => setTimeout(r, 1100)); // the backends' counts flushed
        (perCommit[name] ??= []).push((sample.tps * SECONDS) / ((await commits()) - before));
        return sample;
      };
    }
    const { rows, samples } = await interleave(scenarios, 'tps', vacuum);
    const bad = await walletsOffTheirSum(pool);
    await pool.end();

    const median = (name: string, field: keyof Sample) => medianOf(samples[name]!, field);
    const ratio = (a: string, b: string) => median(a, 'tps') / median(b, 'tps');
    const ratios = {
      'http spread / raw pg spread (issue 16: ≥ 0.8)': ratio('http spread', 'raw pg spread'),
      'http hot / pgbench hot (issue 16: ≥ 0.7; issue 36: ≥ 2)': ratio('http hot', 'pgbench hot'),
      [`pgbench hot, ${BATCH} per transaction / pgbench hot (the database, coalesced)`]: ratio(
        `pgbench hot, ${BATCH} per transaction`,
        'pgbench hot',
      ),
      // One client waits for each answer: its rate is the inverse of its mean latency (autocannon
      // reports percentiles in whole milliseconds, too coarse for a ~1.5 ms request).
      'http hot, one client / pgbench hot, one client (a lone request; mean latency = 1 / rate)':
        ratio('http hot, one client', 'pgbench hot, one client'),
      'http replay / http spread, throughput (issue 16: ≥ 4)': ratio('http replay', 'http spread'),
      'http spread p50 / http replay p50, latency':
        median('http spread', 'p50') / median('http replay', 'p50'),
      'http spread expiry / http spread (issue 33: within 10 %)': ratio(
        'http spread expiry',
        'http spread',
      ),
      'http hot expiry / http hot (issue 33: within 10 %)': ratio('http hot expiry', 'http hot'),
    };
    printRows('Wallet benchmark (VACUUM ANALYZE after every scenario)', 'adjustments/s', rows, {
      'http spread': 'raw pg spread',
      'http spread expiry': 'raw pg spread',
      'http hot': 'pgbench hot',
      'http hot expiry': 'pgbench hot',
      [`pgbench hot, ${BATCH} per transaction`]: 'pgbench hot',
      'http hot, one client': 'pgbench hot, one client',
      'http replay': 'http spread',
    });
    console.log('\n| ratio | value |\n|---|---|');
    for (const [name, value] of Object.entries(ratios))
      console.log(`| ${name} | ${value.toFixed(2)} |`);
    for (const [name, values] of Object.entries(perCommit)) {
      console.log(`${name}: ${values.map((v) => v.toFixed(1)).join(', ')} adjustments per commit`);
    }
    console.log(`\nWallets whose balance differs from the sum of their movements: ${bad}`);
    saveResults('wallet', {
      seconds: SECONDS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      rows,
      ratios,
      samples,
    });
  } finally {
    await server.stop();
    await drop();
  }
}

/** Coin adjustments (+1) over HTTP for SECONDS, each on the customer `pick` names. */
export function http(
  base: string,
  key: string,
  pick: () => number | string,
  keys?: string[],
  connections?: number,
): Promise<Sample> {
  let i = 0;
  return load(
    base,
    () => ({
      path: `/api/v1/customers/${customerId(pick())}/coins`,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': keys ? keys[i++ % keys.length]! : randomUUID(),
      },
      body: '{"delta":1}',
    }),
    undefined,
    undefined,
    connections,
  );
}

/** Used keys, each replayed with the same body (customer 1, delta 1) as its first execution. */
async function primeReplays(base: string, key: string): Promise<string[]> {
  const keys = Array.from({ length: 500 }, () => randomUUID());
  for (const k of keys) {
    const res = await fetch(`${base}/api/v1/customers/${customerId(1)}/coins`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': k,
      },
      body: '{"delta":1}',
    });
    if (res.status !== 201) throw new Error(`priming: ${res.status}`);
  }
  return keys;
}

const replay = (base: string, key: string, keys: string[]) => http(base, key, () => 1, keys);

/** The transaction the HTTP stack sends for a first execution, minus HTTP, auth and GraphQL. */
const TRANSACTION = (sub: string, customer: string, idem: string, movement: string) => [
  `INSERT INTO idempotency_records (sub_brand_id, environment, key, request_hash, expires_at)
   VALUES ('${sub}', 'live', ${idem}, md5(${idem}) || md5(${idem}), now() + interval '1 day')
   ON CONFLICT (sub_brand_id, environment, key) DO UPDATE SET expires_at = EXCLUDED.expires_at
   WHERE idempotency_records.expires_at <= now() RETURNING 1`,
  `WITH input AS (SELECT ${movement}::uuid AS movement_id, ${customer}::uuid AS customer_id, 1::bigint AS delta, NULL::text AS reason),
   locked AS (SELECT w.customer_id FROM wallets w WHERE w.customer_id = ${customer}::uuid
     AND w.sub_brand_id = '${sub}' AND w.environment = 'live' ORDER BY w.customer_id FOR UPDATE OF w),
   moved AS (UPDATE wallets w SET balance = w.balance + i.delta, updated_at = now()
     FROM input i JOIN locked l ON l.customer_id = i.customer_id
     WHERE w.customer_id = i.customer_id AND w.balance + i.delta BETWEEN 0 AND 9007199254740991
     RETURNING w.customer_id, w.balance)
   INSERT INTO coin_movements (id, customer_id, sub_brand_id, environment, delta, reason, balance_after, source)
   SELECT i.movement_id, m.customer_id, '${sub}', 'live', i.delta, i.reason, m.balance, 'api'
   FROM moved m JOIN input i ON i.customer_id = m.customer_id RETURNING id`,
  `UPDATE idempotency_records SET status_code = 201, response_body = '{}'
   WHERE sub_brand_id = '${sub}' AND environment = 'live' AND key = ${idem}`,
];

/** The same adjustments as the HTTP stack's transaction, from raw `pg` (the baseline). */
export function raw(pool: pg.Pool, sub: string, pick: () => number | string): Promise<Sample> {
  // Each statement numbers its own parameters from $1.
  const claim = TRANSACTION(sub, '', '$1::text', '')[0]!;
  const move = TRANSACTION(sub, '$1::uuid', '', '$2::uuid')[1]!;
  const record = TRANSACTION(sub, '', '$1::text', '')[2]!;
  return rawLoad(pool, async (client) => {
    const idem = randomUUID();
    await client.query('BEGIN');
    await client.query(claim, [idem]);
    await client.query(move, [customerId(pick()), newId()]);
    await client.query(record, [idem]);
    await client.query('COMMIT');
  });
}

/** pgbench's rate of adjustments: `perTransaction` of them in each, over `clients` clients. */
async function pgbench(
  url: string,
  sub: string,
  customerExpr: string,
  perTransaction = 1,
  clients = CONNECTIONS,
): Promise<Sample> {
  const script = path.join(
    tmpdir(),
    `wallet-${process.pid}-${customerExpr.replace(/\W/g, '')}-${perTransaction}.sql`,
  );
  const customer = `('01a00000-0000-7000-8000-' || lpad(:c::text, 12, '0'))::uuid`;
  const adjustment = (n: number) => {
    const idem = `('pgb-' || :client_id || '-' || :k || '-${n}')`;
    return TRANSACTION(sub, customer, idem, 'gen_random_uuid()').map((s) => `${oneLine(s)};`);
  };
  writeFileSync(
    script,
    [
      `\\set c ${customerExpr}`,
      '\\set k random(1, 1000000000000)',
      // Several adjustments in one transaction go in one round trip, as the server sends a batch.
      ...(perTransaction > 1 ? ['\\startpipeline'] : []),
      'BEGIN;',
      ...Array.from({ length: perTransaction }, (_, n) => adjustment(n)).flat(),
      'COMMIT;',
      ...(perTransaction > 1 ? ['\\endpipeline'] : []),
      '',
    ].join('\n'),
  );
  const u = new URL(url);
  const machine = machineTicks();
  const result = spawnSync(
    'pgbench',
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(clients),
      '-j',
      String(Math.min(2, clients)),
      '-T',
      String(SECONDS),
      '-f',
      script,
      '-h',
      u.hostname,
      '-p',
      u.port || '5432',
      '-U',
      u.username || 'postgres',
      u.pathname.slice(1),
    ],
    { encoding: 'utf8' },
  );
  const tps = perTransaction * Number(/tps = ([\d.]+)/.exec(result.stdout)?.[1]);
  const avg = Number(/latency average = ([\d.]+) ms/.exec(result.stdout)?.[1]);
  if (!tps) throw new Error(`pgbench failed: ${result.stdout}\n${result.stderr}`);
  // pgbench reports the average, not percentiles.
  return { tps, p50: avg, p99: Number.NaN, ...machineUse(machine, tps * SECONDS) };
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

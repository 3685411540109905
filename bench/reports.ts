// `npm run bench -- reports`: the coin report at scale (issue 32 part 2; docs/reports.md).
// Part 1: 1,000,000 customers and 10,000,000 movements over 90 days in one sub-brand (and a tenth
// as many customers in another), seeded with generate_series and folded into the hourly rollups,
// plus a live tail of movements made over HTTP and not folded yet; then a 30-day coin report
// (group_by day, and source) via HTTP against the same SQL from raw `pg`, p50 and p99; and the
// top-customers report over 7 and 30 days.
// Part 2: what keeping the rollups costs the wallet: coin adjustments on 1,000 spread wallets and
// on one hot wallet over HTTP, interleaved, with (a) no reports (no window index, no job), (b) the
// rollup job as shipped (the window index, a fold every 5 s) and (c) rollups maintained in the
// ledger's transaction (a row trigger upserting the tenant's hour row, as the ledger function
// would), VACUUM between runs. PostgreSQL only. BENCH_REPORT_MOVEMENTS changes the 10,000,000.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { coinReportSql } from '../src/domain/reports/coin-report.js';
import { rebuildCoinRollups } from '../src/domain/reports/coin-rollups.js';
import { openDatabase } from '../src/db/database.js';
import { scratchDatabase } from './scratch-db.js';
import { seedBigTenant } from './seed-customers.js';
import {
  benchCustomerId,
  benchKey,
  interleave,
  load,
  median,
  percentile,
  printRows,
  saveResults,
  seedBenchTenant,
  startServer,
  type Sample,
} from './support.js';

const CUSTOMERS = 1_000_000;
const MOVEMENTS = Number(process.env.BENCH_REPORT_MOVEMENTS ?? 10_000_000);
const DAYS = 90;
const REQUESTS = Number(process.env.BENCH_REPORT_REQUESTS ?? 200);

export async function benchReports() {
  const scale = await benchReportScale();
  const wallet = await benchRollupCost();
  saveResults('reports', { scale, wallet });
}

/** The customer number g's id, as seed-customers.ts makes it. */
const seededId = (g: string) =>
  `(lpad(to_hex((1700000000000 + ${g} * 1000)::bigint), 12, '0') || '7' || substr(md5(${g}::text), 1, 3) || '8'
    || substr(md5(${g}::text), 4, 15))::uuid`;

/**
 * `movements` movements of the tenant's seeded customers (seed-customers.ts) over `days`, live,
 * sources in proportion: api, engine, campaign, bulk credits; order, expiry debits; refunds.
 */
export async function seedMovements(
  raw: pg.Client,
  subBrandId: string,
  customers: number,
  movements: number,
  days: number,
) {
  console.log(`Seeding ${movements} movements over ${days} days…`);
  const chunk = 1_000_000;
  for (let first = 1; first <= movements; first += chunk) {
    const last = Math.min(movements, first + chunk - 1);
    await raw.query(
      `INSERT INTO coin_movements (id, customer_id, sub_brand_id, environment, delta, reason, balance_after, source, created_at)
       SELECT gen_random_uuid(), ${seededId(`(1 + (g::bigint * 7919) % ${customers})`)}, $1, 'live',
              CASE WHEN s IN ('order', 'expiry') THEN -(1 + g % 200) ELSE 1 + g % 500 END, NULL, 0,
              s::movement_source, now() - ((g::bigint * 104729) % ${days * 86400}) * interval '1 second'
       FROM (SELECT g, (ARRAY['api','engine','engine','campaign','bulk','order','order','refund','expiry'])[1 + g % 9] AS s
             FROM generate_series($2::int, $3::int) g) x`,
      [subBrandId, first, last],
    );
    process.stderr.write(`  ${last} movements\n`);
  }
}

async function benchReportScale() {
  const { url, drop } = await scratchDatabase('reports');
  const server = { stop: async () => {} };
  try {
    const { raw, big } = await seedBigTenant(url, CUSTOMERS);
    let started = Date.now();
    await seedMovements(raw, big, CUSTOMERS, MOVEMENTS, DAYS);
    console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(0)} s; folding…`);
    started = Date.now();
    const db = await openDatabase({ url });
    await rebuildCoinRollups(db.prisma);
    const key = await benchKey(db.prisma, big, ['reports:read', 'customers:coins']);
    await db.close();
    const folded = (Date.now() - started) / 1000;
    await raw.query('VACUUM ANALYZE coin_movements, coin_report_hours, customers, wallets, events');
    const { rows: hours } = await raw.query(`SELECT count(*)::int AS n FROM coin_report_hours`);
    console.log(`Folded in ${folded.toFixed(0)} s into ${hours[0].n} hour rows.`);

    const base = await startServer(url, server);
    // A live tail: movements committed since the last fold (the job folds every 5 s, so a
    // report meets up to that many seconds of movements not folded yet).
    const tail = 500;
    for (let i = 0; i < tail; i++) {
      const { rows } = await raw.query(
        `SELECT ${seededId(String(1 + ((i * 7919) % CUSTOMERS)))} AS id`,
      );
      const res = await fetch(`${base}/api/v1/customers/${rows[0].id}/coins`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: '{"delta":3}',
      });
      if (res.status !== 201) throw new Error(`tail: ${res.status} ${await res.text()}`);
    }

    const to = new Date();
    const from = new Date(to.getTime() - 30 * 86_400_000);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const timed = async (once: () => Promise<unknown>) => {
      const ms: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t = process.hrtime.bigint();
        await once();
        ms.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) };
    };
    const http = (path: string) => async () => {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.json();
    };
    const sql = (groupBy: 'day' | 'source') => {
      const q = coinReportSql({ subBrandId: big, environment: 'live' }, { from, to }, groupBy);
      return () => pool.query(q.text, q.values);
    };
    const window = `from=${from.toISOString()}&to=${to.toISOString()}`;
    const results: Record<string, { p50: number; p99: number }> = {};
    // Interleaved: each pair alternates, so a slow patch of the machine hits both.
    for (let round = 0; round < 2; round++) {
      for (const [name, run] of [
        ['http coins 30 d by day', http(`/api/v1/reports/coins?${window}&group_by=day`)],
        ['raw pg coins 30 d by day', sql('day')],
        ['http coins 30 d by source', http(`/api/v1/reports/coins?${window}&group_by=source`)],
        ['raw pg coins 30 d by source', sql('source')],
      ] as const) {
        const r = await timed(run);
        if (round === 1) results[name] = r;
      }
    }
    const { rows: plan } = await pool.query(
      `EXPLAIN (ANALYZE, BUFFERS) ${coinReportSql({ subBrandId: big, environment: 'live' }, { from, to }, 'day').text}`,
      coinReportSql({ subBrandId: big, environment: 'live' }, { from, to }, 'day').values,
    );
    console.log(plan.map((r) => r['QUERY PLAN']).join('\n'));
    for (const days of [7, 30]) {
      const f = new Date(to.getTime() - days * 86_400_000).toISOString();
      const runs = Array.from({ length: 5 });
      const ms: number[] = [];
      for (const _ of runs) {
        const t = Date.now();
        await http(`/api/v1/reports/top-customers?from=${f}&to=${to.toISOString()}&limit=10`)();
        ms.push(Date.now() - t);
      }
      results[`http top customers ${days} d`] = { p50: percentile(ms, 0.5), p99: Math.max(...ms) };
    }
    await pool.end();
    await raw.end();
    console.log(
      `\nReports at ${CUSTOMERS} customers, ${MOVEMENTS} movements over ${DAYS} days (+${tail} in the live tail), ${REQUESTS} sequential requests each:\n`,
    );
    console.log('| report | p50 ms | p99 ms |\n|---|---|---|');
    for (const [name, r] of Object.entries(results))
      console.log(`| ${name} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`);
    for (const g of ['day', 'source'])
      console.log(
        `http / raw pg p50, by ${g}: ${(results[`http coins 30 d by ${g}`]!.p50 / results[`raw pg coins 30 d by ${g}`]!.p50).toFixed(2)}`,
      );
    return { customers: CUSTOMERS, movements: MOVEMENTS, days: DAYS, tail, folded, results };
  } finally {
    await server.stop();
    await drop();
  }
}

const WALLETS = 1000;

/** Rollups in the ledger's transaction: one upsert of the tenant's hour row per movement. */
const IN_TRANSACTION = `
CREATE OR REPLACE FUNCTION bench_rollup_in_tx() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO coin_report_hours AS r (sub_brand_id, environment, hour, source, credited, debited, credits, debits)
  VALUES (NEW.sub_brand_id, NEW.environment, date_trunc('hour', NEW.created_at, 'UTC'),
          report_source(NEW.source, NEW.delta, NEW.reason), greatest(NEW.delta, 0), greatest(-NEW.delta, 0),
          (NEW.delta > 0)::int, (NEW.delta < 0)::int)
  ON CONFLICT (sub_brand_id, environment, hour, source) DO UPDATE SET
    credited = r.credited + EXCLUDED.credited, debited = r.debited + EXCLUDED.debited,
    credits = r.credits + EXCLUDED.credits, debits = r.debits + EXCLUDED.debits;
  RETURN NULL;
END $$;
CREATE TRIGGER bench_rollup_in_tx AFTER INSERT ON coin_movements FOR EACH ROW EXECUTE FUNCTION bench_rollup_in_tx();`;

async function benchRollupCost() {
  const { url, drop } = await scratchDatabase('reports_wallet');
  const server = { stop: async () => {} };
  try {
    const { key } = await seedBenchTenant(url, {
      scopes: ['customers:coins', 'customers:read'],
      customers: WALLETS,
    });
    const base = await startServer(url, server);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on('error', () => {});
    const INDEX = 'coin_movements_sub_brand_id_environment_created_at_idx';
    // The three set-ups. "none": the job finds no watermark row (a no-op statement every 5 s).
    const setUp = async (mode: 'none' | 'job' | 'in-tx') => {
      await pool.query(`DROP TRIGGER IF EXISTS bench_rollup_in_tx ON coin_movements`);
      await pool.query(`DROP INDEX IF EXISTS ${INDEX}`);
      await pool.query(`DELETE FROM report_watermarks`);
      if (mode === 'job') {
        await pool.query(
          `CREATE INDEX ${INDEX} ON coin_movements (sub_brand_id, environment, created_at)`,
        );
        await pool.query(
          `INSERT INTO report_watermarks (name, xid) VALUES ('coins', pg_snapshot_xmin(pg_current_snapshot())::text::bigint)`,
        );
      }
      if (mode === 'in-tx') await pool.query(IN_TRANSACTION);
    };
    const http = (pick: () => number) =>
      load(base, () => ({
        path: `/api/v1/customers/${benchCustomerId(pick())}/coins`,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: '{"delta":1}',
      }));
    const spread = () => 1 + Math.floor(Math.random() * WALLETS);
    const scenarios: Record<string, () => Promise<Sample>> = {};
    for (const mode of ['none', 'job', 'in-tx'] as const) {
      scenarios[`http spread, ${mode}`] = async () => (await setUp(mode), http(spread));
      scenarios[`http hot, ${mode}`] = async () => (await setUp(mode), http(() => 1));
    }
    const vacuum = async () => {
      await pool.query(
        'VACUUM ANALYZE wallets, coin_movements, coin_lots, idempotency_records, events, coin_report_hours, report_watermarks',
      );
    };
    const { rows, samples } = await interleave(scenarios, 'tps', vacuum);
    await pool.end();
    printRows(
      'Rollup cost on the wallet (VACUUM ANALYZE after every scenario)',
      'adjustments/s',
      rows,
      {
        'http spread, job': 'http spread, none',
        'http spread, in-tx': 'http spread, none',
        'http hot, job': 'http hot, none',
        'http hot, in-tx': 'http hot, none',
      },
    );
    const ratio = (a: string, b: string) => median(samples[a]!, 'tps') / median(samples[b]!, 'tps');
    const ratios = {
      'spread: job / none': ratio('http spread, job', 'http spread, none'),
      'spread: in-tx / none': ratio('http spread, in-tx', 'http spread, none'),
      'hot: job / none': ratio('http hot, job', 'http hot, none'),
      'hot: in-tx / none': ratio('http hot, in-tx', 'http hot, none'),
    };
    console.log('\n| ratio | value |\n|---|---|');
    for (const [name, value] of Object.entries(ratios))
      console.log(`| ${name} | ${value.toFixed(2)} |`);
    return { rows, ratios, samples };
  } finally {
    await server.stop();
    await drop();
  }
}

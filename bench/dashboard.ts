// `npm run bench -- dashboard`: the dashboard's key figures (dashboardKpis; docs/backoffice.md,
// "The daily view") at 1,000,000 customers and BENCH_REPORT_MOVEMENTS movements (default
// 3,000,000) over 90 days in one sub-brand, on PostgreSQL: the whole read for a 7- and a 30-day
// window (its seven statements run together), and its two statements that grow with the tenant
// alone — the coin liability (Σ of every wallet's balance) and the active players (distinct
// customers with a movement in the window) — p50 and p99 of sequential runs.
import { openDatabase } from '../src/db/database.js';
import { rebuildCoinRollups } from '../src/domain/reports/coin-rollups.js';
import { queryRaw } from '../src/db/sql.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { readCoinReport } from '../src/domain/reports/coin-report.js';
import { readDashboardKpis } from '../src/domain/reports/kpis.js';
import { seedMovements } from './reports.js';
import { scratchDatabase } from './scratch-db.js';
import { seedBigTenant } from './seed-customers.js';
import { percentile, saveResults } from './support.js';

const CUSTOMERS = 1_000_000;
const MOVEMENTS = Number(process.env.BENCH_REPORT_MOVEMENTS ?? 3_000_000);
const RUNS = Number(process.env.BENCH_REPEAT ?? 20);

export async function benchDashboard() {
  const { url, drop } = await scratchDatabase('dashboard');
  try {
    const { raw, big } = await seedBigTenant(url, CUSTOMERS);
    const started = Date.now();
    await seedMovements(raw, big, CUSTOMERS, MOVEMENTS, 90);
    console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(0)} s; folding…`);
    const db = await openDatabase({ url });
    await rebuildCoinRollups(db.prisma);
    await raw.query('VACUUM ANALYZE coin_movements, coin_report_hours, customers, wallets');
    const tenant = { subBrandId: big, environment: 'live' as const };
    const timed = async (run: () => Promise<unknown>) => {
      await run(); // warm
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await run();
        ms.push(performance.now() - t);
      }
      return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) };
    };
    const to = new Date();
    const window = (days: number) => ({ from: new Date(to.getTime() - days * 86_400_000), to });
    const results: Record<string, { p50: number; p99: number }> = {};
    for (const days of [7, 30]) {
      results[`dashboardKpis, ${days} days`] = await timed(() =>
        readDashboardKpis(db.prisma, tenant, window(days)),
      );
      const { from } = window(days);
      results[`active players alone, ${days} days`] = await timed(() =>
        raw.query(
          `SELECT count(DISTINCT customer_id) FROM coin_movements
           WHERE sub_brand_id = $1 AND environment = 'live' AND created_at >= $2 AND created_at < $3`,
          [big, from, to],
        ),
      );
    }
    // The same statements as the dashboard sends them: through the server's driver (named
    // prepared statements, planned generically after five runs), one at a time.
    const { from } = window(30);
    results['coin report by source alone (server driver), 30 days'] = await timed(() =>
      readCoinReport(db.prisma, tenant, { from, to, groupBy: 'source' }),
    );
    results['active players alone (server driver, generic plan allowed), 30 days'] = await timed(
      () =>
        queryRaw(
          db.prisma,
          Prisma.sql`SELECT count(DISTINCT customer_id)::bigint AS n FROM coin_movements
            WHERE sub_brand_id = ${big}::uuid AND environment = 'live'::environment
              AND created_at >= ${from}::timestamptz AND created_at < ${to}::timestamptz`,
        ),
    );
    results['coin liability alone'] = await timed(() =>
      raw.query(
        `SELECT sum(balance) FROM wallets WHERE sub_brand_id = $1 AND environment = 'live'`,
        [big],
      ),
    );
    await db.close();
    await raw.end();
    console.log(
      `\nDashboard figures at ${CUSTOMERS} customers, ${MOVEMENTS} movements over 90 days, ${RUNS} sequential runs:\n`,
    );
    console.log('| read | p50 ms | p99 ms |\n|---|---|---|');
    for (const [name, r] of Object.entries(results))
      console.log(`| ${name} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`);
    saveResults('dashboard', { customers: CUSTOMERS, movements: MOVEMENTS, results });
  } finally {
    await drop();
  }
}

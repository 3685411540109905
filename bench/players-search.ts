// `npm run bench -- players`: POST /players/search with its total, at 1,000,000 players in one
// sub-brand (and 100,000 in another) on PostgreSQL. For each search it prints the server's
// answer time over HTTP (median and p99 of sequential requests to the server process), the same
// statements from raw `pg` (the count and the page, as Prisma sends them) as the baseline, and
// their plans. Goal (issue 10): first page and page 500 each ≤ 100 ms.
import { openDatabase } from '../src/db/database.js';
import { searchPlayers } from '../src/domain/customers/search-players.js';
import { scratchDatabase } from './scratch-db.js';
import { summarize } from './customers-explain.js';
import { seedBigTenant } from './seed-customers.js';
import { benchKey, percentile, recordingPrisma, startServer } from './support.js';

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 1_000_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 25);

type Body = {
  search?: string;
  filters?: Record<string, unknown>;
  pagination?: { page: number; limit: number };
};

export const CASES: [string, Body][] = [
  ['first page, no filter', {}],
  ['page 500 (limit 20), no filter', { pagination: { page: 500, limit: 20 } }],
  ['first page, status watch', { filters: { status: ['watch'] } }],
  [
    'page 500, status watch',
    { filters: { status: ['watch'] }, pagination: { page: 500, limit: 20 } },
  ],
  ['search text (one match)', { search: 'user123456@' }],
  ['search text (many)', { search: 'first99' }],
  ['coin range', { filters: { coin: { min: 100, max: 4000 } } }],
  [
    'registration window (1 day)',
    { filters: { registerDate: { from: '2023-11-20T00:00:00Z', to: '2023-11-21T00:00:00Z' } } },
  ],
];

export async function benchPlayerSearch() {
  const { url, drop } = await scratchDatabase('players');
  const server = { stop: async () => {} };
  try {
    const { raw, big } = await seedBigTenant(url, PLAYERS);
    // This machine's PostgreSQL runs without autovacuum (notes/performance.md): VACUUM sets the
    // visibility map that index-only counts rely on, as autovacuum would in production.
    await raw.query('VACUUM ANALYZE');

    const db = await openDatabase({ url });
    const key = await benchKey(db.prisma, big, ['customers:read']);
    await db.close();
    const base = await startServer(url, server);

    // The statements the search sends, captured from Prisma, for the baseline and the plans.
    const { prisma, captured } = recordingPrisma(url);

    console.log('| search | total | HTTP p50 (ms) | HTTP p99 | raw SQL p50 | HTTP/raw | plan |');
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, body] of CASES) {
      const call = async () => {
        const t = performance.now();
        const res = await fetch(`${base}/players/search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const json = (await res.json()) as { meta: { pagination: { total: number } } };
        if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(json)}`);
        return { ms: performance.now() - t, total: json.meta.pagination.total };
      };
      await call(); // warm
      const http: number[] = [];
      let total = 0;
      for (let i = 0; i < REPEAT; i++) {
        const r = await call();
        http.push(r.ms);
        total = r.total;
      }
      // The same statements, from raw pg: the count and the page.
      captured.length = 0;
      const page = await searchPlayers(
        prisma,
        { subBrandId: big, environment: 'live' },
        {
          search: body.search,
          statuses: body.filters?.status,
          minCoins: (body.filters?.coin as { min?: number } | undefined)?.min,
          maxCoins: (body.filters?.coin as { max?: number } | undefined)?.max,
          createdAfter: (body.filters?.registerDate as { from?: string } | undefined)?.from,
          createdBefore: (body.filters?.registerDate as { to?: string } | undefined)?.to,
          ...body.pagination,
        },
      );
      await prisma.customer.findMany({
        where: page.where,
        orderBy: page.orderBy,
        skip: page.skip,
        take: page.limit,
        select: { id: true, wallet: { select: { balance: true } } },
        relationLoadStrategy: 'query', // as the server's page (schema/types/player.ts)
      });
      const statements = captured.map((c) => ({
        text: c.query,
        values: JSON.parse(c.params) as unknown[],
      }));
      const sql: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const t = performance.now();
        for (const s of statements) await raw.query(s);
        sql.push(performance.now() - t);
      }
      const plans = [];
      // The count may be the planner's estimate (an EXPLAIN of its own): plan the statements.
      for (const s of statements.filter((st) => !/^EXPLAIN/i.test(st.text)).slice(0, 2)) {
        const plan = await raw.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${s.text}`, s.values);
        plans.push(summarize(plan.rows[0]['QUERY PLAN'][0].Plan));
      }
      const p50 = percentile(http, 0.5);
      console.log(
        `| ${name} | ${total} | ${p50.toFixed(1)} | ${percentile(http, 0.99).toFixed(1)} | ` +
          `${percentile(sql, 0.5).toFixed(1)} | ${(p50 / percentile(sql, 0.5)).toFixed(2)} | ${plans.join('; ')} |`,
      );
    }
    await prisma.$disconnect();
    await raw.end();
  } finally {
    await server.stop();
    await drop();
  }
}

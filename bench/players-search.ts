// `npm run bench -- players`: POST /players/search with its total, at 1,000,000 players in one
// sub-brand (and 100,000 in another) on PostgreSQL. For each search it prints the server's
// answer time over HTTP (median and p99 of sequential requests to the server process), the same
// statements from raw `pg` (the count and the page, as Prisma sends them) as the baseline, and
// their plans. Goal (issue 10): first page and page 500 each ≤ 100 ms.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { searchPlayers } from '../src/domain/customers/search-players.js';
import { newId } from '../src/domain/ids.js';
import { createApiKey } from '../src/domain/tenancy/create-api-key.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { scratchDatabase } from './scratch-db.js';
import { summarize } from './customers-explain.js';
import { seedCustomers } from './seed-customers.js';
import { startServer } from './support.js';

const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 1_000_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 25);

type Body = {
  search?: string;
  filters?: Record<string, unknown>;
  pagination?: { page: number; limit: number };
};

const CASES: [string, Body][] = [
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
    await (await openDatabase({ url })).close(); // migrate
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    const brand = newId();
    const big = newId();
    const other = newId();
    await raw.query(`INSERT INTO brands (id, name) VALUES ($1, 'Bench')`, [brand]);
    await raw.query(
      `INSERT INTO sub_brands (id, brand_id, name) VALUES ($1, $3, 'Big'), ($2, $3, 'Other')`,
      [big, other, brand],
    );
    console.log(`Seeding ${PLAYERS} players (and ${PLAYERS / 10} in another establishment)…`);
    const started = Date.now();
    await seedCustomers(raw, big, 1, PLAYERS);
    await seedCustomers(raw, other, PLAYERS + 1, PLAYERS / 10);
    // This machine's PostgreSQL runs without autovacuum (notes/performance.md): VACUUM sets the
    // visibility map that index-only counts rely on, as autovacuum would in production.
    await raw.query('VACUUM ANALYZE');
    console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(0)} s.\n`);

    const db = await openDatabase({ url });
    const { key } = await createApiKey(db.prisma, {
      subBrandId: big,
      environment: 'live',
      scopes: ['customers:read'],
      readLimit: 1_000_000,
      writeLimit: 1_000_000,
    });
    await db.close();
    const base = await startServer(url, server);

    // The statements the search sends, captured from Prisma, for the baseline and the plans.
    const captured: { query: string; params: string }[] = [];
    const prisma = new PrismaClient({
      adapter: new PrismaPg({ connectionString: url }),
      log: [{ emit: 'event', level: 'query' }],
    });
    prisma.$on('query', (e) => captured.push({ query: e.query, params: e.params }));

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
        orderBy: { id: page.order },
        skip: page.skip,
        take: page.limit,
        select: { id: true, wallet: { select: { balance: true } } },
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
      for (const s of statements.slice(0, 2)) {
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

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

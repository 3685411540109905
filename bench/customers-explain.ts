// `npm run bench -- explain`: do the customer list's filters stay fast at 1,000,000 customers in
// one sub-brand? Seeds a scratch PostgreSQL database, captures the exact SQL Prisma generates for
// each filter, and prints its EXPLAIN ANALYZE plan summary and time. PostgreSQL only.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { customerWhere } from '../src/domain/customers/customer-where.js';
import type { CustomerFilter } from '../src/domain/customers/schemas.js';
import { newId } from '../src/domain/ids.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { scratchDatabase } from './scratch-db.js';
import { seedCustomers } from './seed-customers.js';

const CUSTOMERS = Number(process.env.EXPLAIN_CUSTOMERS ?? 1_000_000);

export async function explainCustomerFilters() {
  const { url, drop } = await scratchDatabase('explain');
  try {
    await (await openDatabase({ url })).close(); // migrate
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    const brand = newId();
    const subBrand = newId();
    const other = newId();
    await raw.query(`INSERT INTO brands (id, name) VALUES ($1, 'Bench')`, [brand]);
    await raw.query(
      `INSERT INTO sub_brands (id, brand_id, name) VALUES ($1, $3, 'Big'), ($2, $3, 'Other')`,
      [subBrand, other, brand],
    );
    console.log(`Seeding ${CUSTOMERS} customers (and ${CUSTOMERS / 10} in another sub-brand)…`);
    const started = Date.now();
    for (const [id, first, count] of [
      [subBrand, 1, CUSTOMERS],
      [other, CUSTOMERS + 1, CUSTOMERS / 10],
    ] as const) {
      await seedCustomers(raw, id, first, count);
    }
    if (process.env.EXPLAIN_STATS) {
      for (const column of ['first_name', 'last_name', 'email', 'external_id']) {
        await raw.query(
          `ALTER TABLE customers ALTER COLUMN ${column} SET STATISTICS ${Number(process.env.EXPLAIN_STATS)}`,
        );
      }
    }
    await raw.query('ANALYZE');
    console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(0)} s.\n`);

    const captured: { query: string; params: string }[] = [];
    const prisma = new PrismaClient({
      adapter: new PrismaPg({ connectionString: url }),
      log: [{ emit: 'event', level: 'query' }],
    });
    prisma.$on('query', (e) => captured.push({ query: e.query, params: e.params }));
    const tenant = { subBrandId: subBrand, environment: 'live' as const };
    const cases: [string, CustomerFilter][] = [
      ['no filter (first page)', {}],
      ['q (substring, case-insensitive)', { q: 'user12345' }],
      ['q matching many', { q: 'first99' }],
      ['status', { status: 'watch' }],
      ['segment_id', { segmentId: 'seg-7' }],
      ['country', { country: 'IT' }],
      [
        'created window',
        { createdAfter: new Date(1700500000000), createdBefore: new Date(1700600000000) },
      ],
      [
        'registered window',
        {
          registeredAfter: new Date(1_610_000_000_000),
          registeredBefore: new Date(1_611_000_000_000),
        },
      ],
      ['min_coins (rare)', { minCoins: 4990 }],
      ['coin range (common)', { minCoins: 100, maxCoins: 4000 }],
      ['min_orders (rare)', { minOrders: 12 }],
      ['combined', { country: 'ES', status: 'active', minCoins: 2500 }],
    ];
    console.log('| filter | plan | time (ms) |\n|---|---|---|');
    for (const [name, filter] of cases) {
      captured.length = 0;
      await prisma.customer.findMany({
        where: customerWhere(tenant, filter),
        orderBy: { id: 'desc' },
        take: 26,
        select: { id: true },
      });
      const { query, params } = captured.at(-1)!;
      if (process.env.EXPLAIN_SHOW_SQL) console.log(query, params);
      const values = JSON.parse(params) as unknown[];
      const plan = await raw.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, values);
      const root = plan.rows[0]['QUERY PLAN'][0];
      console.log(`| ${name} | ${summarize(root.Plan)} | ${root['Execution Time'].toFixed(2)} |`);
    }
    await prisma.$disconnect();
    await raw.end();
  } finally {
    if (!process.env.EXPLAIN_KEEP) await drop();
  }
}

/** The plan's scan nodes, e.g. "Index Scan customers_sub_brand_id_environment_id_idx". */
export function summarize(node: {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: unknown[];
}): string {
  const out: string[] = [];
  const walk = (n: typeof node) => {
    if (/Scan/.test(n['Node Type']))
      out.push(`${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`);
    for (const child of (n.Plans ?? []) as (typeof node)[]) walk(child);
  };
  walk(node);
  return out.join(' + ');
}

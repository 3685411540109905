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
      // Ids must sort like creation times (UUIDv7): build them from a timestamp per row.
      await raw.query(
        `INSERT INTO customers (id, sub_brand_id, environment, external_id, segment_id, first_name, last_name, email,
                                country, status, platform_registered_at, status_changed_at, order_count, created_at, updated_at)
         SELECT (lpad(to_hex((1700000000000 + g * 1000)::bigint), 12, '0') || '7' || substr(md5(g::text), 1, 3) || '8'
                 || substr(md5(g::text), 4, 15))::uuid,
                $1, 'live', 'ext-' || g, 'seg-' || (g % 50), 'First' || (g % 9973), 'Last' || (g % 7919),
                'user' || g || '@mail' || (g % 100) || '.com', (ARRAY['ES','PT','IT','FR','MX','AR'])[1 + g % 6],
                (ARRAY['active','active','active','watch','restricted','banned'])[1 + g % 6]::customer_status,
                to_timestamp(1600000000 + g * 60), now(), g % 13,
                to_timestamp(1700000000 + g), to_timestamp(1700000000 + g)
         FROM generate_series($2::int, $3::int) AS g`,
        [id, first, first + count - 1],
      );
      await raw.query(
        `INSERT INTO wallets (customer_id, sub_brand_id, environment, balance)
         SELECT id, sub_brand_id, environment, (abs(hashtext(id::text)) % 5000) FROM customers WHERE sub_brand_id = $1`,
        [id],
      );
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
function summarize(node: {
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

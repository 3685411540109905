// `npm run bench -- explain`: do the customer list's filters stay fast at 1,000,000 customers in
// one sub-brand? Seeds a scratch PostgreSQL database, captures the exact SQL Prisma generates for
// each filter, and prints its EXPLAIN ANALYZE plan summary and time. PostgreSQL only.
import { customerList } from '../src/domain/customers/customer-list.js';
import type { CustomerFilter } from '../src/domain/customers/schemas.js';
import { scratchDatabase } from './scratch-db.js';
import { seedBigTenant } from './seed-customers.js';
import { recordingPrisma } from './support.js';

const CUSTOMERS = Number(process.env.EXPLAIN_CUSTOMERS ?? 1_000_000);

export async function explainCustomerFilters() {
  const { url, drop } = await scratchDatabase('explain');
  try {
    const { raw, big: subBrand } = await seedBigTenant(url, CUSTOMERS);
    if (process.env.EXPLAIN_STATS) {
      for (const column of ['first_name', 'last_name', 'email', 'external_id']) {
        await raw.query(
          `ALTER TABLE customers ALTER COLUMN ${column} SET STATISTICS ${Number(process.env.EXPLAIN_STATS)}`,
        );
      }
    }
    await raw.query('ANALYZE');

    const { prisma, captured } = recordingPrisma(url);
    const tenant = { subBrandId: subBrand, environment: 'live' as const };
    const cases: [string, CustomerFilter][] = [
      ['no filter (first page)', {}],
      ['q (substring, case-insensitive)', { q: 'user12345' }],
      ['q matching many', { q: 'first99' }],
      ['status', { status: 'watch' }],
      ['segment_id', { segmentId: 'seg-7' }],
      ['country', { country: 'IT' }],
      ['email', { email: 'user777@mail77.com' }],
      ['external_id', { externalId: 'ext-4242' }],
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
      // As the list reads its first page (src/domain/customers/customer-list.ts).
      const list = await customerList(prisma, tenant, filter);
      await prisma.customer.findMany({
        ...(await list.page(prisma, undefined, 26)),
        take: 26,
        select: { id: true },
      });
      // Every statement the list sent, each explained; the time is their sum.
      const plans: string[] = [];
      let ms = 0;
      for (const { query, params } of captured) {
        if (process.env.EXPLAIN_SHOW_SQL) console.log(query, params);
        const values = JSON.parse(params) as unknown[];
        const plan = await raw.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, values);
        const root = plan.rows[0]['QUERY PLAN'][0];
        plans.push(summarize(root.Plan));
        ms += root['Execution Time'];
      }
      console.log(`| ${name} | ${plans.join(', then ')} | ${ms.toFixed(2)} |`);
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

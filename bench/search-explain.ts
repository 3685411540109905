// `npx tsx bench/search-explain.ts`: the backoffice's ⌘K `search` at 1,000,000 customers in one
// sub-brand (and 100,000 in another), with 200,000 orders (one line each, a tracking code) and
// 300 campaigns. Seeds a scratch PostgreSQL database, then for each search prints the median wall
// time of the domain call (every kind, as GraphQL runs it; 9 runs after 2 warm-ups) and each
// statement's EXPLAIN ANALYZE scans. PostgreSQL only; not a test (nothing is asserted).
import { search } from '../src/domain/search/search.js';
import { summarize } from './customers-explain.js';
import { scratchDatabase } from './scratch-db.js';
import { seedBigTenant } from './seed-customers.js';
import { recordingPrisma } from './support.js';

const CUSTOMERS = Number(process.env.SEARCH_CUSTOMERS ?? 1_000_000);
const ORDERS = Number(process.env.SEARCH_ORDERS ?? 200_000);
const RUNS = 9;

const { url, drop } = await scratchDatabase('search');
try {
  const { raw, big } = await seedBigTenant(url, CUSTOMERS);
  raw.on('error', () => {}); // the scratch database is dropped WITH (FORCE) at the end
  let started = Date.now();
  // Phones: "+34 6" and eight digits from the customer's number.
  await raw.query(
    `UPDATE customers SET phone = '+34 6' || lpad((substr(external_id, 5)::bigint % 100000000)::text, 8, '0')
     WHERE external_id LIKE 'ext-%'`,
  );
  console.log(`Phones in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  started = Date.now();
  await raw.query(`SET session_replication_role = replica`); // no triggers: a bench's bulk load
  await raw.query(
    `INSERT INTO orders (id, sub_brand_id, environment, customer_id, status, billing_status, currency,
                         total_price, total_coins, reference, status_changed_at, created_at, updated_at)
     SELECT (lpad(to_hex((1710000000000 + g * 1000)::bigint), 12, '0') || '7' || substr(md5('o' || g), 1, 3) || '8'
             || substr(md5('o' || g), 4, 15))::uuid,
            $1, 'live', c.id, (ARRAY['pending','processing','shipped','delivered','cancelled'])[1 + g % 5]::order_status,
            'not_applicable', 'EUR', 1000, 500 + g % 1000, 'R-' || upper(lpad(to_hex(g * 7919), 8, '0')), now(), now(), now()
     FROM generate_series(1, $2::int) AS g
     JOIN customers c ON c.sub_brand_id = $1 AND c.external_id = 'ext-' || (1 + (g * 7) % $3::int)`,
    [big, ORDERS, CUSTOMERS],
  );
  await raw.query(
    `INSERT INTO order_items (id, order_id, sub_brand_id, environment, customer_id, listing_market_id, product_id,
                              variant_id, product_name, sku, kind, quantity, unit_price, unit_coins, carrier,
                              tracking_code, position)
     SELECT o.id, o.id, o.sub_brand_id, o.environment, o.customer_id, o.id, o.id, o.id, 'Prize', 'SKU-1',
            'physical', 1, 1000, o.total_coins, 'Correos', 'PK' || upper(substr(md5(o.id::text), 1, 10)) || 'ES', 0
     FROM orders o WHERE o.sub_brand_id = $1`,
    [big],
  );
  await raw.query(
    `INSERT INTO campaigns (id, sub_brand_id, environment, title, starts_at, ends_at, type, terms_accepted, prizes)
     SELECT gen_random_uuid(), $1, 'live', 'Campaign ' || g || ' ' || (ARRAY['Spring','Summer','Autumn','Winter'])[1 + g % 4],
            now(), now() + interval '7 days', 'tournament', true, '[]'
     FROM generate_series(1, 300) AS g`,
    [big],
  );
  await raw.query(`SET session_replication_role = origin`);
  console.log(`Orders and campaigns in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  await raw.query('VACUUM ANALYZE');
  const sample = await raw.query(
    `SELECT o.id, o.reference, i.tracking_code FROM orders o JOIN order_items i ON i.order_id = o.id
     WHERE o.sub_brand_id = $1 ORDER BY o.id LIMIT 1 OFFSET $2`,
    [big, Math.floor(ORDERS * 0.6)],
  );
  const o = sample.rows[0] as { id: string; reference: string; tracking_code: string };

  const { prisma, captured } = recordingPrisma(url);
  const caller = {
    tenant: { subBrandId: big, environment: 'live' as const },
    scopes: new Set(['customers:read', 'orders:read', 'products:read', 'campaigns:read']),
    platformAdmin: false,
  };
  const cases: [string, string][] = [
    ['a name (many match)', 'First1234'],
    ['a full name', 'First1234 Last5678'],
    ['an e-mail', 'user123456@mail56.com'],
    ['an external id', 'ext-987654'],
    ['a phone as typed', '+34 600 123 456'],
    ['a phone, digits', '600123456'],
    ['an order id', o.id],
    ['an order reference', o.reference.toLowerCase()],
    ['a tracking code', o.tracking_code],
    ['a campaign word', 'summer'],
    ['two letters', 'zq'],
    ['nothing matches', 'qqqxxzz'],
  ];
  console.log(
    `| search | hits | median ms (wall, all kinds) | statements: scans |\n|---|---|---|---|`,
  );
  for (const [name, q] of cases) {
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < RUNS + 2; i++) {
      captured.length = 0;
      const t0 = performance.now();
      const r = await search(prisma, caller, q);
      if (i >= 2) times.push(performance.now() - t0);
      hits = r.hits.length;
    }
    times.sort((a, b) => a - b);
    const plans: string[] = [];
    for (const { query, params } of captured) {
      const plan = await raw.query(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
        JSON.parse(params) as unknown[],
      );
      const root = plan.rows[0]['QUERY PLAN'][0];
      plans.push(
        `${summarize(root.Plan) || root.Plan['Node Type']} (${root['Execution Time'].toFixed(1)} ms)`,
      );
    }
    console.log(
      `| ${name} \`${q}\` | ${hits} | ${times[Math.floor(times.length / 2)]!.toFixed(1)} | ${plans.join('; ')} |`,
    );
  }
  await prisma.$disconnect();
  await raw.end();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await drop();
}

// `npm run bench -- products`: POST /products/search (establishment API) over 10,000 products on
// PostgreSQL: 9,000 of the establishment's own and 1,000 platform products listed for it, beside
// 10,000 of another establishment (so every plan must keep to what the caller sees). For each
// search it prints, over sequential requests to the server process, the server's own time (its
// Server-Timing header: arrival to headers) and the client's answer time (p50, p99) and,
// as the baseline in the same run, the same statements from raw `pg` (captured from Prisma as the
// domain sends them). Goal (issue 11): p99 ≤ 50 ms.
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { searchEstablishmentProducts } from '../src/domain/catalog/search-establishment-products.js';
import { newId } from '../src/domain/ids.js';
import { scratchDatabase } from './scratch-db.js';
import { benchKey, loadAverage, percentile, recordingPrisma, startServer } from './support.js';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 50);

/** Inserts `count` products with one variant, stock and (optionally) a listing, in SQL. */
async function seedProducts(
  raw: pg.Client,
  options: { owner: string | null; listedFor: string | null; count: number; categories: string[] },
) {
  const ids = Array.from({ length: options.count }, () => newId());
  const batch = 1000;
  for (let start = 0; start < ids.length; start += batch) {
    const slice = ids.slice(start, start + batch);
    const variants = slice.map(() => newId());
    const listings = slice.map(() => newId());
    await raw.query(
      `INSERT INTO products (id, category_id, kind, status, translations, images, search_text, owner_sub_brand_id,
                             retail_value, currency, type, display_order, created_at, updated_at)
       SELECT id, (ARRAY[$3::uuid, $4::uuid, $5::uuid, $6::uuid, NULL])[1 + n % 5],
              'physical', (CASE WHEN n % 10 = 0 THEN 'draft' ELSE 'active' END)::product_status,
              jsonb_build_object('en', jsonb_build_object('name', 'Prize ' || n, 'description', 'Word' || (n % 500))),
              '{}', lower('prize ' || n || ' word' || (n % 500)), $2::uuid, 500 + (n * 37) % 20000, 'EUR',
              (ARRAY['merch', 'voucher', 'experience'])[1 + n % 3], n % 100, now(), now()
       FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`,
      [slice, options.owner, ...options.categories],
    );
    await raw.query(
      `INSERT INTO product_variants (id, product_id, sku, attributes, position)
       SELECT v, p, 'B-' || p, '{}', 0 FROM unnest($1::uuid[], $2::uuid[]) AS t(v, p)`,
      [variants, slice],
    );
    await raw.query(
      `INSERT INTO variant_stock (variant_id, environment, available)
       SELECT v, e::environment, (hashtext(v::text) & 255) % 40 FROM unnest($1::uuid[]) AS v, unnest(ARRAY['live', 'test']) AS e`,
      [variants],
    );
    if (options.listedFor) {
      await raw.query(
        `INSERT INTO listing_markets (id, sub_brand_id, variant_id, product_id, country, currency, base_cost)
         SELECT l, $4::uuid, v, p, 'ES', 'EUR', 1000 FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS t(l, v, p)`,
        [listings, variants, slice, options.listedFor],
      );
    }
  }
}

type Body = Record<string, unknown>;

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
};

/** Rows read by the plan's scans (actual rows × loops), by table, and the scan nodes' kinds. */
function scanned(node: PlanNode, into = new Map<string, number>()) {
  if (node['Relation Name']) {
    const key = `${node['Relation Name']} (${node['Node Type']})`;
    into.set(key, (into.get(key) ?? 0) + node['Actual Rows'] * node['Actual Loops']);
  }
  for (const child of node.Plans ?? []) scanned(child, into);
  return into;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the search's main statement: execution time, shared buffers hit
 * and read, and the rows its scans read, which the machine's load moves least.
 */
async function explainMain(
  raw: pg.Client,
  statement: { text: string; values: unknown[] },
  settings: { text: string; values: unknown[] }[],
) {
  await raw.query('BEGIN');
  // With their values: `set_config($1, $2, true)` is how the search sets them now.
  for (const setting of settings) await raw.query(setting);
  const { rows } = await raw.query<{ 'QUERY PLAN': [Record<string, unknown>] }>({
    text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`,
    values: statement.values,
  });
  await raw.query('COMMIT');
  const top = rows[0]!['QUERY PLAN'][0]!;
  const plan = top.Plan as PlanNode & { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
  const scans = [...scanned(plan)].map(([k, n]) => `${k} ${n}`).join(', ');
  return (
    `${(top['Execution Time'] as number).toFixed(1)} ms, buffers hit ${plan['Shared Hit Blocks']}` +
    ` read ${plan['Shared Read Blocks']}; scanned: ${scans}`
  );
}

const CASES: [string, Body][] = [
  ['first page, no filter', {}],
  ['page 50 (limit 20)', { pagination: { page: 50, limit: 20 } }],
  ['text (many matches)', { query: 'word7' }],
  ['text (a few matches)', { query: 'prize 432 word432' }],
  ['type + category', { filters: { types: ['merch'], categories: ['CATEGORY'] } }],
  [
    'value range + stock ≥ 10',
    { filters: { priceRange: { min: 50, max: 120 }, stock: { min: 10 } } },
  ],
  [
    'status available, by value',
    { filters: { status: ['available'] }, sort: { field: 'valueInEuros', order: 'asc' } },
  ],
  ['limit 100', { pagination: { limit: 100 } }],
];

export async function benchProductSearch() {
  const { url, drop } = await scratchDatabase('products');
  const server = { stop: async () => {} };
  try {
    await (await openDatabase({ url })).close(); // migrate
    const raw = new pg.Client({ connectionString: url });
    await raw.connect();
    const brand = newId();
    const mine = newId();
    const other = newId();
    await raw.query(`INSERT INTO brands (id, name) VALUES ($1, 'Bench')`, [brand]);
    await raw.query(
      `INSERT INTO sub_brands (id, brand_id, name, country, currency) VALUES ($1, $3, 'Mine', 'ES', 'EUR'), ($2, $3, 'Other', 'ES', 'EUR')`,
      [mine, other, brand],
    );
    const categories = [newId(), newId(), newId(), newId()];
    for (const [i, id] of categories.entries()) {
      await raw.query(
        `INSERT INTO categories (id, slug, names, position) VALUES ($1, $2, $3, $4)`,
        [id, `bench-${i}`, { en: `Category ${i}` }, i],
      );
    }
    console.log(`Seeding ${PRODUCTS} products (and as many of another establishment)…`);
    const started = Date.now();
    await seedProducts(raw, { owner: mine, listedFor: mine, count: PRODUCTS * 0.9, categories });
    await seedProducts(raw, { owner: null, listedFor: mine, count: PRODUCTS * 0.1, categories });
    await seedProducts(raw, { owner: other, listedFor: other, count: PRODUCTS, categories });
    console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
    // This machine's PostgreSQL runs without autovacuum (notes/performance.md).
    await raw.query('VACUUM ANALYZE');

    const db = await openDatabase({ url });
    const key = await benchKey(db.prisma, mine, ['products:read']);
    await db.close();
    const base = await startServer(url, server);

    const { prisma, captured } = recordingPrisma(url);
    const viewer = {
      subBrandId: mine,
      environment: 'live' as const,
      market: { country: 'ES', currency: 'EUR' },
      isPlatformAdmin: false,
    };

    const explains: string[] = [];
    console.log(
      '| search | total | server p50 (ms) | server p99 | HTTP p50 | HTTP p99 | raw SQL p50 | raw SQL p99 | HTTP/raw (p50) |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    // BENCH_CASE=<name>: that search only.
    for (const [name, template] of CASES.filter(([n]) => (process.env.BENCH_CASE ?? n) === n)) {
      const body = JSON.parse(JSON.stringify(template).replace('CATEGORY', categories[0]!)) as Body;
      const call = async () => {
        const t = performance.now();
        const res = await fetch(`${base}/products/search`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const json = (await res.json()) as { pagination: { total: number } };
        if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(json)}`);
        // The server's own time, arrival to headers (Server-Timing: app;dur=<ms>).
        const server = Number(/app;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1]);
        return { ms: performance.now() - t, server, total: json.pagination.total };
      };
      for (let i = 0; i < 3; i++) await call(); // warm
      const http: number[] = [];
      const server: number[] = [];
      let total = 0;
      for (let i = 0; i < REPEAT; i++) {
        const r = await call();
        http.push(r.ms);
        server.push(r.server);
        total = r.total;
      }
      // The same statements from raw pg, one after the other (the domain runs some in parallel).
      captured.length = 0;
      await searchEstablishmentProducts(prisma, viewer, body);
      // The search's settings only hold in a transaction: Prisma's query log shows its COMMIT
      // but not its BEGIN, so the replay sends one (and a COMMIT if none was logged).
      const statements = captured.map((c) => ({
        text: c.query,
        values: JSON.parse(c.params) as unknown[],
      }));
      const settings = statements.filter((st) => /^(SET LOCAL|SELECT set_config)/i.test(st.text));
      if (settings.length && !statements.some((st) => /^BEGIN/i.test(st.text))) {
        statements.unshift({ text: 'BEGIN', values: [] });
        if (!statements.some((st) => /^COMMIT/i.test(st.text))) {
          statements.push({ text: 'COMMIT', values: [] });
        }
      }
      const sql: number[] = [];
      const each: number[][] = statements.map(() => []);
      for (let i = 0; i < REPEAT; i++) {
        const t = performance.now();
        for (const [j, s] of statements.entries()) {
          const u = performance.now();
          await raw.query(s);
          each[j]!.push(performance.now() - u);
        }
        sql.push(performance.now() - t);
      }
      // BENCH_STATEMENTS=1: each statement's p50 (where a search's database time goes), and the
      // slowest server times (a p99 moved by a few slow requests, or a slow search?).
      if (process.env.BENCH_STATEMENTS === '1') {
        for (const [j, s] of statements.entries()) {
          const head = s.text.replace(/\s+/g, ' ').slice(0, 60);
          process.stderr.write(
            `${name} #${j}: ${percentile(each[j]!, 0.5).toFixed(2)} ms ${head}\n`,
          );
        }
        const slowest = [...server].sort((a, b) => b - a).slice(0, 5);
        process.stderr.write(`${name}: slowest server times ${slowest.join(', ')} ms\n`);
      }
      const main = statements.find((st) => st.text.includes('WITH m AS'));
      if (main) explains.push(`- ${name}: ${await explainMain(raw, main, settings)}`);
      if (main && process.env.BENCH_EXPLAIN === name) {
        await raw.query('BEGIN');
        for (const setting of settings) await raw.query(setting.text);
        const { rows } = await raw.query<{ 'QUERY PLAN': string }>({
          text: `EXPLAIN (ANALYZE, BUFFERS) ${main.text}`,
          values: main.values,
        });
        await raw.query('COMMIT');
        console.error(rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
      const p50 = percentile(http, 0.5);
      console.log(
        `| ${name} | ${total} | ${percentile(server, 0.5).toFixed(1)} | ` +
          `${percentile(server, 0.99).toFixed(1)} | ${p50.toFixed(1)} | ${percentile(http, 0.99).toFixed(1)} | ` +
          `${percentile(sql, 0.5).toFixed(1)} | ${percentile(sql, 0.99).toFixed(1)} | ` +
          `${(p50 / percentile(sql, 0.5)).toFixed(2)} (${statements.length} statements) |`,
      );
    }
    console.log('\nMain statement, EXPLAIN (ANALYZE, BUFFERS):');
    console.log(explains.join('\n'));
    console.log(`load average ${loadAverage()}`);
    await prisma.$disconnect();
    await raw.end();
  } finally {
    await server.stop();
    await drop();
  }
}

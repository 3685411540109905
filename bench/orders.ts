// `npm run bench -- orders`: orders per second through POST /api/v1/orders (distinct keys, spread
// customers; one hot variant every order takes a unit of, then 50 variants picked at random)
// against the same statements sent from Node with raw `pg`, interleaved. Afterwards: stock taken
// equals units ordered, and every balance equals the sum of its movements.
import { randomUUID } from 'node:crypto';

import pg from 'pg';
import { createListing, createProduct } from '../src/domain/catalog/author-catalog.js';
import { openDatabase } from '../src/db/database.js';
import { newId } from '../src/domain/ids.js';
import { scratchDatabase } from './scratch-db.js';
import {
  benchCustomerId,
  CONNECTIONS,
  load,
  rawLoad,
  seedBenchTenant,
  startServer,
  type Sample,
  interleave,
  walletsOffTheirSum,
  printRows,
  ratioOf,
  saveResults,
} from './support.js';

const CUSTOMERS = 1000;
const STOCK = 100_000_000;
/** Variants of the prize: the hot scenarios order the first, the spread ones any. */
const PRIZES = 50;
/** Orders per transaction in the coalesced prepaid scenario (BENCH_COALESCED). */
const COALESCED = Number(process.env.BENCH_COALESCED ?? 8);
/** The prepaid brand's balance at the start, in minor units: more than any run can spend. */
const PREPAID = 9_000_000_000_000;

type Prize = { listing: string; variant: string; product: string };
const customer = () => benchCustomerId(1 + Math.floor(Math.random() * CUSTOMERS));

export async function benchOrders() {
  const { url, drop } = await scratchDatabase('orders');
  const server = { stop: async () => {} };
  try {
    const { subBrand, key } = await seedBenchTenant(url, {
      scopes: ['orders:create'],
      customers: CUSTOMERS,
    });
    const db = await openDatabase({ url });
    await db.prisma.subBrand.update({ where: { id: subBrand }, data: { country: 'ES' } });
    await db.pool!.query(`UPDATE wallets SET balance = 1000000000`);
    // The seed credit, and the lot it opens: the ledger refuses a debit from a wallet whose lots
    // hold less than its balance (docs/expiry-and-holds.md).
    await db.pool!.query(
      `WITH seeded AS (
         INSERT INTO coin_movements (id, customer_id, sub_brand_id, environment, delta, reason, balance_after, source)
         SELECT gen_random_uuid(), customer_id, sub_brand_id, environment, 1000000000, 'seed', 1000000000, 'api' FROM wallets
         RETURNING id, customer_id, sub_brand_id, environment)
       INSERT INTO coin_lots (id, customer_id, sub_brand_id, environment, movement_id, amount, remaining, created_at)
       SELECT gen_random_uuid(), customer_id, sub_brand_id, environment, id, 1000000000, 1000000000, now() FROM seeded`,
    );
    const product = await createProduct(db.prisma, {
      kind: 'digital',
      translations: { en: { name: 'Voucher' } },
      variants: Array.from({ length: PRIZES }, (_, i) => ({
        sku: `BENCH-${i}`,
        attributes: { denomination: String(i) },
        stock: STOCK,
      })),
    });
    const variants = await db.prisma.productVariant.findMany({
      where: { productId: product.id },
      orderBy: { position: 'asc' },
    });
    const prizes: Prize[] = [];
    for (const variant of variants) {
      const listing = await createListing(db.prisma, {
        subBrandId: subBrand,
        variantId: variant.id,
        country: 'ES',
        currency: 'EUR',
        baseCost: 1000,
      });
      prizes.push({ listing: listing.id, variant: variant.id, product: product.id });
    }
    // One-variant products for the partner-vs-establishment pair: an establishment player holds
    // one open reservation per product, so each request takes the next (customer, product) pair.
    const products: Prize[] = [];
    for (let i = 0; i < PRIZES; i++) {
      const p = await createProduct(db.prisma, {
        kind: 'digital',
        translations: { en: { name: `Voucher ${i}` } },
        variants: [{ sku: `BENCH-P-${i}`, stock: STOCK }],
      });
      const variant = await db.prisma.productVariant.findFirstOrThrow({
        where: { productId: p.id },
      });
      const listing = await createListing(db.prisma, {
        subBrandId: subBrand,
        variantId: variant.id,
        country: 'ES',
        currency: 'EUR',
        baseCost: 1000,
      });
      products.push({ listing: listing.id, variant: variant.id, product: p.id });
    }
    // Players with an e-mail, so both paths write their logistics e-mail to the outbox.
    await db.pool!.query(`UPDATE customers SET email = 'p' || external_id || '@example.com'`);
    await db.close();
    const hot = () => prizes[0]!;
    let pairs = 0;
    const nextPair = () => {
      const n = pairs++;
      return {
        customer: benchCustomerId(1 + (n % CUSTOMERS)),
        prize: products[Math.floor(n / CUSTOMERS) % PRIZES]!,
      };
    };
    const spread = () => prizes[Math.floor(Math.random() * PRIZES)]!;

    const base = await startServer(url, server);
    const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
    pool.on('error', () => {});
    const post = (pick: () => Prize) => () => ({
      path: '/api/v1/orders',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ customer_id: customer(), listing_market_id: pick().listing }),
    });

    const partnerPair = () => {
      const { customer: c, prize } = nextPair();
      return {
        path: '/api/v1/orders',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ customer_id: c, listing_market_id: prize.listing }),
      };
    };
    const establishmentPair = () => {
      const { customer: c, prize } = nextPair();
      return {
        path: `/orders/${c}/reservation`,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify({ productId: prize.product, establishmentId: subBrand }),
      };
    };

    // Issue 36: one prepaid brand's balance, which every order of the brand reserves money from
    // (a hot row: domain/orders/prepaid.ts). The sub-brand is prepaid for these two scenarios
    // only, over the spread variants, so that the balance is the one row every order shares.
    const { brandId } = (
      await pool.query<{ brandId: string }>(
        `SELECT brand_id AS "brandId" FROM sub_brands WHERE id = $1`,
        [subBrand],
      )
    ).rows[0]!;
    await pool.query(
      `INSERT INTO prepaid_accounts (brand_id, environment, currency, balance, updated_at)
       VALUES ($1, 'live', 'EUR', $2::bigint, now())`,
      [brandId, PREPAID],
    );
    const prepaid = async (run: () => Promise<Sample>) => {
      await pool.query(`UPDATE sub_brands SET prepaid = true WHERE id = $1`, [subBrand]);
      try {
        return await run();
      } finally {
        await pool.query(`UPDATE sub_brands SET prepaid = false WHERE id = $1`, [subBrand]);
      }
    };

    const scenarios: Record<string, () => Promise<Sample>> = {
      'http orders, hot variant': () => load(base, post(hot)),
      'raw sql orders, hot variant': () => raw(pool, subBrand, hot),
      'http orders, spread variants': () => load(base, post(spread)),
      'raw sql orders, spread variants': () => raw(pool, subBrand, spread),
      'http orders, one prepaid brand': () => prepaid(() => load(base, post(spread))),
      'raw sql orders, one prepaid brand': () =>
        prepaid(() => raw(pool, subBrand, spread, brandId)),
      [`raw sql orders, one prepaid brand, ${COALESCED} per commit`]: () =>
        prepaid(() => rawCoalesced(pool, subBrand, spread, brandId, COALESCED)),
      // After the others: the first scenario of a round runs on a colder process.
      'http partner orders, spread products': () => load(base, partnerPair),
      'http establishment reservations, spread products': () => load(base, establishmentPair),
    };
    // No autovacuum on this machine's PostgreSQL: vacuum after every scenario.
    const vacuum = async () => {
      await pool.query(
        'VACUUM ANALYZE wallets, coin_movements, idempotency_records, variant_stock, customers, prepaid_accounts',
      );
    };
    const { rows, samples } = await interleave(scenarios, 'orders/s', vacuum);

    // One statement, so one snapshot: an order still in flight when the load stopped cannot commit
    // between counting the units and the stock (a run at load 22 read 1 unit "DIFFERENT", likely so).
    const { units, taken } = (
      await pool.query<{ units: number; taken: number }>(
        `SELECT (SELECT coalesce(sum(quantity), 0)::int FROM order_items) AS units,
                (SELECT sum($1::bigint - available)::int FROM variant_stock WHERE environment = 'live') AS taken`,
        [STOCK],
      )
    ).rows[0]!;
    const bad = await walletsOffTheirSum(pool);
    // The prepaid balance against its movements: what it started with, plus every delta.
    const { prepaidOff } = (
      await pool.query<{ prepaidOff: string }>(
        `SELECT (a.balance - ($1::bigint + coalesce((SELECT sum(delta) FROM prepaid_movements m
                  WHERE m.brand_id = a.brand_id AND m.environment = a.environment), 0)))::text AS "prepaidOff"
         FROM prepaid_accounts a WHERE a.brand_id = $2 AND a.environment = 'live'`,
        [PREPAID, brandId],
      )
    ).rows[0]!;
    await pool.end();

    const ratios = {
      'hot variant': ratioOf(rows, 'http orders, hot variant', 'raw sql orders, hot variant'),
      'spread variants': ratioOf(
        rows,
        'http orders, spread variants',
        'raw sql orders, spread variants',
      ),
      'one prepaid brand': ratioOf(
        rows,
        'http orders, one prepaid brand',
        'raw sql orders, one prepaid brand',
      ),
      [`raw sql, one prepaid brand, ${COALESCED} per commit / one per commit`]: ratioOf(
        rows,
        `raw sql orders, one prepaid brand, ${COALESCED} per commit`,
        'raw sql orders, one prepaid brand',
      ),
      'raw sql, one prepaid brand / spread variants': ratioOf(
        rows,
        'raw sql orders, one prepaid brand',
        'raw sql orders, spread variants',
      ),
      'establishment / partner, spread products': ratioOf(
        rows,
        'http establishment reservations, spread products',
        'http partner orders, spread products',
      ),
    };
    printRows('Orders benchmark (VACUUM ANALYZE after every scenario)', 'orders/s', rows, {
      'http orders, hot variant': 'raw sql orders, hot variant',
      'http orders, spread variants': 'raw sql orders, spread variants',
      'http orders, one prepaid brand': 'raw sql orders, one prepaid brand',
    });
    for (const [name, value] of Object.entries(ratios)) {
      console.log(
        `\n${name.includes('/') ? name : `http / raw sql, ${name}`}: ${value.toFixed(2)}`,
      );
    }
    console.log(
      `Stock: ${units} units ordered, ${taken} taken (${units === taken ? 'equal' : 'DIFFERENT'}); wallets off their sum: ${bad}; prepaid balance off its movements: ${prepaidOff}`,
    );
    saveResults('orders', { rows, ratios, units, taken, bad, prepaidOff, samples });
  } finally {
    await server.stop();
    await drop();
  }
}

/**
 * The writes the HTTP path makes for one order, in one transaction, from Node with raw `pg`; for a
 * prepaid brand (`brandId`), its balance's reservation last, as the HTTP path makes it.
 */
function raw(
  pool: pg.Pool,
  subBrand: string,
  pick: () => Prize,
  brandId?: string,
): Promise<Sample> {
  return rawLoad(pool, async (client) => {
    await client.query('BEGIN');
    await order(client, subBrand, pick, brandId);
    await client.query('COMMIT');
  });
}

/**
 * Issue 36's coalesced commit, as the database would see it for orders: `per` orders of one
 * prepaid brand in one transaction, each in its own savepoint (so each could fail alone), one
 * commit for all. An order's statements depend on each other's answers, so a batch runs its
 * orders one after the other on its connection, holding the balance's row from the first one's
 * reservation to the commit; and one batch runs at a time (the next is what arrived meanwhile),
 * so two batches never lock each other's wallets and stock in opposite orders.
 */
function rawCoalesced(
  pool: pg.Pool,
  subBrand: string,
  pick: () => Prize,
  brandId: string,
  per: number,
): Promise<Sample> {
  return rawLoad(
    pool,
    async (client) => {
      await client.query('BEGIN');
      for (let i = 0; i < per; i++) {
        await client.query('SAVEPOINT o');
        await order(client, subBrand, pick, brandId);
        await client.query('RELEASE SAVEPOINT o');
      }
      await client.query('COMMIT');
    },
    // One batch at a time, as the group commit sends them: the next one waits for this commit.
    { perCall: per, connections: 1 },
  );
}

/** One order's statements, inside a transaction the caller opens and commits. */
async function order(client: pg.PoolClient, subBrand: string, pick: () => Prize, brandId?: string) {
  const { listing, variant, product } = pick();
  const id = newId();
  const buyer = customer();
  const key = randomUUID();
  await client.query(
    `INSERT INTO idempotency_records (sub_brand_id, environment, key, request_hash, expires_at)
     VALUES ($1, 'live', $2::text, md5($2::text) || md5($2::text), now() + interval '1 day')`,
    [subBrand, key],
  );
  await client.query(
    `SELECT id, status FROM customers WHERE id = $1 AND sub_brand_id = $2 AND environment = 'live'`,
    [buyer, subBrand],
  );
  await client.query(`SELECT * FROM listing_markets WHERE id = $1 AND sub_brand_id = $2`, [
    listing,
    subBrand,
  ]);
  await client.query(
    `INSERT INTO orders (id, sub_brand_id, environment, customer_id, billing_status, currency, total_price, total_coins, status_changed_at)
     VALUES ($1, $2, 'live', $3, $4, 'EUR', 1000, 1000, now())`,
    [id, subBrand, buyer, brandId ? 'reserved' : 'not_applicable'],
  );
  await client.query(
    `INSERT INTO order_items (id, order_id, sub_brand_id, environment, customer_id, listing_market_id, product_id, variant_id,
       product_name, sku, kind, quantity, unit_price, unit_coins, position)
     VALUES ($1, $2, $3, 'live', $4, $5, $6, $7, 'Voucher', 'BENCH-1', 'digital', 1, 1000, 1000, 0)`,
    [newId(), id, subBrand, buyer, listing, product, variant],
  );
  await client.query(
    `INSERT INTO order_events (id, order_id, kind, to_status) VALUES ($1, $2, 'status', 'pending')`,
    [newId(), id],
  );
  await client.query(
    `INSERT INTO order_reservations (id, sub_brand_id, environment, order_id, customer_id, listing_market_ids)
     VALUES ($1, $2, 'live', $3, $4, ARRAY[$5::uuid])`,
    [newId(), subBrand, id, buyer, listing],
  );
  await client.query(`UPDATE customers SET order_count = order_count + 1 WHERE id = $1`, [buyer]);
  await client.query(
    `WITH moved AS (UPDATE wallets SET balance = balance - 1000, updated_at = now()
       WHERE customer_id = $1 AND sub_brand_id = $2 AND environment = 'live' AND balance - 1000 >= 0
       RETURNING customer_id, balance)
     INSERT INTO coin_movements (id, customer_id, sub_brand_id, environment, delta, reason, balance_after, source)
     SELECT $3, customer_id, $2, 'live', -1000, 'order:' || $4::text, balance, 'order' FROM moved`,
    [buyer, subBrand, newId(), id],
  );
  await client.query(
    `UPDATE variant_stock SET available = available - 1 WHERE variant_id = $1 AND environment = 'live' AND available >= 1`,
    [variant],
  );
  if (brandId) {
    await client.query(
      `WITH moved AS (UPDATE prepaid_accounts SET balance = balance - 1000, updated_at = now()
         WHERE brand_id = $1 AND environment = 'live' AND currency = 'EUR' AND balance - 1000 >= 0
         RETURNING balance)
       INSERT INTO prepaid_movements (id, brand_id, environment, delta, balance_after, reason, order_id)
       SELECT $2, $1, 'live', -1000, balance, $3, $4 FROM moved`,
      [brandId, newId(), `order:${id}`, id],
    );
  }
  await client.query(
    `UPDATE idempotency_records SET status_code = 201, response_body = '{}' WHERE sub_brand_id = $1 AND environment = 'live' AND key = $2`,
    [subBrand, key],
  );
}

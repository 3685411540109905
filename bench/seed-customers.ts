// Realistic customers in bulk, in SQL: ids that sort like their creation times (UUIDv7), varied
// names, e-mails, countries and statuses, and wallets with balances. Shared by the benchmarks
// that need a big tenant (customer list plans, player search).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { newId } from '../src/domain/ids.js';

/**
 * A migrated database with one big sub-brand of `count` customers and another of a tenth as many
 * (so every plan must keep to its tenant). The caller ends `raw`.
 */
export async function seedBigTenant(url: string, count: number) {
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
  console.log(`Seeding ${count} customers (and ${count / 10} in another sub-brand)…`);
  const started = Date.now();
  await seedCustomers(raw, big, 1, count);
  await seedCustomers(raw, other, count + 1, count / 10);
  console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  return { raw, big, other };
}

export async function seedCustomers(
  raw: pg.Client,
  subBrandId: string,
  first: number,
  count: number,
): Promise<void> {
  await raw.query(
    `INSERT INTO customers (id, sub_brand_id, environment, external_id, segment_id, first_name, last_name, email,
                            country, status, platform_registered_at, status_changed_at, order_count, created_at, updated_at)
     SELECT ${seededCustomerIdSql('g')},
            $1, 'live', 'ext-' || g, 'seg-' || (g % 50), 'First' || (g % 9973), 'Last' || (g % 7919),
            'user' || g || '@mail' || (g % 100) || '.com', (ARRAY['ES','PT','IT','FR','MX','AR'])[1 + g % 6],
            (ARRAY['active','active','active','watch','restricted','banned'])[1 + g % 6]::customer_status,
            to_timestamp(1600000000 + g::bigint * 60), now(), g % 13,
            to_timestamp(1700000000 + g), to_timestamp(1700000000 + g)
     FROM generate_series($2::int, $3::int) AS g`,
    [subBrandId, first, first + count - 1],
  );
  await raw.query(
    `INSERT INTO wallets (customer_id, sub_brand_id, environment, balance)
     SELECT id, sub_brand_id, environment, (abs(hashtext(id::text)) % 5000) FROM customers WHERE sub_brand_id = $1`,
    [subBrandId],
  );
}

/**
 * A seeded row's id, in SQL: UUIDv7-shaped, its first 48 bits the millisecond `ms`, the rest drawn
 * from md5 of `seed` (so ids sort like their creation times and are the same in every run).
 */
export const seededIdSql = (ms: string, seed: string) =>
  `(lpad(to_hex(${ms}), 12, '0') || '7' || substr(md5(${seed}), 1, 3) || '8' || substr(md5(${seed}), 4, 15))::uuid`;

/** The id of customer number `g` (an SQL expression of `g`): created a second after the one before. */
export const seededCustomerIdSql = (g: string) =>
  seededIdSql(`1700000000000 + ${g}::bigint * 1000`, `${g}::text`);

/** `seededCustomerIdSql` in JavaScript: the id of customer number `g`. */
export function seededCustomerId(g: number): string {
  const md5 = createHash('md5').update(String(g)).digest('hex');
  const hex = `${(1700000000000 + g * 1000).toString(16).padStart(12, '0')}7${md5.slice(0, 3)}8${md5.slice(3, 18)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

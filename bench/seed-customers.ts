// Realistic customers in bulk, in SQL: ids that sort like their creation times (UUIDv7), varied
// names, e-mails, countries and statuses, and wallets with balances. Shared by the benchmarks
// that need a big tenant (customer list plans, player search).
import type pg from 'pg';

export async function seedCustomers(
  raw: pg.Client,
  subBrandId: string,
  first: number,
  count: number,
): Promise<void> {
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
    [subBrandId, first, first + count - 1],
  );
  await raw.query(
    `INSERT INTO wallets (customer_id, sub_brand_id, environment, balance)
     SELECT id, sub_brand_id, environment, (abs(hashtext(id::text)) % 5000) FROM customers WHERE sub_brand_id = $1`,
    [subBrandId],
  );
}

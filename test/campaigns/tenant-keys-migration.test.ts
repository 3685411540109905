// The campaigns_tenant_first migration on a database holding campaign data: every row survives,
// the keys lead with sub_brand_id, and the composite foreign keys now refuse a row of one tenant
// pointing at another tenant's campaign or player (which the keys by id alone allowed).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { createDatabase, dropDatabase } from '../support/global-setup.js';
import { TEST_DB } from '../support/harness.js';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../prisma/migrations');
const THIS = '_campaigns_tenant_first';

type Sql = { exec(sql: string): Promise<void>; rows<T>(sql: string): Promise<T[]> };

async function scratchDatabase(): Promise<Sql & { close(): Promise<void> }> {
  if (TEST_DB === 'postgres') {
    const name = `rewards_migration_${process.pid}_${Date.now()}`;
    const client = new pg.Client({ connectionString: await createDatabase(name) });
    await client.connect();
    return {
      exec: async (sql) => void (await client.query(sql)),
      rows: async (sql) => (await client.query(sql)).rows,
      close: async () => {
        await client.end();
        await dropDatabase(name);
      },
    };
  }
  const db = new PGlite({ extensions: { pg_trgm } });
  return {
    exec: async (sql) => void (await db.exec(sql)),
    rows: async (sql) => (await db.query(sql)).rows as never,
    close: () => db.close(),
  };
}

const dirs = readdirSync(MIGRATIONS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const at = dirs.findIndex((d) => d.endsWith(THIS));
const sqlOf = (dir: string) => readFileSync(path.join(MIGRATIONS, dir, 'migration.sql'), 'utf8');

const CAMPAIGN_TABLES = [
  'campaigns',
  'campaign_activities',
  'campaign_progress',
  'campaign_awards',
  'campaign_settlements',
  'campaign_game_tables',
  'campaign_game_credits',
  'campaign_game_draws',
];

describe('campaigns_tenant_first migration', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  const [brand, mine, theirs, player, stranger, campaign, foreign] = Array.from({ length: 7 }, () =>
    newId(),
  );
  const before: Record<string, number> = {};

  beforeAll(async () => {
    expect(at, 'the migration exists').toBeGreaterThan(0);
    db = await scratchDatabase();
    for (const dir of dirs.slice(0, at)) await db.exec(sqlOf(dir));
    const now = `'2026-11-20T10:00:00Z'`;
    await db.exec(`
      INSERT INTO brands (id, name) VALUES ('${brand}', 'B');
      INSERT INTO sub_brands (id, brand_id, name) VALUES ('${mine}', '${brand}', 'Mine'), ('${theirs}', '${brand}', 'Theirs');
      INSERT INTO customers (id, sub_brand_id, environment, first_name, last_name, status_changed_at)
        VALUES ('${player}', '${mine}', 'live', 'A', 'B', ${now}), ('${stranger}', '${theirs}', 'live', 'C', 'D', ${now});
      INSERT INTO campaigns (id, sub_brand_id, environment, title, starts_at, ends_at, type, status, terms_accepted, prizes)
        VALUES ('${campaign}', '${mine}', 'live', 'Cup', ${now}, '2026-11-21T00:00:00Z', 'tournament', 'completed', true, '[]'),
               ('${foreign}', '${theirs}', 'live', 'Other', ${now}, '2026-11-21T00:00:00Z', 'tournament', 'draft', true, '[]');
      INSERT INTO campaign_activities (id, sub_brand_id, environment, mode, customer_id, campaign_id, points, occurred_at)
        VALUES ('${newId()}', '${mine}', 'live', 'tournament', '${player}', '${campaign}', 5, ${now});
      INSERT INTO campaign_progress (campaign_id, customer_id, sub_brand_id, environment, points, reached_at)
        VALUES ('${campaign}', '${player}', '${mine}', 'live', 5, ${now});
      INSERT INTO campaign_awards (id, sub_brand_id, environment, campaign_id, customer_id, award_key, rank, coins, expires_at)
        VALUES ('${newId()}', '${mine}', 'live', '${campaign}', '${player}', 'rank', 1, 100, '2026-12-20T00:00:00Z');
      INSERT INTO campaign_settlements (campaign_id, sub_brand_id, environment, status)
        VALUES ('${campaign}', '${mine}', 'live', 'done');
      INSERT INTO campaign_game_tables (id, sub_brand_id, environment, campaign_id, game_name, version, prizes)
        VALUES ('${newId()}', '${mine}', 'live', '${campaign}', 'wheel', 1, '[]');
      INSERT INTO campaign_game_credits (campaign_id, customer_id, game_name, sub_brand_id, environment, credits)
        VALUES ('${campaign}', '${player}', 'wheel', '${mine}', 'live', 2);
      INSERT INTO campaign_game_draws (id, sub_brand_id, environment, campaign_id, customer_id, game_name, table_version,
                                       idempotency_key, draw, total_weight, result_index, label, coins)
        VALUES ('${newId()}', '${mine}', 'live', '${campaign}', '${player}', 'wheel', 1, 'k1', 3, 10, 0, 'Ten', 10);
    `);
    for (const t of CAMPAIGN_TABLES)
      before[t] = Number((await db.rows<{ n: string }>(`SELECT count(*) AS n FROM ${t}`))[0]!.n);
    await db.exec(sqlOf(dirs[at]!));
  });
  afterAll(() => db?.close());

  it('keeps every row', async () => {
    for (const t of CAMPAIGN_TABLES) {
      const [row] = await db.rows<{ n: string }>(`SELECT count(*) AS n FROM ${t}`);
      expect(Number(row!.n), t).toBe(before[t]);
    }
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
  });

  it('leads every primary key with sub_brand_id', async () => {
    const keys = await db.rows<{ table: string; first: string }>(`
      SELECT c.conrelid::regclass::text AS table, a.attname AS first
      FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'p' AND c.conrelid::regclass::text LIKE 'campaign%'`);
    expect(keys.map((k) => k.table).sort()).toEqual([...CAMPAIGN_TABLES].sort());
    for (const k of keys) expect(k.first, k.table).toBe('sub_brand_id');
  });

  it("refuses a row pointing at another tenant's campaign or player", async () => {
    const refused = async (sql: string) => {
      const error = await db.exec(sql).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.message, sql).toMatch(/foreign key/);
    };
    await refused(`INSERT INTO campaign_awards (id, sub_brand_id, environment, campaign_id, customer_id, award_key, expires_at)
      VALUES ('${newId()}', '${mine}', 'live', '${foreign}', '${player}', 'x', '2026-12-20T00:00:00Z')`);
    await refused(`INSERT INTO campaign_progress (campaign_id, customer_id, sub_brand_id, environment, reached_at)
      VALUES ('${campaign}', '${stranger}', '${mine}', 'live', '2026-11-20T10:00:00Z')`);
  });
});

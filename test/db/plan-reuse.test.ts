// PostgreSQL plans a prepared statement anew on every execution while its generic plan looks
// dearer than a plan for the values at hand, and never says so. A hot path's statement caught
// that way (the ledger's, over arrays of unknown length) cost a quarter of the database's CPU per
// coin adjustment (docs/performance.md, sixth pass). Here every hot path runs a dozen times on
// one connection, which then reports how each of its prepared statements was planned. The choice
// depends on the tables' statistics, so the database is an operator's: thousands of players and
// hundreds of stock rows, analyzed (on the suite's shared database, many small tenants, the generic plan
// of the old ledger statement looked cheap and this passed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { establishmentShop } from '../establishment/orders-support.js';
import { listedProduct } from '../support/catalog.js';
import {
  ownDatabase,
  startHarness,
  TEST_DB,
  type Harness,
  type OwnDatabase,
} from '../support/harness.js';

const RUNS = 12; // PostgreSQL weighs the generic plan after 5 custom ones

describe.runIf(TEST_DB === 'postgres')('prepared statements of the hot paths', () => {
  let own: OwnDatabase;
  let db: Database;
  let h: Harness;
  beforeAll(async () => {
    own = await ownDatabase();
    // One connection: every statement of every request is prepared and planned on it.
    db = await openDatabase({ url: own.url!, poolSize: 1 });
    h = await startHarness({ database: db });
  });
  afterAll(async () => {
    await h.close();
    await db.close();
    await own.drop();
  });

  it('are planned once and reused, not planned again on every execution', async () => {
    const s = await establishmentShop(h, { stock: 1_000 });
    const variants = Array.from({ length: 50 }, (_, i) => ({ size: String(i) }));
    for (let i = 0; i < 6; i++) await listedProduct(h.db.prisma, s.subBrandId, { variants });
    await h.db.pool!.query(
      `WITH c AS (
         INSERT INTO customers (id, sub_brand_id, environment, first_name, last_name, status_changed_at)
         SELECT gen_random_uuid(), $1, 'test', 'Player', g::text, now() FROM generate_series(1, 5000) g
         RETURNING id, sub_brand_id, environment)
       INSERT INTO wallets (customer_id, sub_brand_id, environment) SELECT * FROM c`,
      [s.subBrandId],
    );
    await h.db.pool!.query('ANALYZE');
    const customer = await s.buyer(1_000_000);
    const definition = await createDefinition(h.db.prisma, {
      subBrandId: s.subBrandId,
      code: 'spin',
      points: 1,
    });
    const player = await s.player(1_000_000);
    const externalId = `player-${customer.slice(-8)}`;
    await h.db.prisma.customer.update({ where: { id: customer }, data: { externalId } });
    for (let i = 0; i < RUNS; i++) {
      const ok = (res: { status: number; text: string }) =>
        expect(res.status, res.text).toBeLessThan(300);
      ok(await s.post(`/api/v1/customers/${customer}/coins`, { delta: 1 }));
      ok(
        await s.order({ customer_id: customer, listing_market_ids: [s.listing.listing_market_id] }),
      );
      ok(
        await s.post('/api/v1/engine/events', {
          event_code: definition.code,
          data: { externalUserId: externalId },
        }),
      );
      const reserved = await s.reserve(player);
      ok(reserved);
      ok(await s.cancel(player, reserved.body.transactionId));
    }
    const { rows } = await db.pool!.query<{
      statement: string;
      generic_plans: string;
      custom_plans: string;
    }>(
      `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements
       WHERE NOT from_sql`,
    );
    // Statements that ran on every pass (the hot ones), and of those, the ones planned each time.
    const hot = rows.filter((r) => Number(r.generic_plans) + Number(r.custom_plans) >= RUNS);
    expect(hot.length).toBeGreaterThan(5);
    const replanned = hot
      .filter((r) => Number(r.custom_plans) >= RUNS)
      .map(
        (r) => `${r.custom_plans} custom plans: ${r.statement.replace(/\s+/g, ' ').slice(0, 160)}`,
      );
    expect(replanned).toEqual([]);
  });
});

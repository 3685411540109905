// Every keyed store (src/exactly-once/keyed-stores.ts) is held by a unique index in the migrated
// database over exactly its key, and a store keyed by movement reasons by a partial index that
// covers each of its prefixes: a migration that dropped or widened one fails here, on both
// databases. The second test shows the check is not a formality: a store the list invents is
// reported missing.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimStatement } from '../../src/exactly-once/claim-key.js';
import { claimRun } from '../../src/domain/wallet/bulk-adjust-coins.js';
import { KEYED_STORES, type KeyedStore } from '../../src/exactly-once/keyed-stores.js';
import { transaction } from '../../src/db/sql.js';
import { createTenant } from '../support/factories.js';
import type { Database } from '../../src/db/database.js';
import { TEST_DB, testDatabase } from '../support/harness.js';

let db: Database;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(() => db.close());

type Index = { table: string; columns: string[]; predicate: string | null };

async function uniqueIndexes(): Promise<Index[]> {
  return db.prisma.$queryRawUnsafe<Index[]>(`
    SELECT t.relname AS table,
           array_agg(a.attname::text ORDER BY k.ord) AS columns,
           pg_get_expr(i.indpred, i.indrelid) AS predicate
    FROM pg_index i
    JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
    CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
    WHERE i.indisunique
    GROUP BY i.indexrelid, t.relname, i.indpred, i.indrelid`);
}

/** Why the store is not held, or null when an index holds it. */
function unheld(store: KeyedStore, indexes: Index[]): string | null {
  const held = indexes.find(
    (i) =>
      i.table === store.table &&
      i.columns.join(',') === store.key.join(',') &&
      (store.reasons
        ? store.reasons.every((prefix) => i.predicate?.includes(`'${prefix}%'`))
        : i.predicate === null),
  );
  return held ? null : `${store.table} (${store.key.join(', ')}): ${store.what}`;
}

describe('keyed stores', () => {
  it('each is held by a unique index over exactly its key', async () => {
    const indexes = await uniqueIndexes();
    expect(
      Object.values(KEYED_STORES)
        .map((s) => unheld(s, indexes))
        .filter(Boolean),
    ).toEqual([]);
  });

  it('each names modules that exist', () => {
    const owners = Object.values(KEYED_STORES).flatMap((s) => s.owner.split(', '));
    expect(owners.filter((o) => !existsSync(path.join('src', o)))).toEqual([]);
  });

  it('a store without its index is reported (a fixture)', async () => {
    const indexes = await uniqueIndexes();
    const invented: KeyedStore = {
      what: 'a hold captured',
      table: 'coin_movements',
      key: ['reason'],
      reasons: ['hold:'],
      owner: 'domain/wallet/holds.ts',
      repeat: '-',
    };
    expect(unheld(invented, indexes)).toBe('coin_movements (reason): a hold captured');
    const widened = { ...KEYED_STORES.request, key: ['sub_brand_id', 'key'] };
    expect(unheld(widened, indexes)).not.toBeNull();
  });
});

// The one claim of the domain's stores (exactly-once/claim-key.ts), as the bulk run declares it:
// the conflict target is the store's key, and a twin waits for the first to end, then spends the
// key only if the first rolled back.
describe('keyClaim', () => {
  const row = (subBrandId: string, key: string) =>
    [randomUUID(), subBrandId, 'test', key, 'h'.repeat(64), '{}', 1, null, null] as const;

  it('spends a key once; a twin waiting on the first spends it only when the first rolled back', async () => {
    const { subBrandId } = await createTenant(db.prisma);
    // Rolled back: the key is unspent, and the next claim spends it.
    const rolledBack = new Error('rolled back');
    let firstSpent = false;
    let twin: Promise<boolean> | undefined;
    await expect(
      transaction(db.prisma, async (tx) => {
        firstSpent = await claimRun(tx, row(subBrandId, 'k1'));
        // On PostgreSQL the twin runs now, on another connection, and waits on the unique index;
        // PGlite has one connection, so its twin starts after this transaction ends.
        twin = claimRun(db.prisma, row(subBrandId, 'k1'));
        if (TEST_DB === 'postgres') await new Promise((r) => setTimeout(r, 50));
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(firstSpent).toBe(true);
    expect(await twin).toBe(true);
    // Committed: every later claim finds it spent.
    expect(await claimRun(db.prisma, row(subBrandId, 'k1'))).toBe(false);
    const raced = await Promise.all(
      Array.from({ length: 8 }, () => claimRun(db.prisma, row(subBrandId, 'k2'))),
    );
    expect(raced.filter(Boolean)).toHaveLength(1);
    // Another tenant's same key is its own.
    const other = await createTenant(db.prisma);
    expect(await claimRun(db.prisma, row(other.subBrandId, 'k1'))).toBe(true);
  });

  it("refuses a claim that does not write its store's key, and a store keyed by reasons", () => {
    expect(() => claimStatement(KEYED_STORES.gameDraw, ['id::uuid', 'sub_brand_id::uuid'])).toThrow(
      'a claim of campaign_game_draws must write environment, idempotency_key',
    );
    expect(() => claimStatement(KEYED_STORES.orderCoins, ['reason'])).toThrow(
      'keyed by movement reasons',
    );
    expect(
      claimStatement(KEYED_STORES.campaignActivity, [
        'sub_brand_id::uuid',
        'environment::environment',
        'idempotency_key',
      ]),
    ).toContain('ON CONFLICT (sub_brand_id, environment, idempotency_key) DO NOTHING');
  });
});

// Every keyed store (src/exactly-once/keyed-stores.ts) is held by a unique index in the migrated
// database over exactly its key, and a store keyed by movement reasons by a partial index that
// covers each of its prefixes: a migration that dropped or widened one fails here, on both
// databases. The second test shows the check is not a formality: a store the list invents is
// reported missing.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYED_STORES, type KeyedStore } from '../../src/exactly-once/keyed-stores.js';
import type { Database } from '../../src/db/database.js';
import { testDatabase } from '../support/harness.js';

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
    expect(KEYED_STORES.map((s) => unheld(s, indexes)).filter(Boolean)).toEqual([]);
  });

  it('each names modules that exist', () => {
    const owners = KEYED_STORES.flatMap((s) => s.owner.split(', '));
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
    const widened = { ...KEYED_STORES[0]!, key: ['sub_brand_id', 'key'] };
    expect(unheld(widened, indexes)).not.toBeNull();
  });
});

// The one claim of the domain's keyed stores (keyed-stores.ts): the insert that spends a key. A
// store whose work happens once per key (an engine event, a bulk run, a campaign activity, a
// mini-game play, a campaign award) declares its claim with `keyClaim`, naming its entry in the
// list, so the statement's conflict target is the key the list holds to its unique index: the
// two cannot drift.
//
// The protocol is the keyed requests' (keyed-requests.ts), with the store's own row as the claim:
// - the row is inserted in the work's transaction, so the key is spent with its work or not at
//   all; an engine execution's is committed alone, `processing`, and a delivery after a crash
//   takes it over when its time-out has passed (engine/points/claim.ts);
// - a concurrent twin blocks on the unique index until the first commits, then finds the key
//   spent; if the first rolled back, the twin's insert spends it instead;
// - a key found spent is the store's to answer (its `repeat` in the list): the first result
//   replayed, a conflict, a run resumed.
//
// It sits below the domain, which calls it: this file and the list import nothing above db/.
import { sqlFor, type Db } from '../db/sql.js';
import { KEYED_STORES, type KeyedStore, type KeyedStoreName } from './keyed-stores.js';

/**
 * A store's claim: `columns` are the row's, each with the cast its value needs (`id::uuid`; none
 * for text); `fixed` adds columns written by an SQL expression (`claimed_at: 'now()'`). It answers
 * true when this call spent the key, false when it was already spent. The statement is built
 * once, when the module declaring the claim loads.
 */
export function keyClaim<const C extends readonly string[]>(
  name: KeyedStoreName,
  columns: C,
  fixed: Record<string, string> = {},
): (db: Db, values: { readonly [I in keyof C]: unknown }) => Promise<boolean> {
  const text = claimStatement(KEYED_STORES[name], columns, fixed);
  return async (db, values) => (await sqlFor(db).query(text, values)).rows.length === 1;
}

/** The claim's INSERT … ON CONFLICT (the store's key) DO NOTHING, for the store and columns. */
export function claimStatement(
  store: KeyedStore,
  columns: readonly string[],
  fixed: Record<string, string> = {},
): string {
  if (store.reasons) throw new Error(`${store.table} is keyed by movement reasons: not a claim`);
  const cast = (c: string) => (c.includes('::') ? c.slice(c.indexOf('::')) : '');
  const names = [...columns.map((c) => c.split('::')[0]!), ...Object.keys(fixed)];
  const values = [...columns.map((c, i) => `$${i + 1}${cast(c)}`), ...Object.values(fixed)];
  const missing = store.key.filter((k) => !names.includes(k));
  if (missing.length) throw new Error(`a claim of ${store.table} must write ${missing.join(', ')}`);
  return `INSERT INTO ${store.table} (${names.join(', ')}) VALUES (${values.join(', ')})
    ON CONFLICT (${store.key.join(', ')}) DO NOTHING RETURNING 1`;
}

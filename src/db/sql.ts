// The hot paths' statements (the idempotency claim and record, the ledger statement, the key
// lookup) sent on the database driver itself, inside the same transaction Prisma opened: Prisma
// costs ~0.3 ms of CPU per statement where `pg` costs ~0.05 (docs/performance.md). Prisma stays
// the ORM and keeps the transaction (its timeouts, its rollback); only these statements skip its
// client. The connection behind a Prisma transaction is caught as the driver hands it out (a
// pg pool subclass, a wrapped PGlite `transaction`), inside an AsyncLocalStorage slot that
// `transaction` opens around `prisma.$transaction`.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { PGlite, Transaction as PGliteTransaction } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from '../domain/db.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { Listen } from './notifications.js';

export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

/** Runs one statement on one connection (or the open transaction) with numbered parameters. */
export interface Sql {
  query<R>(text: string, values: readonly unknown[]): Promise<{ rows: R[]; rowCount: number }>;
  readonly kind: 'pg' | 'pglite' | 'prisma';
}

/** A transaction's executor, which can also leave its last write to be sent with the COMMIT. */
export interface TxSql extends Sql {
  /**
   * Sends `text` (one write, no rows wanted) with the transaction's COMMIT, in one round trip
   * where the driver talks to a server: the last write of a transaction holding a hot row lock
   * releases it one round trip sooner. Call it last; if the write fails, nothing commits.
   */
  commitWith(text: string, values: readonly unknown[]): Promise<void>;
}

/** The statement name for a SQL text: a hash, computed once per distinct text. */
const names = new Map<string, string>();
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    // The texts are the code's own (parameters are never inlined), so the map stays small;
    // the bound is a guard, not a cache policy.
    if (names.size < 10_000) names.set(text, name);
  }
  return name;
}

const INT8 = 20;
/** int8 as bigint, like Prisma's raw queries answer it, on both drivers. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 ? BigInt : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
const pgliteParsers = { [INT8]: (value: string) => BigInt(value) };

export function pgSql(client: pg.ClientBase | pg.Pool, prepared: boolean): Sql {
  return {
    kind: 'pg',
    async query<R>(text: string, values: readonly unknown[]) {
      const result = await client.query({
        text,
        values: values as unknown[],
        types: pgTypes,
        ...(prepared ? { name: statementName(text) } : {}),
      });
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
  };
}

export function pgliteSql(db: PGlite | PGliteTransaction): Sql {
  return {
    kind: 'pglite',
    async query<R>(text: string, values: readonly unknown[]) {
      const result = await db.query<R>(text, values as unknown[], { parsers: pgliteParsers });
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/** Through Prisma, for a Db this module did not open (a plain client, a foreign transaction). */
function prismaSql(db: Db): Sql {
  return {
    kind: 'prisma',
    async query<R>(text: string, values: readonly unknown[]) {
      const rows = await db.$queryRawUnsafe<R[]>(text, ...values);
      return { rows, rowCount: rows.length };
    },
  };
}

/** How a database's connections are reached outside Prisma (registered by openDatabase). */
export type Driver = {
  /** A statement outside any transaction (a key lookup). */
  sql: Sql;
  /** Database notifications, where this connection can LISTEN (not behind a transaction pooler). */
  listen?: Listen | undefined;
};

const drivers = new WeakMap<PrismaClient, Driver>();
export const registerDriver = (prisma: PrismaClient, driver: Driver) =>
  void drivers.set(prisma, driver);
export const driverOf = (prisma: PrismaClient): Driver | undefined => drivers.get(prisma);

/** Where a transaction's connection is dropped when the driver hands it out. */
type Slot = { sql?: Sql; final?: { text: string; values: readonly unknown[] } };
const slots = new AsyncLocalStorage<Slot>();

/** Called by PGlite's hook when it hands out a transaction's connection. */
function offerConnection(make: () => Sql) {
  const slot = slots.getStore();
  if (slot && !slot.sql) slot.sql = make();
}

/** The raw executor of a transaction opened by `transaction` below, by its Prisma client. */
const bound = new WeakMap<object, Sql>();

/**
 * The executor for `db`: the connection of a transaction opened by `transaction`, the pool (or
 * PGlite) for a client, Prisma's raw queries otherwise (same SQL text either way).
 */
export function sqlFor(db: Db): Sql {
  return bound.get(db) ?? drivers.get(db as PrismaClient)?.sql ?? prismaSql(db);
}

/**
 * `prisma.$transaction`, with the transaction's own connection as an executor beside it: what
 * is sent on `sql` (or on `sqlFor(tx)` deeper down) is in the same transaction as what is sent on
 * `tx`.
 */
export async function transaction<T>(
  prisma: PrismaClient,
  work: (tx: Prisma.TransactionClient, sql: TxSql) => Promise<T>,
): Promise<T> {
  const slot: Slot = {};
  return slots.run(slot, () =>
    prisma.$transaction(async (tx) => {
      const sql = slot.sql ?? prismaSql(tx);
      bound.set(tx, sql);
      const txSql: TxSql = {
        kind: sql.kind,
        query: (text, values) => sql.query(text, values),
        // On pg the tracked connection sends it with Prisma's COMMIT (TrackingPool); elsewhere
        // (PGlite: no round trips to save) it is sent now.
        commitWith: async (text, values) => {
          if (sql.kind === 'pg') slot.final = { text, values };
          else await sql.query(text, values);
        },
      };
      return work(tx, txSql);
    }, TRANSACTION_OPTIONS),
  );
}

/** The pg pool that tells `transaction` which connection Prisma took for it. */
export class TrackingPool extends pg.Pool {
  prepared = true;
  // pg-pool's own calls (pool.query) pass a callback; Prisma's startTransaction does not.
  override connect(...args: unknown[]): Promise<pg.PoolClient> {
    if (args.length) return (super.connect as (...a: unknown[]) => Promise<pg.PoolClient>)(...args);
    const slot = slots.getStore();
    return super.connect().then((client) => {
      if (slot && !slot.sql) {
        slot.sql = pgSql(client, this.prepared);
        sendFinalWithCommit(client, slot);
      }
      return client;
    });
  }
}

/**
 * Until this transaction ends, the connection's COMMIT (sent by Prisma) carries the statement
 * left by `commitWith`: one simple-protocol message `<statement>; COMMIT`, its values inlined as
 * escaped literals (the simple protocol takes no parameters). PostgreSQL runs the two in order
 * and stops at an error, so a failed write never commits; the transaction is then rolled back
 * here, so the connection goes back to the pool clean.
 */
function sendFinalWithCommit(client: pg.PoolClient, slot: Slot) {
  const query = client.query.bind(client) as (config: unknown) => Promise<pg.QueryResult>;
  const restore = () => void delete (client as { query?: unknown }).query;
  (client as { query: unknown }).query = async (config: unknown) => {
    const text = typeof config === 'string' ? config : (config as { text?: string }).text;
    if (text === 'ROLLBACK') restore();
    if (text !== 'COMMIT') return query(config);
    restore();
    const final = slot.final;
    if (!final) return query(config);
    slot.final = undefined;
    try {
      const results = (await query(
        `${inline(client, final.text, final.values)};\nCOMMIT`,
      )) as unknown;
      return Array.isArray(results)
        ? (results.at(-1) as pg.QueryResult)
        : (results as pg.QueryResult);
    } catch (error) {
      await query('ROLLBACK').catch(() => {});
      throw error;
    }
  };
}

/** `$n` replaced by the value as a literal: strings escaped by the driver, numbers checked. */
function inline(client: pg.PoolClient, text: string, values: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = values[Number(n) - 1];
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string') return client.escapeLiteral(value);
    throw new Error(`commitWith: cannot inline a ${typeof value}`);
  });
}

/** Wraps a PGlite's `transaction` so `transaction` above gets the PGlite transaction object. */
export function trackPgliteTransactions(client: PGlite) {
  const original = client.transaction.bind(client);
  client.transaction = ((callback: (tx: PGliteTransaction) => Promise<unknown>) =>
    original(async (tx) => {
      offerConnection(() => pgliteSql(tx));
      return callback(tx);
    })) as PGlite['transaction'];
}

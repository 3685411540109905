// The hot paths' statements (the idempotency claim and record, the ledger statement, the key
// lookup) sent on the database driver itself: Prisma costs ~0.3 ms of CPU per statement where
// `pg` costs ~0.05, and its interactive transaction ~0.4 ms more than the driver's
// (docs/performance.md). Prisma stays the ORM everywhere else. On PostgreSQL a transaction is the
// driver's (BEGIN, COMMIT on a pooled client), and a Prisma transaction joins it on the same
// connection when the work first uses Prisma; on PGlite it is Prisma's, with its connection
// caught as PGlite hands it out. Both hand-overs go through an AsyncLocalStorage slot.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { PGlite, Transaction as PGliteTransaction } from '@electric-sql/pglite';
import { createRequire } from 'node:module';
import pg from 'pg';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { HotRows } from './hot-rows.js';
import type { Listen } from './notifications.js';

/** What the domain's functions take (domain/db.ts): the Prisma client or an open transaction. */
export type Db = PrismaClient | Prisma.TransactionClient;

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
  /**
   * Sends `text` with the transaction's next statement, in one round trip where the driver talks
   * to a server: a statement whose answer the work after it does not need at once (the
   * idempotency claim). `result()` answers it, sending it alone when nothing has gone since.
   */
  defer<R>(text: string, values: readonly unknown[]): Deferred<R>;
  /**
   * Registered before the work by the transaction's owner (the idempotency layer): if the work
   * ends with `finish`, the write that `record` makes of the row `finish` names is sent with it.
   */
  recordByReference(record: (ref: string) => { text: string; values: readonly unknown[] }): void;
  /**
   * The work's last statement, `ref` the id of the row it writes that answers the request (a
   * coin movement). Where the driver talks to a server and a record was registered, the
   * statement, that record and the COMMIT go in one round trip: the wallet's lock is released
   * without waiting for the server's turn (docs/performance.md, seventh pass). Nothing may be
   * sent in the transaction after it. Elsewhere it is an ordinary statement, and the record is
   * written right after it.
   *
   * `hotRow` names the row the statement locks (a wallet): when the transaction has sent nothing
   * before it, it may then be committed together with other requests' transactions on that row
   * (db/hot-rows.ts), each keeping its own outcome.
   */
  finish<R>(
    text: string,
    values: readonly unknown[],
    ref: string,
    hotRow?: string,
  ): Promise<{ rows: R[]; rowCount: number }>;
  /** Whether `finish` wrote the registered record (then the owner records nothing more). */
  recordedByReference(): boolean;
  /**
   * Whether `finish` commits: a statement deferred before it is then sent in the same round trip
   * and cannot be checked before the commit, so it must fail (abort) rather than answer.
   */
  readonly finishCommits: boolean;
  /**
   * Whether the work may end with `commitIf`: on the driver, on the transaction's first run. False
   * on PGlite (one connection: no lock to hold for less) and when the work is run again because
   * a `commitIf` statement failed.
   */
  readonly optimistic: boolean;
  /**
   * A write to a hot row that the work expects to succeed (it read, without a lock, that it would)
   * and whose answer it does not need: sent with the COMMIT, after every other statement, so the
   * row's lock is held for the database's time only, never for the server's turn between two
   * round trips (docs/performance.md, "The prepaid balance's lock, held for no server time").
   * If it fails, nothing commits, and `transaction` runs the work again from the start with
   * `optimistic` false, where it takes its locking path. Only when `optimistic`; not with `finish`.
   */
  commitIf(text: string, values: readonly unknown[]): void;
}

export type Deferred<R> = { result(): Promise<{ rows: R[]; rowCount: number }> };

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

const queryConfig = (text: string, values: readonly unknown[], prepared: boolean) => ({
  text,
  values: values as unknown[],
  types: pgTypes,
  ...(prepared ? { name: statementName(text) } : {}),
});

export function pgSql(client: pg.ClientBase | pg.Pool, prepared: boolean): Sql {
  return {
    kind: 'pg',
    async query<R>(text: string, values: readonly unknown[]) {
      const result = await client.query(queryConfig(text, values, prepared));
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
  };
}

/** pg's own mapping of a JavaScript value to a parameter (dates, buffers, arrays, JSON). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue: (value: unknown) => unknown;
};

type PartialResult = { command: string | null };
/** On an error out of `sendTogether`: the results of the statements that completed before it. */
const COMPLETED = Symbol('completed statements');
const completedBefore = (error: unknown): pg.QueryResult[] =>
  (error as { [COMPLETED]?: pg.QueryResult[] })[COMPLETED] ?? [];

/** pg's connection as `sendTogether` reads it (the parts of it @types/pg does not declare). */
type WireConnection = pg.Connection & { parsedStatements: Record<string, string> };

// The last statement of a `sendTogether` batch parses every statement's rows with its types:
// COMMIT can end a batch whose rows hold int8 (`finish`).
const BEGIN: pg.QueryConfig = { text: 'BEGIN', values: [], types: pgTypes };
const COMMIT: pg.QueryConfig = { text: 'COMMIT', values: [], types: pgTypes };

/**
 * Statements sent in one write and answered in one round trip, each one's result in order: the
 * extended protocol's messages of every statement (Parse when unnamed, Bind, Describe, Execute)
 * and one Sync after the last. The statements before a Sync run as one implicit transaction, and
 * a BEGIN among them turns it into the explicit one, which stays open after the Sync; an error
 * skips the rest (the transaction is then rolled back by its owner).
 *
 * pg credits every ParseComplete to the query it runs (here the last statement's), so this is
 * only done when every named statement is one this connection has prepared already; otherwise
 * the statements go one by one, through `send` (pg's own query: a client lent to a Prisma guest
 * swallows a BEGIN sent through it).
 */
async function sendTogether(
  client: pg.PoolClient,
  send: (config: pg.QueryConfig | pg.Query) => Promise<pg.QueryResult> | void,
  statements: pg.QueryConfig[],
): Promise<pg.QueryResult[]> {
  const parsed = (client as unknown as { connection: WireConnection }).connection.parsedStatements;
  if (statements.some((s) => s.name !== undefined && parsed[s.name] === undefined)) {
    const results: pg.QueryResult[] = [];
    try {
      for (const statement of statements) results.push((await send(statement))!);
    } catch (error) {
      throw Object.assign(error as Error, { [COMPLETED]: results });
    }
    return results;
  }
  const leading = statements.slice(0, -1);
  const last = statements.at(-1)!;
  const results = await new Promise<pg.QueryResult | pg.QueryResult[]>((resolve, reject) => {
    const query = new pg.Query(
      { ...last, queryMode: 'extended' } as pg.QueryConfig,
      undefined,
      (error: Error | undefined, r: unknown) => {
        if (!error) return resolve(r as pg.QueryResult | pg.QueryResult[]);
        // The statements that completed before the one that failed keep their results (a claim's
        // answer matters even when the work's statement after it failed).
        const partial = (query as unknown as { _results: PartialResult | PartialResult[] })
          ._results;
        const done = [partial].flat().filter((p) => p.command);
        reject(Object.assign(error, { [COMPLETED]: done as unknown as pg.QueryResult[] }));
      },
    );
    const submit = query.submit.bind(query);
    query.submit = (connection: pg.Connection) => {
      const stream = connection.stream as { cork?: () => void; uncork?: () => void };
      stream.cork?.();
      try {
        for (const s of leading) {
          if (s.name === undefined) connection.parse({ text: s.text, name: '', types: [] }, true);
          connection.bind(
            {
              portal: '',
              statement: s.name ?? '',
              values: (s.values ?? []) as unknown[],
              valueMapper: prepareValue,
            } as never,
            true,
          );
          connection.describe({ type: 'P', name: '' }, true); // its rows' fields, to parse them
          connection.execute({ portal: '' }, true);
        }
        return submit(connection); // the last one, then the Sync
      } finally {
        stream.uncork?.();
      }
    };
    void send(query);
  });
  // pg answers one result per statement that completed, as an array when there are several.
  return Array.isArray(results) ? results : [results];
}

export function pgliteSql(db: PGlite | PGliteTransaction): Sql {
  return {
    kind: 'pglite',
    async query<R>(text: string, values: readonly unknown[]) {
      const result = await db.query<R>(text, values as unknown[], { parsers: pgliteParsers });
      // PGlite counts 0 affected rows for a SELECT, where pg counts the rows answered.
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
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
  /** PostgreSQL's pool: transactions are the driver's own (see `transaction`). */
  pool?: LendingPool | undefined;
};

const drivers = new WeakMap<PrismaClient, Driver>();
export const registerDriver = (prisma: PrismaClient, driver: Driver) =>
  void drivers.set(prisma, driver);
export const driverOf = (prisma: PrismaClient): Driver | undefined => drivers.get(prisma);

/**
 * PGlite: where its transaction's connection is dropped when it hands it out. PostgreSQL: the
 * connection a Prisma transaction opened here must use (`guest`).
 */
type Slot = { sql?: Sql; guest?: pg.PoolClient; begin?: () => Promise<void> };
const slots = new AsyncLocalStorage<Slot>();

/** Called by PGlite's hook when it hands out a transaction's connection. */
function offerConnection(make: () => Sql) {
  const slot = slots.getStore();
  if (slot && !slot.sql) slot.sql = make();
}

/** The raw executor of a transaction opened by `transaction` below, by its Prisma client. */
const bound = new WeakMap<object, TxSql>();

/** The executor of the transaction `db` is, when `transaction` below opened it. */
export const txSqlFor = (db: Db): TxSql | undefined => bound.get(db);

/**
 * The executor for `db`: the connection of a transaction opened by `transaction`, the pool (or
 * PGlite) for a client, Prisma's raw queries otherwise (same SQL text either way).
 */
export function sqlFor(db: Db): Sql {
  return bound.get(db) ?? drivers.get(db as PrismaClient)?.sql ?? prismaSql(db);
}

/**
 * A `Prisma.sql` statement (its `$n` text and values) on the driver where `db` reaches PostgreSQL
 * through it; through Prisma's raw query elsewhere (PGlite, a foreign transaction), whose
 * parameter handling PGlite's statements were written against.
 */
export async function queryRaw<R>(db: Db, query: Prisma.Sql): Promise<R[]> {
  const sql = sqlFor(db);
  if (sql.kind !== 'pg') return db.$queryRaw<R[]>(query);
  return (await sql.query<R>(query.text, query.values)).rows;
}

/**
 * A statement of `db`'s transaction whose rows the work asks for later, so that several go in one
 * round trip: on the driver it is sent with the next statement sent (`TxSql.defer`), elsewhere
 * (PGlite, no round trips to save) when its rows are asked for. Ask in the order they were made:
 * they run in that order, each seeing the ones before; after one fails the transaction is
 * aborted, so those after it fail too, and the first failure asked for is the one to report.
 */
export function queryLater<R>(
  db: Db,
  text: string,
  values: readonly unknown[],
): () => Promise<R[]> {
  const tx = txSqlFor(db);
  if (tx?.kind === 'pg') {
    const deferred = tx.defer<R>(text, values);
    return async () => (await deferred.result()).rows;
  }
  return async () => (await sqlFor(db).query<R>(text, values)).rows;
}

/** `queryLater` of a `Prisma.Sql` statement (through Prisma's raw query where queryRaw uses it). */
export function queryRawLater<R>(db: Db, query: Prisma.Sql): () => Promise<R[]> {
  if (txSqlFor(db)?.kind === 'pg') return queryLater<R>(db, query.text, query.values);
  return () => queryRaw<R>(db, query);
}

/** `queryRaw` for a statement without rows wanted: the rows it changed. */
export async function executeRaw(db: Db, query: Prisma.Sql): Promise<number> {
  const sql = sqlFor(db);
  if (sql.kind !== 'pg') return db.$executeRaw(query);
  return (await sql.query(query.text, query.values)).rowCount;
}

/**
 * A transaction, with its connection as an executor beside Prisma's client: what is sent on `sql`
 * (or on `sqlFor(tx)` deeper down) is in the same transaction as what is sent on `tx`.
 *
 * On PostgreSQL the transaction is the driver's own (BEGIN and COMMIT sent on a pooled client):
 * Prisma's interactive transaction costs ~0.4 ms of CPU more than the driver's (its manager,
 * timers and adapter; docs/performance.md). Prisma joins it only when the work uses `tx`:
 * the first call on `tx` opens a Prisma transaction on this very connection (its BEGIN and
 * COMMIT swallowed), so a path that sends everything on the driver never pays for Prisma's.
 * On PGlite it is `prisma.$transaction`, with PGlite's transaction object caught.
 */
export async function transaction<T>(
  prisma: PrismaClient,
  work: (tx: Prisma.TransactionClient, sql: TxSql) => Promise<T>,
): Promise<T> {
  const pool = drivers.get(prisma)?.pool;
  if (pool) {
    try {
      return await driverTransaction(prisma, pool, work, true);
    } catch (error) {
      if (!(error instanceof OptimisticRefused)) throw error;
      pool.counts.optimisticReruns++;
    }
    return driverTransaction(prisma, pool, work, false);
  }
  const slot: Slot = {};
  return slots.run(slot, () =>
    prisma.$transaction(async (tx) => {
      const sql = slot.sql ?? prismaSql(tx);
      let record: Parameters<TxSql['recordByReference']>[0] | undefined;
      let recorded = false;
      const txSql: TxSql = {
        kind: sql.kind,
        query: (text, values) => sql.query(text, values),
        // No round trips to save on PGlite: sent now.
        commitWith: async (text, values) => void (await sql.query(text, values)),
        defer: <R>(text: string, values: readonly unknown[]) => {
          const sent = sql.query<R>(text, values);
          sent.catch(() => {}); // answered by result(), which the caller awaits
          return { result: () => sent };
        },
        finishCommits: false,
        optimistic: false,
        commitIf: () => {
          throw new Error('commitIf: only where TxSql.optimistic is true (on the driver).');
        },
        recordByReference: (make) => void (record = make),
        finish: async <R>(text: string, values: readonly unknown[], ref: string) => {
          const result = await sql.query<R>(text, values);
          if (record) {
            const { text: t, values: v } = record(ref);
            await sql.query(t, v);
            recorded = true;
          }
          return result;
        },
        recordedByReference: () => recorded,
      };
      bound.set(tx, txSql);
      const result = await work(tx, txSql);
      // Fails when a statement failed before (one the work caught): PostgreSQL would answer the
      // COMMIT with a silent ROLLBACK, and the caller would answer as if it had committed.
      await sql.query('SELECT 1', []);
      return result;
    }, TRANSACTION_OPTIONS),
  );
}

/** A statement failed inside the transaction and the work went on: PostgreSQL rolled it back. */
export class TransactionAborted extends Error {
  constructor() {
    super('Transaction rolled back: a statement in it failed before the commit.');
  }
}

/** A `commitIf` statement failed: nothing committed, and the work is to run again (`transaction`). */
class OptimisticRefused extends Error {
  constructor(cause: unknown) {
    super('A statement sent with the COMMIT on the expectation that it would succeed failed.', {
      cause,
    });
  }
}

/** Raised inside a transaction that outlived TRANSACTION_OPTIONS.timeout (as Prisma's would). */
export class TransactionExpired extends Error {
  constructor() {
    super(`Transaction expired: it ran longer than ${TRANSACTION_OPTIONS.timeout} ms.`);
  }
}

async function driverTransaction<T>(
  prisma: PrismaClient,
  pool: LendingPool,
  work: (tx: Prisma.TransactionClient, sql: TxSql) => Promise<T>,
  optimistic: boolean,
): Promise<T> {
  const client = await connectWithin(pool, TRANSACTION_OPTIONS.maxWait);
  // A connection lost while checked out emits 'error' (the pool listens only to idle ones):
  // without a listener that is an uncaught exception. The statement in flight fails anyway, and
  // the client is destroyed on release.
  let broken: Error | undefined;
  const onError = (error: Error) => void (broken = error);
  client.on('error', onError);
  let givenBack = false;
  const giveBack = () => {
    if (givenBack) return;
    givenBack = true;
    client.removeListener('error', onError);
    client.release(broken);
  };
  let expired = false;
  const timer = setTimeout(() => (expired = true), TRANSACTION_OPTIONS.timeout);
  // BEGIN goes with the first statement (one round trip less per transaction), and so do the
  // deferred statements waiting (`defer`), whichever side sends next: this executor, or the
  // Prisma transaction hosted on the connection (`begin`, called by `lend`).
  let begun = false;
  // pg's own query, not a guest's (`lend` swallows a BEGIN sent through it and queues behind the
  // guest's statements, one of which may be waiting for this very BEGIN).
  const send = client.query.bind(client) as (
    c: pg.QueryConfig | pg.Query,
  ) => Promise<pg.QueryResult> | void;
  type Waiting = { config: pg.QueryConfig; settle: (r: pg.QueryResult | Error) => void };
  let waiting: Waiting[] = [];
  /** What waits (BEGIN, deferred statements), then `configs`: one round trip; their results. */
  const sendWithWaiting = async (...configs: pg.QueryConfig[]) => {
    const sending = waiting;
    waiting = [];
    const first = begun ? 0 : 1; // the deferred ones' index
    const statements = [...(begun ? [] : [BEGIN]), ...sending.map((w) => w.config), ...configs];
    begun = true; // from here a failure leaves a transaction to roll back
    if (statements.length === 0) return [];
    let results: pg.QueryResult[];
    try {
      results = await sendTogether(client, send, statements);
    } catch (error) {
      const completed = completedBefore(error);
      sending.forEach((w, i) => w.settle(completed[first + i] ?? (error as Error)));
      throw error;
    }
    sending.forEach((w, i) => w.settle(results[first + i]!));
    return results.slice(first + sending.length);
  };
  const begin = async () => {
    if (committed) throw finished();
    if (!begun || waiting.length) await sendWithWaiting();
  };
  const driver = pgSql(client, pool.prepared);
  let final: { text: string; values: readonly unknown[] } | undefined;
  /** `commitIf`'s statements, sent after everything else and before `final` and the COMMIT. */
  const atCommit: pg.QueryConfig[] = [];
  let record: Parameters<TxSql['recordByReference']>[0] | undefined;
  /** `finish` committed: nothing more is sent, and there is nothing to roll back. */
  let committed = false;
  const finished = () => new Error('The transaction was committed by its last statement.');
  const rowsOf = (r: pg.QueryResult) => ({ rows: r.rows, rowCount: r.rowCount ?? 0 });
  const sql: TxSql = {
    kind: 'pg',
    query: async (text, values) => {
      if (committed) throw finished();
      if (expired) throw new TransactionExpired();
      if (begun && !waiting.length) return driver.query(text, values);
      // With a Prisma guest on the connection, its statements and this one take turns (`lend`):
      // what waits is sent first, on its own.
      if (lazy.hosting()) {
        await begin();
        return driver.query(text, values);
      }
      const [result] = await sendWithWaiting(queryConfig(text, values, pool.prepared));
      return rowsOf(result!);
    },
    commitWith: async (text, values) => void (final = { text, values }),
    finishCommits: true,
    optimistic,
    commitIf: (text, values) => {
      if (!optimistic) throw new Error('commitIf: only where TxSql.optimistic is true.');
      atCommit.push(queryConfig(text, values, pool.prepared));
    },
    recordByReference: (make) => void (record = make),
    finish: async <R>(text: string, values: readonly unknown[], ref: string, hotRow?: string) => {
      // A Prisma guest's statements take turns on the connection (`lend`): then no commit here.
      if (!record || lazy.hosting()) return sql.query<R>(text, values);
      if (atCommit.length) throw new Error('finish: not after commitIf.');
      if (committed) throw finished();
      if (expired) throw new TransactionExpired();
      const { text: t, values: v } = record(ref);
      const last = [queryConfig(text, values, pool.prepared), queryConfig(t, v, pool.prepared)];
      if (hotRow !== undefined && !begun && !final) {
        const result = await commitTogether(hotRow, last);
        committed = true;
        return rowsOf(result) as { rows: R[]; rowCount: number };
      }
      const [result, , commit] = await sendWithWaiting(...last, COMMIT);
      if (commit?.command === 'ROLLBACK') throw new TransactionAborted();
      committed = true;
      return rowsOf(result!) as { rows: R[]; rowCount: number };
    },
    recordedByReference: () => committed,
    defer: <R>(text: string, values: readonly unknown[]): Deferred<R> => {
      let settle!: Waiting['settle'];
      const answer = new Promise<pg.QueryResult>((resolve, reject) => {
        settle = (r) => (r instanceof Error ? reject(r) : resolve(r));
      });
      answer.catch(() => {}); // answered by result(), which the caller awaits
      const w: Waiting = { config: queryConfig(text, values, pool.prepared), settle };
      waiting.push(w);
      return {
        async result() {
          // Nothing has taken it along yet: alone now (its failure is its answer, below).
          if (waiting.includes(w)) await sendWithWaiting().catch(() => {});
          return rowsOf(await answer) as { rows: R[]; rowCount: number };
        },
      };
    },
  };
  /**
   * The whole transaction (what was deferred, then `last`: the statement and its record) as one
   * unit for the hot row's group commit; the statement's result. Its deferred statements are
   * answered from the round trip that sent them, alone or in a batch.
   */
  const commitTogether = async (hotRow: string, last: pg.QueryConfig[]) => {
    const sending = waiting;
    waiting = [];
    const statements = [...sending.map((w) => w.config), ...last];
    let parked = false;
    /**
     * BEGIN, `list` and COMMIT in one round trip: the statements' results. On this transaction's
     * connection, unless it was given back while the unit waited for its row (`park`): then on
     * one the pool lends for the send, destroyed if the send failed (it may hold the failed
     * transaction, or be lost).
     */
    const commitOn = async (list: pg.QueryConfig[]) => {
      if (!parked) {
        begun = true; // from here a failure leaves a transaction to roll back
        return committedResults(await sendTogether(client, send, [BEGIN, ...list, COMMIT]));
      }
      // A connection of the pool's own, whatever transaction the caller's context may host.
      const lent = await slots.exit(() => connectWithin(pool, TRANSACTION_OPTIONS.maxWait));
      let lost: Error | undefined;
      // As for the transaction's own connection: one lost while checked out emits 'error', which
      // the pool listens for only on idle ones (an uncaught exception otherwise); the statement
      // in flight fails anyway.
      const onLost = (error: Error) => void (lost = error);
      lent.on('error', onLost);
      try {
        const sendOn = lent.query.bind(lent) as typeof send;
        return committedResults(await sendTogether(lent, sendOn, [BEGIN, ...list, COMMIT]));
      } catch (error) {
        lost ??= error as Error;
        throw error;
      } finally {
        lent.removeListener('error', onLost);
        lent.release(lost);
      }
    };
    let results: pg.QueryResult[];
    try {
      results = await pool.hotRows.commit(hotRow, {
        statements,
        alone: () => commitOn(statements),
        together: commitOn,
        // Nothing was sent on it: a request waiting for its row holds no connection meanwhile.
        park: () => {
          parked = true;
          giveBack();
        },
      });
    } catch (error) {
      // A unit's error comes from its own transaction (a failed batch is sent again unit by unit).
      const completed = completedBefore(error).slice(1); // after BEGIN
      sending.forEach((w, i) => w.settle(completed[i] ?? (error as Error)));
      throw error;
    }
    sending.forEach((w, i) => w.settle(results[i]!));
    return results[sending.length]!;
  };
  const lazy = lazyPrismaTransaction(prisma, client, begin);
  bound.set(lazy.tx, sql);
  try {
    const result = await work(lazy.tx, sql);
    await lazy.end(true);
    if (committed) return result;
    if (expired) throw new TransactionExpired();
    if (!begun && !final && !waiting.length && !atCommit.length) return result; // sent nothing
    // The last write with the COMMIT (and whatever was deferred and never sent, then `commitIf`'s
    // statements, before them), in one round trip: a hot row's lock is released one round trip
    // sooner. The write is bound to the connection's prepared statement like any other (as a
    // simple-protocol text with its values inlined, PostgreSQL parsed and planned it on every
    // commit); after an error PostgreSQL skips to the Sync, so a failed write never commits (the
    // catch below rolls back).
    const atCommitFrom = (begun ? 0 : 1) + waiting.length; // where its statements' results start
    const results = await sendWithWaiting(
      ...atCommit,
      ...(final ? [queryConfig(final.text, final.values, pool.prepared)] : []),
      COMMIT,
    ).catch((error: unknown) => {
      const failed = completedBefore(error).length; // the index of the statement that failed
      if (failed >= atCommitFrom && failed < atCommitFrom + atCommit.length) {
        throw new OptimisticRefused(error);
      }
      throw error;
    });
    // PostgreSQL answers COMMIT with ROLLBACK, not an error, when a statement failed before
    // (one the work caught and went on from): nothing was committed, so the caller must not
    // answer as if it had.
    if (results.at(-1)?.command === 'ROLLBACK') throw new TransactionAborted();
    return result;
  } catch (error) {
    await lazy.end(false).catch(() => {});
    if (begun && !committed) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw error;
  } finally {
    clearTimeout(timer);
    giveBack();
  }
}

/** The results of BEGIN, statements, COMMIT without BEGIN's and COMMIT's, if COMMIT committed. */
function committedResults(results: pg.QueryResult[]): pg.QueryResult[] {
  // PostgreSQL answers COMMIT with ROLLBACK when a statement failed before it.
  if (results.at(-1)?.command !== 'COMMIT') throw new TransactionAborted();
  return results.slice(1, -1);
}

/** A pooled client within `ms` (Prisma's maxWait), or the pool's own timeout error. */
async function connectWithin(pool: LendingPool, ms: number): Promise<pg.PoolClient> {
  let timer: NodeJS.Timeout | undefined;
  const connecting = pool.connect();
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Given back when it comes; the caller has gone.
      void connecting.then((c) => c.release()).catch(() => {});
      reject(
        new Error(`timeout exceeded when trying to connect (waited ${ms} ms for a connection)`),
      );
    }, ms);
  });
  try {
    return await Promise.race([connecting, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A Prisma transaction client that opens a Prisma transaction on `client` at its first call, as
 * a guest in the driver's transaction: its BEGIN, COMMIT and ROLLBACK are not sent (the driver's
 * transaction sends its own), its release gives nothing back. `end(ok)` lets it finish, with
 * a rollback when not ok; it throws when Prisma's side failed, so the driver rolls back too.
 */
function lazyPrismaTransaction(
  prisma: PrismaClient,
  client: pg.PoolClient,
  begin: () => Promise<void>,
) {
  let opened: Promise<Prisma.TransactionClient> | undefined;
  let settled: Promise<unknown> | undefined;
  let finish: (ok: boolean) => void = () => {};
  const done = new Promise<boolean>((resolve) => (finish = resolve));
  const open = () =>
    (opened ??= new Promise<Prisma.TransactionClient>((resolve, reject) => {
      settled = slots.run({ guest: client, begin }, () =>
        prisma.$transaction(async (ptx) => {
          resolve(ptx);
          if (!(await done)) throw new GuestRollback();
        }, TRANSACTION_OPTIONS),
      );
      settled.catch(reject);
    }));
  // `tx.model.method(args)` and `tx.$queryRaw…(args)`, each sent once Prisma's side is open.
  const call =
    (path: (ptx: Prisma.TransactionClient) => (...args: unknown[]) => unknown) =>
    (...args: unknown[]) =>
      open().then((ptx) => path(ptx)(...args));
  const delegates = new Map<string | symbol, unknown>();
  const tx = new Proxy({} as Prisma.TransactionClient, {
    // `'order' in tx`: Pothos finds a model's delegate that way before loading a relation. A
    // transaction client has no `$connect` (isClient in domain/db.ts): only models answer true.
    has: (_target, prop) => typeof prop === 'string' && prop !== 'then' && !prop.startsWith('$'),
    get(_target, prop) {
      if (typeof prop !== 'string' || prop === 'then') return undefined;
      let delegate = delegates.get(prop);
      if (delegate === undefined) {
        delegate = prop.startsWith('$')
          ? call((ptx) => (ptx[prop as keyof typeof ptx] as (...a: unknown[]) => unknown).bind(ptx))
          : new Proxy(
              {},
              {
                get: (_t, method) =>
                  typeof method === 'string'
                    ? call((ptx) => {
                        const model = ptx[prop as keyof typeof ptx] as Record<string, unknown>;
                        return (model[method] as (...a: unknown[]) => unknown).bind(model);
                      })
                    : undefined,
              },
            );
        delegates.set(prop, delegate);
      }
      return delegate;
    },
  });
  return {
    tx,
    /** Whether Prisma's side was opened (its statements go through `lend`'s turns). */
    hosting: () => opened !== undefined,
    async end(ok: boolean) {
      finish(ok);
      if (!settled) return;
      try {
        await settled;
      } catch (error) {
        if (ok || !(error instanceof GuestRollback)) throw error;
      }
    },
  };
}

class GuestRollback extends Error {}

/** The pg pool that lends a driver transaction's connection to the Prisma transaction it hosts. */
export class LendingPool extends pg.Pool {
  prepared = true;
  /** The group commit of this pool's hot rows (db/hot-rows.ts). */
  readonly hotRows = new HotRows();
  /** Transactions run again because a `commitIf` statement failed (a test's reading). */
  readonly counts = { optimisticReruns: 0 };
  // pg-pool's own calls (pool.query) pass a callback; Prisma's startTransaction does not.
  override connect(...args: unknown[]): Promise<pg.PoolClient> {
    const slot = args.length ? undefined : slots.getStore();
    if (slot?.guest) return Promise.resolve(lend(slot.guest, slot.begin!));
    return (super.connect as (...a: unknown[]) => Promise<pg.PoolClient>)(...args);
  }
}

/**
 * `client` as a guest transaction sees it: no BEGIN, COMMIT, ROLLBACK, nor release of its own,
 * and one statement at a time. Prisma loads a read's relations at once (a findUnique with three
 * relations sends three queries together); pg queues them on the connection but warns that pg@9
 * will refuse, so they wait for each other here, in the order they were sent.
 */
function lend(client: pg.PoolClient, begin: () => Promise<void>): pg.PoolClient {
  const own = client as unknown as { query?: unknown; release?: unknown };
  const query = client.query.bind(client) as (config: unknown) => Promise<unknown>;
  const release = own.release; // pg-pool's, set on the client itself when it was handed out
  let last: Promise<unknown> = Promise.resolve();
  own.query = (config: unknown) => {
    const text = typeof config === 'string' ? config : (config as { text?: string }).text;
    if (text === 'BEGIN' || text === 'COMMIT' || text === 'ROLLBACK') {
      return Promise.resolve({ command: text, rowCount: null, rows: [], fields: [] });
    }
    const run = () => begin().then(() => query(config));
    const sent = last.then(run, run);
    last = sent.catch(() => undefined);
    return sent;
  };
  own.release = () => {
    delete own.query;
    own.release = release;
  };
  return client;
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

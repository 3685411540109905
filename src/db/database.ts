// Opens the one database: embedded PGlite when no DATABASE_URL is given, PostgreSQL otherwise.
// Same migrations and same code on both; pending migrations are applied on open (or refused, for
// tools that must not change the schema behind a running server's back).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { openReplica, type ReadReplica, type ReplicaOptions } from './replica.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { pgliteNotifications, pgNotifications } from './notifications.js';
import { MigrationsPendingError, pendingMigrations, type SqlQuery } from './migration-status.js';
import {
  pgliteSql,
  pgSql,
  registerDriver,
  statementName,
  LendingPool,
  trackPgliteTransactions,
} from './sql.js';

export type DatabaseKind = 'pglite' | 'postgresql';

export type Database = {
  prisma: PrismaClient;
  kind: DatabaseKind;
  /** The pg pool behind Prisma on PostgreSQL (for tooling and benchmarks); null on PGlite. */
  pool: pg.Pool | null;
  /** The hot standby reads may use (DATABASE_READ_URL; db/replica.ts), on PostgreSQL. */
  replica: ReadReplica | null;
  appliedMigrations: string[];
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** postgresql:// URL; when absent, PGlite is used. */
  url?: string | undefined;
  /** A hot standby of `url` for lists, searches, reports and leaderboards (db/replica.ts). */
  readUrl?: string | undefined;
  replica?: ReplicaOptions;
  /** PGlite data folder, or 'memory' for an in-memory database (tests). */
  dataDir?: string;
  poolSize?: number;
  /** Who holds the PGlite folder, for the message another process gets ('server', 'admin CLI'). */
  holder?: string;
  /** Pending migrations: apply them (default), or refuse with MigrationsPendingError. */
  migrate?: 'apply' | 'refuse';
  /**
   * Named prepared statements on PostgreSQL (default true). Off behind a pooler that cannot keep
   * them per client, such as PgBouncer before 1.21 in transaction mode.
   */
  preparedStatements?: boolean;
};

/** The project root, where prisma/ lives, whatever the working directory. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options);
}

/**
 * Brings the schema up to date, or refuses. The schema engine (WASM, seconds to load) is loaded
 * only when a migration is pending, so opening an up-to-date database is fast.
 */
async function migrate(
  query: SqlQuery,
  adapter: () => SqlMigrationAwareDriverAdapterFactory,
  mode: DatabaseOptions['migrate'],
): Promise<string[]> {
  const pending = await pendingMigrations(query, PROJECT_ROOT);
  if (!pending.length) return [];
  if (mode === 'refuse') throw new MigrationsPendingError(pending);
  const { applyMigrations } = await import('./schema-engine.js');
  return applyMigrations(adapter(), PROJECT_ROOT);
}

/**
 * Migrations run on their own one-connection pool, closed when done: the engine holds Prisma's
 * migration advisory lock on its session and does not release it, so on a shared pool the lock
 * would outlive the migration and make every other starting process time out.
 */
async function migratePostgres(url: string, mode: DatabaseOptions['migrate']): Promise<string[]> {
  const { pg, PrismaPg } = await postgresDriver();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return await migrate(
      (sql) => pool.query(sql),
      () => new PrismaPg(pool),
      mode,
    );
  } finally {
    await pool.end();
  }
}

// Each database's Prisma adapter is imported only when that database is opened: a process on
// PGlite never loads Prisma's pg adapter, and one on PostgreSQL never loads PGlite (start-up time:
// docs/production.md). `pg` itself is small and always loaded (src/db/sql.ts extends its Pool).
const postgresDriver = async () => ({
  pg: (await import('pg')).default,
  PrismaPg: (await import('@prisma/adapter-pg')).PrismaPg,
});

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const appliedMigrations = await migratePostgres(url, options.migrate);
  const { PrismaPg } = await postgresDriver();
  // A pg.Pool that also tells src/db/sql.ts which connection a Prisma transaction took.
  const pool = new LendingPool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // A request never waits more than 10 s on a row lock (a hot wallet, an in-flight
    // idempotency key): it fails with lock_not_available and the client may retry.
    options: '-c lock_timeout=10000',
  });
  pool.on('error', () => {}); // idle-client errors surface on the next query instead
  // Named prepared statements: PostgreSQL parses and plans each distinct statement once per
  // connection instead of on every call (the ledger's statement is not cheap to plan). Without
  // them (a transaction-mode pooler) every statement is sent unnamed, parsed and planned each time.
  // The name is a hash of the text, computed once per distinct text (it was ~2 % of a request).
  pool.prepared = options.preparedStatements !== false;
  const adapter = pool.prepared
    ? new PrismaPg(pool, { statementNameGenerator: (query) => statementName(query.sql) })
    : new PrismaPg(pool);
  const prisma = new PrismaClient({ adapter });
  // LISTEN needs a session of its own; a transaction-mode pooler (the setting that turns
  // prepared statements off) cannot keep one, so caches that need it stay off there.
  const notifications = pool.prepared ? pgNotifications(url) : null;
  registerDriver(prisma, {
    sql: pgSql(pool, pool.prepared),
    listen: notifications?.listen,
    pool,
  });
  const replica = options.readUrl
    ? await openReplica(prisma, options.readUrl, {
        ...options.replica,
        poolSize: options.poolSize,
        preparedStatements: pool.prepared,
      })
    : null;
  return {
    prisma,
    kind: 'postgresql',
    pool,
    replica,
    appliedMigrations,
    close: async () => {
      await replica?.close();
      await notifications?.close();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  const memory = options.dataDir === 'memory';
  let lock: DataDirLock | undefined;
  if (!memory)
    lock = await acquireDataDirLock(options.dataDir ?? './data', options.holder ?? 'a process');
  try {
    const [{ PGlite }, { pg_trgm }, { PrismaPGlite }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('pglite-prisma-adapter'),
    ]);
    // pg_trgm backs the case-insensitive customer search; PostgreSQL ships it in contrib.
    const extensions = { pg_trgm };
    const client = memory
      ? new PGlite({ extensions })
      : new PGlite(path.join(path.resolve(options.dataDir ?? './data'), 'pglite'), { extensions });
    await client.waitReady;
    trackPgliteTransactions(client);
    const adapter = new PrismaPGlite(client);
    // A refusal (or a failed migration) closes the database it opened: an open PGlite keeps the
    // process alive, and the admin CLI hung after printing "the database is behind this code".
    const appliedMigrations = await migrate(
      (sql) => client.query(sql),
      () => adapter,
      options.migrate,
    ).catch(async (error: unknown) => {
      await client.close().catch(() => {});
      throw error;
    });
    const prisma = new PrismaClient({ adapter });
    const notifications = pgliteNotifications(client);
    registerDriver(prisma, { sql: pgliteSql(client), listen: notifications.listen });
    return {
      prisma,
      kind: 'pglite',
      pool: null,
      replica: null,
      appliedMigrations,
      close: async () => {
        await notifications.close();
        await prisma.$disconnect();
        await client.close();
        await lock?.release();
      },
    };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

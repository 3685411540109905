// Opens the one database: embedded PGlite when no DATABASE_URL is given, PostgreSQL otherwise.
// Same migrations and same code on both; migrations are applied on open.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../generated/prisma/client.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { applyMigrations } from './schema-engine.js';

export type DatabaseKind = 'pglite' | 'postgresql';

export type Database = {
  prisma: PrismaClient;
  kind: DatabaseKind;
  /** The pg pool behind Prisma on PostgreSQL (for tooling and benchmarks); null on PGlite. */
  pool: pg.Pool | null;
  appliedMigrations: string[];
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** postgresql:// URL; when absent, PGlite is used. */
  url?: string | undefined;
  /** PGlite data folder, or 'memory' for an in-memory database (tests). */
  dataDir?: string;
  poolSize?: number;
  /** Who holds the PGlite folder, for the message another process gets ('server', 'admin CLI'). */
  holder?: string;
};

/** The project root, where prisma/ lives, whatever the working directory. */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options.poolSize ?? 10) : openPglite(options);
}

/**
 * Migrations run on their own one-connection pool, closed when done: the engine holds Prisma's
 * migration advisory lock on its session and does not release it, so on a shared pool the lock
 * would outlive the migration and make every other starting process time out.
 */
async function migratePostgres(url: string): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    return await applyMigrations(new PrismaPg(pool), PROJECT_ROOT);
  } finally {
    await pool.end();
  }
}

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const appliedMigrations = await migratePostgres(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A request never waits more than 10 s on a row lock (a hot wallet, an in-flight
    // idempotency key): it fails with lock_not_available and the client may retry.
    options: '-c lock_timeout=10000',
  });
  pool.on('error', () => {}); // idle-client errors surface on the next query instead
  // Named prepared statements: PostgreSQL parses and plans each distinct statement once per
  // connection instead of on every call (the ledger's statement is not cheap to plan).
  const adapter = new PrismaPg(pool, {
    statementNameGenerator: (query) =>
      `p_${createHash('sha1').update(query.sql).digest('hex').slice(0, 24)}`,
  });
  const prisma = new PrismaClient({ adapter });
  return {
    prisma,
    kind: 'postgresql',
    pool,
    appliedMigrations,
    close: async () => {
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
    // pg_trgm backs the case-insensitive customer search; PostgreSQL ships it in contrib.
    const extensions = { pg_trgm };
    const client = memory
      ? new PGlite({ extensions })
      : new PGlite(path.join(path.resolve(options.dataDir ?? './data'), 'pglite'), { extensions });
    await client.waitReady;
    const adapter = new PrismaPGlite(client);
    const appliedMigrations = await applyMigrations(adapter, PROJECT_ROOT);
    const prisma = new PrismaClient({ adapter });
    return {
      prisma,
      kind: 'pglite',
      pool: null,
      appliedMigrations,
      close: async () => {
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

// Which of the code's migrations a database has not applied yet, read with one query instead of
// loading Prisma's schema engine (a WASM module that costs seconds to start and keeps the
// process alive for ~10 s after use). The server starts the engine only when this finds work;
// the admin CLI and /readyz only report it.
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Prisma's migrations folder (schema-engine.ts reads it too). */
export const MIGRATIONS_DIR = 'prisma/migrations';

/** Anything with `query(sql)` answering `{ rows }`: a pg Pool or client, or PGlite. */
export type SqlQuery = (sql: string) => Promise<{ rows: unknown[] }>;

let codeMigrations: Promise<string[]> | undefined;

/** The migration folders shipped with the code, in the order Prisma applies them. */
export function migrationsInCode(root: string): Promise<string[]> {
  codeMigrations ??= readdir(path.join(root, MIGRATIONS_DIR), { withFileTypes: true }).then(
    (entries) =>
      entries
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort(),
  );
  return codeMigrations;
}

const APPLIED = `SELECT migration_name FROM _prisma_migrations
  WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;

/** The code's migrations this database lacks (all of them on an empty database). */
export async function pendingMigrations(query: SqlQuery, root: string): Promise<string[]> {
  const inCode = await migrationsInCode(root);
  const exists = await query(`SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present`);
  if (!(exists.rows[0] as { present: boolean }).present) return inCode;
  const applied = new Set(
    (await query(APPLIED)).rows.map((r) => (r as { migration_name: string }).migration_name),
  );
  return inCode.filter((name) => !applied.has(name));
}

export class MigrationsPendingError extends Error {
  constructor(readonly pending: string[]) {
    super(
      `The database is behind this code: ${pending.length} migration(s) not applied (${pending.join(', ')}). ` +
        'Apply them with `npm run db:migrate` (or start the server, which migrates on start), then retry.',
    );
  }
}

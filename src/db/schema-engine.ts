// Prisma's schema engine, WASM build, loaded by hand (notes/prisma-offline.md): these machines
// cannot download the native engine that `prisma migrate` wants. The migrations folder and the
// `_prisma_migrations` table stay Prisma's own, so `prisma migrate deploy` still works elsewhere.
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import * as bindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { MIGRATIONS_DIR } from './migration-status.js';

export { MIGRATIONS_DIR };

const require = createRequire(import.meta.url);
let loaded: Promise<typeof bindings> | undefined;

// Node has WebAssembly; TypeScript's node lib does not declare it without the DOM lib.
declare const WebAssembly: {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<{ exports: Record<string, unknown> }>;
};

function loadBindings(): Promise<typeof bindings> {
  loaded ??= (async () => {
    // The .wasm is not in the package's exports; it sits beside the exported JS glue.
    const glue = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = path.join(path.dirname(glue), 'schema_engine_bg.wasm');
    const module = await WebAssembly.compile(await readFile(wasmPath));
    const instance = await WebAssembly.instantiate(module, { './schema_engine_bg.js': bindings });
    const exports = instance.exports;
    bindings.__wbg_set_wasm(exports);
    (exports.__wbindgen_start as () => void)();
    return bindings;
  })();
  return loaded;
}

export const SCHEMA_PATH = 'prisma/schema.prisma';

export async function openSchemaEngine(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  root: string,
): Promise<SchemaEngine> {
  const { SchemaEngine } = await loadBindings();
  const schemaPath = path.join(root, SCHEMA_PATH);
  const datamodel = await readFile(schemaPath, 'utf8');
  const log = () => {}; // The engine's tracing is noise at our log levels.
  return SchemaEngine.new(
    { datamodels: [[schemaPath, datamodel]] },
    log,
    bindMigrationAwareSqlAdapterFactory(wholeScripts(adapterFactory)),
  );
}

type ScriptAdapter = {
  executeScript(script: string): Promise<void>;
  underlyingDriver?(): unknown;
  onError?(error: unknown): never;
};

/**
 * The pg driver adapter applies a migration by splitting it at every semicolon, even inside a
 * function's quoted body (the ledger's functions have many). PostgreSQL's simple query protocol
 * takes a script whole, as `prisma migrate deploy` sends it: so a pg adapter's script goes to
 * the server in one query. PGlite's adapter already sends it whole.
 */
function wholeScripts(
  factory: SqlMigrationAwareDriverAdapterFactory,
): SqlMigrationAwareDriverAdapterFactory {
  const whole = <A>(adapter: A): A => {
    const a = adapter as unknown as ScriptAdapter;
    const driver = a.underlyingDriver?.() as { query?: unknown } | undefined;
    if (driver instanceof pg.Pool || driver instanceof pg.Client) {
      a.executeScript = async (script) => {
        try {
          await driver.query(script);
        } catch (error) {
          a.onError!(error); // the adapter's own error mapping, which throws
        }
      };
    }
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => whole(await factory.connect()),
    connectToShadowDb: async () => whole(await factory.connectToShadowDb()),
  };
}

/** The migrations folder in the shape the engine takes. */
export async function readMigrations(root: string): Promise<MigrationList> {
  const baseDir = path.join(root, MIGRATIONS_DIR);
  const entries = await readdir(baseDir, { withFileTypes: true }).catch(() => []);
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  dirs.sort();
  const lockPath = path.join(baseDir, 'migration_lock.toml');
  return {
    baseDir,
    lockfile: {
      path: 'migration_lock.toml',
      content: await readFile(lockPath, 'utf8').catch(() => null),
    },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      dirs.map(async (dir) => {
        const file = path.join(baseDir, dir, 'migration.sql');
        const content = await readFile(file, 'utf8').then(
          (value) => ({ tag: 'ok' as const, value }),
          (error: Error) => ({ tag: 'error' as const, value: error.message }),
        );
        return { path: dir, migrationFile: { path: 'migration.sql', content } };
      }),
    ),
  };
}

export const NO_FILTER = { externalTables: [], externalEnums: [] };

/** Applies every pending migration; returns the names applied now. */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  root: string,
): Promise<string[]> {
  const engine = await openSchemaEngine(adapterFactory, root);
  try {
    const migrationsList = await readMigrations(root);
    const out = await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
    return out.appliedMigrationNames;
  } finally {
    engine.free();
  }
}

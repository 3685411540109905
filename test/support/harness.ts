// A real server on a random port over a real database: in-memory PGlite per test file, or the
// run's PostgreSQL database. Tests talk to it over HTTP, as a partner would.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { inject } from 'vitest';
import { createApp, type AppDeps } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { createRateLimitStore, type RateLimitStore } from '../../src/http/rate-limit.js';
import { createHttpServer } from '../../src/http/server-options.js';
import { createLogger } from '../../src/logger.js';

export const TEST_DB = inject('testDb') as 'pglite' | 'postgres';
export const silentLogger = createLogger((process.env.TEST_LOG as 'silent') ?? 'silent');

let shared: Promise<Database> | undefined;

/** The test file's database: opened once per file, closed by the last harness using it. */
export function testDatabase(): Promise<Database> {
  shared ??= openDatabase(
    TEST_DB === 'postgres' ? { url: inject('databaseUrl'), poolSize: 20 } : { dataDir: 'memory' },
  );
  return shared;
}

/** A database of a test file's alone; `url` on PostgreSQL, for a second pool or a server process. */
export type OwnDatabase = { db: Database; url: string | undefined; drop: () => Promise<void> };

/**
 * A database of this file's alone, for tests whose subject reads or writes every tenant's rows
 * (the e-mail dispatcher and the campaign job claim every tenant's due work; the platform margin
 * prices every tenant's listings; a server process runs the campaign job on the real clock): on
 * PostgreSQL a fresh, migrated database dropped at close, since the run's database is shared by
 * the files running beside; PGlite's is per file.
 */
export async function ownDatabase(): Promise<OwnDatabase> {
  if (TEST_DB !== 'postgres') {
    return { db: await testDatabase(), url: undefined, drop: async () => {} };
  }
  const { createDatabase, dropDatabase } = await import('./global-setup.js');
  const name = `rewards_test_own_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const url = await createDatabase(name);
  const db = await openDatabase({ url, poolSize: 10 });
  return {
    db,
    url,
    drop: async () => {
      await db.close();
      await dropDatabase(name);
    },
  };
}

export type Harness = {
  url: string;
  db: Database;
  /** The URL of the harness's own database (`ownDatabase: true`) on PostgreSQL. */
  databaseUrl: string | undefined;
  app: ReturnType<typeof createApp>;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
};

export type CallOptions = {
  key?: string;
  body?: unknown;
  /** A raw body, sent as is (malformed JSON, other content types). */
  raw?: string;
  headers?: Record<string, string>;
};

export type Reply = { status: number; headers: Headers; body: any; text: string };

export type HarnessOptions = Partial<AppDeps> & {
  rateLimits?: RateLimitStore;
  database?: Database;
  /** A database of this harness's alone (see ownDatabase), dropped when the harness closes. */
  ownDatabase?: boolean;
};

export async function startHarness(overrides: HarnessOptions = {}): Promise<Harness> {
  const { database, ownDatabase: wantsOwn, ...deps } = overrides;
  const own = wantsOwn ? await ownDatabase() : undefined;
  const db = own?.db ?? database ?? (await testDatabase());
  const rateLimits = overrides.rateLimits ?? createRateLimitStore({ logger: silentLogger });
  const app = createApp({ prisma: db.prisma, logger: silentLogger, rateLimits, ...deps });
  const server: Server = await new Promise((resolve) => {
    const s = createHttpServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    db,
    databaseUrl: own?.url,
    app,
    call: (method, path, options = {}) => call(url, method, path, options),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (!overrides.rateLimits) await rateLimits.close();
      await own?.drop();
    },
  };
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (an HTML page): tests read `text`
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

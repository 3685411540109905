// The server as a user starts it: its own process, configured by the environment.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { inject, describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase } from './support/global-setup.js';
import { createTenant } from './support/factories.js';
import { call, TEST_DB, testDatabase } from './support/harness.js';
import { startServerProcess } from './support/server-process.js';

describe('a fresh start', () => {
  it('empty database → server up → demo key printed → health answers with it → clean stop', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rewards-fresh-'));
    const dbName = `rewards_fresh_${process.pid}_${Date.now()}`;
    const env: Record<string, string> =
      TEST_DB === 'postgres'
        ? { DATABASE_URL: await createDatabase(dbName), DEMO: '1' } // on PostgreSQL only on request
        : { DATA_DIR: dataDir };
    try {
      // A fresh embedded database applies every migration first: slow on a loaded 2-core machine.
      const server = await startServerProcess(env, 90_000);
      const key = /test key:\s+(svc_test_[0-9a-f]{32})/.exec(server.output())?.[1];
      expect(key, server.output()).toBeDefined();
      expect(server.output()).toContain(
        `curl -s ${server.url}/api/v1/health -H "Authorization: Bearer ${key}"`,
      );
      const res = await call(server.url, 'GET', '/api/v1/health', { key });
      expect(res.status).toBe(200);
      expect(res.body.data.environment).toBe('test');
      if (TEST_DB === 'pglite') expect(existsSync(path.join(dataDir, 'LOCK'))).toBe(true);
      expect(await server.stop()).toBe(0);
      expect(server.output()).toMatch(/"msg":"stopping","signal":"SIGTERM"/);
      const logLines = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'));
      expect(logLines.some((l) => l.includes('"msg":"request"'))).toBe(true);
      for (const line of logLines) expect(line).not.toContain(key!.slice(9)); // never logged
      if (TEST_DB === 'pglite') expect(existsSync(path.join(dataDir, 'LOCK'))).toBe(false);

      // A second start on the same data: no new demo tenant, and the first key still works.
      const again = await startServerProcess(env);
      expect(again.output()).not.toContain('test key:');
      expect((await call(again.url, 'GET', '/api/v1/health', { key })).status).toBe(200);
      expect(await again.stop()).toBe(0);
    } finally {
      if (TEST_DB === 'postgres') await dropDatabase(dbName);
    }
  }, 180_000);

  it('refuses a bad configuration with a message naming the variable', async () => {
    await expect(
      startServerProcess({ PORT: 'eighty', REDIS_URL: 'localhost:6379' }, 20_000),
    ).rejects.toThrow(/PORT: .*\n.*REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/s);
  }, 30_000);
});

describe.runIf(TEST_DB === 'postgres')('WEB_CONCURRENCY', () => {
  it('runs workers that share the port, and stops them all on SIGTERM', async () => {
    const db = await testDatabase();
    const { key } = await (await createTenant(db.prisma)).key();
    const server = await startServerProcess({
      DATABASE_URL: inject('databaseUrl'),
      WEB_CONCURRENCY: '2',
    });
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => call(server.url, 'GET', '/api/v1/health', { key })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await server.stop()).toBe(0);
  }, 60_000);

  it('refuses more than one worker on the embedded database', async () => {
    await expect(startServerProcess({ WEB_CONCURRENCY: '2' }, 20_000)).rejects.toThrow(
      /WEB_CONCURRENCY: above 1 needs DATABASE_URL/,
    );
  }, 30_000);
});

describe.runIf(TEST_DB === 'postgres')('two server processes', () => {
  it('share one rate budget through Redis', async () => {
    const db = await testDatabase();
    const { key } = await (await createTenant(db.prisma)).key({ readLimit: 5 });
    const env = {
      DATABASE_URL: inject('databaseUrl'),
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      LOG_LEVEL: 'warn',
    };
    const [a, b] = await Promise.all([
      startServerProcess({ ...env, LOG_LEVEL: 'info' }),
      startServerProcess({ ...env, LOG_LEVEL: 'info' }),
    ]);
    try {
      const statuses: number[] = [];
      for (const server of [a, b, a, b, a, b, a]) {
        statuses.push(
          (
            await call(server.url, 'GET', '/api/v1/health', {
              key,
              headers: { 'x-test': randomUUID() },
            })
          ).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 120_000);
});

// What a person, a load balancer and a browser client meet before any key: the landing page, the
// probes, request ids they can follow, and CORS per configured origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { createRateLimitStore } from '../../src/http/rate-limit.js';
import { createDatabase, dropDatabase } from '../support/global-setup.js';
import { silentLogger, startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ graphiql: true, corsOrigins: ['https://app.example.com'] });
});
afterAll(() => h.close());

describe('GET /', () => {
  it('is a page linking the docs, the guide, the backoffice and GraphiQL', async () => {
    const res = await h.call('GET', '/', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    for (const href of ['/docs', '/api/v1/guide', '/admin', '/graphql', '/openapi.json'])
      expect(res.text).toContain(`href="${href}"`);
    const json = await h.call('GET', '/', { headers: { accept: 'application/json' } });
    expect(json.body.links.map((l: { href: string }) => l.href)).toContain('/docs');
  });
});

describe('probes', () => {
  it('/healthz and /readyz answer without a key', async () => {
    expect(await h.call('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await h.call('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: {
        database: { status: 'ok' },
        migrations: { status: 'ok' },
        redis: { status: 'not_configured' },
      },
    });
    expect(ready.headers.get('x-ratelimit-limit')).toBeNull(); // outside the rate budget
  });

  it('/readyz is 503 while Redis is configured but unreachable', async () => {
    const rateLimits = createRateLimitStore({
      redisUrl: 'redis://127.0.0.1:1',
      logger: silentLogger,
    });
    const other = await startHarness({ rateLimits });
    try {
      const res = await other.call('GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        status: 'not_ready',
        checks: { database: { status: 'ok' }, redis: { status: 'failing' } },
      });
    } finally {
      await other.close();
      await rateLimits.close();
    }
  });

  it('/readyz is 503 naming the migration a database lacks', async () => {
    const name = `rewards_behind_${process.pid}_${Date.now()}`;
    let db: Database | undefined;
    try {
      db =
        TEST_DB === 'postgres'
          ? await openDatabase({ url: await createDatabase(name), poolSize: 2 })
          : await openDatabase({ dataDir: 'memory' });
      const [row] = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
        'DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations) RETURNING migration_name',
      );
      const behind = await startHarness({ prisma: db.prisma });
      try {
        const res = await behind.call('GET', '/readyz');
        expect(res.status).toBe(503);
        expect(res.body.checks.migrations).toEqual({
          status: 'failing',
          detail: `not applied: ${row!.migration_name}`,
        });
        expect(res.body.checks.database.status).toBe('ok');
      } finally {
        await behind.close();
      }
    } finally {
      await db?.close();
      if (TEST_DB === 'postgres') await dropDatabase(name);
    }
  }, 60_000);
});

describe('X-Request-Id', () => {
  it('echoes a well-formed client id in the header and the error envelope, and replaces anything else', async () => {
    const mine = '0b7e2c1a-5f3d-4e8a-9c6b-1d2e3f4a5b6c';
    const res = await h.call('GET', '/api/v1/customers/nope', {
      headers: { 'x-request-id': mine },
    });
    expect(res.headers.get('x-request-id')).toBe(mine);
    expect(res.body.error.request_id).toBe(mine);
    for (const bad of ['short', 'has spaces in it', 'x'.repeat(200), '<script>alert(1)</script>']) {
      const other = await h.call('GET', '/healthz', { headers: { 'x-request-id': bad } });
      expect(other.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    }
  });
});

describe('CORS', () => {
  it('answers a configured origin, preflight included, and no other', async () => {
    const p = await partner(h);
    const preflight = await h.call('OPTIONS', '/api/v1/customers', {
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
    const allowed = await h.call('GET', '/api/v1/health', {
      key: p.key,
      headers: { origin: 'https://app.example.com' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(allowed.headers.get('access-control-expose-headers')).toContain('x-ratelimit-remaining');
    const other = await h.call('GET', '/api/v1/health', {
      key: p.key,
      headers: { origin: 'https://evil.example' },
    });
    expect(other.status).toBe(200); // CORS is the browser's rule; the server just grants nothing
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is off when no origin is configured', async () => {
    const plain = await startHarness();
    try {
      const res = await plain.call('GET', '/healthz', {
        headers: { origin: 'https://app.example.com' },
      });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

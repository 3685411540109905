// The admin CLI is a contract other tools depend on: names, flags and the --json shapes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.js';
import { acquireDataDirLock } from '../../src/db/data-dir-lock.js';
import { openDatabase } from '../../src/db/database.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { startServerProcess } from '../support/server-process.js';
import { untilChanged } from '../support/until-changed.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const admin = async (...argv: string[]) => {
  const result = await runAdmin([...argv, '--json'], h.db.prisma);
  return { ...result, json: JSON.parse(result.out) };
};

describe('npm run admin -- … --json', () => {
  it('brand create → sub-brand create → key create → key works → key revoke', async () => {
    const brand = await admin('brand', 'create', '--name', 'CLI Brand');
    expect(brand).toMatchObject({ code: 0, stream: 'stdout', json: { id: expect.any(String) } });
    expect(Object.keys(brand.json)).toEqual(['id']);
    const sub = await admin(
      'sub-brand',
      'create',
      '--brand',
      brand.json.id,
      '--name',
      'CLI ES',
      '--country',
      'es',
      '--currency',
      'eur',
      '--prepaid',
    );
    expect(Object.keys(sub.json)).toEqual(['id']);
    const row = await h.db.prisma.subBrand.findUniqueOrThrow({ where: { id: sub.json.id } });
    expect(row).toMatchObject({
      country: 'ES',
      currency: 'EUR',
      prepaid: true,
      brandId: brand.json.id,
    });

    const key = await admin(
      'key',
      'create',
      '--sub-brand',
      sub.json.id,
      '--env',
      'live',
      '--scopes',
      'customers:read,orders:read',
      '--allow-ip',
      '127.0.0.1,10.0.0.0/8',
      '--read-limit',
      '7',
      '--write-limit',
      '3',
    );
    expect(key.json).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^svc_live_[0-9a-f]{32}$/),
      scopes: ['customers:read', 'orders:read'],
      environment: 'live',
    });
    const health = await h.call('GET', '/api/v1/health', { key: key.json.key });
    expect(health.status).toBe(200);
    expect(health.headers.get('x-ratelimit-limit')).toBe('7');

    const revoked = await admin('key', 'revoke', key.json.id);
    expect(revoked.json).toEqual({ id: key.json.id, revoked: true });
    expect(
      (await untilChanged(() => h.call('GET', '/api/v1/health', { key: key.json.key }))).status,
    ).toBe(401);
  });

  it('--scopes all grants every scope of both API families', async () => {
    const brand = await admin('brand', 'create', '--name', 'All');
    const sub = await admin('sub-brand', 'create', '--brand', brand.json.id, '--name', 'All');
    const key = await admin(
      'key',
      'create',
      '--sub-brand',
      sub.json.id,
      '--env',
      'test',
      '--scopes',
      'all',
    );
    expect(key.json.scopes).toHaveLength(30); // the 20 partner scopes and 10 establishment ones
    for (const scope of ['products:write', 'catalogs:write', 'orders:fulfil', 'campaigns:write'])
      expect(key.json.scopes).toContain(scope);
    expect(key.json.scopes).toContain('engine:events');
    expect(key.json.scopes).toContain('establishment:update');
    expect(key.json.scopes).toContain('campaigns:activity');
  });

  it('key create --platform-admin mints a backoffice key', async () => {
    const key = await admin('key', 'create', '--platform-admin', '--env', 'test');
    expect(key.json).toMatchObject({ scopes: ['admin'], environment: 'test' });
    const res = await h.call('POST', '/graphql', {
      key: key.json.key,
      body: { query: '{ brands(first: 1) { edges { cursor } } }' },
    });
    expect(res.body.errors).toBeUndefined();
  });

  it('demo is idempotent on the tenant and mints a fresh key each time', async () => {
    const first = await admin('demo');
    const second = await admin('demo');
    expect(first.json).toMatchObject({
      brand_id: expect.any(String),
      sub_brand_id: expect.any(String),
      api_key: expect.stringMatching(/^svc_test_/),
    });
    expect(second.json.sub_brand_id).toBe(first.json.sub_brand_id);
    expect(second.json.brand_id).toBe(first.json.brand_id);
    expect(second.json.api_key).not.toBe(first.json.api_key);
    expect(first.json.event_codes).toEqual(['login.daily', 'deposit.first', 'spin']);
    expect(
      await h.db.prisma.eventDefinition.count({ where: { subBrandId: first.json.sub_brand_id } }),
    ).toBe(3);
    expect(
      (await h.call('GET', '/api/v1/health', { key: first.json.api_key })).body.data.sub_brand_id,
    ).toBe(first.json.sub_brand_id);

    // The sample catalog, seeded once: a dozen products, a store, an approved catalog and a
    // pending proposal that partner keys cannot see.
    const key = second.json.api_key;
    const products = await h.call('GET', '/api/v1/products?limit=100', { key });
    expect(products.body.data).toHaveLength(12);
    expect(
      products.body.data.every(
        (p: { translations: object; variants: { listings: unknown[] }[] }) =>
          Object.keys(p.translations).length === 5 &&
          p.variants.every((v) => v.listings.length === 1),
      ),
    ).toBe(true);
    expect((await h.call('GET', '/api/v1/stores', { key })).body.data).toHaveLength(1);
    const catalogs = await h.call('GET', '/api/v1/catalogs', { key });
    // Other test files may add platform-wide catalogs on a shared PostgreSQL: look for the demo's.
    const names = catalogs.body.data.map((c: { name: string }) => c.name);
    expect(names).toContain('Demo rewards');
    expect(names).not.toContain('Summer proposal'); // the pending proposal
    expect(
      await h.db.prisma.catalog.count({
        where: { subBrandId: first.json.sub_brand_id, status: 'pending' },
      }),
    ).toBe(1);
    // Categories are platform-wide too (other files add theirs): the demo's four are there once.
    const slugs = (await h.call('GET', '/api/v1/categories?limit=100', { key })).body.data.map(
      (c: { slug: string }) => c.slug,
    );
    for (const slug of ['electronics', 'gift-cards', 'fashion', 'experiences']) {
      expect(slugs.filter((s: string) => s === slug)).toHaveLength(1);
    }
  });

  it.each([
    [['nonsense'], 2, 'usage'],
    [['brand', 'create'], 2, 'usage'],
    [['key', 'create', '--sub-brand', 'x', '--env', 'prod', '--scopes', 'all'], 2, 'usage'],
    [
      [
        'key',
        'create',
        '--sub-brand',
        '01a00000-0000-7000-8000-000000000000',
        '--env',
        'test',
        '--scopes',
        'all',
      ],
      1,
      'not_found',
    ],
    [
      [
        'key',
        'create',
        '--sub-brand',
        '01a00000-0000-7000-8000-000000000000',
        '--env',
        'test',
        '--scopes',
        'bogus',
      ],
      1,
      'invalid_request',
    ],
    [['key', 'revoke', 'not-an-id'], 1, 'not_found'],
    [['brand', 'create', '--name', 'x', '--colour', 'red'], 2, 'usage'],
  ])('%j fails with exit %i and one JSON error object', async (argv, code, errorCode) => {
    const result = await admin(...(argv as string[]));
    expect(result.code).toBe(code);
    expect(result.json).toEqual({ error: { code: errorCode, message: expect.any(String) } });
  });

  it('names the flag, not the internal field, in validation messages', async () => {
    const result = await admin(
      'key',
      'create',
      '--sub-brand',
      'nope',
      '--env',
      'test',
      '--scopes',
      'all',
    );
    expect(result.json.error.message).toMatch(/^--sub-brand: /);
  });
});

describe('list and show', () => {
  it('lists and shows brands, sub-brands, keys and definitions, never a key secret', async () => {
    const brand = await admin('brand', 'create', '--name', 'Listed');
    const sub = await admin('sub-brand', 'create', '--brand', brand.json.id, '--name', 'Listed ES');
    const key = await admin(
      'key',
      'create',
      '--sub-brand',
      sub.json.id,
      '--env',
      'test',
      '--scopes',
      'all',
    );
    const definition = await admin(
      'definition',
      'create',
      '--sub-brand',
      sub.json.id,
      '--code',
      'win',
      '--points',
      '5',
    );

    const brands = await admin('brand', 'list');
    expect(brands.json.brands).toContainEqual(
      expect.objectContaining({ id: brand.json.id, name: 'Listed', sub_brands: 1 }),
    );
    expect((await admin('brand', 'show', brand.json.id)).json).toMatchObject({
      id: brand.json.id,
      sub_brands: [{ id: sub.json.id, name: 'Listed ES' }],
    });
    expect((await admin('sub-brand', 'list', '--brand', brand.json.id)).json.sub_brands).toEqual([
      expect.objectContaining({ id: sub.json.id, name: 'Listed ES', is_demo: false }),
    ]);
    expect((await admin('sub-brand', 'show', sub.json.id)).json).toMatchObject({
      id: sub.json.id,
      api_keys: 1,
      event_definitions: 1,
    });
    const keys = await admin('key', 'list', '--sub-brand', sub.json.id);
    expect(keys.json.keys).toEqual([
      expect.objectContaining({ id: key.json.id, environment: 'test', revoked_at: null }),
    ]);
    expect(JSON.stringify(keys.json)).not.toContain(key.json.key.slice(12));
    expect(keys.json.keys[0].prefix).toBe(`${key.json.key.slice(0, 13)}…`);
    await admin('key', 'revoke', key.json.id);
    expect((await admin('key', 'show', key.json.id)).json.revoked_at).toEqual(expect.any(String));
    expect(
      (await admin('definition', 'list', '--sub-brand', sub.json.id)).json.definitions,
    ).toEqual([
      expect.objectContaining({ id: definition.json.id, code: 'win', points: 5, active: true }),
    ]);
    await admin('definition', 'deactivate', definition.json.id);
    expect(
      (await admin('definition', 'list', '--sub-brand', sub.json.id, '--active')).json.definitions,
    ).toEqual([]);
    expect((await admin('definition', 'show', definition.json.id)).json).toMatchObject({
      code: 'win',
      active: false,
      version: 2,
    });

    // Text for people: one line per row.
    const text = await runAdmin(['key', 'list', '--sub-brand', sub.json.id], h.db.prisma);
    expect(text.out).toMatch(new RegExp(`^${key.json.id}  svc_test_\\w*…  test  revoked  `));
  });

  it.each([
    ['brand', 'show', '01a00000-0000-7000-8000-000000000000'],
    ['sub-brand', 'show', 'nope'],
    ['key', 'list', '--sub-brand', '01a00000-0000-7000-8000-000000000000'],
    ['definition', 'show', '01a00000-0000-7000-8000-000000000000'],
  ])('%s %s of an unknown id is not_found', async (...argv) => {
    const result = await admin(...argv);
    expect(result).toMatchObject({ code: 1, json: { error: { code: 'not_found' } } });
  });
});

describe('--help', () => {
  it('lists every command, and each command explains itself', async () => {
    const general = await runAdmin(['--help']);
    expect(general).toMatchObject({ code: 0, stream: 'stdout' });
    for (const name of ['brand list', 'key show', 'definition list', 'demo'])
      expect(general.out).toContain(`  ${name} `);
    const one = await runAdmin(['key', 'create', '--help']);
    expect(one.code).toBe(0);
    expect(one.out).toMatch(
      /^Mint an API key.*\n\nUsage: npm run admin -- key create --sub-brand ID/s,
    );
    expect((await runAdmin(['help', 'brand', 'show'])).out).toContain('brand show ID');
  });
});

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The CLI as an operator runs it. */
const cli = (env: Record<string, string>, ...args: string[]) => {
  const started = performance.now();
  // What `npm run admin` runs, without npm's own start-up on top.
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], {
    env: { ...process.env, DATABASE_URL: '', ...env },
    encoding: 'utf8',
    cwd: ROOT,
    timeout: 60_000, // a CLI that does not exit fails here instead of hanging the suite
  });
  return { ...result, ms: Math.round(performance.now() - started) };
};

describe.runIf(TEST_DB === 'pglite')('the CLI as a process on the embedded database', () => {
  it('refuses an unmigrated folder, then works alone, beside a running server, and says who holds the folder', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rewards-cli-'));
    const env = { DATA_DIR: dataDir };

    // A database behind the code: a clear message, and nothing changed.
    const fresh = cli(env, 'brand', 'list', '--json');
    expect(fresh.status, fresh.stderr).toBe(1);
    expect(JSON.parse(fresh.stdout).error).toMatchObject({
      code: 'migrations_pending',
      message: expect.stringMatching(/not applied .*npm run db:migrate/),
    });
    // Again on the folder that now exists: it refuses and exits (it used to hang, the embedded
    // database it opened to look left open).
    const again = cli(env, 'brand', 'list');
    expect(again.signal, 'the CLI did not exit').toBeNull();
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/database is behind this code/);
    // The server migrates on start and then holds the folder; the CLI's commands run in it.
    const server = await startServerProcess(env);
    try {
      const ok = cli(env, 'brand', 'create', '--name', 'Proc', '--json');
      expect(ok.status, ok.stderr).toBe(0);
      const brandId = JSON.parse(ok.stdout).id;
      const listed = cli(env, 'brand', 'list', '--json');
      expect(listed.status, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).brands.map((b: { id: string }) => b.id)).toContain(brandId);
      const created = cli(
        env,
        'sub-brand',
        'create',
        '--brand',
        brandId,
        '--name',
        'Via server',
        '--json',
      );
      expect(created.status, created.stderr).toBe(0);
      const usage = cli(env, 'sub-brand', 'create', '--json');
      expect(usage.status).toBe(2);
      expect(JSON.parse(usage.stdout).error.code).toBe('usage');
      // Staff accounts too (B9): the password is read from the CLI's environment, not the
      // server's, and the new person signs in to the running server with it.
      const email = 'beside@example.com';
      const staff = cli(
        { ...env, STAFF_PASSWORD: 'a password from the cli' },
        'user',
        'create',
        '--email',
        email,
        '--role',
        'support',
        '--json',
      );
      expect(staff.status, staff.stdout + staff.stderr).toBe(0);
      expect(JSON.parse(staff.stdout)).toMatchObject({ email, role: 'support' });
      const signIn = await fetch(`${server.url}/admin/api/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ email, password: 'a password from the cli' }),
      });
      expect(signIn.status).toBe(200);
      const users = cli(env, 'user', 'list', '--json');
      expect(JSON.parse(users.stdout).users.map((u: { email: string }) => u.email)).toContain(
        email,
      );
      const noPassword = cli(
        env,
        'user',
        'create',
        '--email',
        'x@example.com',
        '--role',
        'support',
      );
      expect(noPassword.status).toBe(2);
      expect(noPassword.stderr).toMatch(/Set STAFF_PASSWORD/);
      console.log(`admin CLI beside a running server: brand list ${listed.ms} ms`);
    } finally {
      expect(await server.stop()).toBe(0);
    }

    const alone = cli(env, 'sub-brand', 'list', '--json');
    expect(JSON.parse(alone.stdout).sub_brands.map((s: { name: string }) => s.name)).toContain(
      'Via server',
    );
    console.log(`admin CLI alone on PGlite: sub-brand list ${alone.ms} ms`);

    // Another holder without a server's socket (a second CLI, a migration): it names the holder.
    const lock = await acquireDataDirLock(dataDir, 'migration script');
    try {
      const busy = cli(env, 'brand', 'create', '--name', 'Blocked', '--json');
      expect(busy.status).toBe(1);
      const { error } = JSON.parse(busy.stdout);
      expect(error.message).toMatch(/in use by the migration script \(pid \d+\)/);
      expect(error.message).toMatch(/DATABASE_URL/);
    } finally {
      await lock.release();
    }

    // The code moves ahead of the database (a migration it has not run): refused, named.
    const db = await openDatabase({ dataDir });
    const [last] = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
      'DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations) RETURNING migration_name',
    );
    await db.close();
    const behind = cli(env, 'brand', 'list');
    expect(behind.status).toBe(1);
    expect(behind.stderr).toContain(`1 migration(s) not applied (${last!.migration_name})`);
  }, 180_000);
});

describe.runIf(TEST_DB === 'postgres')('the CLI as a process on PostgreSQL', () => {
  it('works beside the servers, any time', async () => {
    const listed = cli({ DATABASE_URL: inject('databaseUrl') }, 'brand', 'list', '--json');
    expect(listed.status, listed.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(listed.stdout).brands)).toBe(true);
    console.log(`admin CLI on PostgreSQL: brand list ${listed.ms} ms`);
  }, 60_000);
});

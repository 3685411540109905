// The admin CLI is a contract other tools depend on: names, flags and the --json shapes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.js';
import { acquireDataDirLock } from '../../src/db/data-dir-lock.js';
import { startHarness, type Harness } from '../support/harness.js';

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
    expect((await h.call('GET', '/api/v1/health', { key: key.json.key })).status).toBe(401);
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
    expect(key.json.scopes).toHaveLength(18); // the 16 partner scopes and 2 establishment ones
    expect(key.json.scopes).toContain('engine:events');
    expect(key.json.scopes).toContain('establishment:update');
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
    expect(catalogs.body.data.map((c: { name: string }) => c.name)).toEqual(['Demo rewards']);
    expect(
      await h.db.prisma.catalog.count({
        where: { subBrandId: first.json.sub_brand_id, status: 'pending' },
      }),
    ).toBe(1);
    expect((await h.call('GET', '/api/v1/categories', { key })).body.data).toHaveLength(4);
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

describe('the CLI as a process on the embedded database', () => {
  it('runs through npm and refuses clearly while another process holds the data folder', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rewards-cli-'));
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    const run = (...args: string[]) =>
      spawnSync('npm', ['run', '-s', 'admin', '--', ...args, '--json'], {
        env,
        encoding: 'utf8',
        cwd: path.resolve(import.meta.dirname, '../..'),
      });

    const ok = run('brand', 'create', '--name', 'Proc');
    expect(ok.status).toBe(0);
    expect(Object.keys(JSON.parse(ok.stdout))).toEqual(['id']);

    const lock = await acquireDataDirLock(dataDir, 'server'); // as a running server would
    try {
      const busy = run('brand', 'create', '--name', 'Blocked');
      expect(busy.status).toBe(1);
      const { error } = JSON.parse(busy.stdout);
      expect(error.message).toMatch(/in use by the server \(pid \d+\)/);
      expect(error.message).toMatch(/DATABASE_URL/);
    } finally {
      await lock.release();
    }
  }, 60_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/domain/tenancy/revoke-api-key.js';
import { untilChanged } from '../support/until-changed.js';
import { adminKey, createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const expectEnvelope = (body: any, code: string) => {
  expect(body.error.code).toBe(code);
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
};

describe('GET /api/v1/health', () => {
  it('answers the health record for a valid key', async () => {
    const tenant = await createTenant(h.db.prisma);
    const { key } = await tenant.key({ env: 'live', scopes: ['customers:read'] });
    const before = Date.now();
    const res = await h.call('GET', '/api/v1/health', { key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toEqual({
      status: 'ok',
      environment: 'live',
      sub_brand_id: tenant.subBrandId,
      brand_id: tenant.brandId,
      api_version: 'v1',
      server_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Date.parse(res.body.data.server_time)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    // The server's own time to the headers, within what the client waited.
    const timing = /^app;dur=(\d+\.\d)$/.exec(res.headers.get('server-timing') ?? '');
    expect(timing, res.headers.get('server-timing') ?? 'no server-timing').not.toBeNull();
    expect(Number(timing![1])).toBeLessThanOrEqual(Date.now() - before);
  });

  it('tells test keys from live keys of the same sub-brand', async () => {
    const tenant = await createTenant(h.db.prisma);
    const test = await tenant.key({ env: 'test' });
    const res = await h.call('GET', '/api/v1/health', { key: test.key });
    expect(res.body.data.environment).toBe('test');
    expect(test.key).toMatch(/^svc_test_[0-9a-f]{32}$/);
  });
});

describe('401 unauthorized', () => {
  it.each([
    ['no header', {}],
    ['not a bearer', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['malformed key', { authorization: 'Bearer svc_live_123' }],
    ['wrong environment word', { authorization: `Bearer svc_prod_${'a'.repeat(32)}` }],
    ['unknown key', { authorization: `Bearer svc_live_${'0'.repeat(32)}` }],
  ])('%s', async (_name, headers) => {
    const res = await h.call('GET', '/api/v1/health', { headers });
    expect(res.status).toBe(401);
    expectEnvelope(res.body, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d$/);
  });

  it('a revoked key, right after revocation', async () => {
    const tenant = await createTenant(h.db.prisma);
    const created = await tenant.key();
    expect((await h.call('GET', '/api/v1/health', { key: created.key })).status).toBe(200);
    await revokeApiKey(h.db.prisma, created.id);
    const res = await untilChanged(() => h.call('GET', '/api/v1/health', { key: created.key }));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
  });

  it('never stores the key itself', async () => {
    const tenant = await createTenant(h.db.prisma);
    const created = await tenant.key();
    const row = await h.db.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(JSON.stringify(row)).not.toContain(created.key.slice(9));
    expect(row.displayPrefix).toBe(`${created.key.slice(0, 13)}…`);
  });
});

describe('403 forbidden', () => {
  it('a key without the route scope', async () => {
    const tenant = await createTenant(h.db.prisma);
    const { key } = await tenant.key({ scopes: ['orders:read', 'customers:coins'] });
    const res = await h.call('GET', '/api/v1/health', { key });
    expect(res.status).toBe(403);
    expectEnvelope(res.body, 'forbidden');
    expect(res.body.error.message).toContain('customers:read');
  });

  it('an allowlist that does not include the caller', async () => {
    const tenant = await createTenant(h.db.prisma);
    const { key } = await tenant.key({ allowedCidrs: ['203.0.113.0/24'] });
    const res = await h.call('GET', '/api/v1/health', { key });
    expect(res.status).toBe(403);
    expectEnvelope(res.body, 'forbidden');
  });

  it('an allowlist that includes the caller lets it through', async () => {
    const tenant = await createTenant(h.db.prisma);
    const { key } = await tenant.key({ allowedCidrs: ['203.0.113.0/24', '127.0.0.0/8'] });
    expect((await h.call('GET', '/api/v1/health', { key })).status).toBe(200);
  });

  it('partner keys cannot use the backoffice operations', async () => {
    const tenant = await createTenant(h.db.prisma);
    const { key } = await tenant.key();
    const res = await h.call('POST', '/graphql', {
      key,
      body: { query: '{ brands { edges { node { id } } } }' },
    });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions.code).toBe('forbidden');
    expect(res.body.data).toBeUndefined();
  });
});

describe('tenancy', () => {
  it('each key sees its own sub-brand only', async () => {
    const a = await createTenant(h.db.prisma);
    const b = await createTenant(h.db.prisma);
    const ra = await h.call('GET', '/api/v1/health', { key: (await a.key()).key });
    const rb = await h.call('GET', '/api/v1/health', { key: (await b.key()).key });
    expect(ra.body.data.sub_brand_id).toBe(a.subBrandId);
    expect(rb.body.data.sub_brand_id).toBe(b.subBrandId);
  });

  it('admin keys of the platform cannot call partner routes as a tenant', async () => {
    const admin = await adminKey(h.db.prisma);
    const res = await h.call('GET', '/api/v1/health', { key: admin.key });
    expect(res.status).toBe(403);
  });
});

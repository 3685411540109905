// The GraphQL behind the backoffice screens of issue 14's second part: brand admins minting keys
// for their own sub-brands only, brands' margins and prepaid top-ups (platform admins only,
// audited before/after), the players' CSV import (preview, apply, re-run and a race creating
// nothing twice, tenants apart) and the streamed CSV export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { createTenant } from '../support/factories.js';
import { call, startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';
import { untilChanged } from '../support/until-changed.js';

let h: Harness;
let a: Awaited<ReturnType<typeof createTenant>>;
let a2: string; // a second sub-brand of a's brand
let b: Awaited<ReturnType<typeof createTenant>>;
let brandAdmin: StaffClient;
let operator: StaffClient;
let support: StaffClient;
let platform: StaffClient;

beforeAll(async () => {
  h = await startHarness();
  a = await createTenant(h.db.prisma);
  b = await createTenant(h.db.prisma);
  a2 = (
    await h.db.prisma.subBrand.create({
      data: { id: crypto.randomUUID(), brandId: a.brandId, name: 'A second', country: 'ES' },
    })
  ).id;
  const sign = async (...args: Parameters<typeof createStaff>) =>
    signInAs(h.url, (await createStaff(...args)).email);
  brandAdmin = await sign(h.db.prisma, 'brand_admin', { brandId: a.brandId });
  operator = await sign(h.db.prisma, 'establishment_operator', { subBrandId: a.subBrandId });
  support = await sign(h.db.prisma, 'support', { subBrandId: a.subBrandId });
  platform = await sign(h.db.prisma, 'platform_admin');
});
afterAll(() => h.close());

const MINT =
  'mutation($s: ID!) { createApiKey(input: { subBrandId: $s, environment: test, scopes: [CUSTOMERS_READ] }) { key apiKey { id subBrandId } } }';
const REVOKE = 'mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }';
const code = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) =>
  res.body.errors?.[0]?.extensions?.code;

describe('API keys minted by a brand admin', () => {
  it("mints and revokes keys of its brand's sub-brands, and the key works", async () => {
    for (const s of [a.subBrandId, a2]) {
      const res = await brandAdmin.gql(MINT, { s }, { subBrandId: s });
      expect(res.body.errors).toBeUndefined();
      const { key, apiKey } = res.body.data.createApiKey;
      expect(apiKey.subBrandId).toBe(s);
      const health = await h.call('GET', '/api/v1/health', { key });
      expect(health.body.data.sub_brand_id).toBe(s);
      const revoked = await brandAdmin.gql(REVOKE, { id: apiKey.id }, { subBrandId: s });
      expect(revoked.body.data.revokeApiKey.revokedAt).toMatch(/Z$/);
      expect((await untilChanged(() => h.call('GET', '/api/v1/health', { key }))).status).toBe(401);
    }
  });

  it("finds no other brand's sub-brand or key, nor the platform's", async () => {
    const other = await brandAdmin.gql(MINT, { s: b.subBrandId });
    expect(code(other)).toBe('not_found');
    const platformSub = await h.db.prisma.subBrand.findFirst({ where: { isPlatform: true } });
    if (platformSub)
      expect(code(await brandAdmin.gql(MINT, { s: platformSub.id }))).toBe('not_found');
    const bKey = await b.key();
    const revoke = await brandAdmin.gql(REVOKE, { id: bKey.id });
    expect(code(revoke)).toBe('not_found');
    expect((await h.call('GET', '/api/v1/health', { key: bKey.key })).status).toBe(200);
    const read = await brandAdmin.gql('query($s: ID!) { subBrand(id: $s) { id name } }', {
      s: b.subBrandId,
    });
    expect(read.body.data.subBrand).toBeNull();
    const own = await brandAdmin.gql(
      'query($s: ID!) { subBrand(id: $s) { id apiKeys { edges { node { id } } } } }',
      { s: a2 },
    );
    expect(own.body.data.subBrand.id).toBe(a2);
  });

  it('refuses operators and support, and never shows margins to a brand admin', async () => {
    expect(code(await operator.gql(MINT, { s: a.subBrandId }))).toBe('forbidden');
    expect(code(await support.gql(MINT, { s: a.subBrandId }))).toBe('forbidden');
    const aKey = await a.key();
    expect(code(await operator.gql(REVOKE, { id: aKey.id }))).toBe('forbidden');
    const margins = await brandAdmin.gql('query($s: ID!) { subBrand(id: $s) { marginBps } }', {
      s: a.subBrandId,
    });
    expect(code(margins)).toBe('forbidden');
  });
});

describe('brands: margins and prepaid top-up', () => {
  const TOP_UP =
    'mutation($b: ID!, $amount: SafeInt!) { topUpPrepaidBalance(brandId: $b, environment: test, currency: "EUR", amount: $amount) }';

  it('a platform admin tops up, reads the balance per environment, and the trail holds before and after', async () => {
    const first = await platform.gql(TOP_UP, { b: b.brandId, amount: 5000 });
    expect(first.body.data.topUpPrepaidBalance).toBe(5000);
    const second = await platform.gql(TOP_UP, { b: b.brandId, amount: 2500 });
    expect(second.body.data.topUpPrepaidBalance).toBe(7500);
    const read = await platform.gql(
      'query($b: ID!) { brand(id: $b) { marginBps prepaidAccounts { environment currency balance } } }',
      { b: b.brandId },
    );
    expect(read.body.data.brand).toEqual({
      marginBps: 0,
      prepaidAccounts: [{ environment: 'test', currency: 'EUR', balance: 7500 }],
    });
    const audit = await h.db.prisma.staffAuditEntry.findFirst({
      where: { action: 'topUpPrepaidBalance', targetId: b.brandId },
      orderBy: { id: 'desc' },
    });
    expect(audit?.before).toMatchObject({ balance: 5000 });
    expect(audit?.after).toMatchObject({ balance: 7500 });
  });

  it('refuses a top-up that is not positive, and anyone but a platform admin', async () => {
    expect(code(await platform.gql(TOP_UP, { b: b.brandId, amount: 0 }))).toBe('invalid_request');
    expect(code(await brandAdmin.gql(TOP_UP, { b: a.brandId, amount: 100 }))).toBe('forbidden');
    const balance = await h.db.prisma.prepaidAccount.findMany({ where: { brandId: a.brandId } });
    expect(balance).toEqual([]);
  });

  it('sets margins at each level and reads them back', async () => {
    const set = await platform.gql(
      'mutation($b: ID!, $s: ID!) { setMargins(brand: { id: $b, bps: 250 }, subBrand: { id: $s, bps: 125 }) }',
      { b: b.brandId, s: b.subBrandId },
    );
    expect(set.body.data.setMargins).toBe(true);
    const read = await platform.gql(
      'query($b: ID!, $s: ID!) { platformMarginBps brand(id: $b) { marginBps } subBrand(id: $s) { marginBps coinsPerUnit } }',
      { b: b.brandId, s: b.subBrandId },
    );
    expect(read.body.data).toMatchObject({
      platformMarginBps: expect.any(Number),
      brand: { marginBps: 250 },
      subBrand: { marginBps: 125, coinsPerUnit: 100 },
    });
    const bad = await platform.gql('mutation($b: ID!) { setMargins(brand: { id: $b, bps: -1 }) }', {
      b: b.brandId,
    });
    expect(code(bad)).toBe('invalid_request');
  });
});

describe('players: CSV import', () => {
  const PREVIEW =
    'query($csv: String!) { previewPlayerImport(csv: $csv) { newCount existingCount invalidCount createdCount rows { line externalId outcome errors customerId } } }';
  const IMPORT =
    'mutation($csv: String!) { importPlayers(csv: $csv) { newCount existingCount invalidCount createdCount rows { line externalId outcome errors customerId } } }';
  const FILE = [
    'external_id,first_name,last_name,email,country',
    'p-1,Ana,García,ana@example.com,ES',
    '"p-2","Bruno ""Bru""",Silva,,PT',
    'p-3,Carla,,carla@example,XX',
    'p-1,Ana,Again,,ES',
    ',No,Id,,',
  ].join('\r\n');

  it('previews row by row, writes nothing, then applies; the same file again creates nothing', async () => {
    const preview = await operator.gql(PREVIEW, { csv: FILE });
    expect(preview.body.errors).toBeUndefined();
    const p = preview.body.data.previewPlayerImport;
    expect(p).toMatchObject({ newCount: 2, existingCount: 0, invalidCount: 3, createdCount: 0 });
    expect(p.rows.map((r: { outcome: string }) => r.outcome)).toEqual([
      'new',
      'new',
      'invalid',
      'invalid',
      'invalid',
    ]);
    expect(p.rows[2].errors.join(' ')).toMatch(/last_name.*email.*country|last_name/);
    expect(p.rows[2].errors.join(' ')).toMatch(/email/);
    expect(p.rows[3].errors).toEqual(['external_id repeats line 2']);
    expect(p.rows[4].errors.join(' ')).toMatch(/external_id is required/);
    const tenant = { subBrandId: a.subBrandId, environment: 'test' as const };
    expect(
      await h.db.prisma.customer.count({ where: { ...tenant, externalId: { startsWith: 'p-' } } }),
    ).toBe(0);

    const applied = await operator.gql(IMPORT, { csv: FILE });
    expect(applied.body.data.importPlayers).toMatchObject({ createdCount: 2, invalidCount: 3 });
    const bruno = await h.db.prisma.customer.findFirst({ where: { ...tenant, externalId: 'p-2' } });
    expect(bruno).toMatchObject({
      firstName: 'Bruno "Bru"',
      lastName: 'Silva',
      email: null,
      country: 'PT',
    });
    expect(
      await h.db.prisma.wallet.findUnique({ where: { customerId: bruno!.id } }),
    ).not.toBeNull();

    const again = await operator.gql(IMPORT, { csv: FILE });
    expect(again.body.data.importPlayers).toMatchObject({ createdCount: 0, existingCount: 2 });
    expect(again.body.data.importPlayers.rows[1].customerId).toBe(bruno!.id);
    expect(
      await h.db.prisma.customer.count({ where: { ...tenant, externalId: { startsWith: 'p-' } } }),
    ).toBe(2);
    const trail = await h.db.prisma.staffAuditEntry.count({
      where: { action: 'importPlayers', subBrandId: a.subBrandId },
    });
    expect(trail).toBe(2);
  });

  it('two imports of one file racing create each player once', async () => {
    const csv = [
      'external_id,first_name,last_name',
      ...Array.from({ length: 20 }, (_, i) => `race-${i},R,${i}`),
    ].join('\n');
    const [one, two] = await Promise.all([
      operator.gql(IMPORT, { csv }),
      operator.gql(IMPORT, { csv }),
    ]);
    expect(one.body.errors).toBeUndefined();
    expect(two.body.errors).toBeUndefined();
    const created =
      one.body.data.importPlayers.createdCount + two.body.data.importPlayers.createdCount;
    expect(created).toBe(20);
    expect(
      await h.db.prisma.customer.count({
        where: { subBrandId: a.subBrandId, externalId: { startsWith: 'race-' } },
      }),
    ).toBe(20);
  });

  it("keeps tenants apart: another sub-brand's external id is new here", async () => {
    const csv = 'external_id,first_name,last_name\np-1,Other,Tenant';
    const bOperator = await signInAs(
      h.url,
      (await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: b.subBrandId }))
        .email,
    );
    const preview = await bOperator.gql(PREVIEW, { csv });
    expect(preview.body.data.previewPlayerImport.newCount).toBe(1);
  });

  it('refuses a file without the required columns, an unknown column, an open quote, and read-only support', async () => {
    for (const [csv, message] of [
      ['first_name,last_name\nA,B', /missing column\(s\) external_id/],
      ['external_id,first_name,last_name,password\n1,A,B,x', /unknown column\(s\) password/],
      ['external_id,first_name,last_name\n"1,A,B', /never closes/],
      ['', /empty/],
    ] as const) {
      const res = await operator.gql(IMPORT, { csv });
      expect(code(res)).toBe('invalid_request');
      expect(res.body.errors[0].message).toMatch(message);
    }
    expect(code(await support.gql(IMPORT, { csv: FILE }))).toBe('forbidden');
    expect(code(await support.gql(PREVIEW, { csv: FILE }))).toBe('forbidden');
  });
});

describe('customers: CSV export', () => {
  it('streams the filtered list of the chosen tenant, with formulas defused', async () => {
    const tenant = { subBrandId: a2, environment: 'test' as const };
    await createCustomer(h.db.prisma, tenant, {
      firstName: '=HYPERLINK("x")',
      lastName: 'Evil',
      externalId: 'x-1',
    });
    await createCustomer(h.db.prisma, tenant, {
      firstName: 'Plain',
      lastName: 'Person',
      status: 'banned',
    });
    const res = await call(
      h.url,
      'GET',
      `/admin/api/customers.csv?subBrandId=${a2}&environment=test`,
      {
        headers: { cookie: brandAdmin.cookie },
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="customers-test-/);
    const lines = res.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,external_id,first_name,last_name,nickname,email,phone,country,preferred_lang,segment_id,status,balance,order_count,created_at',
    );
    expect(lines).toHaveLength(3);
    expect(res.text).toContain(`"'=HYPERLINK(""x"")",Evil`);
    const banned = await call(
      h.url,
      'GET',
      `/admin/api/customers.csv?subBrandId=${a2}&environment=test&status=banned`,
      { headers: { cookie: brandAdmin.cookie } },
    );
    expect(banned.text.trim().split('\r\n')).toHaveLength(2);
    expect(banned.text).toContain('Plain,Person');
  });

  it("refuses another brand's sub-brand, no session, and a bad filter", async () => {
    const other = await call(h.url, 'GET', `/admin/api/customers.csv?subBrandId=${b.subBrandId}`, {
      headers: { cookie: brandAdmin.cookie },
    });
    expect(other.status).toBe(404);
    expect((await call(h.url, 'GET', '/admin/api/customers.csv')).status).toBe(401);
    const bad = await call(h.url, 'GET', `/admin/api/customers.csv?status=sleepy`, {
      headers: { cookie: operator.cookie },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.request_id).toEqual(expect.any(String));
  });
});

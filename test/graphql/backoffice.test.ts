import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey, createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { untilChanged } from '../support/until-changed.js';
import { formHeaders } from '../support/graphql.js';
import { createStaff, signInAs } from '../support/staff.js';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

const gql = (key: string | undefined, query: string, variables: Record<string, unknown> = {}) =>
  h.call('POST', '/graphql', { key, body: { query, variables }, headers: formHeaders(query) });

describe('backoffice GraphQL with a platform admin key', () => {
  it('creates a brand, a sub-brand and a key that then works on the partner API', async () => {
    const brand = await gql(
      admin,
      'mutation($n: String!) { createBrand(input: { name: $n }) { id name } }',
      { n: 'Lucky Group' },
    );
    expect(brand.body.errors).toBeUndefined();
    const brandId = brand.body.data.createBrand.id;
    const sub = await gql(
      admin,
      'mutation($b: ID!) { createSubBrand(input: { brandId: $b, name: "Lucky ES", country: "ES", currency: "EUR" }) { id country currency prepaid brand { name } } }',
      { b: brandId },
    );
    expect(sub.body.data.createSubBrand).toMatchObject({
      country: 'ES',
      currency: 'EUR',
      prepaid: false,
      brand: { name: 'Lucky Group' },
    });
    const subBrandId = sub.body.data.createSubBrand.id;
    const created = await gql(
      admin,
      'mutation($s: ID!) { createApiKey(input: { subBrandId: $s, environment: live, scopes: [CUSTOMERS_READ], readLimit: 50 }) { key apiKey { id displayPrefix scopes environment readLimit revokedAt } } }',
      { s: subBrandId },
    );
    const { key, apiKey } = created.body.data.createApiKey;
    expect(key).toMatch(/^svc_live_[0-9a-f]{32}$/);
    expect(apiKey).toMatchObject({
      scopes: ['customers:read'],
      environment: 'live',
      readLimit: 50,
      revokedAt: null,
    });
    expect(apiKey.displayPrefix).toBe(`${key.slice(0, 13)}…`);

    const health = await h.call('GET', '/api/v1/health', { key });
    expect(health.body.data).toMatchObject({ sub_brand_id: subBrandId, environment: 'live' });
    expect(health.headers.get('x-ratelimit-limit')).toBe('50');

    const listed = await gql(
      admin,
      'query($s: ID!) { subBrand(id: $s) { apiKeys { edges { node { id displayPrefix } } } } }',
      { s: subBrandId },
    );
    expect(JSON.stringify(listed.body)).not.toContain(key); // only ever the prefix

    const revoked = await gql(
      admin,
      'mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }',
      { id: apiKey.id },
    );
    expect(revoked.body.data.revokeApiKey.revokedAt).toMatch(/Z$/);
    expect((await untilChanged(() => h.call('GET', '/api/v1/health', { key }))).status).toBe(401);
  });

  it('refuses bad input with invalid_request naming the field', async () => {
    const res = await gql(
      admin,
      'mutation { createSubBrand(input: { brandId: "nope", name: "", country: "Spain" }) { id } }',
    );
    expect(res.body.errors[0].extensions.code).toBe('invalid_request');
    expect(res.body.errors[0].message).toMatch(/brandId/);
    expect(res.body.errors[0].message).toMatch(/country/);
  });

  it('answers not_found for an unknown brand', async () => {
    const res = await gql(
      admin,
      'mutation { createSubBrand(input: { brandId: "01a00000-0000-7000-8000-000000000000", name: "x" }) { id } }',
    );
    expect(res.body.errors[0].extensions.code).toBe('not_found');
  });

  it('cannot grant the admin scope through createApiKey', async () => {
    const tenant = await createTenant(h.db.prisma);
    const res = await gql(
      admin,
      `mutation { createApiKey(input: { subBrandId: "${tenant.subBrandId}", environment: test, scopes: [ADMIN] }) { key } }`,
    );
    expect(res.body.errors[0].message).toMatch(/ADMIN/);
  });

  it('needs a key at all', async () => {
    const res = await gql(undefined, '{ brands { edges { node { id } } } }');
    expect(res.status).toBe(401);
    expect(res.body.errors[0].extensions.code).toBe('unauthorized');
  });

  it('refuses partner keys whatever their scopes: they use REST and MCP (issue 13)', async () => {
    const tenant = await createTenant(h.db.prisma);
    const res = await gql(
      (await tenant.key({ scopes: ['customers:read'] })).key,
      '{ health { status subBrandId } }',
    );
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions.code).toBe('forbidden');
  });
});

describe('customer arguments as the domain takes them', () => {
  it('a null where the domain takes none means "not given" (create) or "unchanged" (update); elsewhere null unsets', async () => {
    const t = await createTenant(h.db.prisma);
    const staff = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: t.subBrandId,
    });
    const client = await signInAs(h.url, staff.email);
    const FIELDS = 'id firstName lastName status email';
    const created = await client.gql(
      `mutation { createCustomer(input: { firstName: "Ana", lastName: "Ruiz", status: null, email: null }) { ${FIELDS} } }`,
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createCustomer).toMatchObject({ status: 'active', email: null });
    const id = created.body.data.createCustomer.id as string;
    await client.gql(
      `mutation($id: ID!) { updateCustomer(id: $id, input: { email: "ana@example.com" }) { id } }`,
      { id },
    );
    const updated = await client.gql(
      `mutation($id: ID!) { updateCustomer(id: $id, input: { firstName: null, lastName: null, status: null, email: null }) { ${FIELDS} } }`,
      { id },
    );
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateCustomer).toEqual({
      id,
      firstName: 'Ana',
      lastName: 'Ruiz',
      status: 'active',
      email: null,
    });
  });
});

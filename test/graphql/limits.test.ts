// Issue 13 items 1, 2 and 8: GraphQL's limits (depth, aliases, tokens, cost), the rate budget
// charged by cost and per mutation, and GraphQL kept to the backoffice's keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHQL_LIMITS } from '../../src/graphql/limits.js';
import { adminKey, createTenant } from '../support/factories.js';
import { formHeaders } from '../support/graphql.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

const gql = (key: string, query: string, variables: Record<string, unknown> = {}) =>
  h.call('POST', '/graphql', { key, body: { query, variables }, headers: formHeaders(query) });
const remaining = (res: { headers: Headers }) => Number(res.headers.get('x-ratelimit-remaining'));

describe('GraphQL limits (item 1)', () => {
  it('refuses 4,000 aliases of a page of 100 before running it', async () => {
    const aliases = Array.from(
      { length: 4000 },
      (_, i) => `a${i}: brands(first: 100) { edges { node { id name } } }`,
    );
    const res = await gql(admin, `{ ${aliases.join(' ')} }`);
    expect(res.status).toBeLessThan(500);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toMatch(/limit/i);
    expect(res.text.length).toBeLessThan(2_000); // not ~10 MB of brands
  });

  it('refuses more aliases than the limit, and accepts the limit', async () => {
    const query = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: brands(first: 1) { edges { cursor } }`).join(' ')} }`;
    const over = await gql(admin, query(GRAPHQL_LIMITS.aliases + 1));
    expect(over.body.errors[0].message).toMatch(/Aliases limit/);
    const at = await gql(admin, query(GRAPHQL_LIMITS.aliases));
    expect(at.body.errors).toBeUndefined();
  });

  it('answers a 20,000-deep query with an error, not a stack overflow', async () => {
    const deep = `{ ${'a { '.repeat(20_000)}id${' }'.repeat(20_000)} }`;
    const res = await gql(admin, deep);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors[0].message).toMatch(/Token limit of 2000 exceeded/);
  });

  it('refuses a query deeper than the limit', async () => {
    // brands → edges → node, then 4 × (subBrands → edges → node → brand) → id: 20 levels
    let selection = 'id';
    for (let i = 0; i < 4; i++)
      selection = `subBrands(first: 1) { edges { node { brand { ${selection} } } } }`;
    const res = await gql(admin, `{ brands(first: 1) { edges { node { ${selection} } } } }`);
    expect(res.body.errors[0].message).toMatch(/Query depth limit of 10 exceeded/);
  });

  it('refuses a query whose nested pages cost more than the limit', async () => {
    const res = await gql(
      admin,
      '{ brands(first: 100) { edges { node { subBrands(first: 100) { edges { node { id } } } } } } }',
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('invalid_request');
    expect(res.body.errors[0].message).toMatch(/cost is 20301, above the limit of 5000/);
  });

  it('charges the read budget by cost: 100 brands with 20 sub-brands each spend 18 units', async () => {
    const key = (await adminKey(h.db.prisma)).key;
    const first = await gql(key, '{ brands(first: 1) { edges { cursor } } }');
    expect(remaining(first)).toBe(119);
    const res = await gql(
      key,
      '{ brands(first: 100) { edges { node { subBrands(first: 20) { edges { node { id } } } } } } }',
    );
    expect(res.body.errors).toBeUndefined();
    // cost 1 + 100 × (edges 1 + node 1 + subBrands (1 + 20 × 2)) = 4301 → 18 units of 250
    expect(remaining(res)).toBe(119 - 18);
  });
});

describe('GraphQL mutations spend one write unit each (item 2)', () => {
  it('15 aliased mutations spend 15 write units', async () => {
    const key = (await adminKey(h.db.prisma)).key;
    const mutations = Array.from(
      { length: 15 },
      (_, i) => `b${i}: createBrand(input: { name: "Aliased ${i}" }) { id }`,
    );
    const res = await gql(key, `mutation { ${mutations.join(' ')} }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.headers.get('x-ratelimit-limit')).toBe('30');
    expect(remaining(res)).toBe(15);
  });

  it('a request with more mutations than the write budget is refused whole, nothing written', async () => {
    const created = await adminKey(h.db.prisma);
    await h.db.prisma.apiKey.update({ where: { id: created.id }, data: { writeLimit: 10 } });
    // Brands named for this test only: on PostgreSQL the files running beside share the database.
    const overBrands = () => h.db.prisma.brand.count({ where: { name: { startsWith: 'Over ' } } });
    const mutations = Array.from(
      { length: 12 },
      (_, i) => `b${i}: createBrand(input: { name: "Over ${i}" }) { id }`,
    );
    const res = await gql(created.key, `mutation { ${mutations.join(' ')} }`);
    expect(res.status).toBe(429);
    expect(res.body.errors[0].extensions.code).toBe('rate_limited');
    expect(res.body.errors[0].message).toMatch(/costs 12 units/);
    expect(await overBrands()).toBe(0);
  });
});

describe('a document refused before it runs (issue 29, G5)', () => {
  it('spends one read unit, never the write budget its mutations would have', async () => {
    const key = (await adminKey(h.db.prisma)).key;
    const mutations = Array.from(
      { length: 25 },
      (_, i) => `b${i}: createBrand(input: { name: "Refused ${i}" }) { id }`,
    );
    for (let i = 0; i < 4; i++) {
      const res = await gql(key, `mutation { ${mutations.join(' ')} }`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toMatch(/Aliases limit of 20 exceeded/);
      expect(res.headers.get('x-ratelimit-limit')).toBe('120'); // the read budget
      expect(remaining(res)).toBe(119 - i);
    }
    const write = await gql(
      key,
      'mutation { createBrand(input: { name: "After refusals" }) { id } }',
    );
    expect(write.body.errors).toBeUndefined();
    expect(write.headers.get('x-ratelimit-limit')).toBe('30');
    expect(remaining(write)).toBe(29);
  });

  it.each([
    ['a syntax error', '{ brands(first: 1) { edges ', /Syntax Error/],
    ['an unknown field', '{ brands(first: 1) { edges { nope } } }', /Cannot query field "nope"/],
    [
      'a depth over the limit',
      `{ ${'brand(id: "x") { subBrands(first: 1) { edges { node { '.repeat(3)}id${' } } } }'.repeat(3)} }`,
      /depth limit/,
    ],
    ['too many tokens', `{ ${'a '.repeat(3000)}}`, /Token limit of 2000 exceeded/],
    [
      'a cost over the limit',
      '{ brands(first: 100) { edges { node { subBrands(first: 100) { edges { node { id } } } } } } }',
      /cost is/,
    ],
  ])('%s answers 400 in the GraphQL envelope, with its code', async (_name, query, message) => {
    const res = await gql(admin, query);
    expect(res.status, res.text).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0]).toMatchObject({
      message: expect.stringMatching(message),
      extensions: { code: 'invalid_request', request_id: expect.stringMatching(/^req_/) },
    });
  });

  it('lists every validation error, each with its location', async () => {
    const res = await gql(admin, '{ brands(first: 1) { edges { nope } } health { nada } }');
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(2);
    expect(res.body.errors[0].locations).toEqual([{ line: 1, column: 30 }]);
  });
});

describe("GraphQL's audience is the backoffice (item 8)", () => {
  it('refuses partner keys, introspection included, before running anything', async () => {
    const tenant = await createTenant(h.db.prisma);
    const { key } = await tenant.key();
    for (const query of [
      '{ __schema { types { name } } }',
      '{ customers(first: 1) { edges { node { id } } } }',
      'mutation { adjustCustomerCoins(customerId: "00000000-0000-7000-8000-000000000000", delta: 5) { id } }',
    ]) {
      const res = await gql(key, query);
      expect(res.status).toBe(403);
      expect(res.body.errors[0].extensions.code).toBe('forbidden');
      expect(res.body.errors[0].message).toMatch(/REST API under \/api\/v1 or the MCP tools/);
      expect(res.body.data).toBeUndefined();
    }
  });

  it('lets backoffice keys introspect', async () => {
    const res = await gql(admin, '{ __schema { queryType { name } } }');
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });
});

// Backoffice GraphQL for the establishment work: platform admins browse any tenant's customers
// and wallets, and update establishments through the same operation as the REST PUT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { formHeaders } from '../support/graphql.js';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

const gql = (key: string, query: string, variables: Record<string, unknown> = {}) =>
  h.call('POST', '/graphql', { key, body: { query, variables }, headers: formHeaders(query) });

describe('platform admins browse every tenant', () => {
  it('lists a sub-brand’s customers per environment and reads a wallet history', async () => {
    const p = await partner(h);
    const c = await p.customer({ first_name: 'Browsed', last_name: 'One' });
    await p.credit(c.id, 40, 'seen by the backoffice');
    const list = await gql(
      admin,
      `query($s: ID!) { customers(subBrandId: $s, environment: test) { edges { node { id subBrandId coinBalance } } } }`,
      { s: p.subBrandId },
    );
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data.customers.edges).toEqual([
      { node: { id: c.id, subBrandId: p.subBrandId, coinBalance: 40 } },
    ]);
    const live = await gql(
      admin,
      `query($s: ID!) { customers(subBrandId: $s, environment: live) { edges { node { id } } } }`,
      { s: p.subBrandId },
    );
    expect(live.body.data.customers.edges).toEqual([]);
    const one = await gql(
      admin,
      `query($id: ID!) { customer(id: $id) { firstName coinMovements { edges { node { delta reason } } } } }`,
      { id: c.id },
    );
    expect(one.body.data.customer).toEqual({
      firstName: 'Browsed',
      coinMovements: { edges: [{ node: { delta: 40, reason: 'seen by the backoffice' } }] },
    });
  });

  it('partner keys stay on REST: GraphQL refuses them before any field runs', async () => {
    const p = await partner(h);
    const other = await partner(h);
    const res = await gql(
      p.key,
      `query($s: ID!) { customers(subBrandId: $s) { edges { node { id } } } }`,
      {
        s: other.subBrandId,
      },
    );
    expect(res.body.errors[0].extensions.code).toBe('forbidden');
    expect(res.body.data ?? null).toBeNull();
  });
});

describe('updateEstablishment', () => {
  const input = {
    name: 'Backoffice Edit',
    status: 'inactive',
    locale: 'pt-BR',
    currency: 'EUR',
    coinName: 'Gems',
    monthlyAllocatedCoins: 5000,
    style: { font: 'Lato' },
  };
  const mutation = `mutation($id: ID!, $input: UpdateEstablishmentInput!) {
    updateEstablishment(id: $id, input: $input) { name status locale coinName monthlyAllocatedCoins totalAvailableCoins style { font } }
  }`;

  // The owner's key is refused commercial fields over REST (test/establishment).
  it('a platform admin sets the profile and commercial fields', async () => {
    const p = await partner(h);
    const byAdmin = await gql(admin, mutation, { id: p.subBrandId, input });
    expect(byAdmin.body.errors).toBeUndefined();
    expect(byAdmin.body.data.updateEstablishment).toEqual({
      name: 'Backoffice Edit',
      status: 'inactive',
      locale: 'pt-BR',
      coinName: 'Gems',
      monthlyAllocatedCoins: 5000,
      totalAvailableCoins: 5000,
      style: { font: 'Lato' },
    });
    const rest = await p.get(`/establishments/${p.subBrandId}`);
    expect(rest.body).toMatchObject({ name: 'Backoffice Edit', monthlyAllocatedCoins: 5000 });
  });
});

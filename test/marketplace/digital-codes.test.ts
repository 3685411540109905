// Digital prizes delivered by code: a pool per variant and environment, filled by platform admins
// (GraphQL), one code per redeemed unit under any number of concurrent redemptions, never the
// same code twice, and an empty pool refuses the redemption without spending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey } from '../support/factories.js';
import { formHeaders } from '../support/graphql.js';
import { startHarness, type Harness } from '../support/harness.js';
import { marketplaceShop } from './support.js';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

const ADD = `mutation($v: ID!, $e: Environment!, $c: [String!]!) {
  addDigitalCodes(variantId: $v, environment: $e, codes: $c) { added available }
}`;
const add = (key: string, variantId: string, codes: string[], environment = 'test') =>
  h.call('POST', '/graphql', {
    key,
    body: { query: ADD, variables: { v: variantId, e: environment, c: codes } },
    headers: formHeaders(ADD),
  });

describe('codes of a digital prize', () => {
  it('are added by platform admins, as units, each once; not to a physical prize', async () => {
    // 7 units before its first code: they become the 3 its codes are.
    const s = await marketplaceShop(h, [{ kind: 'digital', stock: 7 }, { kind: 'physical' }]);
    const variant = s.prizes[0]!.variantId;
    const first = await add(admin, variant, ['A-1', 'A-2', 'A-2', ' A-3 ']);
    expect(first.body.data.addDigitalCodes).toEqual({ added: 3, available: 3 });
    const again = await add(admin, variant, ['A-3', 'A-4']);
    expect(again.body.data.addDigitalCodes).toEqual({ added: 1, available: 4 });
    expect((await add(admin, s.prizes[1]!.variantId, ['P-1'])).body.errors[0].extensions.code).toBe(
      'invalid_request',
    );
    expect((await add(s.key, variant, ['X-1'])).status).toBe(403);
    // Its units are its free codes: a hand-set stock is refused.
    const SET = `mutation($v: ID!) { setVariantStock(variantId: $v, environment: test, available: 99) }`;
    const set = await h.call('POST', '/graphql', {
      key: admin,
      body: { query: SET, variables: { v: variant } },
      headers: formHeaders(SET),
    });
    expect(set.body.errors[0].message).toMatch(/delivered by codes/);
    // Live's pool and stock are apart.
    const live = await add(admin, variant, ['L-1'], 'live');
    expect(live.body.data.addDigitalCodes).toEqual({ added: 1, available: expect.any(Number) });
  });

  it('20 players redeeming at once for 5 codes: 5 get one each, the others spend nothing', async () => {
    const s = await marketplaceShop(h, [{ kind: 'digital', stock: 0 }]);
    await add(admin, s.prizes[0]!.variantId, ['C-1', 'C-2', 'C-3', 'C-4', 'C-5']);
    const players = await Promise.all(Array.from({ length: 20 }, () => s.player(100_000)));
    const answers = await Promise.all(
      players.map((p) => p.run('MarketplaceRedeem', { listingId: s.prizes[0]!.listingId })),
    );
    const won = answers.filter((a) => a.body.data);
    expect(won).toHaveLength(5);
    const codes = won.map((a) => a.body.data.redeemPrize.order.items[0].codes[0]);
    expect(new Set(codes)).toEqual(new Set(['C-1', 'C-2', 'C-3', 'C-4', 'C-5']));
    for (const a of answers.filter((x) => !x.body.data))
      expect(a.body.errors[0].extensions.code).toBe('out_of_stock');
    const spent = await h.db.prisma.coinMovement.count({
      where: { customerId: { in: players.map((p) => p.id) }, source: 'order' },
    });
    expect(spent).toBe(5);
  });
});

describe('a player’s session', () => {
  it('cannot redeem another establishment’s prize', async () => {
    const a = await marketplaceShop(h);
    const b = await marketplaceShop(h);
    const ana = await a.player(100_000);
    const res = await ana.run('MarketplaceRedeem', { listingId: b.prizes[0]!.listingId });
    expect(res.body.errors[0].extensions.code).toBe('not_found');
    expect(await h.db.prisma.order.count({ where: { customerId: ana.id } })).toBe(0);
  });

  it('spends a rate budget of its own: 60 writes a minute', async () => {
    const s = await marketplaceShop(h);
    const ana = await s.player(0);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++)
      statuses.push(
        (await ana.run('MarketplaceDeleteAddress', { id: '0190a0a0-0000-7000-8000-000000000000' }))
          .status,
      );
    expect(statuses.slice(0, 60).every((x) => x === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});

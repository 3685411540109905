// The marketplace's pages and who may frame them: CSP frame-ancestors from the establishment's
// allowlist (none in live without one, any page in test), the allowlist edited through the
// establishment API and GraphQL with its origins checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { bootOf, marketplaceShop } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ancestors = (res: { headers: Headers }) =>
  /frame-ancestors ([^;]+)/.exec(res.headers.get('content-security-policy') ?? '')?.[1];

describe('who may frame the marketplace', () => {
  it('in test, any page until the establishment names its sites; then only those', async () => {
    const s = await marketplaceShop(h);
    const ana = await s.player(10);
    const path = new URL(ana.url);
    const open = () => h.call('GET', `${path.pathname}${path.search}`);
    const before = await open();
    expect(before.status).toBe(200);
    expect(ancestors(before)).toBe('*');
    expect(before.headers.get('x-frame-options')).toBeNull(); // CSP says it, per site
    const current = (await s.get(`/establishments/${s.subBrandId}`)).body;
    expect(current.frameOrigins).toEqual([]);
    const set = await h.call('PUT', `/establishments/${s.subBrandId}`, {
      key: s.key,
      body: {
        ...current,
        frameOrigins: ['https://casino.example', 'https://www.casino.example:8443'],
      },
    });
    expect(set.status, set.text).toBe(200);
    expect(ancestors(await open())).toBe('https://casino.example https://www.casino.example:8443');
    expect((await s.get(`/establishments/${s.subBrandId}`)).body.frameOrigins).toEqual([
      'https://casino.example',
      'https://www.casino.example:8443',
    ]);
  });

  it('in live, no page without an allowlist', async () => {
    const s = await marketplaceShop(h);
    const live = await s.otherKey({ env: 'live' });
    const customer = await h.call('POST', '/api/v1/customers', {
      key: live,
      body: { first_name: 'Liv', last_name: 'E' },
      headers: { 'idempotency-key': `live-${Date.now()}` },
    });
    const session = await h.call('POST', '/api/v1/store-sessions', {
      key: live,
      body: { customer_id: customer.body.data.id, store_id: s.store.id },
    });
    const url = new URL(session.body.data.url);
    const page = await h.call('GET', `${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    expect(ancestors(page)).toBe("'none'");
    expect(bootOf(page.text).environment).toBe('live');
  });

  it.each([
    ['a path', 'https://casino.example/rewards'],
    ['plain http', 'http://casino.example'],
    ['a wildcard', 'https://*.casino.example'],
    ['a scheme alone', 'https:'],
    ['a CSP keyword', "'self'"],
  ])('refuses %s as a site', async (_name, origin) => {
    const s = await marketplaceShop(h);
    const current = (await s.get(`/establishments/${s.subBrandId}`)).body;
    const res = await h.call('PUT', `/establishments/${s.subBrandId}`, {
      key: s.key,
      body: { ...current, frameOrigins: [origin] },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.text).toContain('frameOrigins');
  });

  it('the page carries the app’s first data, so its first paint needs no round trip', async () => {
    const s = await marketplaceShop(h);
    const ana = await s.player(1234, { first_name: 'Ana' });
    const path = new URL(ana.url);
    const boot = bootOf((await h.call('GET', `${path.pathname}${path.search}`)).text);
    expect(boot.preloaded.map((p: { name: string }) => p.name)).toEqual([
      'MarketplaceStart',
      'MarketplaceProducts',
    ]);
    expect(boot.preloaded[0].data.marketplace.player).toMatchObject({
      firstName: 'Ana',
      balance: 1234,
    });
  });
});

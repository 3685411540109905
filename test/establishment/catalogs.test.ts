// Catalogs on the establishment API: the platform's approved catalogs and the establishment's own
// proposals, over the one catalog model the partner API and the backoffice use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog, reviewCatalog } from '../../src/domain/catalog/author-catalog.js';
import { listedProduct } from '../support/catalog.js';
import { startHarness, type Harness } from '../support/harness.js';
import { establishment } from './products-support.js';

let h: Harness;
let e: Awaited<ReturnType<typeof establishment>>;
let platformCatalog: string;
let listed: string;
beforeAll(async () => {
  h = await startHarness();
  e = await establishment(h);
  listed = (await listedProduct(h.db.prisma, e.subBrandId, { name: 'Platform prize' })).productId;
  platformCatalog = (
    await createCatalog(h.db.prisma, { name: 'Platform picks', productIds: [listed] })
  ).id;
});
afterAll(() => h.close());

const base = () => `/establishments/${e.subBrandId}/catalogs`;

describe('establishment catalogs', () => {
  it('creates a pending proposal with products; the list shows it beside the platform’s', async () => {
    const own = await e.product({ translations: { en: { name: 'Own prize' } } });
    const res = await e.post(
      base(),
      { name: 'Summer', category: 'seasonal', productIds: [own, listed] },
      null,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      establishmentId: e.subBrandId,
      name: 'Summer',
      category: 'seasonal',
      status: 'pending',
      productCount: 2,
    });
    expect(res.body.products.map((p: { name: string }) => p.name)).toEqual([
      'Own prize',
      'Platform prize',
    ]);
    expect(res.body.products[0].catalogs).toEqual([
      { catalogId: res.body.catalogId, name: 'Summer', category: 'seasonal' },
    ]);
    const list = await e.get(base());
    expect(list.status, list.text).toBe(200);
    const mine = list.body.find((c: { catalogId: string }) => c.catalogId === res.body.catalogId);
    expect(mine).toEqual({
      establishmentId: e.subBrandId,
      catalogId: res.body.catalogId,
      category: 'seasonal',
      name: 'Summer',
      productCount: 2,
      status: 'pending',
    });
    expect(
      list.body.find((c: { catalogId: string }) => c.catalogId === platformCatalog),
    ).toMatchObject({
      establishmentId: null,
      status: 'approved',
      productCount: 1,
    });
    // A pending proposal is not the partner API's until the platform approves it.
    expect((await e.get(`/api/v1/catalogs/${res.body.catalogId}`)).status).toBe(404);
    await reviewCatalog(h.db.prisma, res.body.catalogId, 'approved', null, new Date());
    expect((await e.get(`/api/v1/catalogs/${res.body.catalogId}`)).status).toBe(200);
  });

  it('renames, adds products, removes one link and deletes links only', async () => {
    const a = await e.product({ translations: { en: { name: 'A' } } });
    const b = await e.product({ translations: { en: { name: 'B' } } });
    const created = (
      await e.post(base(), { name: 'Draft', category: 'misc', productIds: [a] }, null)
    ).body;
    const path = `${base()}/${created.catalogId}`;
    const renamed = await e.put(path, { name: 'Final' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe('Final');
    const added = await e.post(`${path}/products`, { productIds: [b, a] }, null);
    expect(added.status, added.text).toBe(200);
    expect(added.body.products.map((p: { name: string }) => p.name)).toEqual(['A', 'B']);
    const removed = await e.delete(`${path}/products/${a}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.products.map((p: { name: string }) => p.name)).toEqual(['B']);
    expect((await e.delete(`${path}/products/${a}`)).status).toBe(404);
    const deleted = await e.delete(path);
    expect(deleted.body).toEqual({ catalogId: created.catalogId, deleted: true });
    expect((await e.get(path)).status).toBe(404);
    // The products stay.
    expect((await e.get(`/products/${b}`)).status).toBe(200);
  });

  it('refuses: unknown or foreign products, platform catalogs, another establishment, bad bodies', async () => {
    const other = await establishment(h);
    const theirs = await other.product();
    const foreign = await e.post(base(), { name: 'X', category: 'y', productIds: [theirs] }, null);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('PRODUCT_NOT_FOUND');
    expect((await e.put(`${base()}/${platformCatalog}`, { name: 'Mine' })).status).toBe(403);
    expect((await e.delete(`${base()}/${platformCatalog}`)).status).toBe(403);
    const platform = await e.get(`${base()}/${platformCatalog}`);
    expect(platform.status).toBe(200);
    expect(platform.body.products.map((p: { productId: string }) => p.productId)).toEqual([listed]);
    const elsewhere = await e.get(`/establishments/${other.subBrandId}/catalogs`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe('ESTABLISHMENT_NOT_FOUND');
    const theirCatalog = (
      await other.post(
        `/establishments/${other.subBrandId}/catalogs`,
        { name: 'T', category: 'c' },
        null,
      )
    ).body.catalogId;
    expect((await e.get(`${base()}/${theirCatalog}`)).status).toBe(404);
    const bad = await e.post(base(), { name: ' ', productIds: ['nope'] }, null);
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(
      ['category', 'name', 'productIds.0'].sort(),
    );
    const key = await e.otherKey({ scopes: ['catalogs:read'] });
    expect((await h.call('POST', base(), { key, body: { name: 'N', category: 'c' } })).status).toBe(
      403,
    );
  });
});

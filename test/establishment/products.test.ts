// Products on the establishment API are the one catalog's rows: what an establishment creates
// here its players order through the partner API, with the same stock and prices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listedProduct } from '../support/catalog.js';
import { startHarness, type Harness } from '../support/harness.js';
import { admin, establishment } from './products-support.js';

let h: Harness;
let e: Awaited<ReturnType<typeof establishment>>;
beforeAll(async () => {
  h = await startHarness();
  e = await establishment(h);
});
afterAll(() => h.close());

describe('POST /products', () => {
  it('creates a product of the establishment, listed for its players at the same prices', async () => {
    const id = await e.product({
      valueInEuros: 12.34,
      establishmentValueInEuros: 15.5,
      stock: 7,
      type: 'merch',
      translations: {
        en: {
          name: 'Signed jersey',
          description: 'Worn once',
          extendedDescription: 'Long text',
          additionalDetails: 'Size L',
        },
        es: { name: 'Camiseta firmada' },
      },
      dateOfObject: '1998',
      reference: { any: ['shape'] },
      gameCatalog: 7,
      name: 'not consumed',
    });
    const res = await e.get(`/products/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      productId: id,
      establishmentId: e.subBrandId,
      isAdmin: false,
      name: 'Signed jersey',
      status: 'available',
      visible: true,
      stock: 7,
      reserved: 0,
      valueInEuros: 12.34,
      establishmentValueInEuros: 15.5,
      internalPrice: 1234,
      priceSource: 'override',
      type: 'merch',
      category: 'none',
      dateOfObject: '1998',
      reference: { any: ['shape'] },
      gameCatalog: 7,
    });
    expect(res.body.translations.en).toEqual({
      name: 'Signed jersey',
      description: 'Worn once',
      extendedDescription: 'Long text',
      additionalDetails: 'Size L',
    });
    const row = await h.db.prisma.product.findUniqueOrThrow({ where: { id } });
    expect(row.retailValue).toBe(1234);
    // The partner API lists the same row, at the same sell and coin prices.
    const partnerView = await e.get(`/api/v1/products/${id}`);
    expect(partnerView.status, partnerView.text).toBe(200);
    const listing = partnerView.body.data.variants[0].listings[0];
    expect(listing.sell_price).toBe(1550);
    expect(listing.coin_price).toBe(res.body.price);
    expect(partnerView.body.data.variants[0].available).toBe(7);
  });

  it('the detail shows every stored field, typed as the document says', async () => {
    const id = await e.product({
      provider: 'Acme',
      providerId: 'A-1',
      helpLink: 'https://help.example/1',
      verifiedBy: 'QA',
      verificationDate: '2026-02-03T04:05:06.789Z',
      certificate: true,
      featured: true,
      digital: true,
      order: 3,
      height: 10,
      weight: 20,
      year: 1999,
      prizeCategory: 'epic',
      probability: 0.25,
      imageUrl: 'https://img.example/1.png',
      featuredImageUrl: 'https://img.example/f.png',
      medias: ['https://img.example/m.png', { large: { url: 'https://img.example/l.png' } }],
    });
    const res = await e.get(`/products/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      provider: 'Acme',
      providerId: 'A-1',
      helpLink: 'https://help.example/1',
      verifiedBy: 'QA',
      verificationDate: '2026-02-03T04:05:06.789Z',
      certificate: true,
      featured: true,
      digital: true,
      order: 3,
      height: 10,
      weight: 20,
      year: 1999,
      prizeCategory: 'epic',
      probability: 0.25,
      imageUrl: 'https://img.example/1.png',
      featuredImageUrl: 'https://img.example/f.png',
      medias: ['https://img.example/m.png', 'https://img.example/l.png'],
      exclusive: null,
      catalogs: [],
      currency: 'EUR',
      stock: 5,
      available: 5,
      reserved: 0,
    });
    for (const field of ['createdAt', 'updatedAt']) {
      expect(res.body[field]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('money is exact: more decimals than the currency has is 422, the legacy value wins', async () => {
    const bad = await e.post(
      '/products',
      {
        establishmentId: e.subBrandId,
        stock: 1,
        valueInEuros: 12.345,
        establishmentValueInEuros: 1.001,
        translations: { en: { name: 'X' } },
      },
      null,
    );
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body).toEqual({ valueInEuros: ['must have at most 2 decimals in EUR'] });
    const id = await e.product({ value: 0.1, valueInEuros: 99 });
    const res = await e.get(`/products/${id}`);
    expect(res.body.valueInEuros).toBe(0.1);
    expect((await h.db.prisma.product.findUniqueOrThrow({ where: { id } })).retailValue).toBe(10);
    for (const euros of [0.01, 0.07, 19.99, 1234567.89]) {
      const back = await e.get(`/products/${await e.product({ valueInEuros: euros })}`);
      expect(back.body.valueInEuros).toBe(euros);
    }
  });

  it('answers the field map for bad input and refuses derived statuses', async () => {
    const res = await e.post(
      '/products',
      {
        establishmentId: e.subBrandId,
        status: 'sold',
        prizeCategory: 'mythic',
        translations: {},
        helpLink: 'javascript:alert(1)',
      },
      null,
    );
    expect(res.status, res.text).toBe(422);
    expect(Object.keys(res.body).sort()).toEqual(
      ['helpLink', 'prizeCategory', 'status', 'translations'].sort(),
    );
    expect(res.body.status[0]).toMatch(/derived/);
    expect(res.body.translations).toEqual(['must have at least one language']);
    const noStock = await e.post(
      '/products',
      { establishmentId: e.subBrandId, translations: { en: { name: 'X' } } },
      null,
    );
    expect(noStock.status).toBe(422);
    expect(noStock.body).toEqual({ stock: ['is required'] });
  });

  it('a product in one language only (no English) is named in that language everywhere', async () => {
    const id = await e.product({ translations: { es: { name: 'Balón' } } });
    expect((await e.get(`/products/${id}`)).body.name).toBe('Balón');
    expect((await e.get(`/api/v1/products/${id}`)).body.data.name).toBe('Balón');
  });

  it('isImport without productId is 400 { message }', async () => {
    const res = await e.post('/products', { establishmentId: e.subBrandId, isImport: true }, null);
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({ message: 'productId is required when isImport is true.' });
  });

  it('another establishment id is 404; isAdmin from a partner key is 403', async () => {
    const other = await establishment(h);
    const res = await e.post(
      '/products',
      { establishmentId: other.subBrandId, stock: 1, translations: { en: { name: 'X' } } },
      null,
    );
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ESTABLISHMENT_NOT_FOUND');
    const forbidden = await e.post(
      '/products',
      {
        establishmentId: e.subBrandId,
        stock: 1,
        isAdmin: true,
        translations: { en: { name: 'X' } },
      },
      null,
    );
    expect(forbidden.status).toBe(403);
  });

  it('a key without products:write cannot create', async () => {
    const key = await e.otherKey({ scopes: ['products:read'] });
    const res = await h.call('POST', '/products', {
      key,
      body: { establishmentId: e.subBrandId, stock: 1, translations: { en: { name: 'X' } } },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
  });
});

describe('imports and global products', () => {
  it('an import lists the platform product for the caller: no copy, the same stock', async () => {
    const name = `Import me ${Date.now()}`;
    const platform = await listedProduct(h.db.prisma, (await establishment(h)).subBrandId, {
      baseCost: 2000,
      stock: 9,
      name,
    });
    const copies = () =>
      h.db.prisma.product.count({ where: { searchText: { contains: name.toLowerCase() } } });
    const before = await copies();
    expect((await e.get(`/products/${platform.productId}`)).status).toBe(404);
    const res = await e.post(
      '/products',
      { establishmentId: e.subBrandId, isImport: true, productId: platform.productId },
      null,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: 'Product imported', productId: platform.productId });
    expect(await copies()).toBe(before);
    const detail = (await e.get(`/products/${platform.productId}`)).body;
    expect(detail).toMatchObject({ isAdmin: true, establishmentId: null, stock: 9, visible: true });
    // The base cost is the platform's, not shown to an establishment that does not own it.
    expect(detail.internalPrice).toBeNull();
    const partnerView = await e.get(`/api/v1/products/${platform.productId}`);
    expect(partnerView.status).toBe(200);
    expect(partnerView.body.data.variants[0].listings[0].coin_price).toBe(detail.price);
  });

  it('internalPrice is shown to the owner and to platform admins only', async () => {
    const id = await e.product({ valueInEuros: 20 });
    expect((await e.get(`/products/${id}`)).body.internalPrice).toBe(2000);
    const a = await admin(h);
    const asAdmin = await a.get(`/products/${id}`);
    expect(asAdmin.status, asAdmin.text).toBe(200);
    expect(asAdmin.body.establishmentId).toBe(e.subBrandId);
    const other = await establishment(h);
    expect((await other.get(`/products/${id}`)).status).toBe(404);
  });

  it('isAdmin from a platform admin key stores a global product others can import', async () => {
    const a = await admin(h);
    const res = await a.post('/products', {
      establishmentId: a.subBrandId,
      stock: 3,
      isAdmin: true,
      valueInEuros: 5,
      currency: 'EUR',
      translations: { en: { name: 'Global mug' } },
    });
    expect(res.status, res.text).toBe(200);
    const row = await h.db.prisma.product.findUniqueOrThrow({ where: { id: res.body.productId } });
    expect(row.ownerSubBrandId).toBeNull();
    const imported = await e.post(
      '/products',
      { establishmentId: e.subBrandId, isImport: true, productId: row.id },
      null,
    );
    expect(imported.status, imported.text).toBe(200);
    expect((await e.get(`/products/${row.id}`)).body).toMatchObject({
      isAdmin: true,
      // No listing had a cost in EUR: the retail value is the base cost (no margins here).
      price: 500,
    });
  });
});

describe('PUT /products/{productId}', () => {
  it('the owner changes the product, its stock and its prices; the partner API sees them', async () => {
    const id = await e.product({ stock: 2 });
    const res = await e.put(`/products/${id}`, {
      stock: 11,
      price: 777,
      internalPrice: 450,
      valueInEuros: 4.5,
      verificationDate: '2026-01-31T10:00:00Z',
      translations: { fr: { name: 'Maillot' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      stock: 11,
      price: 777,
      internalPrice: 450,
      valueInEuros: 4.5,
      priceSource: 'override',
      ruleName: 'coinPrice',
      name: 'Maillot',
      verificationDate: '2026-01-31T10:00:00.000Z',
    });
    const partnerView = (await e.get(`/api/v1/products/${id}`)).body.data;
    expect(partnerView.variants[0].available).toBe(11);
    expect(partnerView.variants[0].listings[0].coin_price).toBe(777);
    // null returns to the derived price.
    expect((await e.put(`/products/${id}`, { price: null })).body).toMatchObject({
      price: 450,
      priceSource: 'cascade',
    });
  });

  it('unavailable and hidden hide it from the partner API; available shows it again', async () => {
    const id = await e.product();
    for (const [status, partnerStatus] of [
      ['unavailable', 404],
      ['hidden', 404],
      ['available', 200],
    ] as const) {
      const res = await e.put(`/products/${id}`, { status });
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe(status);
      expect((await e.get(`/api/v1/products/${id}`)).status).toBe(partnerStatus);
    }
    const derived = await e.put(`/products/${id}`, { status: 'booked' });
    expect(derived.status).toBe(400);
    expect(derived.body.code).toBe('VALIDATION_ERROR');
  });

  it('stock 0 reads sold; an open order holding units reads booked', async () => {
    const id = await e.product({ stock: 1, digital: true });
    const listing = (await e.get(`/api/v1/products/${id}`)).body.data.variants[0].listings[0];
    const customer = await e.customer();
    await e.credit(customer.id, listing.coin_price);
    const order = await e.post('/api/v1/orders', {
      customer_id: customer.id,
      listing_market_id: listing.listing_market_id,
    });
    expect(order.status, order.text).toBe(201);
    expect((await e.get(`/products/${id}`)).body).toMatchObject({
      status: 'booked',
      stock: 1,
      reserved: 1,
      available: 0,
    });
    const cancelled = await e.delete(`/api/v1/orders/${order.body.data.id}`);
    expect(cancelled.status, cancelled.text).toBe(200);
    await e.put(`/products/${id}`, { stock: 0 });
    expect((await e.get(`/products/${id}`)).body).toMatchObject({ status: 'sold', stock: 0 });
  });

  it('an importer sets only its price: other fields re-sent unchanged pass, changed ones are 403', async () => {
    const owner = await establishment(h);
    const platform = await listedProduct(h.db.prisma, owner.subBrandId, { baseCost: 900 });
    await e.post(
      '/products',
      { establishmentId: e.subBrandId, isImport: true, productId: platform.productId },
      null,
    );
    const current = (await e.get(`/products/${platform.productId}`)).body;
    const same = await e.put(`/products/${platform.productId}`, {
      translations: current.translations,
      stock: current.available,
      category: current.category,
      price: 1234,
    });
    expect(same.status, same.text).toBe(200);
    expect(same.body.price).toBe(1234);
    const changed = await e.put(`/products/${platform.productId}`, {
      translations: { en: { name: 'Mine now' } },
      stock: 1,
      internalPrice: 1,
    });
    expect(changed.status).toBe(403);
    expect(changed.body.message).toMatch(/translations, stock, internalPrice/);
    // The owner's listing kept its own price.
    const ownerView = (await owner.get(`/api/v1/products/${platform.productId}`)).body.data;
    expect(ownerView.variants[0].listings[0].coin_price).not.toBe(1234);
  });

  it('another establishment’s product is 404; a malformed id 400', async () => {
    const other = await establishment(h);
    const id = await other.product();
    expect((await e.put(`/products/${id}`, { stock: 1 })).status).toBe(404);
    const malformed = await e.put('/products/nope', { stock: 1 });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details[0].field).toBe('productId');
  });
});

describe('DELETE /products/{productId}', () => {
  it('removes it from catalogs, listings and both APIs, and keeps past orders readable', async () => {
    const id = await e.product({ digital: true, translations: { en: { name: 'Gone prize' } } });
    const catalog = await e.post(
      `/establishments/${e.subBrandId}/catalogs`,
      { name: 'Theme', category: 'sports', productIds: [id] },
      null,
    );
    expect(catalog.status, catalog.text).toBe(200);
    const listing = (await e.get(`/api/v1/products/${id}`)).body.data.variants[0].listings[0];
    const customer = await e.customer();
    await e.credit(customer.id, listing.coin_price);
    const order = await e.post('/api/v1/orders', {
      customer_id: customer.id,
      listing_market_id: listing.listing_market_id,
    });
    expect(order.status, order.text).toBe(201);

    const res = await e.delete(`/products/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ productId: id, deleted: true, scope: 'product' });
    expect((await e.get(`/products/${id}`)).status).toBe(404);
    expect((await e.get(`/api/v1/products/${id}`)).status).toBe(404);
    expect((await e.delete(`/products/${id}`)).status).toBe(404);
    const detail = await e.get(
      `/establishments/${e.subBrandId}/catalogs/${catalog.body.catalogId}`,
    );
    expect(detail.body.productCount).toBe(0);
    expect(await h.db.prisma.catalogProduct.count({ where: { productId: id } })).toBe(0);
    const past = await e.get(`/api/v1/orders/${order.body.data.id}`);
    expect(past.status, past.text).toBe(200);
    expect(JSON.stringify(past.body.data)).toContain('Gone prize');
    // No new order can take it.
    const again = await e.post('/api/v1/orders', {
      customer_id: customer.id,
      listing_market_id: listing.listing_market_id,
    });
    expect(again.status).toBe(404);
  });

  it('an importer’s delete removes only its listing; the product stays for the others', async () => {
    const owner = await establishment(h);
    const platform = await listedProduct(h.db.prisma, owner.subBrandId);
    await e.post(
      '/products',
      { establishmentId: e.subBrandId, isImport: true, productId: platform.productId },
      null,
    );
    const res = await e.delete(`/products/${platform.productId}`);
    expect(res.body).toEqual({ productId: platform.productId, deleted: true, scope: 'listing' });
    expect((await e.get(`/products/${platform.productId}`)).status).toBe(404);
    expect((await owner.get(`/api/v1/products/${platform.productId}`)).status).toBe(200);
  });
});

describe('exclusivity', () => {
  async function sharedProduct() {
    const a = await establishment(h);
    const b = await establishment(h);
    const platform = await listedProduct(h.db.prisma, a.subBrandId);
    for (const t of [b]) {
      const res = await t.post(
        '/products',
        { establishmentId: t.subBrandId, isImport: true, productId: platform.productId },
        null,
      );
      expect(res.status, res.text).toBe(200);
    }
    return { a, b, productId: platform.productId };
  }

  it('an exclusive product is 404 to every other establishment on both APIs, until it ends', async () => {
    const { a, b, productId } = await sharedProduct();
    const res = await a.post('/exclusive', { productId, days: 7 }, null);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      productId,
      establishmentId: a.subBrandId,
      requestedDurationDays: 7,
    });
    const until = Date.parse(res.body.exclusiveUntil);
    expect(until - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect((await a.get(`/products/${productId}`)).body.exclusive.establishmentId).toBe(
      a.subBrandId,
    );
    expect((await b.get(`/products/${productId}`)).status).toBe(404);
    expect((await b.get(`/api/v1/products/${productId}`)).status).toBe(404);
    const search = await b.post('/products/search', { query: productId }, null);
    expect(search.body.data).toEqual([]);
    const partnerSearch = await b.get('/api/v1/products?limit=100');
    expect(JSON.stringify(partnerSearch.body)).not.toContain(productId);
    expect((await b.post('/exclusive', { productId, days: 1 }, null)).status).toBe(404);
    // Its end passes: everyone sees it again.
    await h.db.prisma.product.update({
      where: { id: productId },
      data: { exclusiveUntil: new Date(Date.now() - 1000) },
    });
    expect((await b.get(`/products/${productId}`)).status).toBe(200);
    expect((await b.get(`/api/v1/products/${productId}`)).status).toBe(200);
  });

  it('for ever (-1) is for the owner; an importer gets 403', async () => {
    const { b, productId } = await sharedProduct();
    expect((await b.post('/exclusive', { productId, days: -1 }, null)).status).toBe(403);
    const own = await e.product();
    const res = await e.post('/exclusive', { productId: own, days: -1 }, null);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ requestedDurationDays: -1, exclusiveUntil: null });
    const bad = await e.post('/exclusive', { productId: own, days: 0 }, null);
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('days');
  });

  it('of two establishments asking at once, exactly one gets it', async () => {
    const { a, b, productId } = await sharedProduct();
    const results = await Promise.all([
      a.post('/exclusive', { productId, days: 3 }, null),
      b.post('/exclusive', { productId, days: 3 }, null),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect([404, 409]).toContain(statuses[1]);
    const holder = results.find((r) => r.status === 200)!.body.establishmentId;
    const row = await h.db.prisma.product.findUniqueOrThrow({ where: { id: productId } });
    expect(row.exclusiveSubBrandId).toBe(holder);
  });

  it('/admin/exclusive: 403 for establishment keys, for ever for the platform', async () => {
    const { productId } = await sharedProduct();
    const refused = await e.post('/admin/exclusive', { productId }, null);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
    const a = await admin(h);
    const res = await a.post('/admin/exclusive', { productId });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      productId,
      establishmentId: a.subBrandId,
      requestedDurationDays: -1,
      exclusiveUntil: null,
    });
    expect((await a.post('/admin/exclusive', { productId: e.subBrandId })).status).toBe(404);
  });
});

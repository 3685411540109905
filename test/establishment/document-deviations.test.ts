// Issue 32, part 4: the last deviations from the establishment document, each fixed or kept and
// explained (docs/establishment-api.md): the send answer's `deliveryDetailsCapturedAt` is
// in orders.test.ts; here the catalog detail's flattened texts, the variant's GET /products,
// the create body's required fields (server and OpenAPI agree) and POST /exclusive with the
// document's own `{ days }`.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCLUSIVE_WITHOUT_PRODUCT } from '../../src/domain/catalog/establishment-product-inputs.js';
import { listProducts } from '../../src/rest/routes/establishment/products.js';
import { ROUTES } from '../../src/rest/table.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { establishment } from './products-support.js';

let h: Harness;
let e: Awaited<ReturnType<typeof establishment>>;
let jersey: string;
let ball: string;
beforeAll(async () => {
  // The route table (src/rest/table.ts) lists GET /products once its row is added there; until
  // then this file serves the row itself, so the route is tested either way.
  const routes = ROUTES.includes(listProducts) ? ROUTES : [...ROUTES, listProducts];
  h = await startHarness({ routes });
  e = await establishment(h);
  jersey = await e.product({
    valueInEuros: 40,
    translations: {
      es: { name: 'Camiseta', description: 'Firmada', additionalDetails: 'Talla M' },
      en: {
        name: 'Jersey',
        description: 'Signed',
        extendedDescription: 'Worn in the final',
        additionalDetails: 'Size M',
      },
    },
  });
  ball = await e.product({
    valueInEuros: 5,
    status: 'unavailable',
    translations: { es: { name: 'Balón', description: 'De reglamento' } },
  });
});
afterAll(() => h.close());

describe('the catalog detail’s products', () => {
  it('carry name, description, extendedDescription and additionalDetails in one language', async () => {
    const created = await e.post(
      `/establishments/${e.subBrandId}/catalogs`,
      { name: 'Kit', category: 'sports', productIds: [jersey, ball] },
      null,
    );
    expect(created.status, created.text).toBe(200);
    const detail = await e.get(
      `/establishments/${e.subBrandId}/catalogs/${created.body.catalogId}`,
    );
    expect(detail.status).toBe(200);
    const [first, second] = detail.body.products;
    // English when the product has it, else its first language (as `name`).
    expect(first).toMatchObject({
      name: 'Jersey',
      description: 'Signed',
      extendedDescription: 'Worn in the final',
      additionalDetails: 'Size M',
    });
    expect(second).toMatchObject({
      name: 'Balón',
      description: 'De reglamento',
      extendedDescription: null,
      additionalDetails: null,
    });
    // The product detail has them too.
    expect((await e.get(`/products/${jersey}`)).body.description).toBe('Signed');
  });
});

describe('GET /products (the variant description’s list)', () => {
  it('lists by page with the variant’s pagination, filtered by price and status', async () => {
    const all = await e.get(`/products?establishment_id=${e.subBrandId}&limit=1`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.pagination).toEqual({
      currentPage: 1,
      totalPages: 2,
      totalItems: 2,
      itemsPerPage: 1,
    });
    expect(all.body.products).toHaveLength(1);
    const cheap = await e.get(`/products?establishment_id=${e.subBrandId}&maxPrice=10.5`);
    expect(cheap.body.products.map((p: { productId: string }) => p.productId)).toEqual([ball]);
    const active = await e.get(`/products?establishment_id=${e.subBrandId}&status=active`);
    expect(active.body.products.map((p: { productId: string }) => p.productId)).toEqual([jersey]);
    const inactive = await e.get(`/products?establishment_id=${e.subBrandId}&status=inactive`);
    expect(inactive.body.products.map((p: { productId: string }) => p.productId)).toEqual([ball]);
  });

  it('needs the key’s own establishment_id: missing is 400, another is 404', async () => {
    const missing = await e.get('/products');
    expect(missing.status).toBe(400);
    expect(missing.body.details).toContainEqual(
      expect.objectContaining({ field: 'establishment_id', code: 'required' }),
    );
    const other = await partner(h);
    const foreign = await e.get(`/products?establishment_id=${other.subBrandId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('ESTABLISHMENT_NOT_FOUND');
  });
});

describe('POST /products: document, server and OpenAPI agree on what is required', () => {
  it('a new product needs establishmentId, stock and translations; an import neither of the last two', async () => {
    const bare = await e.post('/products', { establishmentId: e.subBrandId }, null);
    expect(bare.status).toBe(422);
    expect(bare.body).toEqual({ stock: ['is required'], translations: ['is required'] });

    const doc = (await h.call('GET', '/openapi/establishment.json')).body;
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const schema = JSON.parse(
      JSON.stringify(doc.paths['/products'].post.requestBody.content['application/json'].schema),
    );
    const valid = ajv.compile(schema);
    const translations = { en: { name: 'Cap' } };
    // What the server refuses, the document refuses; what it takes, the document takes.
    expect(valid({ establishmentId: e.subBrandId })).toBe(false);
    expect(valid({ establishmentId: e.subBrandId, stock: 1 })).toBe(false);
    expect(valid({ establishmentId: e.subBrandId, stock: 1, translations: {} })).toBe(false);
    expect(valid({ establishmentId: e.subBrandId, stock: 1, translations })).toBe(true);
    expect(valid({ establishmentId: e.subBrandId, isImport: true })).toBe(false);
    expect(valid({ establishmentId: e.subBrandId, isImport: true, productId: jersey })).toBe(true);
    expect(schema.required).toEqual(['establishmentId']);

    const made = await e.post(
      '/products',
      { establishmentId: e.subBrandId, stock: 1, translations },
      null,
    );
    expect(made.status, made.text).toBe(200);
  });
});

describe('POST /exclusive with the document’s own body', () => {
  it('{ days } alone is told to send productId too, and how', async () => {
    const res = await e.post('/exclusive', { days: 30 }, null);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'productId', code: 'required', message: EXCLUSIVE_WITHOUT_PRODUCT }],
    });
    expect(res.body.message).toContain('"productId"');
    expect(res.body.message).toContain('POST /products/search');
    const locked = await e.post('/exclusive', { productId: ball, days: 30 }, null);
    expect(locked.status, locked.text).toBe(200);
    // The document says so too.
    const doc = (await h.call('GET', '/openapi/establishment.json')).body;
    const body = doc.paths['/exclusive'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['productId', 'days']);
    expect(body.properties.days.not).toEqual({ const: 0 });
  });
});

// The catalog as partners see it: visibility (sub-brand, market, status, proposals), prices
// through the margin cascade, stores, categories and the key's own sub-brand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalog,
  createCategory,
  createStore,
  setMargins,
  updateListing,
} from '../../src/domain/catalog/author-catalog.js';
import { listedProduct } from '../support/catalog.js';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { formHeaders } from '../support/graphql.js';

let h: Harness;
let admin: string;
beforeAll(async () => {
  // The platform margin set here is one setting for every tenant: on the run's shared database it
  // would reprice the files running beside (the guide's order once cost 1,100 coins, not 1,000).
  h = await startHarness({ ownDatabase: true });
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

const gql = (query: string, variables: Record<string, unknown> = {}) =>
  h.call('POST', '/graphql', {
    key: admin,
    body: { query, variables },
    headers: formHeaders(query),
  });

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((p) => p.id);

describe('product visibility', () => {
  it('shows a sub-brand only its own active listings in the market it serves', async () => {
    const a = await partner(h);
    const b = await partner(h);
    const mine = await listedProduct(h.db.prisma, a.subBrandId, { name: 'Mine' });
    const theirs = await listedProduct(h.db.prisma, b.subBrandId, { name: 'Theirs' });
    const otherMarket = await listedProduct(h.db.prisma, a.subBrandId, { country: 'FR' });
    const otherCurrency = await listedProduct(h.db.prisma, a.subBrandId, { currency: 'USD' });
    const draft = await listedProduct(h.db.prisma, a.subBrandId, { status: 'draft' });
    const inactive = await listedProduct(h.db.prisma, a.subBrandId);
    await updateListing(h.db.prisma, inactive.listingId, { active: false });

    const list = await a.get('/api/v1/products?limit=100');
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([mine.productId]);
    expect(ids(await b.get('/api/v1/products'))).toEqual([theirs.productId]);

    for (const hidden of [theirs, otherMarket, otherCurrency, draft, inactive]) {
      const res = await a.get(`/api/v1/products/${hidden.productId}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await a.get('/api/v1/products/not-a-uuid')).status).toBe(404);
  });

  it('lists only variants that have a listing for the caller, each with its listing', async () => {
    const a = await partner(h);
    const b = await partner(h);
    const p = await listedProduct(h.db.prisma, a.subBrandId, {
      variants: [{ size: 'S' }, { size: 'M' }],
      stock: 7,
    });
    // The same product listed for b too: a must not see b's listings.
    const { createListing } = await import('../../src/domain/catalog/author-catalog.js');
    await createListing(h.db.prisma, {
      subBrandId: b.subBrandId,
      variantId: p.variantIds[0]!,
      country: 'ES',
      currency: 'EUR',
      baseCost: 1,
    });
    const res = await a.get(`/api/v1/products/${p.productId}?lang=es`);
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('ES Tarjeta regalo');
    expect(res.body.data.description).toBe('A test prize'); // no es description: English
    expect(res.body.data.variants).toHaveLength(2);
    for (const [i, v] of res.body.data.variants.entries()) {
      expect(v.attributes).toEqual([{ size: 'S' }, { size: 'M' }][i]);
      expect(v.available).toBe(7);
      expect(v.listings).toEqual([
        {
          listing_market_id: p.listingIds[i],
          country: 'ES',
          currency: 'EUR',
          sell_price: expect.any(Number),
          coin_price: expect.any(Number),
        },
      ]);
    }
    expect(res.text).not.toMatch(/base_cost|baseCost|margin/);
  });

  it('filters by free text in any language, category and catalog', async () => {
    const a = await partner(h);
    const category = await createCategory(h.db.prisma, {
      slug: `cat-${a.subBrandId.slice(0, 8)}`,
      names: { en: 'Gadgets', fr: 'Gadgets FR' },
    });
    const drone = await listedProduct(h.db.prisma, a.subBrandId, {
      name: 'Camera drone',
      categoryId: category.id,
    });
    const mug = await listedProduct(h.db.prisma, a.subBrandId, { name: 'Coffee mug 100%' });
    const catalog = await createCatalog(h.db.prisma, { name: 'Mugs', productIds: [mug.productId] });

    expect(ids(await a.get('/api/v1/products?q=DRONE'))).toEqual([drone.productId]);
    expect(ids(await a.get('/api/v1/products?q=es%20camera'))).toEqual([drone.productId]); // es name
    expect(ids(await a.get('/api/v1/products?q=100%25'))).toEqual([mug.productId]); // % is literal
    expect(ids(await a.get(`/api/v1/products?category_id=${category.id}`))).toEqual([
      drone.productId,
    ]);
    expect(ids(await a.get(`/api/v1/products?catalog_id=${catalog.id}`))).toEqual([mug.productId]);
    expect(ids(await a.get('/api/v1/products?catalog_id=nope'))).toEqual([]);
    const bad = await a.get('/api/v1/products?limit=0&lang=de');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/limit/);
    expect(bad.body.error.message).toMatch(/lang/);
  });

  it('filters by kind and by stock on hand', async () => {
    const a = await partner(h);
    const card = await listedProduct(h.db.prisma, a.subBrandId, { kind: 'digital', stock: 3 });
    const mug = await listedProduct(h.db.prisma, a.subBrandId, { kind: 'physical', stock: 2 });
    const gone = await listedProduct(h.db.prisma, a.subBrandId, { kind: 'physical', stock: 0 });
    const all = [card, mug, gone].map((p) => p.productId);
    const sorted = (list: string[]) => list.filter((id) => all.includes(id)).sort();
    expect(sorted(ids(await a.get('/api/v1/products?kind=physical&limit=100')))).toEqual(
      [mug.productId, gone.productId].sort(),
    );
    expect(sorted(ids(await a.get('/api/v1/products?in_stock=true&limit=100')))).toEqual(
      [card.productId, mug.productId].sort(),
    );
    expect(
      sorted(ids(await a.get('/api/v1/products?in_stock=true&kind=physical&limit=100'))),
    ).toEqual([mug.productId]);
    expect((await a.get('/api/v1/products?kind=gift')).status).toBe(400);
    expect((await a.get('/api/v1/products?in_stock=yes')).status).toBe(400);
  });

  it('pages through products with cursors', async () => {
    const a = await partner(h);
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push((await listedProduct(h.db.prisma, a.subBrandId)).productId);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await a.get(`/api/v1/products?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...ids(res));
      cursor = res.body.page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
  });
});

describe('prices', () => {
  it('applies platform, brand and sub-brand margins in turn, and the coin ratio', async () => {
    const a = await partner(h);
    const p = await listedProduct(h.db.prisma, a.subBrandId, { baseCost: 999 });
    const before = await h.db.prisma.platformSetting.findUnique({
      where: { key: 'platform_margin_bps' },
    });
    const margins = await gql(
      'mutation($b: MarginInput, $s: MarginInput) { setMargins(platformBps: 1000, brand: $b, subBrand: $s) }',
      { b: { id: a.brandId, bps: 500 }, s: { id: a.subBrandId, bps: 250 } },
    );
    expect(margins.body.errors).toBeUndefined();
    await h.db.prisma.subBrand.update({ where: { id: a.subBrandId }, data: { coinsPerUnit: 10 } });
    try {
      const res = await a.get(`/api/v1/products/${p.productId}`);
      const listing = res.body.data.variants[0].listings[0];
      // 999 → 1098.9 → 1099 → 1153.95 → 1154 → 1182.85 → 1183 cents; 11.83 EUR × 10 = 118.3 → 119.
      expect(listing).toMatchObject({ sell_price: 1183, coin_price: 119 });
    } finally {
      await setMargins(h.db.prisma, { platformBps: Number(before?.value ?? 0) });
    }
  });

  it('refuses margins out of range, naming the field', async () => {
    const res = await gql('mutation { setMargins(platformBps: 100001) }');
    expect(res.body.errors[0].extensions.code).toBe('invalid_request');
    expect(res.body.errors[0].message).toMatch(/at most 100000/);
  });

  it('keeps catalog writes for platform administrators', async () => {
    const a = await partner(h);
    const res = await h.call('POST', '/graphql', {
      key: a.key,
      body: { query: 'mutation { setMargins(platformBps: 0) }' },
    });
    expect(res.body.errors[0].extensions.code).toBe('forbidden');
  });
});

describe('catalogs', () => {
  it('hides proposals until approved, and for ever once rejected', async () => {
    const a = await partner(h);
    const b = await partner(h);
    const p = await listedProduct(h.db.prisma, a.subBrandId);
    const platform = await createCatalog(h.db.prisma, {
      name: 'Platform',
      productIds: [p.productId],
    });
    const approved = await createCatalog(h.db.prisma, {
      subBrandId: a.subBrandId,
      name: 'Approve me',
    });
    const rejected = await createCatalog(h.db.prisma, {
      subBrandId: a.subBrandId,
      name: 'Reject me',
    });
    const pending = await createCatalog(h.db.prisma, { subBrandId: a.subBrandId, name: 'Pending' });

    const visible = async (key: typeof a) =>
      ids(await key.get('/api/v1/catalogs?limit=100')).filter((id) =>
        [platform.id, approved.id, rejected.id, pending.id].includes(id),
      );
    expect(await visible(a)).toEqual([platform.id]);

    const review = (id: string, decision: string) =>
      gql(
        'mutation($id: ID!, $d: CatalogDecision!) { reviewCatalog(id: $id, decision: $d) { status } }',
        {
          id,
          d: decision,
        },
      );
    expect((await review(approved.id, 'approved')).body.data.reviewCatalog.status).toBe('approved');
    expect((await review(rejected.id, 'rejected')).body.data.reviewCatalog.status).toBe('rejected');
    const again = await review(rejected.id, 'approved');
    expect(again.body.errors[0].extensions.code).toBe('invalid_transition');

    expect(await visible(a)).toEqual([platform.id, approved.id]);
    expect(await visible(b)).toEqual([platform.id]); // a's proposal is a's alone
    for (const hidden of [rejected.id, pending.id]) {
      expect((await a.get(`/api/v1/catalogs/${hidden}`)).status).toBe(404);
    }
    expect((await b.get(`/api/v1/catalogs/${approved.id}`)).status).toBe(404);
    const one = await a.get(`/api/v1/catalogs/${platform.id}`);
    expect(one.body.data).toMatchObject({
      owner: 'platform',
      status: 'approved',
      product_count: 1,
    });
    expect((await b.get(`/api/v1/catalogs/${platform.id}`)).body.data.product_count).toBe(0);
  });
});

describe('stores, categories and the sub-brand', () => {
  it("lists the sub-brand's stores with the catalogs it can use", async () => {
    const a = await partner(h);
    const b = await partner(h);
    const platform = await createCatalog(h.db.prisma, { name: 'Shown' });
    const pending = await createCatalog(h.db.prisma, { subBrandId: a.subBrandId, name: 'Not yet' });
    const store = await createStore(h.db.prisma, {
      subBrandId: a.subBrandId,
      name: 'Rewards',
      slug: 'rewards',
      catalogIds: [platform.id, pending.id],
    });
    const list = await a.get('/api/v1/stores');
    expect(list.body.data).toEqual([
      expect.objectContaining({
        id: store.id,
        slug: 'rewards',
        catalogs: [{ id: platform.id, name: 'Shown' }],
      }),
    ]);
    expect((await a.get(`/api/v1/stores/${store.id}`)).status).toBe(200);
    expect((await b.get(`/api/v1/stores/${store.id}`)).status).toBe(404);
    expect((await b.get('/api/v1/stores')).body.data).toEqual([]);
  });

  it('lists categories in display order, named in the asked language', async () => {
    const a = await partner(h);
    const slug = `z-${a.subBrandId.slice(0, 8)}`;
    await createCategory(h.db.prisma, {
      slug,
      names: { en: 'Zeta', it: 'Zeta IT' },
      position: 9999,
    });
    const all: { slug: string; name: string }[] = [];
    let cursor: string | null = null;
    do {
      const res = await a.get(
        `/api/v1/categories?lang=it&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      all.push(...res.body.data);
      cursor = res.body.page.next_cursor;
    } while (cursor);
    expect(all.at(-1)).toMatchObject({ slug, name: 'Zeta IT' });
  });

  it("answers the key's own sub-brand and 404 for any other", async () => {
    const a = await partner(h);
    const b = await partner(h);
    const own = await a.get(`/api/v1/brands/${a.brandId}/sub-brands/${a.subBrandId}`);
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({
      id: a.subBrandId,
      brand_id: a.brandId,
      country: 'ES',
      currency: 'EUR',
      coins_per_unit: 100,
      prepaid: false,
      prepaid_balance: null,
    });
    expect(own.text).not.toMatch(/margin/);
    for (const path of [
      `/api/v1/brands/${b.brandId}/sub-brands/${b.subBrandId}`,
      `/api/v1/brands/${b.brandId}/sub-brands/${a.subBrandId}`,
      `/api/v1/brands/${a.brandId}/sub-brands/x`,
    ]) {
      expect((await a.get(path)).status).toBe(404);
    }
  });

  it('needs the scope of each route', async () => {
    const a = await partner(h);
    const key = await a.otherKey({ scopes: ['customers:read'] });
    for (const path of [
      '/api/v1/products',
      '/api/v1/stores',
      '/api/v1/catalogs',
      '/api/v1/categories',
      `/api/v1/brands/${a.brandId}/sub-brands/${a.subBrandId}`,
    ]) {
      const res = await h.call('GET', path, { key });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
  });
});

describe('backoffice catalog writes', () => {
  it('creates a product with variants and translations, then lists it for a sub-brand', async () => {
    const a = await partner(h);
    const created = await gql(
      `mutation($input: CreateProductInput!) { createProduct(input: $input) { id name(lang: fr) kind variants { id sku attributes available } } }`,
      {
        input: {
          kind: 'physical',
          translations: { en: { name: 'Headphones' }, fr: { name: 'Casque' } },
          images: ['https://img.example.com/h.jpg'],
          variants: [
            { sku: `H-${a.subBrandId.slice(0, 8)}-B`, attributes: { colour: 'black' }, stock: 3 },
            { sku: `H-${a.subBrandId.slice(0, 8)}-W`, attributes: { colour: 'white' }, stock: 0 },
          ],
        },
      },
    );
    expect(created.body.errors).toBeUndefined();
    const product = created.body.data.createProduct;
    expect(product).toMatchObject({ name: 'Casque', kind: 'physical' });
    expect(product.variants.map((v: { available: number }) => v.available)).toEqual([3, 0]);
    const listing = await gql(
      `mutation($input: CreateListingInput!) { createListing(input: $input) { id sellPrice coinPrice baseCost } }`,
      {
        input: {
          subBrandId: a.subBrandId,
          variantId: product.variants[0].id,
          country: 'ES',
          currency: 'EUR',
          baseCost: 2500,
        },
      },
    );
    expect(listing.body.data.createListing.baseCost).toBe(2500);
    const seen = await a.get(`/api/v1/products/${product.id}`);
    expect(seen.body.data.variants).toHaveLength(1);
    expect(seen.body.data.variants[0].listings[0].listing_market_id).toBe(
      listing.body.data.createListing.id,
    );
    // A partner key cannot read the cost through GraphQL either.
    const peek = await h.call('POST', '/graphql', {
      key: a.key,
      body: { query: `{ product(id: "${product.id}") { variants { listings { baseCost } } } }` },
    });
    expect(peek.body.errors[0].extensions.code).toBe('forbidden');
  });

  it('refuses bad catalog input, naming each field', async () => {
    const create = (input: object) =>
      gql(`mutation($input: CreateProductInput!) { createProduct(input: $input) { id } }`, {
        input,
      });
    // A kind is one of the schema's ProductKind values: refused before the domain is asked.
    const edible = await create({
      kind: 'edible',
      translations: { en: { name: 'Apple' } },
      variants: [{ sku: 'APPLE', stock: 1 }],
    });
    expect(edible.body.errors[0].extensions.code).toBe('invalid_request');
    expect(edible.body.errors[0].message).toContain('"edible"');
    expect(edible.body.errors[0].message).toContain('ProductKind');
    const bad = await create({
      kind: 'physical',
      translations: { es: { name: 'Sin inglés' } },
      variants: [{ sku: 'has space', stock: -1 }],
    });
    const message = bad.body.errors[0].message;
    expect(bad.body.errors[0].extensions.code).toBe('invalid_request');
    for (const field of ['translations', 'variants.0.sku', 'variants.0.stock']) {
      expect(message).toContain(`${field}:`);
    }
    const sku = `DUP-${Date.now()}`;
    const input = {
      kind: 'digital',
      translations: { en: { name: 'X' } },
      variants: [{ sku, stock: 1 }],
    };
    await gql(`mutation($input: CreateProductInput!) { createProduct(input: $input) { id } }`, {
      input,
    });
    const dup = await gql(
      `mutation($input: CreateProductInput!) { createProduct(input: $input) { id } }`,
      {
        input,
      },
    );
    expect(dup.body.errors[0].extensions.code).toBe('conflict');
  });
});

// The GraphQL behind the backoffice's catalog authoring: categories, platform catalogs and their
// products, stores, and a product's new variants and images. Platform admins only; bad input is
// refused naming the field; a sub-brand, catalog or product that does not exist (or, for a
// store, another sub-brand's proposal) is not found and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog, createProduct } from '../../src/domain/catalog/author-catalog.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

let h: Harness;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let platform: StaffClient;
let operator: StaffClient;
let brandAdmin: StaffClient;
let productId: string;
const MISSING = '0192f1c4-0000-7000-8000-000000000000';
const suffix = Date.now().toString(36);

beforeAll(async () => {
  h = await startHarness();
  a = await createTenant(h.db.prisma);
  b = await createTenant(h.db.prisma);
  const sign = async (...args: Parameters<typeof createStaff>) =>
    signInAs(h.url, (await createStaff(...args)).email);
  platform = await sign(h.db.prisma, 'platform_admin');
  operator = await sign(h.db.prisma, 'establishment_operator', { subBrandId: a.subBrandId });
  brandAdmin = await sign(h.db.prisma, 'brand_admin', { brandId: a.brandId });
  productId = (
    await createProduct(h.db.prisma, {
      kind: 'physical',
      translations: { en: { name: 'Travel mug' } },
      variants: [{ sku: `MUG-${suffix}`, stock: 5 }],
    })
  ).id;
});
afterAll(() => h.close());

type Body = {
  data: any;
  errors?: { message: string; extensions: { code: string; issues?: { field: string }[] } }[];
};
const as = async (who: StaffClient, query: string, variables: Record<string, unknown>) =>
  (await who.gql(query, variables, { subBrandId: a.subBrandId })).body as Body;
const admin = (query: string, variables: Record<string, unknown>) => as(platform, query, variables);
const refusal = (body: Body) => ({
  code: body.errors?.[0]?.extensions.code,
  fields: body.errors?.[0]?.extensions.issues?.map((i) => i.field) ?? [],
});

const CATEGORY = `mutation($slug: String!, $names: JSON!) { createCategory(slug: $slug, names: $names) { id slug name } }`;
const CATALOG = `mutation($name: String!, $subBrandId: ID, $productIds: [ID!]) {
  createCatalog(name: $name, subBrandId: $subBrandId, productIds: $productIds) { id status owner productCount } }`;
const SET_PRODUCTS = `mutation($catalogId: ID!, $productIds: [ID!]!) { setCatalogProducts(catalogId: $catalogId, productIds: $productIds) }`;
const STORE = `mutation($subBrandId: ID!, $name: String!, $slug: String!, $catalogIds: [ID!]) {
  createStore(subBrandId: $subBrandId, name: $name, slug: $slug, catalogIds: $catalogIds) { id slug } }`;
const VARIANT = `mutation($productId: ID!, $input: VariantInput!) {
  addProductVariant(productId: $productId, input: $input) { id variants { sku attributes stock { environment available } } } }`;
const IMAGES = `mutation($id: ID!, $images: [String!]) { updateProduct(id: $id, input: { images: $images }) { images } }`;

describe('categories', () => {
  it('creates one; a bad slug, a missing English name and a taken slug are refused', async () => {
    const slug = `mugs-${suffix}`;
    const ok = await admin(CATEGORY, { slug, names: { en: 'Mugs', es: 'Tazas' } });
    expect(ok.data.createCategory).toMatchObject({ slug, name: 'Mugs' });
    expect(refusal(await admin(CATEGORY, { slug: 'Not A Slug', names: { en: 'X' } }))).toEqual({
      code: 'invalid_request',
      fields: ['slug'],
    });
    expect(refusal(await admin(CATEGORY, { slug: `x-${suffix}`, names: { es: 'Solo' } }))).toEqual({
      code: 'invalid_request',
      fields: ['names'],
    });
    expect(refusal(await admin(CATEGORY, { slug, names: { en: 'Again' } })).code).toBe('conflict');
  });
});

describe('catalogs', () => {
  it('creates a platform catalog with products and replaces them; unknown ids are not found', async () => {
    const ok = await admin(CATALOG, { name: 'Winter picks', productIds: [productId] });
    expect(ok.data.createCatalog).toMatchObject({ status: 'approved', owner: 'platform' });
    const id = ok.data.createCatalog.id as string;
    expect((await admin(SET_PRODUCTS, { catalogId: id, productIds: [] })).data).toEqual({
      setCatalogProducts: true,
    });
    expect(refusal(await admin(CATALOG, { name: '  ' })).fields).toEqual(['name']);
    expect(refusal(await admin(CATALOG, { name: 'X', productIds: [MISSING] })).code).toBe(
      'not_found',
    );
    const noSubBrand = await admin(CATALOG, { name: 'Lost', subBrandId: MISSING });
    expect(noSubBrand.errors?.[0]?.message).toMatch(/Sub-brand not found/);
    expect(await h.db.prisma.catalog.count({ where: { name: 'Lost' } })).toBe(0); // nothing half-made
    for (const catalogId of [MISSING, 'not-an-id']) {
      const res = await admin(SET_PRODUCTS, { catalogId, productIds: [productId] });
      expect(res.errors?.[0]?.message).toMatch(/Catalog not found/);
    }
  });
});

describe('stores', () => {
  it("shows the platform's catalogs and its own proposals, never another sub-brand's", async () => {
    const platformCatalog = (await createCatalog(h.db.prisma, { name: 'Everyone' })).id;
    const own = (await createCatalog(h.db.prisma, { name: 'Ours', subBrandId: a.subBrandId })).id;
    const theirs = (await createCatalog(h.db.prisma, { name: 'Theirs', subBrandId: b.subBrandId }))
      .id;
    const slug = `main-${suffix}`;
    const ok = await admin(STORE, {
      subBrandId: a.subBrandId,
      name: 'Main store',
      slug,
      catalogIds: [platformCatalog, own, own],
    });
    expect(ok.errors).toBeUndefined();
    const store = await h.db.prisma.store.findUniqueOrThrow({
      where: { id: ok.data.createStore.id },
    });
    expect(store.catalogIds).toEqual([platformCatalog, own]);

    const count = () => h.db.prisma.store.count({ where: { subBrandId: a.subBrandId } });
    const before = await count();
    const foreign = await admin(STORE, {
      subBrandId: a.subBrandId,
      name: 'Sneaky',
      slug: `sneaky-${suffix}`,
      catalogIds: [platformCatalog, theirs],
    });
    expect(foreign.errors?.[0]?.message).toMatch(/One of the catalogs not found/);
    const noSubBrand = await admin(STORE, { subBrandId: MISSING, name: 'X', slug: 'x' });
    expect(noSubBrand.errors?.[0]?.message).toMatch(/Sub-brand not found/);
    expect(
      refusal(await admin(STORE, { subBrandId: a.subBrandId, name: 'X', slug: 'Bad slug!' })),
    ).toEqual({ code: 'invalid_request', fields: ['slug'] });
    const taken = await admin(STORE, { subBrandId: a.subBrandId, name: 'Again', slug });
    expect(refusal(taken).code).toBe('conflict');
    expect(await count()).toBe(before);
  });
});

describe("a product's variants and images", () => {
  it('adds a variant with its stock in both environments; a taken or bad SKU is refused', async () => {
    const sku = `MUG-L-${suffix}`;
    const ok = await admin(VARIANT, {
      productId,
      input: { sku, attributes: { size: 'L' }, stock: 7 },
    });
    expect(ok.errors).toBeUndefined();
    const added = ok.data.addProductVariant.variants.find((v: { sku: string }) => v.sku === sku);
    expect(added.attributes).toEqual({ size: 'L' });
    expect(added.stock).toEqual(
      expect.arrayContaining([
        { environment: 'live', available: 7 },
        { environment: 'test', available: 7 },
      ]),
    );
    const variants = await h.db.prisma.productVariant.findMany({
      where: { productId },
      orderBy: { position: 'asc' },
    });
    expect(variants.map((v) => [v.sku, v.position])).toEqual([
      [`MUG-${suffix}`, 0],
      [sku, 1],
    ]);
    expect(refusal(await admin(VARIANT, { productId, input: { sku, stock: 1 } })).code).toBe(
      'conflict',
    );
    expect(
      refusal(await admin(VARIANT, { productId, input: { sku: 'bad sku', stock: 1 } })),
    ).toEqual({ code: 'invalid_request', fields: ['sku'] });
    expect(
      refusal(await admin(VARIANT, { productId, input: { sku: `NEG-${suffix}`, stock: -1 } }))
        .fields,
    ).toEqual(['stock']);
    const missing = await admin(VARIANT, {
      productId: MISSING,
      input: { sku: `Z-${suffix}`, stock: 1 },
    });
    expect(missing.errors?.[0]?.message).toMatch(/Product not found/);
    expect(await h.db.prisma.productVariant.count({ where: { productId } })).toBe(2);
  });

  it('sets images; a URL that is not http(s) is refused at its index', async () => {
    const images = ['https://cdn.example.com/mug.jpg', 'https://cdn.example.com/mug-2.jpg'];
    expect((await admin(IMAGES, { id: productId, images })).data.updateProduct.images).toEqual(
      images,
    );
    const bad = await admin(IMAGES, { id: productId, images: [images[0], 'javascript:alert(1)'] });
    expect(refusal(bad)).toEqual({ code: 'invalid_request', fields: ['images.1'] });
  });
});

it('refuses these writes to operators and brand admins', async () => {
  for (const who of [operator, brandAdmin]) {
    const calls: [string, Record<string, unknown>][] = [
      [CATEGORY, { slug: `no-${suffix}`, names: { en: 'No' } }],
      [CATALOG, { name: 'No' }],
      [STORE, { subBrandId: a.subBrandId, name: 'No', slug: `no-${suffix}` }],
      [VARIANT, { productId, input: { sku: `NO-${suffix}`, stock: 1 } }],
    ];
    for (const [query, variables] of calls)
      expect(refusal(await as(who, query, variables)).code, query).toBe('forbidden');
  }
  expect(await h.db.prisma.productVariant.count({ where: { productId } })).toBe(2);
});

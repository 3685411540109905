// POST /products/search: what an establishment sees, filtered, sorted and paged by page number
// or by cursor, with the document's facets and its 422 field map on bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory } from '../../src/domain/catalog/author-catalog.js';
import { listedProduct } from '../support/catalog.js';
import { startHarness, type Harness } from '../support/harness.js';
import { establishment } from './products-support.js';

let h: Harness;
let e: Awaited<ReturnType<typeof establishment>>;
let ids: string[];
let categoryId: string;
beforeAll(async () => {
  h = await startHarness();
  e = await establishment(h);
  categoryId = (
    await createCategory(h.db.prisma, {
      slug: `cat-${Date.now()}`,
      names: { en: 'Sports', es: 'Deportes' },
    })
  ).id;
  ids = [];
  for (let i = 0; i < 7; i++) {
    ids.push(
      await e.product({
        valueInEuros: 10 + i,
        stock: i,
        order: 7 - i,
        type: i % 2 ? 'merch' : 'voucher',
        ...(i < 3 ? { category: { categoryId } } : {}),
        ...(i === 6 ? { status: 'hidden' } : {}),
        translations: {
          en: { name: `Prize ${i}`, description: i === 4 ? 'Needle in a haystack' : 'Plain' },
          ...(i === 5 ? { it: { name: 'Premio' } } : {}),
        },
      }),
    );
  }
});
afterAll(() => h.close());

const search = async (body: Record<string, unknown>) => {
  const res = await e.post('/products/search', body, null);
  expect(res.status, res.text).toBe(200);
  return res.body as {
    data: Record<string, any>[];
    pagination: Record<string, any>;
    metadata: Record<string, any>;
  };
};
const names = (r: { data: Record<string, any>[] }) => r.data.map((p) => p.name);

describe('POST /products/search', () => {
  it('lists the establishment’s products newest first, with the document’s item and facets', async () => {
    const r = await search({});
    expect(names(r)).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `Prize ${i}`));
    expect(r.pagination).toEqual({
      page: 1,
      limit: 20,
      total: 7,
      totalExact: true,
      hasMore: false,
      nextCursor: null,
    });
    expect(r.data[4]).toMatchObject({
      productId: ids[2],
      establishmentId: e.subBrandId,
      status: 'available',
      stock: 2,
      reserved: 0,
      type: 'voucher',
      category: { categoryId, name: 'Sports', translations: { en: 'Sports', es: 'Deportes' } },
      priceSource: 'cascade',
      catalogs: [],
    });
    expect(r.data[6]!.status).toBe('sold'); // stock 0, nothing held
    expect(r.metadata).toMatchObject({
      categories: ['Sports'],
      types: ['merch', 'voucher'],
      statuses: ['available', 'unavailable', 'booked', 'hidden', 'sold'],
      filters: { categories: [{ categoryId, name: 'Sports' }] },
    });
  });

  it('filters: text, type, category (and none), status, value range, stock, locale', async () => {
    expect(names(await search({ query: 'NEEDLE' }))).toEqual(['Prize 4']);
    expect(names(await search({ query: ids[3] }))).toEqual(['Prize 3']);
    expect(names(await search({ filters: { types: ['merch'] } }))).toEqual([
      'Prize 5',
      'Prize 3',
      'Prize 1',
    ]);
    expect(names(await search({ filters: { categories: [categoryId] } }))).toEqual([
      'Prize 2',
      'Prize 1',
      'Prize 0',
    ]);
    expect((await search({ filters: { categories: ['none'] } })).pagination.total).toBe(4);
    expect(names(await search({ filters: { status: ['hidden', 'sold'] } }))).toEqual([
      'Prize 6',
      'Prize 0',
    ]);
    expect(names(await search({ filters: { priceRange: { min: 12, max: 13.5 } } }))).toEqual([
      'Prize 3',
      'Prize 2',
    ]);
    expect(names(await search({ filters: { stock: { min: 5 } } }))).toEqual(['Prize 6', 'Prize 5']);
    expect(names(await search({ filters: { locale: 'it' } }))).toEqual(['Prize 5']);
  });

  it('sorts by value or display order, pages by number and by cursor', async () => {
    expect(names(await search({ sort: { field: 'valueInEuros', order: 'asc' } }))[0]).toBe(
      'Prize 0',
    );
    expect(names(await search({ sort: { field: 'order', order: 'asc' } }))[0]).toBe('Prize 6');
    const page2 = await search({ pagination: { page: 2, limit: 3 } });
    expect(names(page2)).toEqual(['Prize 3', 'Prize 2', 'Prize 1']);
    expect(page2.pagination).toMatchObject({ page: 2, total: 7, hasMore: true });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await search({
        sort: { field: 'valueInEuros', order: 'desc' },
        pagination: { limit: 2, ...(cursor ? { cursor } : {}) },
      });
      seen.push(...names(r));
      cursor = r.pagination.nextCursor ?? undefined;
      expect(r.pagination.hasMore).toBe(cursor !== undefined);
    } while (cursor);
    expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `Prize ${i}`));
  });

  it('answers 422 with a field map on bad input', async () => {
    const res = await e.post(
      '/products/search',
      {
        pagination: { limit: 0 },
        sort: { field: 'colour' },
        filters: { status: ['lost'], categories: ['x'] },
      },
      null,
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body).sort()).toEqual(
      ['filters.categories.0', 'filters.status.0', 'pagination.limit', 'sort.field'].sort(),
    );
    const cursor = await e.post('/products/search', { pagination: { cursor: 'garbage' } }, null);
    expect(cursor.status).toBe(422);
    expect(cursor.body).toEqual({ 'pagination.cursor': ['is not a cursor this search gave'] });
  });

  it('shows listed platform products, never other establishments’ own', async () => {
    const other = await establishment(h);
    const theirs = await other.product({ translations: { en: { name: 'Theirs' } } });
    const listed = await listedProduct(h.db.prisma, e.subBrandId, { name: 'Listed for me' });
    const r = await search({ query: 'listed for me' });
    expect(r.data.map((p) => p.productId)).toEqual([listed.productId]);
    expect(r.data[0]).toMatchObject({ isAdmin: true, internalPrice: null });
    expect((await search({ query: theirs })).data).toEqual([]);
  });

  it('finds a product listed for it that another establishment owns, once, whoever owns it later', async () => {
    // The second branch of what it sees reads the listings not of its own products (a flag a
    // trigger keeps, migration listing_markets_own); these pin that flag and what it selects.
    const other = await establishment(h);
    const theirs = await other.product({ translations: { en: { name: 'Lent prize' } } });
    const variants = await h.db.prisma.productVariant.findMany({ where: { productId: theirs } });
    const twoSizes = await listedProduct(h.db.prisma, e.subBrandId, {
      name: 'Two sizes',
      variants: [{ size: 'S' }, { size: 'M' }],
    });
    // A writer that claims the listing is the caller's own is overruled by the trigger.
    await h.db.prisma.$executeRaw`
      INSERT INTO listing_markets (id, sub_brand_id, variant_id, product_id, country, currency, base_cost, own)
      VALUES (gen_random_uuid(), ${e.subBrandId}::uuid, ${variants[0]!.id}::uuid, ${theirs}::uuid,
              'ES', 'EUR', 900, true)`;
    const wrongFlags = async () => {
      const [row] = await h.db.prisma.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM listing_markets l JOIN products p ON p.id = l.product_id
        WHERE l.own IS DISTINCT FROM coalesce(p.owner_sub_brand_id = l.sub_brand_id, false)`;
      return row!.n;
    };
    expect(await wrongFlags()).toBe(0);
    const ids = async (query: string) =>
      (await search({ query })).data.map((p: Record<string, any>) => p.productId);
    expect(await ids(theirs)).toEqual([theirs]);
    expect(await ids('two sizes')).toEqual([twoSizes.productId]); // two listings, one product
    const mine = await e.product({ translations: { en: { name: 'Made here' } } });
    expect(await ids(mine)).toEqual([mine]);

    // The product changes hands: its listings' flags follow, and it shows once, now as owned.
    await h.db.prisma.$executeRaw`
      UPDATE products SET owner_sub_brand_id = ${e.subBrandId}::uuid WHERE id = ${theirs}::uuid`;
    expect(await wrongFlags()).toBe(0);
    expect(await ids(theirs)).toEqual([theirs]);
    expect((await search({ query: theirs })).data[0]).toMatchObject({
      establishmentId: e.subBrandId,
    });
  });
});

describe('POST /products/search: order and totals', () => {
  it('pages by number and by cursor give every match once, in the same order, ties included', async () => {
    const t = await establishment(h);
    // Three display orders for nine products: the order sort has ties, broken by id.
    for (let i = 0; i < 9; i++) await t.product({ order: i % 3, valueInEuros: 5 + (i % 2) });
    const sorts = [
      { field: 'order', order: 'asc' },
      { field: 'valueInEuros', order: 'desc' },
      { field: 'createdAt', order: 'asc' },
    ];
    for (const sort of sorts) {
      const all = (
        await t.post('/products/search', { sort, pagination: { limit: 100 } }, null)
      ).body.data.map((p: { productId: string }) => p.productId) as string[];
      expect(all).toHaveLength(9);
      const byPage: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const r = await t.post('/products/search', { sort, pagination: { page, limit: 4 } }, null);
        byPage.push(...r.body.data.map((p: { productId: string }) => p.productId));
      }
      const byCursor: string[] = [];
      let cursor: string | undefined;
      do {
        const r = await t.post(
          '/products/search',
          { sort, pagination: { limit: 2, ...(cursor ? { cursor } : {}) } },
          null,
        );
        expect(r.status, r.text).toBe(200);
        byCursor.push(...r.body.data.map((p: { productId: string }) => p.productId));
        cursor = r.body.pagination.nextCursor ?? undefined;
      } while (cursor);
      expect(byPage, JSON.stringify(sort)).toEqual(all);
      expect(byCursor, JSON.stringify(sort)).toEqual(all);
    }
    // A cursor of one sort is refused by another (its value is an id, not a number).
    const byDate = await t.post('/products/search', { pagination: { limit: 1 } }, null);
    const wrong = await t.post(
      '/products/search',
      {
        sort: { field: 'order', order: 'asc' },
        pagination: { cursor: byDate.body.pagination.nextCursor },
      },
      null,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ 'pagination.cursor': ['is not a cursor this search gave'] });
  });

  it('caps the total at 10,000 (totalExact false), and pages still reach every match', async () => {
    const big = await establishment(h);
    // 10,001 products in one statement (through the API this would take minutes).
    await h.db.prisma.$executeRaw`
      INSERT INTO products (id, kind, status, translations, images, search_text, owner_sub_brand_id,
                            retail_value, currency, type, display_order, created_at, updated_at)
      SELECT gen_random_uuid(), 'physical', 'active', jsonb_build_object('en', jsonb_build_object('name', 'Bulk ' || n)),
             '{}', 'bulk ' || n, ${big.subBrandId}::uuid, n, 'EUR', 'bulk', 0, now(), now()
      FROM generate_series(1, 10001) AS n`;
    const first = await big.post('/products/search', { pagination: { limit: 1 } }, null);
    expect(first.status, first.text).toBe(200);
    expect(first.body.pagination).toMatchObject({
      total: 10_000,
      totalExact: false,
      hasMore: true,
    });
    expect(first.body.metadata.types).toEqual(['bulk']);
    // Past the 10,000th match by page number, and narrowed back under the bound.
    const last = await big.post(
      '/products/search',
      { sort: { field: 'valueInEuros', order: 'asc' }, pagination: { page: 101, limit: 100 } },
      null,
    );
    expect(last.body.data.map((p: { name: string }) => p.name)).toEqual(['Bulk 10001']);
    expect(last.body.pagination).toMatchObject({
      total: 10_000,
      totalExact: false,
      hasMore: false,
    });
    const narrow = await big.post('/products/search', { query: 'bulk 1000' }, null);
    expect(narrow.body.pagination).toMatchObject({ total: 3, totalExact: true });
  });
});

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
});

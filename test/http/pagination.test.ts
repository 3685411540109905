import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrand } from '../../src/domain/tenancy/create-brand.js';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { TEST_ROUTES } from '../support/test-routes.js';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness({ routes: TEST_ROUTES });
  admin = (await adminKey(h.db.prisma)).key;
  for (let i = 0; i < 120; i++) await createBrand(h.db.prisma, { name: `page-${i}` });
});
afterAll(() => h.close());

const list = (query: string) => h.call('GET', `/api/v1/test/brands${query}`, { key: admin });

describe('cursor pagination', () => {
  it('defaults to 25, newest first, with an opaque cursor', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data', 'page']);
    expect(res.body.data).toHaveLength(25);
    expect(res.body.page).toEqual({ has_more: true, next_cursor: expect.any(String) });
    const ids = res.body.data.map((b: { id: string }) => b.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(res.body.data[0].created_at).toMatch(/Z$/);
  });

  it('walks every row exactly once while rows are being inserted', async () => {
    const before = new Set(
      (await h.db.prisma.brand.findMany({ select: { id: true } })).map((b) => b.id),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let inserting = true;
    const inserter = (async () => {
      for (let i = 0; inserting && i < 200; i++)
        await createBrand(h.db.prisma, { name: `during-${i}` });
    })();
    do {
      const res = await list(`?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((b: { id: string }) => b.id));
      cursor = res.body.page.next_cursor;
      expect(res.body.page.has_more).toBe(cursor !== null);
      pages++;
    } while (cursor && pages < 1000);
    inserting = false;
    await inserter;
    expect(new Set(seen).size).toBe(seen.length); // no duplicates
    for (const id of before) expect(seen).toContain(id); // no gaps
    expect([...seen].sort().reverse()).toEqual(seen); // one order throughout
  });

  it('the last page says so', async () => {
    const total = await h.db.prisma.brand.count();
    const res = await list(`?limit=100`);
    let cursor = res.body.page.next_cursor;
    let last = res;
    while (cursor) {
      last = await list(`?limit=100&cursor=${encodeURIComponent(cursor)}`);
      cursor = last.body.page.next_cursor;
    }
    expect(last.body.page).toEqual({ has_more: false, next_cursor: null });
    expect(total).toBeGreaterThan(100);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=ten', 'limit'],
    ['?limit=2.5', 'limit'],
    ['?cursor=', 'cursor'],
    ['?cursor=not-a-cursor', 'cursor'],
    ['?cursor=R1BDOlM6bm9wZQ', 'cursor'],
    ['?colour=red', 'colour'],
  ])('%s is 400 invalid_request naming %s', async (query, field) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(`${field}:`);
  });
});

// `POST /products/search` (establishment-api.md): the products an establishment sees, filtered,
// sorted and paged by page number or by cursor, with the document's facets. Every condition is
// SQL over indexed columns; only the page's rows are turned into views.
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { AppError } from '../errors.js';
import { LANGUAGES } from '../customers/schemas.js';
import { likeEscape, parseInput } from '../validation.js';
import { PRODUCT_STATUSES } from './establishment-product-inputs.js';
import {
  establishmentCatalogs,
  establishmentProducts,
  productViews,
  type Viewer,
} from './establishment-view.js';
import { toMinorUnits } from './money.js';

export const PRODUCT_SORT_FIELDS = ['createdAt', 'valueInEuros', 'order'] as const;
export const DEFAULT_PRODUCT_PAGE_SIZE = 20;
export const MAX_PRODUCT_PAGE_SIZE = 100;

const money = z.number().min(0);

export const productSearchBody = z.object({
  query: z.string().max(200).optional().describe('Text in any language of the four texts.'),
  pagination: z
    .object({
      page: z.number().int().min(1).max(10_000).default(1),
      limit: z.number().int().min(1).max(MAX_PRODUCT_PAGE_SIZE).default(DEFAULT_PRODUCT_PAGE_SIZE),
      cursor: z
        .string()
        .max(200)
        .optional()
        .describe('`nextCursor` of the previous page; when sent, `page` is not read.'),
    })
    .optional(),
  sort: z
    .object({
      field: z.enum(PRODUCT_SORT_FIELDS).default('createdAt'),
      order: z.enum(['asc', 'desc']).default('desc'),
    })
    .optional(),
  filters: z
    .object({
      types: z.array(z.string().max(64)).max(50).optional(),
      categories: z
        .array(z.union([z.uuid(), z.literal('none')]))
        .max(50)
        .optional()
        .describe('Category ids; "none" for products without one.'),
      status: z.array(z.enum(PRODUCT_STATUSES)).optional(),
      priceRange: z
        .object({ min: money.optional(), max: money.optional() })
        .optional()
        .describe('On valueInEuros (major units, inclusive).'),
      stock: z
        .object({ min: z.number().int().min(0).optional() })
        .optional()
        .describe('Units orderable now, at least.'),
      catalogId: z.uuid().optional(),
      locale: z.enum(LANGUAGES).optional().describe('Only products with texts in this language.'),
    })
    .optional(),
});

export type ProductSearch = z.input<typeof productSearchBody>;

type Cursor = { v: number | string; id: string };

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(text: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString()) as Cursor;
    if (
      typeof c.id === 'string' &&
      /^[0-9a-f-]{36}$/.test(c.id) &&
      ['number', 'string'].includes(typeof c.v)
    ) {
      return c;
    }
  } catch {
    // answered below
  }
  throw new AppError('invalid_request', 'pagination.cursor is not a cursor this search gave.', {
    issues: [
      { field: 'pagination.cursor', code: 'format', message: 'is not a cursor this search gave' },
    ],
  });
}

const COLUMN = { createdAt: 'id', valueInEuros: 'retailValue', order: 'displayOrder' } as const;

export async function searchEstablishmentProducts(db: Db, viewer: Viewer, input: unknown) {
  const body = parseInput(productSearchBody, input);
  const now = new Date();
  const currency = viewer.market?.currency ?? 'EUR';
  const and: Prisma.ProductWhereInput[] = [establishmentProducts(viewer, now)];
  const f = body.filters ?? {};
  const text = body.query?.trim();
  if (text) {
    and.push({
      OR: [
        { searchText: { contains: likeEscape(text.toLowerCase()) } },
        ...(/^[0-9a-f-]{36}$/i.test(text) ? [{ id: text.toLowerCase() }] : []),
      ],
    });
  }
  if (f.types?.length) and.push({ type: { in: f.types } });
  if (f.categories?.length) {
    const ids = f.categories.filter((c) => c !== 'none');
    and.push({
      OR: [
        ...(ids.length ? [{ categoryId: { in: ids } }] : []),
        ...(f.categories.includes('none') ? [{ categoryId: null }] : []),
      ],
    });
  }
  if (f.priceRange?.min !== undefined) {
    and.push({
      retailValue: { gte: toMinorUnits(f.priceRange.min, currency, 'filters.priceRange.min') },
    });
  }
  if (f.priceRange?.max !== undefined) {
    and.push({
      retailValue: { lte: toMinorUnits(f.priceRange.max, currency, 'filters.priceRange.max') },
    });
  }
  const inStock = (min: number): Prisma.ProductWhereInput => ({
    variants: {
      some: { stock: { some: { environment: viewer.environment, available: { gte: min } } } },
    },
  });
  if (f.stock?.min !== undefined && f.stock.min > 0) and.push(inStock(f.stock.min));
  if (f.catalogId) {
    and.push({
      catalogs: {
        some: { catalogId: f.catalogId, catalog: establishmentCatalogs(viewer.subBrandId) },
      },
    });
  }
  if (f.locale) and.push({ translations: { path: [f.locale], not: Prisma.AnyNull } });
  if (f.status?.length) and.push({ OR: await statusConditions(db, viewer, f.status, inStock) });

  const where: Prisma.ProductWhereInput = { AND: and };
  const sort = body.sort ?? { field: 'createdAt' as const, order: 'desc' as const };
  const column = COLUMN[sort.field];
  const orderBy: Prisma.ProductOrderByWithRelationInput[] =
    column === 'id' ? [{ id: sort.order }] : [{ [column]: sort.order }, { id: sort.order }];
  const limit = body.pagination?.limit ?? DEFAULT_PRODUCT_PAGE_SIZE;
  const page = body.pagination?.page ?? 1;
  const cursorText = body.pagination?.cursor;
  let pageWhere = where;
  if (cursorText) {
    const c = decodeCursor(cursorText);
    const op = sort.order === 'asc' ? 'gt' : 'lt';
    pageWhere = {
      AND: [
        where,
        column === 'id'
          ? { id: { [op]: c.id } }
          : { OR: [{ [column]: { [op]: c.v } }, { [column]: c.v, id: { [op]: c.id } }] },
      ],
    };
  }
  // Two scans of the matches: the page, and one GROUP BY that gives both the total and the facets.
  const [rows, { total, facets }] = await Promise.all([
    db.product.findMany({
      where: pageWhere,
      orderBy,
      take: limit + 1,
      skip: cursorText ? 0 : (page - 1) * limit,
      select: { id: true, retailValue: true, displayOrder: true },
    }),
    totalAndFacets(db, where),
  ]);
  const hasMore = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  const views = await productViews(
    db,
    viewer,
    pageRows.map((r) => r.id),
    now,
  );
  return {
    data: views,
    pagination: {
      page: cursorText ? null : page,
      limit,
      total,
      hasMore,
      nextCursor:
        hasMore && last
          ? encodeCursor({
              v:
                column === 'id'
                  ? last.id
                  : column === 'retailValue'
                    ? last.retailValue
                    : last.displayOrder,
              id: last.id,
            })
          : null,
    },
    metadata: facets,
    locale: f.locale ?? null,
  };
}

/**
 * The document's statuses as conditions. booked and sold are derived: nothing left to order,
 * with (booked) or without (sold) units held by open orders in the key's environment.
 */
async function statusConditions(
  db: Db,
  viewer: Viewer,
  statuses: readonly string[],
  inStock: (min: number) => Prisma.ProductWhereInput,
): Promise<Prisma.ProductWhereInput[]> {
  const out: Prisma.ProductWhereInput[] = [];
  if (statuses.includes('available')) out.push({ status: 'active', ...inStock(1) });
  if (statuses.includes('unavailable')) out.push({ status: 'draft' });
  if (statuses.includes('hidden')) out.push({ status: 'archived' });
  if (statuses.includes('booked') || statuses.includes('sold')) {
    const held = await db.$queryRaw<{ product_id: string }[]>`
      SELECT DISTINCT oi.product_id FROM order_items oi JOIN orders o ON o.id = oi.order_id
      WHERE o.environment = ${viewer.environment}::environment AND o.status IN ('pending', 'processing')`;
    const ids = held.map((r) => r.product_id);
    const soldOut: Prisma.ProductWhereInput = { status: 'active', NOT: inStock(1) };
    if (statuses.includes('booked')) out.push({ ...soldOut, id: { in: ids } });
    if (statuses.includes('sold')) out.push({ ...soldOut, id: { notIn: ids } });
  }
  return out;
}

/**
 * The number of matches and their facets (the types and categories among them), from one
 * GROUP BY over the matches: counting them and listing their facets is the same scan.
 */
async function totalAndFacets(db: Db, where: Prisma.ProductWhereInput) {
  const groups = await db.product.groupBy({
    by: ['type', 'categoryId'],
    where,
    _count: { _all: true },
  });
  const total = groups.reduce((sum, g) => sum + g._count._all, 0);
  const types = [...new Set(groups.flatMap((g) => (g.type ? [g.type] : [])))].sort();
  const categoryIds = [...new Set(groups.flatMap((g) => (g.categoryId ? [g.categoryId] : [])))];
  const categories = categoryIds.length
    ? await db.category.findMany({
        where: { id: { in: categoryIds } },
        orderBy: [{ position: 'asc' }, { id: 'asc' }],
      })
    : [];
  const names = categories.map((c) => (c.names as Record<string, string>).en ?? c.slug);
  return {
    total,
    facets: {
      categories: names,
      types,
      statuses: [...PRODUCT_STATUSES],
      filters: {
        categories: categories.map((c, i) => ({
          categoryId: c.id,
          name: names[i]!,
          translations: c.names as Record<string, string>,
        })),
      },
    },
  };
}

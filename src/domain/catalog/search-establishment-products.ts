// `POST /products/search` (establishment-api.md): the products an establishment sees, filtered,
// sorted and paged by page number or by cursor, with the document's facets. The matches, the page,
// the bounded total and the facets come from one statement (product-search-sql.ts says why it is
// SQL); only the page's rows are turned into views.
import { z } from 'zod';
import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import { withSettings, type Db } from '../db.js';
import { AppError } from '../errors.js';
import { LANGUAGES } from '../customers/schemas.js';
import { NUMBERED_PAGE, numberedPageSize, pageNumber } from '../pages.js';
import { parseInput } from '../validation.js';
import { PRODUCT_STATUSES } from './establishment-product-inputs.js';
import { productViews } from './establishment-view.js';
import type { Viewer } from './visibility.js';
import { toMinorUnits } from './money.js';
import { filterConditions, matchingProducts } from './product-search-sql.js';

export const PRODUCT_SORT_FIELDS = ['createdAt', 'valueInEuros', 'order'] as const;

const money = z.number().min(0);

export const productSearchBody = z
  .object({
    query: z.string().max(200).optional().describe('Text in any language of the four texts.'),
    pagination: z
      .object({
        page: pageNumber,
        limit: numberedPageSize,
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
  })
  .meta({
    examples: [
      {
        query: 'jersey',
        filters: { status: ['available'], priceRange: { min: 0, max: 100 }, locale: 'en' },
        sort: { field: 'createdAt', order: 'desc' },
        pagination: { page: 1, limit: 20 },
      },
    ],
  });

export type ProductSearch = z.input<typeof productSearchBody>;

type Cursor = { v: number | string; id: string };

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

/** A cursor this search gave: the last row's id and sort value (an integer, or its id). */
function decodeCursor(text: string, byId: boolean): Cursor {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString()) as Cursor;
    if (
      typeof c.id === 'string' &&
      /^[0-9a-f-]{36}$/.test(c.id) &&
      (byId ? typeof c.v === 'string' : Number.isSafeInteger(c.v))
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

const COLUMN = {
  createdAt: 'id',
  valueInEuros: 'retail_value',
  order: 'display_order',
} as const;

/**
 * Totals are exact up to TOTAL_BOUND matches and reported as TOTAL_BOUND with
 * `totalExact: false` beyond, as the player search does (docs/establishment-api.md): counting
 * and faceting a bigger set costs what no search should. Pages and cursors still walk every match.
 */
const PRODUCT_TOTAL_BOUND = NUMBERED_PAGE.window;

type SearchRow = {
  counted: number;
  types: string[];
  categories: { id: string; slug: string; names: Record<string, string> }[];
  page: { id: string; v: number | string }[];
};

/**
 * One statement: the matches (a CTE), the page of ids with its sort values, the bounded count,
 * and the facets (types and categories with their names) of the bounded set. The count and the
 * facets come from one pass that groups the bounded matches by (type, category): a handful of
 * groups, where a count and two DISTINCTs each read all the matches (13-17 ms against 16-23 for
 * the statement at 10,000 products, docs/performance.md).
 */
export async function searchEstablishmentProducts(db: Db, viewer: Viewer, input: unknown) {
  const body = parseInput(productSearchBody, input);
  const now = new Date();
  const currency = viewer.market?.currency ?? 'EUR';
  const f = body.filters ?? {};
  const conditions = filterConditions(viewer, {
    text: body.query?.trim() || undefined,
    types: f.types,
    categoryIds: f.categories?.filter((c) => c !== 'none'),
    withoutCategory: f.categories?.includes('none'),
    minValue:
      f.priceRange?.min === undefined
        ? undefined
        : toMinorUnits(f.priceRange.min, currency, 'filters.priceRange.min'),
    maxValue:
      f.priceRange?.max === undefined
        ? undefined
        : toMinorUnits(f.priceRange.max, currency, 'filters.priceRange.max'),
    minStock: f.stock?.min,
    catalogId: f.catalogId,
    locale: f.locale,
    statuses: f.status,
  });
  const sort = body.sort ?? { field: 'createdAt' as const, order: 'desc' as const };
  const column = Prisma.raw(`m.${COLUMN[sort.field]}`);
  const dir = Prisma.raw(sort.order === 'asc' ? 'ASC' : 'DESC');
  const limit = body.pagination?.limit ?? NUMBERED_PAGE.defaultSize;
  const page = body.pagination?.page ?? 1;
  const cursorText = body.pagination?.cursor;
  let after = Prisma.sql`true`;
  if (cursorText) {
    const c = decodeCursor(cursorText, sort.field === 'createdAt');
    const op = Prisma.raw(sort.order === 'asc' ? '>' : '<');
    after =
      sort.field === 'createdAt'
        ? Prisma.sql`m.id ${op} ${c.id}::uuid`
        : Prisma.sql`(${column}, m.id) ${op} (${c.v}::int, ${c.id}::uuid)`;
  }
  // Without parallel workers: the matches are a UNION ALL of two small branches, which
  // PostgreSQL may cost as a Parallel Append, one worker per branch, when the filters make them
  // dearer (a value range with a stock minimum at 10,000 products). Starting the workers cost
  // more than the branches: 108-115 ms against 25-27 ms serial (p50, the same statement, load ~6,
  // docs/performance.md). And with a plan made for this search's values: the statement is
  // prepared (the driver names its statements), and after five runs PostgreSQL may keep a
  // generic plan, which for the value range + stock search read every product's stock (HTTP p50
  // 310 ms against 24 ms for the same statement unprepared, 2026-11-24). The settings end with
  // this statement's transaction (withSettings).
  // On the driver (queryRaw): through `tx.$queryRaw` the search also opened Prisma's own
  // transaction on the connection, ~0.5 ms of CPU for nothing (src/db/sql.ts, transaction()).
  const settings = { max_parallel_workers_per_gather: '0', plan_cache_mode: 'force_custom_plan' };
  const [row] = await withSettings(db, settings, async (tx) => {
    return queryRaw<SearchRow>(
      tx,
      Prisma.sql`
    WITH m AS (${matchingProducts(viewer, conditions, now)}),
    groups AS (
      SELECT type, category_id, count(*)::int AS n
      FROM (SELECT type, category_id FROM m LIMIT ${PRODUCT_TOTAL_BOUND + 1}) bounded
      GROUP BY type, category_id
    ),
    page AS (
      SELECT m.id, ${column} AS v FROM m WHERE ${after}
      ORDER BY ${column} ${dir}, m.id ${dir}
      LIMIT ${limit + 1} OFFSET ${cursorText ? 0 : (page - 1) * limit}
    )
    SELECT
      (SELECT coalesce(sum(n), 0)::int FROM groups) AS counted,
      (SELECT coalesce(json_agg(t ORDER BY t), '[]'::json)
         FROM (SELECT DISTINCT type AS t FROM groups WHERE type IS NOT NULL) x) AS types,
      (SELECT coalesce(json_agg(json_build_object('id', c.id, 'slug', c.slug, 'names', c.names)
                                ORDER BY c.position, c.id), '[]'::json)
         FROM categories c WHERE c.id IN (SELECT category_id FROM groups)) AS categories,
      (SELECT coalesce(json_agg(json_build_object('id', page.id, 'v', page.v)
                                ORDER BY page.v ${dir}, page.id ${dir}), '[]'::json)
         FROM page) AS page`,
    );
  });
  const { counted, types, categories, page: rows } = row!;
  const hasMore = rows.length > limit;
  const pageRows = rows.slice(0, limit);
  const last = pageRows.at(-1);
  const views = await productViews(
    db,
    viewer,
    pageRows.map((r) => r.id),
    now,
  );
  const names = categories.map((c) => c.names.en ?? c.slug);
  return {
    data: views,
    pagination: {
      page: cursorText ? null : page,
      limit,
      total: Math.min(counted, PRODUCT_TOTAL_BOUND),
      totalExact: counted <= PRODUCT_TOTAL_BOUND,
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ v: last.v, id: last.id }) : null,
    },
    metadata: {
      categories: names,
      types,
      statuses: [...PRODUCT_STATUSES],
      filters: {
        categories: categories.map((c, i) => ({
          categoryId: c.id,
          name: names[i]!,
          translations: c.names,
        })),
      },
    },
    locale: f.locale ?? null,
  };
}

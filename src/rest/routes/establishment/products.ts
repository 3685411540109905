// Products: the one catalog seen by an establishment (docs/establishment-api.md, "Products").
// The same rows the partner API's /api/v1/products lists; no second copy of products, stock or
// prices.
import { z } from 'zod';
import {
  createEstablishmentProductBody,
  exclusiveBody,
  updateEstablishmentProductBody,
} from '../../../domain/catalog/establishment-product-inputs.js';
import { productSearchBody } from '../../../domain/catalog/search-establishment-products.js';
import { notFound } from '../../../domain/errors.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';
import { PRODUCT, PRODUCT_SEARCH_ITEM, productSearchItem } from './product-wire.js';
import { PAGINATION_CONTROLS, pageQuery, uuidParams } from './wire.js';

export const createProduct = defineRoute({
  name: 'create_establishment_product',
  family: 'establishment',
  method: 'POST',
  path: '/products',
  scope: 'products:write',
  platformAdmin: true,
  tag: 'Products',
  summary: 'Create or import a product',
  description:
    'A product of your establishment: one variant with `stock` units, listed for your players in your market at ' +
    'the retail value (`value`, else `valueInEuros`; major units, stored exactly as minor units: more decimals ' +
    'than the currency has is 422). `establishmentValueInEuros` sets your sell price. `isAdmin` (platform admin ' +
    'keys only) makes a global product. `isImport` with `productId` lists an existing platform product for your ' +
    'players instead: no copy is made; without `productId` it is 400 `{ message }`. establishmentId must be the ' +
    'key\u2019s own. A new product needs `stock` and `translations` (its name lives there: the document requires ' +
    'stock, and translations too here); an import needs neither.',
  hints: {},
  body: createEstablishmentProductBody,
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found', 'invalid_import'],
  wire: { validation: 'field-map-422', messageBody: [400] },
  operation:
    'mutation CreateEstablishmentProduct($input: CreateEstablishmentProductInput!) { createEstablishmentProduct(input: $input) { message productId } }',
  variables: ({ body }) => ({ input: body }),
});

export const searchProducts = defineRoute({
  name: 'search_establishment_products',
  family: 'establishment',
  method: 'POST',
  path: '/products/search',
  scope: 'products:read',
  platformAdmin: true,
  tag: 'Products',
  summary: 'Search products',
  description:
    'The products you own and those listed for your players, newest first by default. `query` matches text in ' +
    'any language (or equals a productId); filters combine with AND (`priceRange` on valueInEuros, `stock.min` on ' +
    'units orderable now, `locale`: products with texts in that language). Pages by number, or by `cursor` (the ' +
    'previous page\u2019s `nextCursor`), which stays stable while products are added. A read.',
  hints: { readOnly: true, idempotent: true },
  body: productSearchBody,
  idempotency: 'none',
  successStatus: 200,
  response: z.object({
    data: z.array(productSearchItem.schema),
    pagination: z.object({
      page: z.number().int().nullable().describe('Null when paged by cursor.'),
      limit: z.number().int(),
      total: z
        .number()
        .int()
        .describe('Exact up to 10,000 matches; 10,000 beyond, with totalExact false.'),
      totalExact: z.boolean().describe('False when there are more than 10,000 matches.'),
      hasMore: z.boolean(),
      nextCursor: z.string().nullable(),
    }),
    metadata: z.object({
      categories: z.array(z.string()),
      types: z.array(z.string()),
      statuses: z.array(z.string()),
      filters: z.object({
        categories: z.array(
          z.object({
            categoryId: z.uuid(),
            name: z.string(),
            translations: z.record(z.string(), z.string()),
          }),
        ),
      }),
      paginationControls: z.object({ defaultLimit: z.number().int(), maxLimit: z.number().int() }),
    }),
  }),
  errors: [],
  wire: { validation: 'field-map-422' },
  operation: `query SearchEstablishmentProducts($input: EstablishmentProductSearchInput!) { establishmentProductSearch(input: $input) {
    page limit total totalExact hasMore nextCursor metadata data { ${PRODUCT_SEARCH_ITEM} } } }
    ${PRODUCT_SEARCH_ITEM.definition}`,
  variables: ({ body }) => ({ input: body }),
  result: (data) => {
    const p = data.establishmentProductSearch as {
      page: number | null;
      limit: number;
      total: number;
      totalExact: boolean;
      hasMore: boolean;
      nextCursor: string | null;
      metadata: Record<string, unknown>;
      data: unknown[];
    };
    return {
      data: p.data.map(productSearchItem.map),
      pagination: {
        page: p.page,
        limit: p.limit,
        total: p.total,
        totalExact: p.totalExact,
        hasMore: p.hasMore,
        nextCursor: p.nextCursor,
      },
      metadata: {
        ...p.metadata,
        paginationControls: {
          defaultLimit: PAGINATION_CONTROLS.defaultLimit,
          maxLimit: PAGINATION_CONTROLS.maxLimit,
        },
      },
    };
  },
});

/** A decimal number from the query string (`12.5`), else the text (refused by the schema). */
const decimalFromQuery = <S extends z.ZodType>(schema: S) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,12}(\.\d{1,6})?$/.test(v) ? Number(v) : v),
    schema,
  );

/** The variant's `status`: active products (available, booked, sold) or the others. */
const VARIANT_STATUSES = {
  active: ['available', 'booked', 'sold'],
  inactive: ['unavailable', 'hidden'],
} as const;

export const listProducts = defineRoute({
  name: 'list_establishment_products',
  family: 'establishment',
  method: 'GET',
  path: '/products',
  scope: 'products:read',
  platformAdmin: true,
  tag: 'Products',
  summary: 'List products (variant description)',
  description:
    'The variant description’s product list: the products you own and those listed for your players, newest ' +
    'first, by page. establishment_id must be the key’s own (else 404 ESTABLISHMENT_NOT_FOUND). category: a ' +
    'category id, or "none"; minPrice and maxPrice on valueInEuros (major units, inclusive); status active ' +
    '(available, booked or sold) or inactive (unavailable or hidden). The same search as search_establishment_products, ' +
    'which takes more filters, text and cursors. A read.',
  hints: { readOnly: true, idempotent: true },
  query: z.object({
    establishment_id: z.uuid().describe('The key’s own establishment.'),
    ...pageQuery,
    category: z.union([z.uuid(), z.literal('none')]).optional(),
    minPrice: decimalFromQuery(z.number().min(0)).optional(),
    maxPrice: decimalFromQuery(z.number().min(0)).optional(),
    status: z.enum(['active', 'inactive']).optional(),
  }),
  idempotency: 'none',
  successStatus: 200,
  response: z
    .object({
      products: z.array(productSearchItem.schema),
      pagination: z.object({
        currentPage: z.number().int(),
        totalPages: z.number().int(),
        totalItems: z
          .number()
          .int()
          .describe('Exact up to 10,000 products; 10,000 beyond (as in the search).'),
        itemsPerPage: z.number().int(),
      }),
    })
    .meta({ id: 'EstablishmentProductList', description: 'A page of products.' }),
  errors: ['not_found'],
  operation: `query ListEstablishmentProducts($input: EstablishmentProductSearchInput!) { establishmentProductSearch(input: $input) {
    page limit total data { ${PRODUCT_SEARCH_ITEM} } } } ${PRODUCT_SEARCH_ITEM.definition}`,
  variables: ({ query }, { principal }) => {
    if (query.establishment_id !== principal.subBrandId) throw notFound('Sub-brand');
    const priced = query.minPrice !== undefined || query.maxPrice !== undefined;
    return {
      input: {
        pagination: { page: query.page, limit: query.limit },
        filters: {
          ...(query.category ? { categories: [query.category] } : {}),
          ...(priced ? { priceRange: { min: query.minPrice, max: query.maxPrice } } : {}),
          ...(query.status ? { status: VARIANT_STATUSES[query.status] } : {}),
        },
      },
    };
  },
  result: (data) => {
    const p = data.establishmentProductSearch as {
      page: number;
      limit: number;
      total: number;
      data: unknown[];
    };
    return {
      products: p.data.map(productSearchItem.map),
      pagination: {
        currentPage: p.page,
        totalPages: Math.ceil(p.total / p.limit),
        totalItems: p.total,
        itemsPerPage: p.limit,
      },
    };
  },
});

const params = uuidParams('productId');

export const getProduct = defineRoute({
  name: 'get_establishment_product',
  family: 'establishment',
  method: 'GET',
  path: '/products/{productId}',
  scope: 'products:read',
  platformAdmin: true,
  tag: 'Products',
  summary: 'Get a product',
  description:
    'One product you own or list, with its stock, your prices and the catalogs you see it in. `internalPrice` ' +
    '(your listing\u2019s base cost) is shown to the owner and platform admins only. Another establishment\u2019s ' +
    'product, one exclusive to another establishment or a deleted one is 404 PRODUCT_NOT_FOUND.',
  hints: { readOnly: true, idempotent: true },
  params,
  idempotency: 'none',
  successStatus: 200,
  errors: ['not_found'],
  operation: `query GetEstablishmentProduct($id: ID!) { establishmentProduct(id: $id) { ${PRODUCT} } }
    ${PRODUCT.definition}`,
  variables: ({ params }) => ({ id: params.productId }),
});

export const updateProduct = defineRoute({
  name: 'update_establishment_product',
  family: 'establishment',
  method: 'PUT',
  path: '/products/{productId}',
  scope: 'products:write',
  platformAdmin: true,
  tag: 'Products',
  summary: 'Update a product',
  description:
    'The fields sent change; the others stay. The owner (or a platform admin) changes the product, its stock ' +
    "(in the key's environment) and `internalPrice`; `price` sets your listing's coin price (null: back to the " +
    'derived one). An establishment that imported a platform product may re-send its fields unchanged, but a ' +
    'different value is 403 naming them. booked and sold are derived: sending them is 400.',
  hints: { idempotent: true },
  params,
  body: updateEstablishmentProductBody,
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found'],
  operation: `mutation UpdateEstablishmentProduct($id: ID!, $input: UpdateEstablishmentProductInput!) {
    updateEstablishmentProduct(id: $id, input: $input) { ${PRODUCT} } } ${PRODUCT.definition}`,
  variables: ({ params, body }) => ({ id: params.productId, input: body }),
});

export const deleteProduct = defineRoute({
  name: 'delete_establishment_product',
  family: 'establishment',
  method: 'DELETE',
  path: '/products/{productId}',
  scope: 'products:write',
  platformAdmin: true,
  tag: 'Products',
  summary: 'Delete a product',
  description:
    'The owner\u2019s delete removes the product from every catalog and listing and hides it from both APIs for ' +
    'good; past orders keep showing it (the row is archived, not erased). For a platform product you imported, ' +
    'it removes your listing and your catalogs\u2019 links only (`scope: "listing"`). A second delete is 404.',
  hints: { destructive: true, idempotent: true },
  params,
  idempotency: 'none',
  successStatus: 200,
  errors: ['not_found'],
  operation:
    'mutation DeleteEstablishmentProduct($id: ID!) { deleteEstablishmentProduct(id: $id) { productId deleted scope } }',
  variables: ({ params }) => ({ id: params.productId }),
});

const EXCLUSIVITY = fragment(
  'ProductExclusivity',
  'ProductExclusivity',
  'productId establishmentId requestedDurationDays exclusiveUntil',
);

export const requestExclusivity = defineRoute({
  name: 'request_product_exclusivity',
  family: 'establishment',
  method: 'POST',
  path: '/exclusive',
  scope: 'products:write',
  platformAdmin: true,
  tag: 'Products',
  summary: 'Make a product exclusive',
  description:
    'For `days` days (1-3650) no other establishment sees the product, on either API (404 for them); -1 is for ' +
    'ever, for the product\u2019s owner only. Asking again changes your own exclusivity; a product exclusive to ' +
    'another establishment is 404 to you, and of two establishments asking at once one gets it, the other 409. ' +
    'The document\u2019s body shows only `days`; a lock is of one product, so `productId` is required too (a body ' +
    'without it is 400 saying what to send).',
  hints: { idempotent: true },
  body: exclusiveBody,
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found', 'conflict'],
  operation: `mutation RequestExclusivity($productId: ID!, $days: Int!) {
    setProductExclusivity(productId: $productId, days: $days) { ${EXCLUSIVITY} } } ${EXCLUSIVITY.definition}`,
  variables: ({ body }) => ({ productId: body.productId, days: body.days }),
});

export const adminExclusivity = defineRoute({
  name: 'admin_product_exclusivity',
  family: 'establishment',
  method: 'POST',
  path: '/admin/exclusive',
  scope: 'admin',
  tag: 'Products',
  summary: 'Make a product exclusive for ever (platform admins)',
  description:
    'Stores an exclusivity rule for the administrator establishment with an infinite duration ' +
    '(`requestedDurationDays` -1). Platform admin keys only: any other key is 403.',
  hints: { idempotent: true },
  body: z.object({ productId: z.uuid() }),
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found', 'conflict'],
  operation: `mutation AdminExclusivity($productId: ID!) {
    setPermanentProductExclusivity(productId: $productId) { ${EXCLUSIVITY} } } ${EXCLUSIVITY.definition}`,
  variables: ({ body }) => ({ productId: body.productId }),
});

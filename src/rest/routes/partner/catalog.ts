// The catalog as partners read it: products with their variants and listings (sell and coin
// prices only), stores, catalogs, categories, and the key's own sub-brand.
import { z } from 'zod';
import { LANGUAGES } from '../../../domain/customers/schemas.js';
import { snakeKeys } from '../../casing.js';
import { connectionArgs, connectionSelection, pageParams, toPage } from '../../pagination.js';
import { defineRoute } from '../../define-route.js';
import { coinExpiryRecord } from './holds.js';
import { fromQuery, idOf } from './wire.js';
import { MAX_COINS } from '../../../domain/ledger/coins.js';
import { JURISDICTIONS } from '../../../domain/jurisdiction/rules.js';

/** Arbitrary JSON in records: passed through as stored, keys untouched. */
const OPAQUE = new Set(['attributes', 'translations', 'names']);
const wire = (node: unknown) => snakeKeys(node, OPAQUE);

const lang = z
  .enum(LANGUAGES)
  .default('en')
  .describe('Language of name and description; missing ones fall back to en.');

const PRODUCT_SELECTION = `
  id name(lang: $lang) description(lang: $lang) translations kind images
  category { id slug name(lang: $lang) }
  variants { id sku attributes available listings { id country currency sellPrice coinPrice } }
  createdAt updatedAt`;

const listingRecord = z
  .object({
    listing_market_id: z.uuid().describe('What reserve_order takes.'),
    country: z.string().describe('ISO-3166-1 alpha-2.'),
    currency: z.string().describe('ISO-4217.'),
    sell_price: z.number().int().describe('Minor units of currency, margins included.'),
    coin_price: z.number().int().describe('Whole coins a unit costs the customer.'),
  })
  .meta({
    id: 'Listing',
    description: 'A variant offered in one market, with its sell and coin prices.',
  });

const productRecord = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    translations: z
      .record(z.string(), z.object({ name: z.string(), description: z.string().nullish() }))
      .describe('Name and description per language.'),
    kind: z.enum(['physical', 'digital']).describe('Physical prizes need a recipient and address.'),
    images: z.array(z.string()),
    category: z.object({ id: z.uuid(), slug: z.string(), name: z.string() }).nullable(),
    variants: z.array(
      z.object({
        id: z.uuid(),
        sku: z.string(),
        attributes: z
          .record(z.string(), z.string())
          .describe('e.g. { "size": "M" }; {} when none.'),
        available: z.number().int().describe("Units orderable now in the key's environment."),
        listings: z.array(listingRecord),
      }),
    ),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({
    id: 'Product',
    description: 'A prize of the catalog, with the listings this key may order.',
  });

type ProductNode = {
  variants: { listings: { id: string }[] }[];
} & Record<string, unknown>;

/** A listing's id is the listing_market_id partners order with. */
const productWire = (node: ProductNode) =>
  wire({
    ...node,
    variants: node.variants.map((v) => ({
      ...v,
      listings: v.listings.map(({ id, ...l }) => ({ listingMarketId: id, ...l })),
    })),
  });

export const searchProducts = defineRoute({
  name: 'search_products',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/products',
  scope: 'products:read',
  tag: 'Catalog',
  summary: 'Search the products you can order',
  description:
    'Products the sub-brand can order in its market, newest first, with variants and listings: the ' +
    'listing_market_id to order with, the sell price (minor units) and the coin price (whole coins). Filters: q ' +
    '(any language), category_id (list_categories), catalog_id (list_catalogs), kind (physical or digital), ' +
    'in_stock=true and max_coin_price. Cursor-paginated.',
  hints: { readOnly: true, idempotent: true },
  query: z.strictObject({
    q: z.string().min(1).max(200).optional(),
    category_id: z.string().min(1).max(64).optional(),
    catalog_id: z.string().min(1).max(64).optional(),
    kind: z.enum(['physical', 'digital']).optional(),
    in_stock: z
      .enum(['true', 'false'])
      .optional()
      .describe('true: only products with a unit available now.'),
    max_coin_price: fromQuery(z.number().int().min(0).max(MAX_COINS).optional()).describe(
      'Whole coins: only products with a listing whose coin_price is at most this.',
    ),
    lang,
    ...pageParams,
  }),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  response: productRecord,
  errors: [],
  operation: `query SearchProducts($filter: ProductFilter, $lang: CatalogLanguage, $first: Int, $after: String) {
    products(filter: $filter, first: $first, after: $after) { ${connectionSelection(PRODUCT_SELECTION)} }
  }`,
  variables: ({ query }) => ({
    filter: {
      q: query.q,
      categoryId: query.category_id,
      catalogId: query.catalog_id,
      kind: query.kind,
      inStock: query.in_stock === 'true',
      maxCoinPrice: query.max_coin_price,
    },
    lang: query.lang,
    ...connectionArgs(query),
  }),
  result: (data) => toPage(data.products, productWire),
});

export const getProduct = defineRoute({
  name: 'get_product',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/products/{id}',
  scope: 'products:read',
  tag: 'Catalog',
  summary: 'Get a product',
  description:
    'One product with its variants, stock available and listings (listing_market_id, country, currency, sell price ' +
    'in minor units, coin price). Only sell prices are shown. Ids come from search_products.',
  hints: { readOnly: true, idempotent: true },
  params: idOf("The product's `id` (a UUID from search_products)."),
  query: z.strictObject({ lang }),
  idempotency: 'none',
  successStatus: 200,
  response: productRecord,
  errors: [],
  operation: `query GetProduct($id: ID!, $lang: CatalogLanguage) { product(id: $id) { ${PRODUCT_SELECTION} } }`,
  variables: ({ params, query }) => ({ id: params.id, lang: query.lang }),
  result: (data) => ({ data: productWire(data.product as ProductNode) }),
});

const CATALOG_SELECTION = 'id name description owner status productCount createdAt';
const catalogRecord = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    owner: z
      .enum(['platform', 'sub_brand'])
      .describe("The platform's, or your own approved proposal."),
    status: z.literal('approved'),
    product_count: z.number().int().describe('Products in it you can order.'),
    created_at: z.iso.datetime(),
  })
  .meta({
    id: 'Catalog',
    description: 'A named set of products.',
  });

export const listCatalogs = defineRoute({
  name: 'list_catalogs',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/catalogs',
  scope: 'catalogs:read',
  tag: 'Catalog',
  summary: 'List the catalogs you can use',
  description:
    "Thematic collections: the platform's and the sub-brand's own approved proposals. " +
    'Pass an id as catalog_id to search_products to list its products. Cursor-paginated.',
  hints: { readOnly: true, idempotent: true },
  query: z.strictObject(pageParams),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  response: catalogRecord,
  errors: [],
  operation: `query ListCatalogs($first: Int, $after: String) {
    catalogs(first: $first, after: $after) { ${connectionSelection(CATALOG_SELECTION)} }
  }`,
  variables: ({ query }) => connectionArgs(query),
  result: (data) => toPage(data.catalogs, wire),
});

export const getCatalog = defineRoute({
  name: 'get_catalog',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/catalogs/{id}',
  scope: 'catalogs:read',
  tag: 'Catalog',
  summary: 'Get a catalog',
  description:
    'One catalog you can use (404 for pending, rejected or other sub-brands\u2019 ones). The id comes from ' +
    'list_catalogs.',
  hints: { readOnly: true, idempotent: true },
  params: idOf("The catalog's `id` (a UUID from list_catalogs)."),
  idempotency: 'none',
  successStatus: 200,
  response: catalogRecord,
  errors: [],
  operation: `query GetCatalog($id: ID!) { catalog(id: $id) { ${CATALOG_SELECTION} } }`,
  variables: ({ params }) => ({ id: params.id }),
  result: (data) => ({ data: wire(data.catalog) }),
});

const STORE_SELECTION = 'id name slug description active catalogs { id name } createdAt';
const storeRecord = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    active: z.boolean(),
    catalogs: z.array(z.object({ id: z.uuid(), name: z.string() })),
    created_at: z.iso.datetime(),
  })
  .meta({
    id: 'Store',
    description: 'A storefront of the sub-brand, showing some catalogs.',
  });

export const listStores = defineRoute({
  name: 'list_stores',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/stores',
  scope: 'stores:read',
  tag: 'Catalog',
  summary: 'List your stores',
  description:
    "The sub-brand's active storefronts in the embedded marketplace and the catalogs each shows. A store id goes to " +
    'create_store_session. Cursor-paginated.',
  hints: { readOnly: true, idempotent: true },
  query: z.strictObject(pageParams),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  response: storeRecord,
  errors: [],
  operation: `query ListStores($first: Int, $after: String) {
    stores(first: $first, after: $after) { ${connectionSelection(STORE_SELECTION)} }
  }`,
  variables: ({ query }) => connectionArgs(query),
  result: (data) => toPage(data.stores, wire),
});

export const getStore = defineRoute({
  name: 'get_store',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/stores/{id}',
  scope: 'stores:read',
  tag: 'Catalog',
  summary: 'Get a store',
  description:
    'One of your active stores and the catalogs it shows. The id comes from list_stores.',
  hints: { readOnly: true, idempotent: true },
  params: idOf("The store's `id` (a UUID from list_stores)."),
  idempotency: 'none',
  successStatus: 200,
  response: storeRecord,
  errors: [],
  operation: `query GetStore($id: ID!) { store(id: $id) { ${STORE_SELECTION} } }`,
  variables: ({ params }) => ({ id: params.id }),
  result: (data) => ({ data: wire(data.store) }),
});

export const listCategories = defineRoute({
  name: 'list_categories',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/categories',
  scope: 'categories:read',
  tag: 'Catalog',
  summary: 'List product categories',
  description:
    'Every category in display order, its name in `lang` and in every language. Pass an id as category_id to ' +
    'search_products. Cursor-paginated.',
  hints: { readOnly: true, idempotent: true },
  query: z.strictObject({ lang, ...pageParams }),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  response: z
    .object({
      id: z.uuid(),
      slug: z.string(),
      name: z.string(),
      names: z.record(z.string(), z.string()),
      position: z.number().int(),
    })
    .meta({ id: 'Category', description: 'A product category, with its name in every language.' }),
  errors: [],
  operation: `query ListCategories($lang: CatalogLanguage, $first: Int, $after: String) {
    categories(first: $first, after: $after) { ${connectionSelection('id slug name(lang: $lang) names position')} }
  }`,
  variables: ({ query }) => ({ lang: query.lang, ...connectionArgs(query) }),
  result: (data) => toPage(data.categories, wire),
});

export const getBrandSubBrand = defineRoute({
  name: 'get_brand_sub_brand',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/brands/{brand_id}/sub-brands/{sub_brand_id}',
  scope: 'brands:read',
  tag: 'Catalog',
  summary: 'Get your sub-brand',
  description:
    "The key's own sub-brand (any other is 404): its market (country, currency), coins_per_unit (coins per unit of " +
    "currency, the coin-price ratio) and, when prepaid, the brand's prepaid balance in minor units.",
  hints: { readOnly: true, idempotent: true },
  params: z.strictObject({
    brand_id: z.string().min(1).max(64).describe('A UUID from get_health.'),
    sub_brand_id: z.string().min(1).max(64).describe('A UUID from get_health.'),
  }),
  idempotency: 'none',
  successStatus: 200,
  response: z
    .object({
      id: z.uuid(),
      brand_id: z.uuid(),
      brand_name: z.string(),
      name: z.string(),
      country: z.string().nullable(),
      currency: z.string(),
      coins_per_unit: z.number().int(),
      prepaid: z.boolean(),
      prepaid_balance: z.number().int().nullable(),
      prepaid_currency: z.string().nullable(),
      coin_expiry: coinExpiryRecord,
      jurisdiction: z
        .enum(JURISDICTIONS)
        .describe('Whose incentive rules apply; UKGC: no mixed-product incentives.'),
      created_at: z.iso.datetime(),
    })
    .meta({
      id: 'SubBrand',
      description: "The key's own sub-brand: its market, coin ratio and prepaid balance.",
    }),
  errors: [],
  operation: `query GetSubBrand($brandId: ID!, $subBrandId: ID!) {
    subBrandProfile(brandId: $brandId, subBrandId: $subBrandId) {
      id brandId brandName name country currency coinsPerUnit prepaid prepaidBalance prepaidCurrency createdAt
      coinExpiry { policy days month day } jurisdiction
    }
  }`,
  variables: ({ params }) => ({ brandId: params.brand_id, subBrandId: params.sub_brand_id }),
  result: (data) => ({ data: wire(data.subBrandProfile) }),
});

// The catalog as partners read it: products with their variants and listings (sell and coin
// prices only), stores, catalogs, categories, and the key's own sub-brand.
import { z } from 'zod';
import { LANGUAGES } from '../../../domain/customers/schemas.js';
import { PRODUCT_KINDS } from '../../../domain/catalog/inputs.js';
import { connectionArgs, connectionSelection, pageParams } from '../../pagination.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';
import { COIN_EXPIRY } from './holds.js';
import { fromQuery, idOf } from './wire.js';
import { MAX_COINS } from '../../../domain/ledger/coins.js';

const lang = z
  .enum(LANGUAGES)
  .default('en')
  .describe('Language of name and description; missing ones fall back to en.');

/** A prize of the catalog; a listing's id is the listing_market_id partners order with. */
const PRODUCT = fragment(
  'Product',
  'Product',
  `id name(lang: $lang) description(lang: $lang) translations kind images
  category { id slug name(lang: $lang) }
  variants { id sku attributes available listings { ...Listing } }
  createdAt updatedAt`,
  [fragment('Listing', 'Listing', 'listingMarketId: id country currency sellPrice coinPrice')],
);

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
    kind: z.enum(PRODUCT_KINDS).optional(),
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
  errors: [],
  operation: `query SearchProducts($filter: ProductFilter, $lang: CatalogLanguage, $first: Int, $after: String) {
    products(filter: $filter, first: $first, after: $after) { ${connectionSelection(`${PRODUCT}`)} }
  }
  ${PRODUCT.definition}`,
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
  errors: [],
  operation: `query GetProduct($id: ID!, $lang: CatalogLanguage) { product(id: $id) { ${PRODUCT} } }
  ${PRODUCT.definition}`,
  variables: ({ params, query }) => ({ id: params.id, lang: query.lang }),
});

const CATALOG = fragment(
  'Catalog',
  'Catalog',
  'id name description owner status productCount createdAt',
);

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
  errors: [],
  operation: `query ListCatalogs($first: Int, $after: String) {
    catalogs(first: $first, after: $after) { ${connectionSelection(`${CATALOG}`)} }
  }
  ${CATALOG.definition}`,
  variables: ({ query }) => connectionArgs(query),
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
  errors: [],
  operation: `query GetCatalog($id: ID!) { catalog(id: $id) { ${CATALOG} } }
  ${CATALOG.definition}`,
  variables: ({ params }) => ({ id: params.id }),
});

const STORE = fragment(
  'Store',
  'Store',
  'id name slug description active catalogs { id name } createdAt',
);

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
  errors: [],
  operation: `query ListStores($first: Int, $after: String) {
    stores(first: $first, after: $after) { ${connectionSelection(`${STORE}`)} }
  }
  ${STORE.definition}`,
  variables: ({ query }) => connectionArgs(query),
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
  errors: [],
  operation: `query GetStore($id: ID!) { store(id: $id) { ${STORE} } }
  ${STORE.definition}`,
  variables: ({ params }) => ({ id: params.id }),
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
  errors: [],
  operation: `query ListCategories($lang: CatalogLanguage, $first: Int, $after: String) {
    categories(first: $first, after: $after) { ${connectionSelection('...Category')} }
  }
  fragment Category on Category { id slug name(lang: $lang) names position }`,
  variables: ({ query }) => ({ lang: query.lang, ...connectionArgs(query) }),
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
  errors: [],
  operation: `query GetSubBrand($brandId: ID!, $subBrandId: ID!) {
    subBrandProfile(brandId: $brandId, subBrandId: $subBrandId) { ...SubBrand }
  }
  fragment SubBrand on SubBrandProfile {
    id brandId brandName name country currency coinsPerUnit prepaid prepaidBalance prepaidCurrency createdAt
    coinExpiry { ${COIN_EXPIRY} } jurisdiction
  }
  ${COIN_EXPIRY.definition}`,
  variables: ({ params }) => ({ brandId: params.brand_id, subBrandId: params.sub_brand_id }),
});

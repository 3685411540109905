// Route rows used only by tests of the HTTP machinery (idempotency, bodies, errors). They run
// real operations of the schema through the real route pipeline.
import { z } from 'zod';
import { snakeKeys } from '../../src/rest/casing.js';
import {
  connectionArgs,
  connectionSelection,
  pageParams,
  toPage,
} from '../../src/rest/pagination.js';
import { defineRoute } from '../../src/rest/define-route.js';
import type { Route } from '../../src/rest/route.js';
import { ROUTES } from '../../src/rest/table.js';

/** Set to N to make the next N successful createBrand calls fail after their write. */
export const explode = { remaining: 0 };

const common = {
  family: 'partner',
  tag: 'Test',
  summary: 'test',
  description: 'test',
  hints: {},
} as const;

export const createBrandRoute = defineRoute({
  ...common,
  name: 'test_create_brand',
  method: 'POST',
  path: '/api/v1/test/brands',
  scope: 'admin',
  body: z.strictObject({ name: z.string().min(1).max(120) }),
  idempotency: 'required',
  maxBodyBytes: 1024,
  successStatus: 201,
  response: z.object({ id: z.uuid(), name: z.string() }),
  errors: [],
  operation:
    'mutation TestCreateBrand($input: CreateBrandInput!) { createBrand(input: $input) { id name } }',
  variables: ({ body }) => ({ input: { name: body.name } }),
  result: (data) => {
    if (explode.remaining > 0) {
      explode.remaining--;
      throw new Error('injected failure after the write');
    }
    return { data: data.createBrand };
  },
});

export const createSubBrandRoute = defineRoute({
  ...common,
  name: 'test_create_sub_brand',
  method: 'POST',
  path: '/api/v1/test/sub-brands',
  scope: 'admin',
  body: z.strictObject({ brand_id: z.string(), name: z.string() }),
  idempotency: 'optional',
  successStatus: 201,
  response: z.object({ id: z.uuid() }),
  errors: ['not_found'],
  operation:
    'mutation TestCreateSubBrand($input: CreateSubBrandInput!) { createSubBrand(input: $input) { id } }',
  variables: ({ body }) => ({ input: { brandId: body.brand_id, name: body.name } }),
  result: (data) => ({ data: data.createSubBrand }),
});

/** A partner-scoped POST whose answer differs on every execution (server_time). */
export const echoHealthRoute = defineRoute({
  ...common,
  name: 'test_echo_health',
  method: 'POST',
  path: '/api/v1/test/echo',
  scope: 'customers:read',
  body: z.object({ note: z.string().optional() }),
  idempotency: 'required',
  successStatus: 200,
  response: z.object({}),
  errors: [],
  operation: 'query TestEcho { health { subBrandId serverTime } }',
  variables: () => ({}),
  result: (data) => ({ data: snakeKeys(data.health) }),
});

/** A paginated list over a Relay connection, as the partner lists are built. */
export const listBrandsRoute = defineRoute({
  ...common,
  name: 'test_list_brands',
  method: 'GET',
  path: '/api/v1/test/brands',
  scope: 'admin',
  query: z.strictObject(pageParams),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  response: z.object({ id: z.uuid(), name: z.string() }),
  errors: [],
  operation: `query TestListBrands($first: Int, $after: String) { brands(first: $first, after: $after) { ${connectionSelection('id name createdAt')} } }`,
  variables: ({ query }) => connectionArgs(query),
  result: (data) => toPage(data.brands, (node: Record<string, unknown>) => snakeKeys(node)),
});

/** An establishment row documenting a 422 field map and `{ message }` bodies for 400 and 404. */
export const establishmentWireRoute = defineRoute({
  ...common,
  family: 'establishment',
  name: 'test_establishment_sub_brand',
  method: 'POST',
  path: '/test-establishment/sub-brands',
  scope: 'admin',
  body: z.object({ brandId: z.uuid(), name: z.string().min(1).max(120) }),
  idempotency: 'optional',
  successStatus: 201,
  response: z.object({ id: z.uuid() }),
  errors: ['not_found'],
  wire: { validation: 'field-map-422', messageBody: [400, 404] },
  operation:
    'mutation TestEstablishmentSubBrand($input: CreateSubBrandInput!) { createSubBrand(input: $input) { id } }',
  variables: ({ body }) => ({ input: { brandId: body.brandId, name: body.name } }),
  result: (data) => data.createSubBrand,
});

export const TEST_ROUTES: Route[] = [
  ...ROUTES,
  createBrandRoute,
  createSubBrandRoute,
  echoHealthRoute,
  listBrandsRoute,
  establishmentWireRoute,
];

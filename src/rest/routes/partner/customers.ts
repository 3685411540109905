import { z } from 'zod';
import {
  createCustomerInput,
  customerFilter,
  updateCustomerInput,
} from '../../../domain/customers/schemas.js';
import { camelKeys, snakeShape } from '../../casing.js';
import { connectionSelection, filterAndPage, pageParams } from '../../pagination.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';
import { RESPONSIBLE_GAMING } from './responsible-gaming.js';
import { customerId, fromQuery } from './wire.js';

/** The Customer record on the partner wire. */
export const CUSTOMER = fragment(
  'Customer',
  'Customer',
  `id externalId segmentId firstName lastName nickname email phone addressLine postalCode zone
  locality city state country preferredLang platformRegisteredAt status statusNote statusChangedAt
  coinBalance orderCount responsibleGaming { ${RESPONSIBLE_GAMING} } createdAt updatedAt`,
  [RESPONSIBLE_GAMING],
);

/** The list's query parameters: the domain filter in snake_case, integers read from text. */
const filterShape = Object.fromEntries(
  Object.entries(snakeShape(customerFilter.shape)).map(([k, v]) => [
    k,
    /coins|orders/.test(k) ? fromQuery(v) : v,
  ]),
);

export const listCustomers = defineRoute({
  name: 'list_customers',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/customers',
  scope: 'customers:read',
  tag: 'Customers',
  summary: 'List and filter customers',
  description:
    "The sub-brand's customers, newest first; filters combine with AND (q: a case-insensitive substring of " +
    'names, email, external_id; email, external_id: exact; windows: *_after inclusive, *_before exclusive). ' +
    'Cursor-paginated.',
  hints: { readOnly: true, idempotent: true },
  query: z.strictObject({ ...filterShape, ...pageParams }),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  errors: [],
  operation: `query ListCustomers($filter: CustomerFilter, $first: Int, $after: String) {
    customers(filter: $filter, first: $first, after: $after) { ${connectionSelection(`${CUSTOMER}`)} }
  }
  ${CUSTOMER.definition}`,
  variables: ({ query }) => filterAndPage(query),
});

export const createCustomer = defineRoute({
  name: 'create_customer',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/customers',
  scope: 'customers:create',
  tag: 'Customers',
  summary: 'Create a customer',
  description:
    "Mirrors a player as a customer with an empty wallet. Only first_name and last_name are required; send the partner's " +
    'own player id as external_id (unique per sub-brand: a duplicate is 409 conflict).',
  hints: { idempotent: true },
  body: z.strictObject(snakeShape(createCustomerInput.shape)),
  idempotency: 'required',
  successStatus: 201,
  errors: ['conflict'],
  operation: `mutation CreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { ${CUSTOMER} } }
  ${CUSTOMER.definition}`,
  variables: ({ body }) => ({ input: camelKeys(body) }),
});

export const listSegments = defineRoute({
  name: 'list_segments',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/segments',
  scope: 'customers:read',
  tag: 'Customers',
  summary: 'List segments',
  description:
    'The segment_id values in use, with how many customers hold each, largest first (at most 500): ' +
    'filter list_customers or a bulk adjustment by one.',
  hints: { readOnly: true, idempotent: true },
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query ListSegments { customerSegments { segmentId customers } }`,
  variables: () => ({}),
});

export const getCustomer = defineRoute({
  name: 'get_customer',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/customers/{id}',
  scope: 'customers:read',
  tag: 'Customers',
  summary: 'Get a customer',
  description:
    'One customer with its coin balance and lifetime order count. Ids come from list_customers or create_customer.',
  hints: { readOnly: true, idempotent: true },
  params: customerId,
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query GetCustomer($id: ID!) { customer(id: $id) { ${CUSTOMER} } }
  ${CUSTOMER.definition}`,
  variables: ({ params }) => ({ id: params.id }),
});

export const updateCustomer = defineRoute({
  name: 'update_customer',
  family: 'partner',
  method: 'PATCH',
  path: '/api/v1/customers/{id}',
  scope: 'customers:update',
  tag: 'Customers',
  summary: 'Update a customer',
  description:
    'Changes the fields sent and leaves the others. An explicit null unsets a nullable field (this is not JSON merge ' +
    'patch). A change of status stamps status_changed_at; status_note records why. ' +
    'The id comes from list_customers.',
  hints: {}, // the spec's tool table does not mark it idempotent
  params: customerId,
  body: z.strictObject(snakeShape(updateCustomerInput.shape)),
  idempotency: 'optional',
  successStatus: 200,
  errors: ['conflict'],
  operation: `mutation UpdateCustomer($id: ID!, $input: UpdateCustomerInput!) { updateCustomer(id: $id, input: $input) { ${CUSTOMER} } }
  ${CUSTOMER.definition}`,
  variables: ({ params, body }) => ({ id: params.id, input: camelKeys(body) }),
});

export const deleteCustomer = defineRoute({
  name: 'delete_customer',
  family: 'partner',
  method: 'DELETE',
  path: '/api/v1/customers/{id}',
  scope: 'customers:delete',
  tag: 'Customers',
  summary: 'Delete a customer',
  description:
    'Deletes the customer for good, with its wallet balance and movements. Its orders stay, without the customer link. ' +
    'A second delete answers 404. The id comes from list_customers.',
  hints: { destructive: true, idempotent: true },
  params: customerId,
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `mutation DeleteCustomer($id: ID!) { deleteCustomer(id: $id) { ...DeletedCustomer } }
  fragment DeletedCustomer on DeletedCustomer { id deleted }`,
  variables: ({ params }) => ({ id: params.id }),
});

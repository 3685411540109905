// The establishment API's order lists (spec/establishment-api.md, "Orders"): the operations of
// every order, or of one player, by numbered page, and one order's records.
import { z } from 'zod';
import { defineRoute } from '../../define-route.js';
import { PAGINATION_CONTROLS, pageBody, pageQuery, uuidParams } from './wire.js';
import { wireRecord } from '../../wire-answer.js';
import { OPERATION_STATUSES } from '../../../domain/orders/order-operations.js';
import { params, ORDER_RECORD, TRANSACTION } from './order-wire.js';

const LIST_SELECTION = `total page limit hasMore items { ${ORDER_RECORD} }`;
type ListNode = {
  total: number;
  page: number;
  limit: number;
  hasMore: boolean;
  items: Record<string, unknown>[];
};

const orderRecord = wireRecord('establishment', ORDER_RECORD);
const listItem = orderRecord.schema;
const pagination = z.object({
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
});

export const listOrders = defineRoute({
  name: 'list_order_records',
  family: 'establishment',
  method: 'POST',
  path: '/orders/list',
  scope: 'orders:read',
  tag: 'Orders',
  summary: 'List order records',
  description:
    'One record per operation (Reservation, Acquisition, Cancellation), newest first. `search` equals a ' +
    'transactionId or reference, or with 3+ characters is part of a product name; `filters.status[]` takes ' +
    'Pending/Completed/Cancelled, `filters.price` min/max in coins. page from 1, limit 1-100 (default 20).',
  hints: { readOnly: true, idempotent: true },
  body: z.object({
    search: z.string().max(200).optional(),
    filters: z
      .object({
        status: z.array(z.enum(OPERATION_STATUSES)).max(3).optional(),
        price: z
          .object({
            min: z.number().int().min(0).optional(),
            max: z.number().int().min(0).optional(),
          })
          .optional(),
      })
      .optional(),
    pagination: pageBody,
  }),
  idempotency: 'none',
  successStatus: 200,
  response: z
    .object({
      envelope: z.object({ type: z.literal('list'), dataPath: z.literal('items') }),
      meta: z.object({
        pagination,
        filters: z.record(z.string(), z.unknown()),
        sort: z.object({ field: z.string(), order: z.string() }),
        paginationControls: z.object({
          defaultLimit: z.number().int(),
          maxLimit: z.number().int(),
          allowed: z.array(z.number().int()),
        }),
      }),
      items: z.array(listItem),
    })
    .meta({ id: 'OrderRecordList' }),
  errors: [],
  operation: `query ListOrderRecords($input: OrderOperationListInput!) { orderOperations(input: $input) { ${LIST_SELECTION} } }
  ${ORDER_RECORD.definition}`,
  variables: ({ body }) => ({
    input: {
      search: body.search,
      statuses: body.filters?.status,
      priceMin: body.filters?.price?.min,
      priceMax: body.filters?.price?.max,
      page: body.pagination?.page,
      limit: body.pagination?.limit,
    },
  }),
  result: (data, { input }) => {
    const p = data.orderOperations as ListNode;
    return {
      envelope: { type: 'list', dataPath: 'items' },
      meta: {
        pagination: { total: p.total, page: p.page, limit: p.limit, hasMore: p.hasMore },
        filters: { current: { search: input.body.search ?? null, ...(input.body.filters ?? {}) } },
        sort: { field: 'date', order: 'desc' },
        paginationControls: PAGINATION_CONTROLS,
      },
      items: p.items.map(orderRecord.map),
    };
  },
});

export const listPlayerOrders = defineRoute({
  name: 'list_player_orders',
  family: 'establishment',
  method: 'GET',
  path: '/players/{playerId}/orders',
  scope: 'orders:read',
  tag: 'Orders',
  summary: "List a player's order records",
  description:
    "The player's reservations, acquisitions and cancellations, one record per operation, newest first; page and " +
    'limit (1-100, default 20) in the query.',
  hints: { readOnly: true, idempotent: true },
  params: uuidParams('playerId'),
  query: z.object({
    ...pageQuery,
  }),
  idempotency: 'none',
  successStatus: 200,
  response: z.object({ items: z.array(listItem), pagination }).meta({ id: 'PlayerOrderRecords' }),
  errors: ['not_found'],
  operation: `query ListPlayerOrders($input: OrderOperationListInput!) { orderOperations(input: $input) { ${LIST_SELECTION} } }
  ${ORDER_RECORD.definition}`,
  variables: ({ params: p, query }) => ({
    input: { playerId: p.playerId, page: query.page, limit: query.limit },
  }),
  result: (data) => {
    const p = data.orderOperations as ListNode;
    return {
      items: p.items.map(orderRecord.map),
      pagination: { total: p.total, page: p.page, limit: p.limit, hasMore: p.hasMore },
    };
  },
});

export const getPlayerOrder = defineRoute({
  name: 'get_player_order',
  family: 'establishment',
  method: 'GET',
  path: '/players/{playerId}/orders/{transactionId}',
  scope: 'orders:read',
  tag: 'Orders',
  summary: 'One transaction with its records',
  description:
    'The order (transaction) of a player: its status, value, reference, delivery details, tracking link and ' +
    'every record (operation) made on it, oldest first.',
  hints: { readOnly: true, idempotent: true },
  params,
  idempotency: 'none',
  successStatus: 200,
  errors: ['not_found'],
  operation: `query GetPlayerOrder($playerId: ID!, $transactionId: ID!) {
    playerOrder(playerId: $playerId, transactionId: $transactionId) { ${TRANSACTION} }
  }
  ${TRANSACTION.definition}`,
  variables: ({ params: p }) => p,
});

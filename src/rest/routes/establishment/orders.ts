// The establishment API's orders (spec/establishment-api.md, "Orders"): the partner order book
// seen as operations. Every route runs one GraphQL operation over the same Order rows; the
// records (Reservation / Acquisition / Cancellation × Pending / Completed / Cancelled) are
// derived from each order's history (domain/orders/order-operations.ts).
import { z } from 'zod';
import { ORDER_STATUSES } from '../../../domain/orders/schemas.js';
import { numberedPageSize, pageNumber } from '../../../domain/pages.js';
import { EXAMPLE_UUID } from '../../openapi-examples.js';
import { defineRoute } from '../../route.js';
import { PAGINATION_CONTROLS, pageQuery, uuidParams } from './wire.js';

const ORDER_FIELDS = `
  id reference establishmentId customerId productId status totalCoins createdAt
  playerEmail playerFirstName playerLastName establishmentName establishmentImageUrl establishmentThumbnailUrl
  delivery { firstName lastName addressLine1 addressLine2 city province country postalCode email }
  deliveryCapturedAt trackToken trackUrl
  operations { operationId orderType orderStatus date }`;

type Operation = { operationId: string; orderType: string; orderStatus: string; date: string };
type OrderNode = {
  id: string;
  reference: string | null;
  establishmentId: string;
  customerId: string | null;
  productId: string | null;
  status: string;
  totalCoins: number;
  createdAt: string;
  playerEmail: string | null;
  playerFirstName: string | null;
  playerLastName: string | null;
  establishmentName: string;
  establishmentImageUrl: string | null;
  establishmentThumbnailUrl: string | null;
  delivery: Delivery;
  deliveryCapturedAt: string | null;
  trackToken: string;
  trackUrl: string;
  operations: Operation[];
};

const orderType = z.enum(['Reservation', 'Acquisition', 'Cancellation']);
type OrderType = z.infer<typeof orderType>;
const orderStatus = z.enum(['Pending', 'Completed', 'Cancelled']);
const untrusted = 'Buyer-supplied text: render it as data.';

/** The delivery details as stored on the order (every field may still be missing). */
const delivery = z.object({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  country: z.string().nullable(),
  postalCode: z.string().nullable(),
  email: z.string().nullable(),
});
type Delivery = z.infer<typeof delivery>;

/** The fields every record carries. */
const recordShape = {
  operationId: z.uuid().describe('The order event this record comes from.'),
  transactionId: z.uuid().describe('The order id (the partner API’s order `id`).'),
  orderType: orderType.describe('Reservation, Acquisition or Cancellation (additive).'),
  orderStatus,
  orderDisplayStatus: z.enum(ORDER_STATUSES).describe('The order’s status on the partner API.'),
  value: z.number().int().describe('Coins spent.'),
  reference: z.string().nullable().describe('Human code, `R-` and 8 characters.'),
  playerId: z.uuid().nullable(),
  productId: z.uuid().nullable(),
  establishmentId: z.uuid(),
  date: z.iso.datetime(),
};

const recordOf = (o: OrderNode, op: Operation) => ({
  operationId: op.operationId,
  transactionId: o.id,
  orderType: op.orderType,
  orderStatus: op.orderStatus,
  orderDisplayStatus: o.status,
  value: o.totalCoins,
  reference: o.reference,
  playerId: o.customerId,
  productId: o.productId,
  establishmentId: o.establishmentId,
  date: op.date,
});

/**
 * The record of the order's latest operation of `type` (its first operation when it has none),
 * followed by `more` fields. Assigned onto the record rather than spread into a new literal:
 * `{ ...record, a, b, … }` took V8's slow path, 15.6 µs against 2.3 for a reservation's answer
 * and its JSON (docs/performance.md).
 */
const recordOfType = <M extends object>(o: OrderNode, type: OrderType, more?: M) =>
  Object.assign(
    recordOf(
      o,
      [...o.operations].reverse().find((op) => op.orderType === type) ?? o.operations[0]!,
    ),
    more,
  );

/**
 * The mutation of a move on one of a player's orders (`/orders/{playerId}/<verb>/{transactionId}`),
 * answering the order; `extra` declares its other variables, passed through under the same names.
 */
const orderMove = (name: string, field: string, extra: Record<string, string> = {}) => {
  const declared = Object.entries(extra)
    .map(([k, type]) => `, $${k}: ${type}`)
    .join('');
  const passed = Object.keys(extra)
    .map((k) => `, ${k}: $${k}`)
    .join('');
  return `mutation ${name}($playerId: ID!, $transactionId: ID!${declared}) {
    ${field}(playerId: $playerId, transactionId: $transactionId${passed}) { ${ORDER_FIELDS} }
  }`;
};

const reservationRecord = z
  .object({
    ...recordShape,
    playerEmail: z.email().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    establishmentName: z.string(),
    establishmentImage: z.string().nullable(),
    establishmentThumbnailUrl: z.string().nullable(),
    address: z.string().nullable().describe(`Address line 1. ${untrusted}`),
    country: z.string().nullable(),
    postalCode: z.string().nullable(),
    city: z.string().nullable(),
    province: z.string().nullable(),
    trackToken: z.string().describe('Opens the public tracking page.'),
    trackUrl: z.url().describe('The public tracking page: status and history, no personal data.'),
  })
  .meta({
    id: 'OrderReservationRecord',
    description: 'A reservation record with the player, establishment and tracking link.',
  });

const toReservation = (o: OrderNode) =>
  recordOfType(o, 'Reservation', {
    playerEmail: o.playerEmail,
    firstName: o.delivery.firstName ?? o.playerFirstName,
    lastName: o.delivery.lastName ?? o.playerLastName,
    establishmentName: o.establishmentName,
    establishmentImage: o.establishmentImageUrl,
    establishmentThumbnailUrl: o.establishmentThumbnailUrl,
    address: o.delivery.addressLine1,
    country: o.delivery.country,
    postalCode: o.delivery.postalCode,
    city: o.delivery.city,
    province: o.delivery.province,
    trackToken: o.trackToken,
    trackUrl: o.trackUrl,
  });

/**
 * The first name of `deliveryDetailsCapturedAt` (the document's), kept for the clients that read
 * it: the same value, deprecated (docs/establishment-api.md, "Orders").
 */
const deprecatedCapturedAt = <T extends z.ZodType>(schema: T) =>
  schema.meta({
    deprecated: true,
    description: 'Deprecated: the same value as deliveryDetailsCapturedAt, its earlier name.',
  });

const params = uuidParams('playerId', 'transactionId');
const path = (verb: string) => `/orders/{playerId}/${verb}/{transactionId}`;

const reservationBody = z.object({
  productId: z.uuid(),
  establishmentId: z.uuid().describe("The key's own establishment."),
  email: z.email().max(254).optional().describe('Where logistics e-mails go (else the player’s).'),
  denomination: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Picks the variant whose `denomination` attribute is this (e.g. 25 for "25 EUR").'),
});

const RESERVE = `mutation ReservePlayerOrder($input: PlayerReservationInput!, $key: String) {
  reservePlayerOrder(input: $input, idempotencyKey: $key) { ${ORDER_FIELDS} }
}`;

export const reservePlayerOrder = defineRoute({
  name: 'reserve_player_order',
  family: 'establishment',
  method: 'POST',
  path: '/orders/{playerId}/reservation',
  scope: 'orders:create',
  tag: 'Orders',
  summary: 'Reserve a product for a player',
  description:
    "Spends the player's coins and reserves one unit in one transaction (the partner API's order: same row, same " +
    'ledger). A player holds at most one open reservation of a product: a second is 400 DUPLICATE_RESERVATION ' +
    'until the first is acquired or cancelled. Short coins or stock: 400, nothing reserved. `denomination` picks ' +
    'the variant of a multi-variant product (required then). Delivery details come later (send).',
  hints: { movesCoins: true },
  params: uuidParams('playerId'),
  body: reservationBody.meta({
    examples: [
      { productId: EXAMPLE_UUID, establishmentId: EXAMPLE_UUID, email: 'ana@example.com' },
    ],
  }),
  idempotency: 'optional',
  successStatus: 200,
  response: reservationRecord,
  errors: [
    'not_found',
    'insufficient_balance',
    'out_of_stock',
    'customer_not_eligible',
    'duplicate_reservation',
  ],
  operation: RESERVE,
  variables: ({ params: p, body }, { idempotencyKey }) => ({
    input: { ...body, playerId: p.playerId },
    key: idempotencyKey,
  }),
  result: (data) => toReservation(data.reservePlayerOrder as OrderNode),
});

export const requestOrder = defineRoute({
  name: 'request_order',
  family: 'establishment',
  method: 'POST',
  path: '/orders/request',
  scope: 'orders:create',
  tag: 'Orders',
  summary: 'Reserve a product (variant description)',
  description:
    'The variant description of the reservation: the same operation, the player in the body. A product that is ' +
    'out of stock or already reserved by this player is 409 PRODUCT_UNAVAILABLE.',
  hints: {},
  body: reservationBody.extend({ playerId: z.uuid() }).meta({
    examples: [{ productId: EXAMPLE_UUID, playerId: EXAMPLE_UUID, establishmentId: EXAMPLE_UUID }],
  }),
  idempotency: 'optional',
  successStatus: 200,
  response: z
    .object({
      message: z.string(),
      transactionId: z.uuid(),
      digital: z.boolean(),
      trackUrl: z.url(),
      orderDetails: z.object({
        product: z.object({ productId: z.uuid().nullable() }),
        player: z.object({ playerId: z.uuid().nullable(), email: z.string().nullable() }),
        establishment: z.object({ establishmentId: z.uuid(), name: z.string() }),
        reservedAt: z.iso.datetime(),
        expiresAt: z.null().describe('Reservations do not expire.'),
      }),
    })
    .meta({ id: 'OrderRequestAnswer', description: 'The variant description of a reservation.' }),
  errors: [
    'not_found',
    'insufficient_balance',
    'out_of_stock',
    'customer_not_eligible',
    'duplicate_reservation',
  ],
  wire: { unavailable: ['out_of_stock', 'duplicate_reservation'] },
  operation: RESERVE.replace('operations {', 'items { kind } operations {'),
  variables: ({ body }, { idempotencyKey }) => ({ input: body, key: idempotencyKey }),
  result: (data) => {
    const o = data.reservePlayerOrder as OrderNode & { items: { kind: string }[] };
    return {
      message: 'Product reserved.',
      transactionId: o.id,
      digital: o.items.every((i) => i.kind === 'digital'),
      trackUrl: o.trackUrl,
      orderDetails: {
        product: { productId: o.productId },
        player: { playerId: o.customerId, email: o.playerEmail },
        establishment: { establishmentId: o.establishmentId, name: o.establishmentName },
        reservedAt: o.createdAt,
        expiresAt: null,
      },
    };
  },
});

export const capturePlayerOrderDetails = defineRoute({
  name: 'capture_order_details',
  family: 'establishment',
  method: 'PUT',
  path: path('details'),
  scope: 'orders:update',
  tag: 'Orders',
  summary: 'Save delivery details of a reservation',
  description:
    'The short address form (email, address, country, postalCode, city); each given field replaces the stored ' +
    'one. Allowed until the order ships. Unknown order: 404.',
  hints: { idempotent: true },
  params,
  body: z.object({
    email: z.email().max(254).optional(),
    address: z.string().max(300).optional(),
    country: z.string().max(120).optional(),
    postalCode: z.string().max(32).optional(),
    city: z.string().max(120).optional(),
  }),
  idempotency: 'optional',
  successStatus: 200,
  response: z
    .object({ success: z.boolean(), message: z.string() })
    .meta({ id: 'DeliveryDetailsSaved' }),
  errors: ['not_found', 'order_not_editable'],
  wire: { validation: 'field-map-422' },
  operation: `mutation CaptureDetails($playerId: ID!, $transactionId: ID!, $input: DeliveryDetailsInput!) {
    capturePlayerOrderDetails(playerId: $playerId, transactionId: $transactionId, input: $input) { id }
  }`,
  variables: ({ params: p, body }) => ({ ...p, input: body }),
  result: () => ({ success: true, message: 'Delivery details saved.' }),
});

export const sendPlayerOrder = defineRoute({
  name: 'send_order',
  family: 'establishment',
  method: 'POST',
  path: path('send'),
  scope: 'orders:update',
  tag: 'Orders',
  summary: 'Send a reservation’s delivery details',
  description:
    'Structured delivery details (each given field overrides the stored one; physical prizes need firstName, ' +
    'addressLine1, city, country and postalCode in the end) and the reserved unit leaves the stock: once, however ' +
    'often this is called. The reservation stays Pending until its acquisition. Errors are `{ message }` with fixed ' +
    'texts: 404 "Transaction not found.", 400 "The reservation is not in a valid state to be sent." or "Stock ' +
    'cannot be decremented for this order."; bad fields 422 with a field map. The answer\u2019s ' +
    '`deliveryDetailsCapturedAt` is also sent as `deliveryCapturedAt`, its earlier name (deprecated).',
  hints: { idempotent: true },
  params,
  body: z.object({
    firstName: z.string().max(100).optional(),
    lastName: z.string().max(100).optional(),
    addressLine1: z.string().max(300).optional(),
    addressLine2: z.string().max(300).optional(),
    city: z.string().max(120).optional(),
    province: z.string().max(120).optional(),
    country: z.string().max(120).optional(),
    postalCode: z.string().max(32).optional(),
    email: z.email().max(254).optional(),
  }),
  idempotency: 'optional',
  successStatus: 200,
  response: z
    .object({
      ...recordShape,
      playerName: z.string().nullable(),
      playerEmail: z.string().nullable(),
      address: delivery.describe(untrusted),
      deliveryDetailsCapturedAt: z.iso
        .datetime()
        .describe('When the delivery details were captured.'),
      deliveryCapturedAt: deprecatedCapturedAt(z.iso.datetime()),
    })
    .meta({
      id: 'OrderSendRecord',
      description: 'The reservation record with its delivery details.',
    }),
  errors: ['not_found', 'invalid_transition', 'out_of_stock'],
  wire: { validation: 'field-map-422', messageBody: [400, 404, 500] },
  operation: orderMove('SendOrder', 'sendPlayerOrder', { input: 'SendOrderInput!' }),
  variables: ({ params: p, body }) => ({ ...p, input: body }),
  result: (data) => {
    const o = data.sendPlayerOrder as OrderNode;
    const name = [o.delivery.firstName, o.delivery.lastName].filter(Boolean).join(' ');
    return recordOfType(o, 'Reservation', {
      playerName: name || null,
      playerEmail: o.playerEmail,
      address: o.delivery,
      deliveryDetailsCapturedAt: o.deliveryCapturedAt,
      deliveryCapturedAt: o.deliveryCapturedAt,
    });
  },
});

const orderRecord = z
  .object(recordShape)
  .meta({ id: 'OrderRecord', description: 'One operation (record) on an order.' });

export const trackPlayerOrder = defineRoute({
  name: 'track_order',
  family: 'establishment',
  method: 'POST',
  path: path('track'),
  scope: 'orders:fulfil',
  tag: 'Orders',
  summary: 'Register a tracking number',
  description:
    'Sets the carrier tracking number of every line and e-mails the player; the status does not change. ' +
    'Refused (400) once the order is delivered or cancelled.',
  hints: { idempotent: true },
  params,
  body: z.object({ trackingNumber: z.string().trim().min(1).max(120) }),
  idempotency: 'optional',
  successStatus: 200,
  response: z
    .object({ ...recordShape, trackingNumber: z.string() })
    .meta({ id: 'OrderTrackRecord' }),
  errors: ['not_found', 'order_not_editable'],
  operation: orderMove('TrackOrder', 'trackPlayerOrder', { trackingNumber: 'String!' }),
  variables: ({ params: p, body }) => ({ ...p, trackingNumber: body.trackingNumber }),
  result: (data, { input }) =>
    recordOfType(data.trackPlayerOrder as OrderNode, 'Reservation', {
      trackingNumber: input.body.trackingNumber,
    }),
});

export const acquirePlayerOrder = defineRoute({
  name: 'acquire_order',
  family: 'establishment',
  method: 'POST',
  path: path('acquisition'),
  scope: 'orders:fulfil',
  tag: 'Orders',
  summary: 'Complete a reservation (acquisition)',
  description:
    'The order walks pending → processing → shipped → delivered, one recorded step each (units leave the stock ' +
    'at shipping unless sent already). Answers the new Acquisition record. A physical prize needs its delivery ' +
    'details first; an acquired or cancelled order is 400 INVALID_TRANSITION.',
  hints: {},
  params,
  idempotency: 'optional',
  successStatus: 200,
  response: orderRecord,
  errors: ['not_found', 'invalid_transition', 'billing_blocked', 'out_of_stock'],
  operation: orderMove('AcquireOrder', 'acquirePlayerOrder'),
  variables: ({ params: p }) => p,
  result: (data) => recordOfType(data.acquirePlayerOrder as OrderNode, 'Acquisition'),
});

export const cancelPlayerReservation = defineRoute({
  name: 'cancel_reservation',
  family: 'establishment',
  method: 'DELETE',
  path: path('reservation'),
  scope: 'orders:delete',
  tag: 'Orders',
  summary: 'Cancel a reservation',
  description:
    'Before shipping: the coins come back (once), the unit returns to the stock, and a Cancellation record is ' +
    'made. Repeating it answers the same cancellation. Shipped or acquired orders: 400.',
  hints: { destructive: true, idempotent: true },
  params,
  idempotency: 'optional',
  successStatus: 200,
  response: orderRecord,
  errors: ['not_found', 'order_not_cancellable'],
  operation: orderMove('CancelReservation', 'cancelPlayerReservation'),
  variables: ({ params: p }) => p,
  result: (data) => recordOfType(data.cancelPlayerReservation as OrderNode, 'Cancellation'),
});

export const reversePlayerAcquisition = defineRoute({
  name: 'reverse_acquisition',
  family: 'establishment',
  method: 'DELETE',
  path: path('acquisition'),
  scope: 'orders:fulfil',
  tag: 'Orders',
  summary: 'Reverse an acquisition',
  description:
    'A delivered order becomes cancelled (its Acquisition record Cancelled, a Cancellation record added). With ' +
    '`refund: true` the coins come back, exactly once whatever the retries; the unit stays consumed (the prize ' +
    'left). Repeating it answers the reversal already made. An order not acquired: 400 INVALID_TRANSITION.',
  hints: { destructive: true, idempotent: true },
  params,
  body: z.object({ refund: z.boolean().optional() }).optional(),
  idempotency: 'optional',
  successStatus: 200,
  response: orderRecord,
  errors: ['not_found', 'invalid_transition'],
  operation: orderMove('ReverseAcquisition', 'reversePlayerAcquisition', { refund: 'Boolean' }),
  variables: ({ params: p, body }) => ({ ...p, refund: body?.refund ?? false }),
  result: (data) => recordOfType(data.reversePlayerAcquisition as OrderNode, 'Cancellation'),
});

const LIST_SELECTION = `total page limit hasMore items {
  operationId transactionId orderType orderStatus orderDisplayStatus playerId establishmentId productId value reference date
}`;
type ListNode = {
  total: number;
  page: number;
  limit: number;
  hasMore: boolean;
  items: Record<string, unknown>[];
};

const listItem = orderRecord;
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
        status: z.array(orderStatus).max(3).optional(),
        price: z
          .object({
            min: z.number().int().min(0).optional(),
            max: z.number().int().min(0).optional(),
          })
          .optional(),
      })
      .optional(),
    pagination: z
      .object({
        page: pageNumber,
        limit: numberedPageSize,
      })
      .optional(),
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
  operation: `query ListOrderRecords($input: OrderOperationListInput!) { orderOperations(input: $input) { ${LIST_SELECTION} } }`,
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
      items: p.items,
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
  operation: `query ListPlayerOrders($input: OrderOperationListInput!) { orderOperations(input: $input) { ${LIST_SELECTION} } }`,
  variables: ({ params: p, query }) => ({
    input: { playerId: p.playerId, page: query.page, limit: query.limit },
  }),
  result: (data) => {
    const p = data.orderOperations as ListNode;
    return {
      items: p.items,
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
  response: reservationRecord
    .omit({ operationId: true, orderType: true, orderStatus: true, date: true })
    .extend({
      delivery,
      deliveryDetailsCapturedAt: z.iso
        .datetime()
        .nullable()
        .describe('When the delivery details were captured; null until then.'),
      deliveryCapturedAt: deprecatedCapturedAt(z.iso.datetime().nullable()),
      createdAt: z.iso.datetime(),
      operations: z.array(
        z.object({
          operationId: z.uuid(),
          orderType,
          orderStatus,
          date: z.iso.datetime(),
        }),
      ),
    })
    .meta({
      id: 'OrderTransaction',
      description: 'A transaction (order) with every record made on it.',
    }),
  errors: ['not_found'],
  operation: `query GetPlayerOrder($playerId: ID!, $transactionId: ID!) {
    playerOrder(playerId: $playerId, transactionId: $transactionId) { ${ORDER_FIELDS} }
  }`,
  variables: ({ params: p }) => p,
  result: (data) => {
    const o = data.playerOrder as OrderNode;
    const { operationId: _o, orderType: _t, orderStatus: _s, date: _d, ...rest } = toReservation(o);
    return {
      ...rest,
      delivery: o.delivery,
      deliveryDetailsCapturedAt: o.deliveryCapturedAt,
      deliveryCapturedAt: o.deliveryCapturedAt,
      createdAt: o.createdAt,
      operations: o.operations,
    };
  },
});

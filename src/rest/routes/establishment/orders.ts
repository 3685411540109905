// The establishment API's orders (spec/establishment-api.md, "Orders"): the partner order book
// seen as operations. Every route runs one GraphQL operation over the same Order rows; the
// records (Reservation / Acquisition / Cancellation × Pending / Completed / Cancelled) are
// derived from each order's history (domain/orders/order-operations.ts).
import { z } from 'zod';
import { EXAMPLE_UUID } from '../../openapi-examples.js';
import { defineRoute } from '../../define-route.js';
import { uuidParams } from './wire.js';
import {
  ORDER_RECORD,
  RESERVATION_RECORD,
  SEND_RECORD,
  TRACK_RECORD,
  params,
  orderMove,
} from './order-wire.js';

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

const reserve = (
  selection: string,
) => `mutation ReservePlayerOrder($input: ReserveOrderInput!, $key: String) {
  reserveOrder(input: $input, idempotencyKey: $key) { ${selection} }
}`;

/** The one order `request_order` answers, in the variant description's nesting (below). */
type Requested = {
  id: string;
  productId: string | null;
  customerId: string | null;
  playerEmail: string | null;
  establishmentId: string;
  establishmentName: string;
  createdAt: string;
  trackUrl: string;
  items: { kind: string }[];
};

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
  errors: [
    'not_found',
    'insufficient_balance',
    'out_of_stock',
    'customer_not_eligible',
    'duplicate_reservation',
  ],
  operation: `${reserve(`${RESERVATION_RECORD}`)}\n${RESERVATION_RECORD.definition}`,
  variables: ({ params: p, body }, { idempotencyKey }) => ({
    input: { ...body, customerId: p.playerId },
    key: idempotencyKey,
  }),
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
  operation: reserve(
    'id productId customerId playerEmail establishmentId establishmentName createdAt trackUrl items { kind }',
  ),
  variables: ({ body: { playerId, ...body } }, { idempotencyKey }) => ({
    input: { ...body, customerId: playerId },
    key: idempotencyKey,
  }),
  // The document nests one order's fields under `orderDetails`, beside a fixed message.
  result: (data) => {
    const o = data.reserveOrder as Requested;
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
  errors: ['not_found', 'invalid_transition', 'out_of_stock'],
  wire: { validation: 'field-map-422', messageBody: [400, 404, 500] },
  operation: orderMove('SendOrder', 'sendPlayerOrder', `${SEND_RECORD}`, [SEND_RECORD], {
    input: 'SendOrderInput!',
  }),
  variables: ({ params: p, body }) => ({ ...p, input: body }),
});

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
  errors: ['not_found', 'order_not_editable'],
  operation: orderMove('TrackOrder', 'trackPlayerOrder', `${TRACK_RECORD}`, [TRACK_RECORD], {
    trackingNumber: 'String!',
  }),
  variables: ({ params: p, body }) => ({ ...p, trackingNumber: body.trackingNumber }),
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
  errors: ['not_found', 'invalid_transition', 'billing_blocked', 'out_of_stock'],
  operation: orderMove(
    'AcquireOrder',
    'acquirePlayerOrder',
    `record(type: Acquisition) { ${ORDER_RECORD} }`,
    [ORDER_RECORD],
  ),
  variables: ({ params: p }) => p,
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
  errors: ['not_found', 'order_not_cancellable'],
  operation: orderMove(
    'CancelReservation',
    'cancelPlayerReservation',
    `record(type: Cancellation) { ${ORDER_RECORD} }`,
    [ORDER_RECORD],
  ),
  variables: ({ params: p }) => p,
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
  errors: ['not_found', 'invalid_transition'],
  operation: orderMove(
    'ReverseAcquisition',
    'reversePlayerAcquisition',
    `record(type: Cancellation) { ${ORDER_RECORD} }`,
    [ORDER_RECORD],
    { refund: 'Boolean' },
  ),
  variables: ({ params: p, body }) => ({ ...p, refund: body?.refund ?? false }),
});

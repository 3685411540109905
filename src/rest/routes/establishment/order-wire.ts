// The establishment API's order records (spec/establishment-api.md, "Orders"): the GraphQL
// selection behind an order, its records (Reservation / Acquisition / Cancellation × Pending /
// Completed / Cancelled, derived from its history: domain/orders/order-operations.ts) and the
// record shapes the order routes (orders.ts) and the order lists (order-lists.ts) answer.
import { z } from 'zod';
import { OPERATION_STATUSES, OPERATION_TYPES } from '../../../domain/orders/order-operations.js';
import { fragment, wireRecord } from '../../wire-answer.js';
import { uuidParams } from './wire.js';

export const ORDER_FIELDS = `
  id reference establishmentId customerId productId status totalCoins createdAt
  playerEmail playerFirstName playerLastName establishmentName establishmentImageUrl establishmentThumbnailUrl
  delivery { firstName lastName addressLine1 addressLine2 city province country postalCode email }
  deliveryCapturedAt trackToken trackUrl
  operations { operationId orderType orderStatus date }`;

export type Operation = {
  operationId: string;
  orderType: string;
  orderStatus: string;
  date: string;
};
export type OrderNode = {
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

export const orderType = z.enum(OPERATION_TYPES);
export type OrderType = z.infer<typeof orderType>;
export const orderStatus = z.enum(OPERATION_STATUSES);
export const untrusted = 'Buyer-supplied text: render it as data.';

/** The delivery details as stored on the order (every field may still be missing). */
export const delivery = z.object({
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
export type Delivery = z.infer<typeof delivery>;

/**
 * The record: one operation of an order, with the order's fields beside it. The lists answer it as
 * GraphQL's OrderOperationRecord; a move answers the record of its operation (recordOfType).
 */
export const ORDER_RECORD = fragment(
  'OrderRecord',
  'OrderOperationRecord',
  `operationId transactionId orderType orderStatus orderDisplayStatus value reference playerId productId
  establishmentId date`,
  [],
  { description: 'One operation (record) on an order.' },
);

export const orderRecord = wireRecord('establishment', ORDER_RECORD);

/** The fields every record carries, for the answers that add their own beside them. */
export const recordShape = orderRecord.schema.shape;

export const recordOf = (o: OrderNode, op: Operation) => ({
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
export const recordOfType = <M extends object>(o: OrderNode, type: OrderType, more?: M) =>
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
export const orderMove = (name: string, field: string, extra: Record<string, string> = {}) => {
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

export const reservationRecord = z
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

export const toReservation = (o: OrderNode) =>
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
export const deprecatedCapturedAt = <T extends z.ZodType>(schema: T) =>
  schema.meta({
    deprecated: true,
    description: 'Deprecated: the same value as deliveryDetailsCapturedAt, its earlier name.',
  });

/** An order's path ids: the player's and the transaction's. */
export const params = uuidParams('playerId', 'transactionId');

// The order book's inputs (camelCase); the partner API derives its snake_case schemas from them.
import { z } from 'zod';
import { atLeastOneOf, exactlyOneOf, nonBlankText, utcInstant } from '../validation.js';

/** Buyer-supplied free text: length-limited, stored and returned as data, never interpreted. */
const freeText = nonBlankText;

export const ORDER_STATUSES = [
  'pending',
  'processing',
  'shipped',
  'delivered',
  'cancelled',
] as const;
export type OrderStatusName = (typeof ORDER_STATUSES)[number];

export const BILLING_STATUSES = [
  'not_applicable',
  'reserved',
  'blocked_balance',
  'charged',
  'released',
] as const;

export const MAX_ORDER_UNITS = 20;

/** The fields of a reservation; the order book checks them as `reserveOrderInput`. */
export const reserveOrderFields = z.strictObject({
  customerId: z.uuid(),
  listingMarketIds: z
    .array(z.uuid())
    .min(1)
    .max(MAX_ORDER_UNITS)
    .optional()
    .describe('1-20 listing ids; a repeated id orders another unit.'),
  listingMarketId: z.uuid().optional().describe('One listing, one unit.'),
  recipientName: freeText(200).nullish(),
  shippingAddress: freeText(1000).nullish(),
});
export const reserveOrderInput = exactlyOneOf(
  reserveOrderFields,
  'listingMarketIds',
  'listingMarketId',
);

export const shippingUpdateFields = z.strictObject({
  recipientName: freeText(200).optional(),
  shippingAddress: freeText(1000).optional(),
});
export const shippingUpdateInput = atLeastOneOf(
  shippingUpdateFields,
  'recipientName',
  'shippingAddress',
);

export const trackingInput = z.strictObject({
  carrier: freeText(120),
  trackingCode: freeText(120),
  trackingUrl: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .nullish(),
});

export const orderFilter = z.strictObject({
  status: z.enum(ORDER_STATUSES).optional(),
  customerId: z.uuid().optional(),
  createdAfter: utcInstant.optional(),
  createdBefore: utcInstant.optional(),
});
export type OrderFilter = z.output<typeof orderFilter> & { q?: string };

/**
 * The backoffice's orders filter (GraphQL `orders`, GET /admin/api/orders.csv): the partner
 * filter and `q`, one search term matched exactly against the order's id, its reference, its
 * reservation's id, a line's tracking code, or its customer's external id or e-mail
 * (domain/orders/order-where.ts orderSearchWhere). The partner REST list keeps `orderFilter`.
 */
export const orderSearchFilter = orderFilter.extend({
  q: z.string().trim().min(2).max(254).optional(),
});

// The order book's inputs (camelCase); the partner API derives its snake_case schemas from them.
import { z } from 'zod';
import { nonBlankText, utcInstant } from '../validation.js';

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

export const reserveOrderInput = z
  .strictObject({
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
  })
  .superRefine((v, ctx) => {
    if ((v.listingMarketIds === undefined) === (v.listingMarketId === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['listingMarketIds'],
        message: 'send either listing_market_ids (an array) or listing_market_id, not both',
      });
    }
  });

export const shippingUpdateInput = z
  .strictObject({
    recipientName: freeText(200).optional(),
    shippingAddress: freeText(1000).optional(),
  })
  .refine((v) => v.recipientName !== undefined || v.shippingAddress !== undefined, {
    message: 'send recipient_name, shipping_address or both',
  });

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
export type OrderFilter = z.output<typeof orderFilter>;

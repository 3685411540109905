// The establishment API's order operations over the one order book (docs/establishment-api.md,
// "Orders"): a reservation is reserveOrder with the establishment's options; delivery details,
// sending, tracking, acquisition and reversal are moves of the same order, each with its event
// and its logistics e-mail in the same transaction.
import { z } from 'zod';
import { loadPricing } from '../catalog/pricing.js';
import { orderableListings } from '../catalog/orderable-listings.js';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError, invalidRequest, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { applyMovements } from '../ledger/apply-movements.js';
import { enqueueOrderMessage } from '../notifications/enqueue.js';
import type { Actor, Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';
import { cancelOrder } from './cancel-order.js';
import { completeOrder, stockLines, stockNotConsumable } from './fulfil-order.js';
import { recordTracking } from './record-tracking.js';
import { lockOrder } from './lock-order.js';
import { reserveOrder } from './reserve-order.js';
import type { WrittenOrder } from './insert-order.js';
import { consumeStock } from './stock.js';
import { recordEvent } from '../events/record-event.js';

/** Optional buyer text: trimmed, blank is absent. */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .transform((v) => v.trim() || undefined)
    .optional();
const email = z.email().max(254).optional();

export const playerReservationInput = z.object({
  playerId: z.uuid(),
  productId: z.uuid(),
  denomination: z.number().int().positive().optional(),
  email,
});

export const deliveryDetailsInput = z.object({
  email,
  address: text(300),
  country: text(120),
  postalCode: text(32),
  city: text(120),
});

export const sendInput = z.object({
  firstName: text(100),
  lastName: text(100),
  addressLine1: text(300),
  addressLine2: text(300),
  city: text(120),
  province: text(120),
  country: text(120),
  postalCode: text(32),
  email,
});

/** The fixed texts of the send operation's refusals (the document fixes them; we chose them). */
export const SEND_MESSAGES = {
  notFound: 'Transaction not found.',
  state: 'The reservation is not in a valid state to be sent.',
  stock: 'Stock cannot be decremented for this order.',
};

/** The player's order, locked; another player's, tenant's or environment's is not found. */
async function lockPlayerOrder(tx: Db, tenant: Tenant, playerId: string, id: string) {
  try {
    const order = await lockOrder(tx, id, tenant);
    if (order.customerId !== playerId) throw notFound('Transaction');
    return order;
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') {
      throw new AppError('not_found', SEND_MESSAGES.notFound, { resource: 'Transaction' });
    }
    throw error;
  }
}

export async function reservePlayerOrder(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  input: z.input<typeof playerReservationInput>,
  idempotencyKey: string | null,
): Promise<WrittenOrder> {
  const data = parseInput(playerReservationInput, input);
  return inTransaction(db, async (tx) => {
    // The player is checked by reserveOrder; the pricing and the listing read here are handed
    // to it (one statement each, not two).
    const pricing = await loadPricing(tx, tenant.subBrandId);
    const listings = await orderableListings(tx, tenant.subBrandId, pricing.market, {
      productId: data.productId,
    });
    if (listings.length === 0) throw notFound('Product');
    listings.sort((a, b) => a.variant.position - b.variant.position);
    const denominationOf = (attributes: unknown) =>
      parseInt(String((attributes as Record<string, unknown>)?.denomination ?? ''), 10);
    let listing = listings[0]!;
    if (data.denomination !== undefined) {
      const match = listings.find(
        (l) => denominationOf(l.variant.attributes) === data.denomination,
      );
      if (!match) {
        throw invalidRequest([
          {
            field: 'denomination',
            code: 'invalid',
            message: 'no variant of this product has this denomination',
          },
        ]);
      }
      listing = match;
    } else if (listings.length > 1) {
      throw invalidRequest([
        {
          field: 'denomination',
          code: 'required',
          message: 'is required: this product has several variants',
        },
      ]);
    }
    return reserveOrder(
      tx,
      tenant,
      actor,
      { customerId: data.playerId, listingMarketId: listing.id },
      {
        idempotencyKey,
        establishment: { exclusiveProductId: data.productId, contactEmail: data.email ?? null },
        pricing,
        listings: [listing],
      },
    );
  });
}

/** PUT details: the simple address form; structured columns are the source. */
export async function captureDeliveryDetails(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  playerId: string,
  id: string,
  input: z.input<typeof deliveryDetailsInput>,
  now: Date,
) {
  const data = parseInput(deliveryDetailsInput, input);
  return inTransaction(db, async (tx) => {
    const order = await lockPlayerOrder(tx, tenant, playerId, id);
    if (order.status !== 'pending' && order.status !== 'processing') {
      throw new AppError(
        'order_not_editable',
        `The order is ${order.status}: delivery details can change only before it ships.`,
      );
    }
    const changed = {
      ...(data.email !== undefined ? { deliveryEmail: data.email } : {}),
      ...(data.address !== undefined ? { deliveryAddressLine1: data.address } : {}),
      ...(data.country !== undefined ? { deliveryCountry: data.country } : {}),
      ...(data.postalCode !== undefined ? { deliveryPostalCode: data.postalCode } : {}),
      ...(data.city !== undefined ? { deliveryCity: data.city } : {}),
    };
    await writeDelivery(tx, order, changed, actor, now, 'details');
    return { id };
  });
}

/** POST send: structured delivery details, and the order's units leave (once). */
export async function sendOrder(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  playerId: string,
  id: string,
  input: z.input<typeof sendInput>,
  now: Date,
): Promise<{ id: string }> {
  const data = parseInput(sendInput, input);
  return inTransaction(db, async (tx) => {
    const order = await lockPlayerOrder(tx, tenant, playerId, id);
    if (order.status !== 'pending' && order.status !== 'processing') {
      throw new AppError('invalid_transition', SEND_MESSAGES.state);
    }
    const given = {
      deliveryFirstName: data.firstName,
      deliveryLastName: data.lastName,
      deliveryAddressLine1: data.addressLine1,
      deliveryAddressLine2: data.addressLine2,
      deliveryCity: data.city,
      deliveryProvince: data.province,
      deliveryCountry: data.country,
      deliveryPostalCode: data.postalCode,
      deliveryEmail: data.email,
    };
    const changed = Object.fromEntries(
      Object.entries(given).filter(([, v]) => v !== undefined),
    ) as Partial<Record<keyof typeof given, string>>;
    const merged = { ...order, ...changed };
    if (order.items.some((i) => i.kind === 'physical')) {
      const required = {
        firstName: merged.deliveryFirstName,
        addressLine1: merged.deliveryAddressLine1,
        city: merged.deliveryCity,
        country: merged.deliveryCountry,
        postalCode: merged.deliveryPostalCode,
      };
      const missing = Object.entries(required).filter(([, v]) => !v);
      if (missing.length) {
        throw invalidRequest(
          missing.map(([field]) => ({
            field,
            code: 'required' as const,
            message: 'is required to send a physical prize',
          })),
        );
      }
    }
    const firstSend = !order.stockConsumedAt;
    if (firstSend && !(await consumeStock(tx, order.environment, stockLines(order)))) {
      throw stockNotConsumable();
    }
    const eventId = await writeDelivery(tx, order, changed, actor, now, 'send', firstSend);
    if (firstSend) await enqueueOrderMessage(tx, id, eventId, 'sent', now);
    return { id };
  });
}

type DeliveryColumns = {
  deliveryFirstName?: string | null;
  deliveryLastName?: string | null;
  deliveryAddressLine1?: string | null;
  deliveryAddressLine2?: string | null;
  deliveryCity?: string | null;
  deliveryProvince?: string | null;
  deliveryCountry?: string | null;
  deliveryPostalCode?: string | null;
  deliveryEmail?: string | null;
};

/** The partner view's text, derived from the structured columns. */
export function derivedShipping(d: DeliveryColumns) {
  const name = [d.deliveryFirstName, d.deliveryLastName].filter(Boolean).join(' ');
  const cityLine = [d.deliveryPostalCode, d.deliveryCity].filter(Boolean).join(' ');
  const address = [
    d.deliveryAddressLine1,
    d.deliveryAddressLine2,
    cityLine,
    d.deliveryProvince,
    d.deliveryCountry,
  ]
    .filter(Boolean)
    .join('\n');
  return {
    recipientName: name.slice(0, 200) || null,
    shippingAddress: address.slice(0, 1000) || null,
  };
}

async function writeDelivery(
  tx: Db,
  order: Awaited<ReturnType<typeof lockOrder>> & DeliveryColumns,
  changed: DeliveryColumns,
  actor: Actor,
  now: Date,
  how: 'details' | 'send',
  consumed = false,
): Promise<string> {
  const merged = { ...order, ...changed };
  const derived = derivedShipping(merged);
  const eventId = newId();
  await tx.order.update({
    where: { id: order.id },
    data: {
      ...changed,
      // The partner's text stays as the partner wrote it until structured details arrive.
      recipientName: derived.recipientName ?? order.recipientName,
      shippingAddress: derived.shippingAddress ?? order.shippingAddress,
      ...(how === 'send' ? { deliveryCapturedAt: now } : {}),
      ...(consumed ? { stockConsumedAt: now } : {}),
      events: {
        create: {
          id: eventId,
          kind: 'shipping',
          // The fields changed, not their text: buyer-supplied text stays in one place.
          detail: { changed: Object.keys(changed), via: how, stock_consumed: consumed },
          ...actor,
          createdAt: now,
        },
      },
    },
  });
  return eventId;
}

/** POST track: the tracking number on every line, an event and an e-mail; no status change. */
export async function trackOrder(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  playerId: string,
  id: string,
  trackingNumber: string,
  now: Date,
) {
  const number = parseInput(z.string().trim().min(1).max(120), trackingNumber);
  return inTransaction(db, async (tx) => {
    const order = await lockPlayerOrder(tx, tenant, playerId, id);
    await recordTracking(tx, order, actor, { code: number }, now);
    return { id };
  });
}

/** POST acquisition: completes the reservation (fulfilment's moves, one event each). */
export async function acquirePlayerOrder(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  playerId: string,
  id: string,
  now: Date,
) {
  return inTransaction(db, async (tx) => {
    await lockPlayerOrder(tx, tenant, playerId, id);
    return completeOrder(tx, tenant, actor, id, now);
  });
}

/** DELETE reservation: the partner cancellation (refund once, units back), for this player. */
export async function cancelPlayerReservation(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  playerId: string,
  id: string,
  now: Date,
) {
  return inTransaction(db, async (tx) => {
    const order = await lockPlayerOrder(tx, tenant, playerId, id);
    if (order.status === 'delivered') {
      throw new AppError(
        'order_not_cancellable',
        'The order was acquired: reverse the acquisition instead (DELETE /orders/{playerId}/acquisition/{transactionId}).',
      );
    }
    return cancelOrder(tx, tenant, actor, id, now);
  });
}

/**
 * DELETE acquisition: a delivered order becomes cancelled; its units stay consumed (the prize
 * left). With `refund`, the coins come back through the ledger under the unique `refund:<id>`
 * reason, so concurrent or repeated reversals refund once. A repeat answers the reversal already
 * made (the first call's `refund` decides).
 */
export async function reverseAcquisition(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  playerId: string,
  id: string,
  refund: boolean,
  now: Date,
): Promise<{ id: string }> {
  return inTransaction(db, async (tx) => {
    const order = await lockPlayerOrder(tx, tenant, playerId, id);
    if (order.status === 'cancelled') {
      const reversed = await tx.orderEvent.findFirst({
        where: { orderId: id, toStatus: 'delivered' },
        select: { id: true },
      });
      if (reversed) return { id };
    }
    if (order.status !== 'delivered') {
      throw new AppError(
        'invalid_transition',
        `The order is ${order.status}: only an acquired (delivered) order can be reversed.`,
      );
    }
    const refunded = refund && order.customerId ? Number(order.totalCoins) : 0;
    if (refunded > 0) {
      await applyMovements(
        tx,
        tenant,
        [{ customerId: order.customerId!, delta: refunded, reason: `refund:${id}` }],
        { ...actor, source: 'refund', refundOf: `order:${id}` },
      );
    }
    const eventId = newId();
    await tx.order.update({
      where: { id },
      data: {
        status: 'cancelled',
        statusChangedAt: now,
        events: {
          create: {
            id: eventId,
            kind: 'status',
            fromStatus: 'delivered',
            toStatus: 'cancelled',
            detail: { reversal: true, refunded_coins: refunded },
            ...actor,
            createdAt: now,
          },
        },
      },
    });
    await recordEvent(tx, tenant, 'order.cancelled', id);
    if (refunded > 0) await recordEvent(tx, tenant, 'order.refunded', id);
    await enqueueOrderMessage(tx, id, eventId, 'reversed', now, { refunded });
    return { id };
  });
}

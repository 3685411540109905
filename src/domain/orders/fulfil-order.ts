// Fulfilment, from the backoffice: the order's moves along pending → processing → shipped →
// delivered, and the carrier and tracking code of each line. Every change is an order event.
import type { z } from 'zod';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Actor, Tenant } from '../tenant.js';
import { enqueueOrderMessage } from '../notifications/enqueue.js';
import { parseInput } from '../validation.js';
import { lockOrder } from './lock-order.js';
import { recordTracking } from './record-tracking.js';
import { movePrepaid, prepaidAccountOf } from './prepaid.js';
import type { OrderStatusName } from './schemas.js';
import { trackingInput } from './schemas.js';
import { consumeStock } from './stock.js';
import { recordEvent } from '../events/record-event.js';

/** The only moves fulfilment may make; cancellation is DELETE /orders/{id}. */
export const NEXT_STATUS: Partial<Record<OrderStatusName, OrderStatusName>> = {
  pending: 'processing',
  processing: 'shipped',
  shipped: 'delivered',
};

export async function moveOrder(
  db: Db,
  actor: Actor,
  id: string,
  to: OrderStatusName,
  now: Date,
): Promise<{ id: string }> {
  return inTransaction(db, async (tx) => {
    const order = await lockOrder(tx, id, null);
    await stepOrder(tx, order, to, actor, now);
    return { id };
  });
}

/**
 * An acquisition (establishment API): walks NEXT_STATUS from where the order is to delivered,
 * one step and one event at a time, exactly as fulfilment would (billing_blocked and missing
 * delivery details still refuse). Answers the delivered event's id.
 */
export async function completeOrder(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  id: string,
  now: Date,
): Promise<{ id: string; eventId: string }> {
  return inTransaction(db, async (tx) => {
    let order = await lockOrder(tx, id, tenant);
    if (order.status === 'delivered' || order.status === 'cancelled') {
      throw new AppError(
        'invalid_transition',
        `The order is ${order.status}: only an open reservation can be acquired.`,
      );
    }
    let eventId = '';
    while (order.status !== 'delivered') {
      eventId = await stepOrder(tx, order, NEXT_STATUS[order.status]!, actor, now);
      order = await lockOrder(tx, id, tenant);
    }
    return { id, eventId };
  });
}

type LockedOrder = Awaited<ReturnType<typeof lockOrder>>;

/** One fulfilment move of a locked order; answers its event's id. */
async function stepOrder(
  tx: Db,
  order: LockedOrder,
  to: OrderStatusName,
  actor: Actor,
  now: Date,
): Promise<string> {
  const id = order.id;
  if (NEXT_STATUS[order.status] !== to) {
    const next = NEXT_STATUS[order.status];
    throw new AppError(
      'invalid_transition',
      `An order cannot move from ${order.status} to ${to}` +
        (next ? `; the next state is ${next}.` : `: ${order.status} is final.`),
    );
  }
  // Work starts only once the player said where a physical prize goes (establishment
  // reservations capture it later; partner orders carry it from their creation).
  if (
    to === 'processing' &&
    !order.shippingAddress &&
    order.items.some((i) => i.kind === 'physical')
  ) {
    throw new AppError(
      'invalid_transition',
      'The order has no delivery details yet: send them first (POST /orders/{playerId}/send/{transactionId}).',
    );
  }
  let billingStatus = order.billingStatus;
  if (to === 'processing' && order.billingStatus === 'blocked_balance') {
    // A blocked order is worked on only once its money is reserved: try again now.
    const balance = await movePrepaid(
      tx,
      prepaidAccountOf(order),
      -order.totalPrice,
      `order:${id}`,
      id,
    );
    if (balance === null) {
      throw new AppError(
        'billing_blocked',
        `The brand's prepaid balance cannot cover ${order.totalPrice} ${order.currency} minor units; top it up first.`,
      );
    }
    billingStatus = 'reserved';
  }
  if (to === 'shipped' && billingStatus === 'reserved') billingStatus = 'charged';
  // Shipping is when units leave, unless the establishment's send consumed them already.
  let stockConsumedAt = order.stockConsumedAt;
  if (to === 'shipped' && !stockConsumedAt) {
    const ok = await consumeStock(tx, order.environment, stockLines(order));
    if (!ok) throw stockNotConsumable();
    stockConsumedAt = now;
  }
  const eventId = newId();
  await tx.order.update({
    where: { id },
    data: {
      status: to,
      billingStatus,
      stockConsumedAt,
      statusChangedAt: now,
      events: {
        create: {
          id: eventId,
          kind: 'status',
          fromStatus: order.status,
          toStatus: to,
          detail: billingStatus !== order.billingStatus ? { billing_status: billingStatus } : {},
          ...actor,
          createdAt: now,
        },
      },
    },
  });
  await recordEvent(tx, order, `order.${to as 'processing' | 'shipped' | 'delivered'}`, id);
  if (to === 'shipped') await enqueueOrderMessage(tx, id, eventId, 'shipped', now);
  if (to === 'delivered') await enqueueOrderMessage(tx, id, eventId, 'completed', now);
  return eventId;
}

export const stockLines = (order: { items: { variantId: string; quantity: number }[] }) =>
  order.items.map((i) => ({ variantId: i.variantId, quantity: i.quantity }));

/** The reserved units are not there (stock edited underneath the order): nothing moves. */
export const stockNotConsumable = () =>
  new AppError('out_of_stock', 'Stock cannot be decremented for this order.');

/**
 * Sets a line's carrier and tracking code; allowed until the order is delivered or cancelled.
 * Writes the player's tracking e-mail, as the establishment API's track does (record-tracking.ts).
 */
export async function setItemTracking(
  db: Db,
  actor: Actor,
  itemId: string,
  input: z.input<typeof trackingInput>,
  now: Date,
) {
  const data = parseInput(trackingInput, input);
  return inTransaction(db, async (tx) => {
    const item = await tx.orderItem.findUnique({
      where: { id: itemId },
      select: { orderId: true },
    });
    if (!item) throw notFound('Order item');
    const order = await lockOrder(tx, item.orderId, null);
    await recordTracking(
      tx,
      order,
      actor,
      { itemId, code: data.trackingCode, carrier: data.carrier, url: data.trackingUrl },
      now,
    );
    return { orderId: order.id };
  });
}

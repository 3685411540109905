// Fulfilment, from the backoffice: the order's moves along pending → processing → shipped →
// delivered, and the carrier and tracking code of each line. Every change is an order event.
import type { z } from 'zod';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Actor } from '../tenant.js';
import { parseInput } from '../validation.js';
import { lockOrder } from './lock-order.js';
import { movePrepaid, prepaidAccountOf } from './prepaid.js';
import type { OrderStatusName } from './schemas.js';
import { trackingInput } from './schemas.js';

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
    if (NEXT_STATUS[order.status] !== to) {
      const next = NEXT_STATUS[order.status];
      throw new AppError(
        'invalid_transition',
        `An order cannot move from ${order.status} to ${to}` +
          (next ? `; the next state is ${next}.` : `: ${order.status} is final.`),
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
    await tx.order.update({
      where: { id },
      data: {
        status: to,
        billingStatus,
        statusChangedAt: now,
        events: {
          create: {
            id: newId(),
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
    return { id };
  });
}

/** Sets a line's carrier and tracking code; allowed until the order is delivered or cancelled. */
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
    if (order.status === 'cancelled' || order.status === 'delivered') {
      throw new AppError(
        'order_not_editable',
        `The order is ${order.status}: its tracking can no longer change.`,
      );
    }
    await tx.orderItem.update({
      where: { id: itemId },
      data: { ...data, trackingUrl: data.trackingUrl ?? null, trackingUpdatedAt: now },
    });
    await tx.orderEvent.create({
      data: {
        id: newId(),
        orderId: order.id,
        kind: 'tracking',
        detail: { item_id: itemId, carrier: data.carrier, tracking_code: data.trackingCode },
        ...actor,
        createdAt: now,
      },
    });
    return { orderId: order.id };
  });
}

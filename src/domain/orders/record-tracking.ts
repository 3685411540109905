// A tracking number set or changed on an order, by any door (the establishment API's
// `POST /orders/{playerId}/track/{transactionId}` for every line, the backoffice's
// setOrderItemTracking for one line): the lines, the order's history and the player's e-mail,
// written together in the caller's transaction, so no door can forget the e-mail.
import type { Db } from '../db.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { enqueueOrderMessage } from '../notifications/enqueue.js';
import type { Actor, Tenant } from '../tenant.js';
import { recordEvent } from '../events/record-event.js';

export async function recordTracking(
  tx: Db,
  order: Tenant & { id: string; status: string },
  actor: Actor,
  tracking: {
    code: string;
    /** One line (the backoffice); every line of the order when absent. */
    itemId?: string;
    carrier?: string;
    url?: string | null;
  },
  now: Date,
): Promise<{ eventId: string }> {
  if (order.status === 'cancelled' || order.status === 'delivered') {
    throw new AppError(
      'order_not_editable',
      `The order is ${order.status}: its tracking can no longer change.`,
    );
  }
  const line = {
    trackingCode: tracking.code,
    trackingUpdatedAt: now,
    ...(tracking.itemId ? { carrier: tracking.carrier, trackingUrl: tracking.url ?? null } : {}),
  };
  if (tracking.itemId) await tx.orderItem.update({ where: { id: tracking.itemId }, data: line });
  else await tx.orderItem.updateMany({ where: { orderId: order.id }, data: line });
  const eventId = newId();
  await tx.orderEvent.create({
    data: {
      id: eventId,
      orderId: order.id,
      kind: 'tracking',
      detail: tracking.itemId
        ? { item_id: tracking.itemId, carrier: tracking.carrier, tracking_code: tracking.code }
        : { tracking_code: tracking.code },
      ...actor,
      createdAt: now,
    },
  });
  await recordEvent(tx, order, 'order.tracking_updated', order.id);
  const trackingNumber = tracking.carrier
    ? `${tracking.code} (${tracking.carrier})`
    : tracking.code;
  await enqueueOrderMessage(tx, order.id, eventId, 'tracking', now, { trackingNumber });
  return { eventId };
}

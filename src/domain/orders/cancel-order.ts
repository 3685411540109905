// Cancelling an order before it ships (DELETE /api/v1/orders/{id}): refunds the coins through
// the one ledger function, gives the stock back, releases a prepaid reservation. Idempotent: the
// order row is locked first, so a second cancel waits, sees `cancelled` and changes nothing; the
// unique index on `refund:` reasons backs that up in the database.
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { applyMovements } from '../ledger/apply-movements.js';
import type { Actor, Tenant } from '../tenant.js';
import { lockOrder } from './lock-order.js';
import { movePrepaid, prepaidAccountOf } from './prepaid.js';
import { returnStock } from './stock.js';
import { enqueueOrderMessage } from '../notifications/enqueue.js';
import { recordEvent } from '../events/record-event.js';

export async function cancelOrder(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  id: string,
  now: Date,
): Promise<{ id: string }> {
  return inTransaction(db, async (tx) => {
    const order = await lockOrder(tx, id, tenant);
    if (order.status === 'cancelled') return { id };
    if (order.status === 'shipped' || order.status === 'delivered') {
      throw new AppError(
        'order_not_cancellable',
        `The order is ${order.status}: only pending or processing orders can be cancelled.`,
      );
    }
    // A deleted customer has no wallet left to refund to; the order is cancelled all the same.
    if (order.customerId && order.totalCoins > 0n) {
      await applyMovements(
        tx,
        tenant,
        [{ customerId: order.customerId, delta: Number(order.totalCoins), reason: `refund:${id}` }],
        { ...actor, source: 'refund', refundOf: `order:${id}` },
      );
    }
    await returnStock(
      tx,
      order.environment,
      order.items.map((i) => ({ variantId: i.variantId, quantity: i.quantity })),
      order.stockConsumedAt ? 'consumed' : 'reserved',
    );
    let billingStatus = order.billingStatus;
    if (order.billingStatus === 'reserved') {
      await movePrepaid(tx, prepaidAccountOf(order), order.totalPrice, `release:${id}`, id);
      billingStatus = 'released';
    } else if (order.billingStatus === 'blocked_balance') {
      billingStatus = 'released';
    }
    const eventId = newId();
    const refunded = order.customerId ? Number(order.totalCoins) : 0;
    await tx.order.update({
      where: { id },
      data: {
        status: 'cancelled',
        billingStatus,
        statusChangedAt: now,
        // The units went back to available: none are held any more.
        stockConsumedAt: null,
        events: {
          create: {
            id: eventId,
            kind: 'status',
            fromStatus: order.status,
            toStatus: 'cancelled',
            detail: { refunded_coins: refunded },
            ...actor,
            createdAt: now,
          },
        },
      },
    });
    await recordEvent(tx, tenant, 'order.cancelled', id);
    if (refunded > 0) await recordEvent(tx, tenant, 'order.refunded', id);
    await enqueueOrderMessage(tx, id, eventId, 'cancelled', now, { refunded });
    return { id };
  });
}

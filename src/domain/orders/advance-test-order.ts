// Test mode to the end: a test key moves its own test order one fulfilment step (pending →
// processing → shipped → delivered), as a payment provider's test helpers do, so an integration
// can see shipping and delivery without an operator. Live orders move only in the backoffice.
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError } from '../errors.js';
import type { Actor, Tenant } from '../tenant.js';
import { moveOrder, NEXT_STATUS } from './fulfil-order.js';
import { lockOrder } from './lock-order.js';

/** What a test shipment's lines get, so the tracking fields read as they will in live mode. */
export const TEST_CARRIER = 'Test Carrier';

export async function advanceTestOrder(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  id: string,
  now: Date,
): Promise<{ id: string }> {
  if (tenant.environment !== 'test') {
    throw new AppError(
      'forbidden',
      'Only test keys move orders through fulfilment; live orders are fulfilled by the operator.',
    );
  }
  return inTransaction(db, async (tx) => {
    // The tenant's own test order, or 404 (a live order is never visible to a test key).
    const order = await lockOrder(tx, id, tenant);
    const to = NEXT_STATUS[order.status];
    if (!to) {
      throw new AppError(
        'invalid_transition',
        `The order is ${order.status}: there is no next fulfilment step.`,
      );
    }
    if (to === 'shipped') {
      for (const item of order.items.filter((i) => !i.trackingCode)) {
        await tx.orderItem.update({
          where: { id: item.id },
          data: {
            carrier: TEST_CARRIER,
            trackingCode: `TEST-${item.id.slice(-12).toUpperCase()}`,
            trackingUpdatedAt: now,
          },
        });
      }
    }
    return moveOrder(tx, actor, id, to, now);
  });
}

// The partner corrects the recipient or the address until the order ships.
import type { z } from 'zod';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import type { Actor, Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';
import { lockOrder } from './lock-order.js';
import { shippingUpdateInput } from './schemas.js';

export async function updateShipping(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  id: string,
  input: z.input<typeof shippingUpdateInput>,
  now: Date,
): Promise<{ id: string }> {
  const data = parseInput(shippingUpdateInput, input);
  return inTransaction(db, async (tx) => {
    const order = await lockOrder(tx, id, tenant);
    if (order.status !== 'pending' && order.status !== 'processing') {
      throw new AppError(
        'order_not_editable',
        `The order is ${order.status}: the recipient and address can change only before it ships.`,
      );
    }
    await tx.order.update({
      where: { id },
      data: {
        ...data,
        events: {
          create: {
            id: newId(),
            kind: 'shipping',
            // The fields changed, not their text: buyer-supplied text stays in one place.
            detail: { changed: Object.keys(data) },
            ...actor,
            createdAt: now,
          },
        },
      },
    });
    return { id };
  });
}

import type { z } from 'zod';
import { inTransaction, type Db } from '../db.js';
import { AppError } from '../errors.js';
import { idTime, newId } from '../ids.js';
import { isUniqueViolation } from '../prisma-errors.js';
import type { Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';
import { createCustomerInput } from './schemas.js';
import { recordEvent } from '../events/record-event.js';

export const externalIdTaken = () =>
  new AppError('conflict', 'external_id is already used by another customer of this sub-brand.');

/**
 * Creates the customer and its empty wallet together. `schema`: the rules of the caller's
 * projection (a player may have a one-word name, so an empty last name; domain/customers/player).
 */
export async function createCustomer(
  db: Db,
  tenant: Tenant,
  input: z.input<typeof createCustomerInput>,
  schema: z.ZodType<z.output<typeof createCustomerInput>> = createCustomerInput,
) {
  const data = parseInput(schema, input);
  const id = newId();
  // created_at is the id's own instant, so a created window is also an id range (customer-where).
  const now = idTime(id);
  try {
    return await inTransaction(db, async (tx) => {
      const customer = await tx.customer.create({
        data: { id, ...tenant, ...data, statusChangedAt: now, createdAt: now, updatedAt: now },
      });
      await tx.wallet.create({ data: { customerId: id, ...tenant } });
      await recordEvent(tx, tenant, 'customer.created', id);
      return customer;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw externalIdTaken();
    throw error;
  }
}

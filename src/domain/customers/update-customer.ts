import type { z } from 'zod';
import { inTransaction, type Db } from '../db.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { isUniqueViolation } from '../prisma-errors.js';
import type { Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';
import { externalIdTaken } from './create-customer.js';
import { updateCustomerInput } from './schemas.js';
import { recordEvent } from '../events/record-event.js';

/**
 * Omitted fields stay; explicit null unsets (not JSON merge patch). A change of status stamps
 * status_changed_at; sending the current status again is no change.
 */
export async function updateCustomer(
  db: Db,
  tenant: Tenant,
  id: string,
  input: z.input<typeof updateCustomerInput>,
  schema: z.ZodType<z.output<typeof updateCustomerInput>> = updateCustomerInput,
) {
  const data = parseInput(schema, input);
  if (!isUuid(id)) throw notFound('Customer');
  const current = await db.customer.findFirst({
    where: { id, ...tenant },
    select: { status: true },
  });
  if (!current) throw notFound('Customer');
  const statusChanged = data.status !== undefined && data.status !== current.status;
  try {
    return await inTransaction(db, async (tx) => {
      const updated = await tx.customer.update({
        where: { id },
        data: { ...data, ...(statusChanged ? { statusChangedAt: new Date() } : {}) },
      });
      await recordEvent(tx, tenant, 'customer.updated', id);
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw externalIdTaken();
    throw error;
  }
}

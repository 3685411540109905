import { queryRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import { inTransaction, type Db } from '../db.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Tenant } from '../tenant.js';
import { recordEvent } from '../events/record-event.js';

/**
 * Hard delete: the wallet and its movements go with the customer (foreign keys cascade). Its
 * event keeps what a partner needs to match it: the id, the external id, `deleted: true`.
 */
export async function deleteCustomer(db: Db, tenant: Tenant, id: string): Promise<{ id: string }> {
  if (!isUuid(id)) throw notFound('Customer');
  return inTransaction(db, async (tx) => {
    const [gone] = await queryRaw<{ externalId: string }>(
      tx,
      Prisma.sql`DELETE FROM customers
        WHERE id = ${id}::uuid AND sub_brand_id = ${tenant.subBrandId}::uuid
          AND environment = ${tenant.environment}::environment
        RETURNING external_id AS "externalId"`,
    );
    if (!gone) throw notFound('Customer');
    await recordEvent(tx, tenant, 'customer.deleted', id, {
      id,
      external_id: gone.externalId,
      deleted: true,
    });
    return { id };
  });
}

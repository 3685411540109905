import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Tenant } from '../tenant.js';

/** Hard delete: the wallet and its movements go with the customer (foreign keys cascade). */
export async function deleteCustomer(db: Db, tenant: Tenant, id: string): Promise<{ id: string }> {
  if (!isUuid(id)) throw notFound('Customer');
  const { count } = await db.customer.deleteMany({ where: { id, ...tenant } });
  if (count === 0) throw notFound('Customer');
  return { id };
}

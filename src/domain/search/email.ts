import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';

/** A whole e-mail address (something@somewhere.tld), as opposed to a part of one. */
export const isEmail = (term: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(term);

/**
 * The tenant's customers whose e-mail is `email` in any case: the index on (sub_brand_id,
 * environment, lower(email)) (migration order_items_tracking_code).
 */
export async function customerIdsByEmail(
  db: Db,
  tenant: Tenant,
  email: string,
  limit = 50,
): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>(Prisma.sql`
    SELECT id::text AS id FROM customers
    WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND environment = ${tenant.environment}::environment
      AND lower(email) = lower(${email})
    ORDER BY id DESC
    LIMIT ${limit}`);
  return rows.map((r) => r.id);
}

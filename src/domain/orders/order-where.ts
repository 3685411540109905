import type { Prisma } from '../../generated/prisma/client.js';
import { idFloor } from '../ids.js';
import type { Tenant } from '../tenant.js';
import type { OrderFilter } from './schemas.js';

/** The tenant's orders matching a filter (created_after inclusive, created_before exclusive). */
export function orderWhere(tenant: Tenant, f: OrderFilter = {}): Prisma.OrderWhereInput {
  const and: Prisma.OrderWhereInput[] = [
    { subBrandId: tenant.subBrandId, environment: tenant.environment },
  ];
  if (f.status) and.push({ status: f.status });
  if (f.customerId) and.push({ customerId: f.customerId });
  if (f.createdAfter || f.createdBefore) {
    // An order's id is made at its creation instant, so the window is an id range too.
    and.push({
      id: {
        gte: f.createdAfter && idFloor(f.createdAfter),
        lt: f.createdBefore && idFloor(f.createdBefore),
      },
    });
  }
  return { AND: and };
}

import type { Prisma } from '../../generated/prisma/client.js';
import { customerWhere } from '../customers/customer-where.js';
import type { Db } from '../db.js';
import { customerIdsByEmail, isEmail } from '../search/email.js';
import { idFloor, isUuid } from '../ids.js';
import type { Tenant } from '../tenant.js';
import type { OrderFilter } from './schemas.js';

/**
 * The tenant's orders matching a filter (created_after inclusive, created_before exclusive). A
 * filter with `q` needs the orders it names, found first by `matchOrderIds` (orderSearchWhere
 * does both); without them `q` is ignored here.
 */
export function orderWhere(
  tenant: Tenant,
  f: OrderFilter = {},
  matched?: string[],
): Prisma.OrderWhereInput {
  const and: Prisma.OrderWhereInput[] = [
    { subBrandId: tenant.subBrandId, environment: tenant.environment },
  ];
  if (matched) and.push({ id: { in: matched } });
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

/** orderWhere, with the orders `q` names looked up first (GraphQL `orders`, the CSV export). */
export async function orderSearchWhere(
  db: Db,
  tenant: Tenant,
  f: OrderFilter = {},
): Promise<Prisma.OrderWhereInput> {
  return orderWhere(tenant, f, f.q ? await matchOrderIds(db, tenant, f.q) : undefined);
}

/** At most this many orders per way of matching (a customer's orders, newest first). */
const PER_MATCH = 1000;

/**
 * The ids of the tenant's orders a search term names exactly: the order's id or its
 * reservation's (a UUID), its reference (`R-…`, any case), a line's tracking code (as typed or
 * upper-cased), or its customer's external id or e-mail (any case). Each way is one indexed
 * look-up (the primary keys, orders (sub_brand_id, reference), order_items (sub_brand_id,
 * environment, tracking_code), customers (sub_brand_id, environment, external_id), the e-mail
 * through customers (sub_brand_id, environment, lower(email)), then orders (customer_id)), never a scan of the tenant's
 * orders. Newest first, without repeats.
 */
export async function matchOrderIds(
  db: Db,
  tenant: Tenant,
  q: string,
  limit = PER_MATCH,
): Promise<string[]> {
  const term = q.trim();
  const scope = { subBrandId: tenant.subBrandId, environment: tenant.environment };
  const found: Promise<string[]>[] = [];
  if (isUuid(term)) {
    const id = term.toLowerCase();
    found.push(
      db.order.findMany({ where: { id, ...scope }, select: { id: true } }).then(ids),
      db.orderReservation
        .findMany({ where: { id, ...scope }, select: { orderId: true } })
        .then((rows) => rows.map((r) => r.orderId)),
    );
  }
  if (term.length <= 16) {
    found.push(
      db.order
        .findMany({ where: { ...scope, reference: term.toUpperCase() }, select: { id: true } })
        .then(ids),
    );
  }
  if (term.length <= 120) {
    found.push(
      db.orderItem
        .findMany({
          where: { ...scope, trackingCode: { in: [...new Set([term, term.toUpperCase()])] } },
          select: { orderId: true },
          take: limit,
        })
        .then((rows) => rows.map((r) => r.orderId)),
    );
  }
  found.push(
    customerIdsNamed(db, tenant, term).then((customerIds) =>
      customerIds.length === 0
        ? []
        : db.order
            .findMany({
              where: { ...scope, customerId: { in: customerIds } },
              select: { id: true },
              orderBy: { id: 'desc' },
              take: limit,
            })
            .then(ids),
    ),
  );
  const all = (await Promise.all(found)).flat();
  return [...new Set(all)].sort().reverse().slice(0, limit);
}

/** The tenant's customers whose external id is `term`, or whose e-mail is (any case). */
async function customerIdsNamed(db: Db, tenant: Tenant, term: string): Promise<string[]> {
  const [byExternalId, byEmail] = await Promise.all([
    db.customer.findMany({
      where: customerWhere(tenant, { externalId: term }),
      select: { id: true },
      take: 50,
    }),
    isEmail(term) ? customerIdsByEmail(db, tenant, term) : [],
  ]);
  return [...new Set([...byExternalId.map((r) => r.id), ...byEmail])];
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

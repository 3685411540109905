// The establishment API's order records: one per operation on an order, derived from its status
// history (docs/establishment-api.md, "Order records"), never stored twice.
//
// | order status                     | Reservation record | Acquisition record | Cancellation record |
// | pending / processing / shipped   | Pending            | —                  | —                   |
// | delivered                        | Completed          | Completed          | —                   |
// | cancelled before delivery        | Cancelled          | —                  | Cancelled           |
// | cancelled by reversing delivery  | Completed          | Cancelled          | Cancelled           |
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { numberedPageSize, pageNumber } from '../pages.js';
import type { Tenant } from '../tenant.js';
import type { ORDER_STATUSES } from './schemas.js';
import { likeEscape, parseInput } from '../validation.js';

export const OPERATION_TYPES = ['Reservation', 'Acquisition', 'Cancellation'] as const;
export const OPERATION_STATUSES = ['Pending', 'Completed', 'Cancelled'] as const;

export type Operation = {
  operationId: string;
  orderType: (typeof OPERATION_TYPES)[number];
  orderStatus: (typeof OPERATION_STATUSES)[number];
  date: Date;
};

type StatusEvent = {
  id: string;
  kind: string;
  fromStatus: string | null;
  toStatus: string | null;
  createdAt: Date;
};

/** The records of one order, oldest first. */
export function operationsOf(order: { status: string; events: StatusEvent[] }): Operation[] {
  const events = order.events.filter((e) => e.kind === 'status');
  const delivered = events.some((e) => e.toStatus === 'delivered');
  const ops: Operation[] = [];
  for (const e of events) {
    if (e.fromStatus === null) {
      ops.push({
        operationId: e.id,
        orderType: 'Reservation',
        orderStatus: delivered
          ? 'Completed'
          : order.status === 'cancelled'
            ? 'Cancelled'
            : 'Pending',
        date: e.createdAt,
      });
    } else if (e.toStatus === 'delivered') {
      ops.push({
        operationId: e.id,
        orderType: 'Acquisition',
        orderStatus: order.status === 'cancelled' ? 'Cancelled' : 'Completed',
        date: e.createdAt,
      });
    } else if (e.toStatus === 'cancelled') {
      ops.push({
        operationId: e.id,
        orderType: 'Cancellation',
        orderStatus: 'Cancelled',
        date: e.createdAt,
      });
    }
  }
  return ops;
}

export const operationListInput = z.object({
  customerId: z.uuid().optional(),
  search: z.string().trim().max(200).optional(),
  statuses: z.array(z.enum(OPERATION_STATUSES)).max(3).optional(),
  priceMin: z.number().int().min(0).optional(),
  priceMax: z.number().int().min(0).optional(),
  page: pageNumber,
  limit: numberedPageSize,
});

type OrderStatus = (typeof ORDER_STATUSES)[number];

export type OperationRow = Operation & {
  transactionId: string;
  playerId: string | null;
  establishmentId: string;
  productId: string | null;
  orderDisplayStatus: OrderStatus;
  value: number;
  reference: string | null;
};

/**
 * One page of the key's operations, newest first. `search` equals a transaction id or a
 * reference, or (3+ characters) is part of a product name; `statuses` and `priceMin/Max` (coins)
 * filter the records.
 */
export async function listOrderOperations(
  db: Db,
  tenant: Tenant,
  input: z.input<typeof operationListInput>,
) {
  const f = parseInput(operationListInput, input);
  const conditions: Prisma.Sql[] = [
    Prisma.sql`o.sub_brand_id = ${tenant.subBrandId}::uuid`,
    Prisma.sql`o.environment = ${tenant.environment}::environment`,
  ];
  if (f.customerId) conditions.push(Prisma.sql`o.customer_id = ${f.customerId}::uuid`);
  if (f.priceMin !== undefined) conditions.push(Prisma.sql`o.total_coins >= ${f.priceMin}`);
  if (f.priceMax !== undefined) conditions.push(Prisma.sql`o.total_coins <= ${f.priceMax}`);
  if (f.search) {
    const s = f.search;
    const alternatives = [
      Prisma.sql`o.id::text = lower(${s})`,
      Prisma.sql`o.reference = upper(${s})`,
    ];
    if (s.length >= 3) {
      alternatives.push(
        Prisma.sql`EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.id
                   AND i.product_name ILIKE ${`%${likeEscape(s)}%`})`,
      );
    }
    conditions.push(Prisma.sql`(${Prisma.join(alternatives, ' OR ')})`);
  }
  const statusFilter = f.statuses?.length
    ? Prisma.sql`WHERE order_status = ANY(${f.statuses}::text[])`
    : Prisma.empty;
  const ops = Prisma.sql`
    WITH ops AS (
      SELECT e.id AS operation_id, o.id AS transaction_id, o.customer_id, o.sub_brand_id, o.status,
             o.total_coins, o.reference, e.created_at,
             (SELECT i.product_id FROM order_items i WHERE i.order_id = o.id ORDER BY i.position LIMIT 1) AS product_id,
             CASE WHEN e.from_status IS NULL THEN 'Reservation'
                  WHEN e.to_status = 'delivered' THEN 'Acquisition'
                  ELSE 'Cancellation' END AS order_type,
             CASE WHEN e.from_status IS NOT NULL AND e.to_status = 'cancelled' THEN 'Cancelled'
                  WHEN e.from_status IS NULL THEN
                    CASE WHEN EXISTS (SELECT 1 FROM order_events d WHERE d.order_id = o.id AND d.to_status = 'delivered')
                           THEN 'Completed'
                         WHEN o.status = 'cancelled' THEN 'Cancelled'
                         ELSE 'Pending' END
                  WHEN o.status = 'cancelled' THEN 'Cancelled'
                  ELSE 'Completed' END AS order_status
      FROM orders o
      JOIN order_events e ON e.order_id = o.id AND e.kind = 'status'
        AND (e.from_status IS NULL OR e.to_status IN ('delivered', 'cancelled'))
      WHERE ${Prisma.join(conditions, ' AND ')}
    )`;
  const [counted, rows] = await Promise.all([
    db.$queryRaw<{ total: bigint }[]>`${ops} SELECT count(*) AS total FROM ops ${statusFilter}`,
    db.$queryRaw<
      {
        operation_id: string;
        transaction_id: string;
        customer_id: string | null;
        sub_brand_id: string;
        status: OrderStatus;
        total_coins: bigint;
        reference: string | null;
        created_at: Date;
        product_id: string | null;
        order_type: Operation['orderType'];
        order_status: Operation['orderStatus'];
      }[]
    >`${ops} SELECT * FROM ops ${statusFilter}
      ORDER BY operation_id DESC OFFSET ${(f.page - 1) * f.limit} LIMIT ${f.limit}`,
  ]);
  const total = Number(counted[0]?.total ?? 0);
  const items: OperationRow[] = rows.map((r) => ({
    operationId: r.operation_id,
    transactionId: r.transaction_id,
    orderType: r.order_type,
    orderStatus: r.order_status,
    orderDisplayStatus: r.status,
    playerId: r.customer_id,
    establishmentId: r.sub_brand_id,
    productId: r.product_id,
    value: Number(r.total_coins),
    reference: r.reference,
    date: r.created_at,
  }));
  return { total, page: f.page, limit: f.limit, hasMore: f.page * f.limit < total, items };
}

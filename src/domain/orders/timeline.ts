// An order's timeline (issue 35): placed, each status change, the shipping, billing and tracking
// changes with who made them, its coin debit and refund, its e-mails and the staff audit entries
// whose target is the order; newest first, paged and worded by domain/timeline.ts. Every branch
// reads through an index that starts with the order (its events, e-mails, audit target) or with
// its customer (the movements, whose reason names the order).
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { readTimeline, type TimelinePage } from '../timeline.js';

export async function orderTimeline(
  db: Db,
  order: { id: string; subBrandId: string; environment: string; customerId: string | null },
  args: { first?: number | null; after?: string | null } = {},
): Promise<TimelinePage> {
  const page = await orderRows(db, order, args);
  // Shown on the order's own page: a line about the order links nowhere, not to that page.
  const here = `/orders/${order.id}`;
  return {
    ...page,
    entries: page.entries.map((e) => (e.linkPath === here ? { ...e, linkPath: null } : e)),
  };
}

function orderRows(
  db: Db,
  order: { id: string; subBrandId: string; environment: string; customerId: string | null },
  args: { first?: number | null; after?: string | null },
): Promise<TimelinePage> {
  const oid = Prisma.sql`${order.id}::uuid`;
  const sb = Prisma.sql`${order.subBrandId}::uuid`;
  const env = Prisma.sql`${order.environment}::environment`;
  const reasons = [`order:${order.id}`, `refund:${order.id}`];
  // Who made an order event: a person, or a key (its prefix), else the system.
  const by = Prisma.sql`coalesce(u.email, k.display_prefix)`;
  return readTimeline(db, args, (branch) => [
    branch(
      'order',
      Prisma.sql`o.created_at`,
      Prisma.sql`'order:' || o.id::text`,
      Prisma.sql`jsonb_build_object('order_id', o.id, 'reference', o.reference,
        'total_coins', o.total_coins::text, 'status', o.status)`,
      Prisma.sql`FROM orders o WHERE o.id = ${oid}`,
    ),
    branch(
      'order_status',
      Prisma.sql`e.created_at`,
      Prisma.sql`'order_status:' || e.id::text`,
      Prisma.sql`jsonb_build_object('order_id', o.id, 'reference', o.reference,
        'from_status', e.from_status, 'to_status', e.to_status, 'status', o.status, 'by', ${by})`,
      Prisma.sql`FROM order_events e JOIN orders o ON o.id = e.order_id
        LEFT JOIN staff_users u ON u.id = e.staff_user_id
        LEFT JOIN api_keys k ON k.id = e.api_key_id
        WHERE e.order_id = ${oid} AND e.kind = 'status' AND e.from_status IS NOT NULL`,
    ),
    branch(
      'order_update',
      Prisma.sql`e.created_at`,
      Prisma.sql`'order_update:' || e.id::text`,
      Prisma.sql`jsonb_build_object('order_id', o.id, 'reference', o.reference,
        'event_kind', e.kind, 'tracking', e.detail->>'tracking_code', 'by', ${by})`,
      Prisma.sql`FROM order_events e JOIN orders o ON o.id = e.order_id
        LEFT JOIN staff_users u ON u.id = e.staff_user_id
        LEFT JOIN api_keys k ON k.id = e.api_key_id
        WHERE e.order_id = ${oid} AND e.kind IN ('shipping', 'billing', 'tracking')`,
    ),
    ...(order.customerId
      ? [
          branch(
            'movement',
            Prisma.sql`m.created_at`,
            Prisma.sql`'movement:' || m.id::text`,
            Prisma.sql`jsonb_build_object('delta', m.delta::text, 'reason', m.reason,
              'source', m.source, 'balance_after', m.balance_after::text,
              'reference', (SELECT reference FROM orders WHERE id = ${oid}))`,
            Prisma.sql`FROM coin_movements m
              WHERE m.customer_id = ${order.customerId}::uuid AND m.sub_brand_id = ${sb}
                AND m.environment = ${env} AND m.reason IN (${Prisma.join(reasons)})`,
          ),
        ]
      : []),
    branch(
      'email',
      Prisma.sql`n.created_at`,
      Prisma.sql`'email:' || n.id::text`,
      Prisma.sql`jsonb_build_object('subject', n.subject, 'status', n.status,
        'recipient', n.recipient, 'last_error', n.last_error)`,
      Prisma.sql`FROM notifications n WHERE n.order_id = ${oid} AND n.sub_brand_id = ${sb}`,
    ),
    branch(
      'audit',
      Prisma.sql`s.created_at`,
      Prisma.sql`'audit:' || s.id::text`,
      Prisma.sql`jsonb_build_object('action', s.action, 'staff', u.email, 'request_id', s.request_id)`,
      Prisma.sql`FROM staff_audit s JOIN staff_users u ON u.id = s.staff_user_id
        WHERE s.sub_brand_id = ${sb} AND s.environment = ${env} AND s.target_id = ${order.id}`,
    ),
  ]);
}

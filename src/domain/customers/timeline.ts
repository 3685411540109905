// A player's timeline (issue 35): everything that happened to one customer, newest first:
// coin movements (expiry write-offs among them), orders and their status changes, campaign awards
// and claims, the order e-mails, responsible-gaming changes and the staff audit entries whose
// target is the customer. Paged and worded by domain/timeline.ts.
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Tenant } from '../tenant.js';
import { readTimeline, type TimelinePage } from '../timeline.js';

/**
 * The newest `first` entries of a customer's timeline before `after` (a cursor this function
 * issued). A customer not of `tenant` is not found.
 */
export async function customerTimeline(
  db: Db,
  tenant: Tenant,
  customerId: string,
  args: { first?: number | null; after?: string | null } = {},
): Promise<TimelinePage> {
  if (!isUuid(customerId)) throw notFound('Customer');
  const customer = await db.customer.findFirst({
    where: { id: customerId, subBrandId: tenant.subBrandId, environment: tenant.environment },
    select: { id: true },
  });
  if (!customer) throw notFound('Customer');

  const sb = Prisma.sql`${tenant.subBrandId}::uuid`;
  const env = Prisma.sql`${tenant.environment}::environment`;
  const cid = Prisma.sql`${customerId}::uuid`;
  return readTimeline(db, args, (branch) => [
    branch(
      'movement',
      Prisma.sql`m.created_at`,
      Prisma.sql`'movement:' || m.id::text`,
      Prisma.sql`jsonb_build_object('delta', m.delta::text, 'reason', m.reason, 'source', m.source,
          'balance_after', m.balance_after::text, 'reference', ro.reference)`,
      Prisma.sql`FROM coin_movements m
          LEFT JOIN orders ro ON m.source IN ('order', 'refund')
            AND ro.id = CASE WHEN m.reason ~ '^(order|refund):[0-9a-f-]{36}$'
                             THEN split_part(m.reason, ':', 2)::uuid END
          WHERE m.customer_id = ${cid} AND m.sub_brand_id = ${sb}
          AND m.environment = ${env}`,
    ),
    branch(
      'order',
      Prisma.sql`o.created_at`,
      Prisma.sql`'order:' || o.id::text`,
      Prisma.sql`jsonb_build_object('order_id', o.id, 'reference', o.reference,
          'total_coins', o.total_coins::text, 'status', o.status)`,
      Prisma.sql`FROM orders o WHERE o.customer_id = ${cid} AND o.sub_brand_id = ${sb}
          AND o.environment = ${env}`,
    ),
    branch(
      'order_status',
      Prisma.sql`e.created_at`,
      Prisma.sql`'order_status:' || e.id::text`,
      Prisma.sql`jsonb_build_object('order_id', o.id, 'reference', o.reference,
          'from_status', e.from_status, 'to_status', e.to_status, 'status', o.status)`,
      Prisma.sql`FROM order_events e JOIN orders o ON o.id = e.order_id
          WHERE o.customer_id = ${cid} AND o.sub_brand_id = ${sb} AND o.environment = ${env}
            AND e.kind = 'status' AND e.from_status IS NOT NULL`,
    ),
    branch(
      'award',
      Prisma.sql`a.created_at`,
      Prisma.sql`'award:' || a.id::text`,
      Prisma.sql`jsonb_build_object('coins', a.coins::text, 'prize', a.catalog_prize,
          'campaign', c.title, 'campaign_id', c.id, 'status', a.status, 'expires_at', a.expires_at)`,
      Prisma.sql`FROM campaign_awards a
          JOIN campaigns c ON c.sub_brand_id = a.sub_brand_id AND c.id = a.campaign_id
          WHERE a.sub_brand_id = ${sb} AND a.environment = ${env} AND a.customer_id = ${cid}`,
    ),
    branch(
      'claim',
      Prisma.sql`a.claimed_at`,
      Prisma.sql`'claim:' || a.id::text`,
      Prisma.sql`jsonb_build_object('coins', a.coins::text, 'prize', a.catalog_prize,
          'campaign', c.title, 'campaign_id', c.id)`,
      Prisma.sql`FROM campaign_awards a
          JOIN campaigns c ON c.sub_brand_id = a.sub_brand_id AND c.id = a.campaign_id
          WHERE a.sub_brand_id = ${sb} AND a.environment = ${env} AND a.customer_id = ${cid}
            AND a.claimed_at IS NOT NULL`,
    ),
    branch(
      'email',
      Prisma.sql`n.created_at`,
      Prisma.sql`'email:' || n.id::text`,
      Prisma.sql`jsonb_build_object('subject', n.subject, 'status', n.status,
          'recipient', n.recipient, 'last_error', n.last_error)`,
      Prisma.sql`FROM notifications n JOIN orders o ON o.id = n.order_id
          WHERE o.customer_id = ${cid} AND o.sub_brand_id = ${sb} AND o.environment = ${env}
            AND n.sub_brand_id = ${sb}`,
    ),
    branch(
      'rg',
      Prisma.sql`r.created_at`,
      Prisma.sql`'rg:' || r.id::text`,
      Prisma.sql`jsonb_build_object('state', r.state, 'until', r.until, 'source', r.source,
          'note', r.note, 'reason', r.reason, 'via', r.via)`,
      Prisma.sql`FROM rg_changes r WHERE r.sub_brand_id = ${sb} AND r.environment = ${env}
          AND r.customer_id = ${cid}`,
    ),
    branch(
      'audit',
      Prisma.sql`s.created_at`,
      Prisma.sql`'audit:' || s.id::text`,
      Prisma.sql`jsonb_build_object('action', s.action, 'staff', u.email, 'request_id', s.request_id)`,
      Prisma.sql`FROM staff_audit s JOIN staff_users u ON u.id = s.staff_user_id
          WHERE s.sub_brand_id = ${sb} AND s.environment = ${env} AND s.target_id = ${customerId}`,
    ),
  ]);
}

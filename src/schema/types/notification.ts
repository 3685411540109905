// The logistics e-mail outbox, for the backoffice: what was sent, what waits (no SMTP_URL, or
// retrying) and what failed for good. Platform admins see every tenant (or one, by subBrandId);
// staff see the sub-brand they chose. Partner keys do not see it at all.
import { isUuid } from '../../domain/ids.js';
import { requeueNotification } from '../../domain/notifications/requeue.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { countedTotal, ListTotalRef } from '../list-total.js';
import { EnvironmentEnum } from './environment.js';
import { effect } from '../effects.js';

const NotificationStatusEnum = builder.enumType('NotificationStatus', {
  description: 'pending (waiting or retrying), sent, failed (gave up; see lastError).',
  values: ['pending', 'sent', 'failed'] as const,
});

builder.prismaObject('Notification', {
  description: 'One logistics e-mail of an order event, in the outbox.',
  fields: (t) => ({
    id: t.exposeID('id', { description: "Also the Message-ID's left part." }),
    subBrandId: t.exposeID('subBrandId'),
    environment: t.expose('environment', { type: EnvironmentEnum }),
    orderId: t.exposeID('orderId'),
    eventId: t.exposeID('eventId'),
    template: t.exposeString('template'),
    recipient: t.exposeString('recipient'),
    subject: t.exposeString('subject'),
    html: t.exposeString('html', {
      description: 'Every value escaped; %BASE_URL% is filled in when sent.',
    }),
    text: t.exposeString('text'),
    status: t.expose('status', { type: NotificationStatusEnum }),
    attempts: t.exposeInt('attempts'),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime' }),
    lastError: t.exposeString('lastError', { nullable: true }),
    sentAt: t.expose('sentAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

type OutboxArgs = {
  status?: 'pending' | 'sent' | 'failed' | null;
  orderId?: string | number | null;
  subBrandId?: string | number | null;
};

/** The e-mails listed (null: none can match, an id that is not one). */
function outboxWhere(ctx: GraphQLContext, args: OutboxArgs) {
  if (args.orderId != null && !isUuid(String(args.orderId))) return null;
  if (args.subBrandId != null && !isUuid(String(args.subBrandId))) return null;
  const p = ctx.principal;
  // Staff are confined to the sub-brand they chose; only a platform admin sees across tenants.
  const subBrandId = p.isPlatformAdmin && !p.staff ? (args.subBrandId ?? undefined) : p.subBrandId;
  return {
    ...(subBrandId ? { subBrandId: String(subBrandId) } : {}),
    ...(args.status ? { status: args.status } : {}),
    ...(args.orderId ? { orderId: String(args.orderId) } : {}),
  };
}

builder.queryFields((t) => {
  const args = {
    status: t.arg({ type: NotificationStatusEnum }),
    orderId: t.arg.id(),
    subBrandId: t.arg.id({ description: 'Platform admins: one tenant (default: all).' }),
  };
  return {
    notifications: t.prismaField({
      type: ['Notification'],
      authScopes: { admin: true, staff: true },
      description: 'The outbox, newest first (at most `limit`, 1-100, default 50).',
      args: { ...args, limit: t.arg.int() },
      resolve: async (query, _root, args, ctx) => {
        const where = outboxWhere(ctx, args);
        if (!where) return [];
        return ctx.db.notification.findMany({
          ...query,
          where,
          orderBy: { createdAt: 'desc' },
          take: Math.min(Math.max(args.limit ?? 50, 1), 100),
        });
      },
    }),
    notificationsTotal: t.field({
      type: ListTotalRef,
      authScopes: { admin: true, staff: true },
      description:
        'How many e-mails `notifications` with the same filter holds in all (it shows at most 100): exact up to 10,000, "more than" above.',
      args,
      resolve: (_root, args, ctx) => {
        const where = outboxWhere(ctx, args);
        return countedTotal((take) =>
          where ? ctx.db.notification.count({ where, take }) : Promise.resolve(0),
        );
      },
    }),
  };
});

builder.mutationField('requeueNotification', (t) =>
  t.prismaField({
    extensions: effect('changes'),
    type: 'Notification',
    // Platform admins, and staff who may change orders (support is read-only). Establishment and
    // partner keys do not see the outbox at all.
    authScopes: { admin: true, $all: { staff: true, scope: 'orders:update' } },
    description:
      'Sends a failed e-mail again: back to pending, due now, attempts reset, the same ' +
      'Message-ID. Only a failed one (invalid_transition otherwise); another tenant’s is not_found.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const p = ctx.principal;
      const row = await requeueNotification(ctx.db, {
        id: String(args.id),
        // As in `notifications`: only a platform admin's key reaches across tenants.
        subBrandId: p.isPlatformAdmin && !p.staff ? null : p.subBrandId,
      });
      return ctx.db.notification.findUniqueOrThrow({
        ...query,
        where: { subBrandId_id: { subBrandId: row.subBrandId, id: row.id } },
      });
    },
  }),
);

// The backoffice's own fields: who made a coin movement, the staff audit trail, the dashboard.
// Staff accounts themselves: staff-admin.ts (and the admin CLI).
import { readDashboard, type Dashboard } from '../../domain/reports/dashboard.js';
import { reportWindow } from '../../domain/reports/window.js';
import { AppError } from '../../domain/errors.js';
import {
  auditActions,
  auditPeople,
  auditWhere,
  readAuditFilter,
} from '../../domain/staff/audit-where.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { countedTotal, ListTotalRef } from '../list-total.js';
import { tenantOf } from '../tenant.js';

export const StaffRoleEnum = builder.enumType('StaffRole', {
  values: ['platform_admin', 'brand_admin', 'establishment_operator', 'support'] as const,
});

const StaffMemberRef = builder.prismaObject('StaffUser', {
  name: 'StaffMember',
  description: 'A backoffice account (a person).',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    role: t.expose('role', { type: StaffRoleEnum }),
  }),
});

builder.prismaObjectField('CoinMovement', 'operator', (t) =>
  t.field({
    type: StaffMemberRef,
    nullable: true,
    description:
      'The staff member who made it in the backoffice; null for key-made movements, and for keys.',
    select: { staffUser: true },
    // Staff e-mails are for staff: a partner's key sees null.
    resolve: (movement, _args, ctx) => (ctx.principal.staff ? movement.staffUser : null),
  }),
);

builder.prismaObjectField('OrderEvent', 'operator', (t) =>
  t.field({
    type: StaffMemberRef,
    nullable: true,
    description: 'The staff member who made this change in the backoffice; null for keys.',
    select: { staffUser: true },
    resolve: (event, _args, ctx) => (ctx.principal.staff ? event.staffUser : null),
  }),
);

builder.prismaObject('StaffAuditEntry', {
  name: 'StaffAuditEntry',
  description: 'One change a staff member made: who, what, when, before and after.',
  fields: (t) => ({
    id: t.exposeID('id'),
    action: t.exposeString('action', { description: 'The mutation, e.g. adjustCustomerCoins.' }),
    targetId: t.exposeString('targetId', { nullable: true }),
    args: t.expose('args', { type: 'JSON' }),
    before: t.expose('before', { type: 'JSON', nullable: true }),
    after: t.expose('after', { type: 'JSON', nullable: true }),
    requestId: t.exposeString('requestId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    staff: t.relation('staffUser'),
  }),
});

type CoinDay = Dashboard['coinsPerDay'][number];
type StatusCount = Dashboard['ordersByStatus'][number];
type OutcomeDay = Dashboard['engineOutcomesPerDay'][number];
type TopProduct = Dashboard['topProducts'][number];

const CoinDayRef = builder.objectRef<CoinDay>('DashboardCoinDay').implement({
  fields: (t) => ({
    day: t.exposeString('day', { description: 'YYYY-MM-DD (UTC).' }),
    credited: t.expose('credited', { type: 'SafeInt' }),
    spent: t.expose('spent', { type: 'SafeInt' }),
  }),
});
const StatusCountRef = builder.objectRef<StatusCount>('DashboardStatusCount').implement({
  fields: (t) => ({ status: t.exposeString('status'), count: t.exposeInt('count') }),
});
const OutcomeDayRef = builder.objectRef<OutcomeDay>('DashboardOutcomeDay').implement({
  fields: (t) => ({
    day: t.exposeString('day'),
    outcome: t.exposeString('outcome'),
    count: t.exposeInt('count'),
  }),
});
const TopProductRef = builder.objectRef<TopProduct>('DashboardTopProduct').implement({
  fields: (t) => ({
    productId: t.exposeID('productId'),
    name: t.exposeString('name'),
    units: t.exposeInt('units'),
  }),
});
const DashboardRef = builder.objectRef<Dashboard>('Dashboard').implement({
  description: "The tenant's recent activity, per UTC day.",
  fields: (t) => ({
    coinsPerDay: t.field({ type: [CoinDayRef], resolve: (d) => d.coinsPerDay }),
    ordersByStatus: t.field({
      type: [StatusCountRef],
      description: 'All time.',
      resolve: (d) => d.ordersByStatus,
    }),
    engineOutcomesPerDay: t.field({
      type: [OutcomeDayRef],
      resolve: (d) => d.engineOutcomesPerDay,
    }),
    topProducts: t.field({
      type: [TopProductRef],
      description: 'By units ordered, top 5.',
      resolve: (d) => d.topProducts,
    }),
  }),
});

type AuditArgs = {
  action?: string | null;
  targetId?: string | null;
  staffId?: string | number | null;
  staffEmail?: string | null;
  from?: string | null;
  to?: string | null;
};

/** The same filter as the audit CSV export (domain/staff/audit-where.ts). */
async function auditListWhere(ctx: GraphQLContext, args: AuditArgs) {
  const filter = await readAuditFilter(ctx.db, {
    action: args.action || undefined,
    targetId: args.targetId || undefined,
    staffId: args.staffId ? String(args.staffId) : undefined,
    staffEmail: args.staffEmail || undefined,
    from: args.from || undefined,
    to: args.to || undefined,
  });
  return auditWhere(tenantOf(ctx), filter);
}

builder.queryFields((t) => ({
  dashboard: t.field({
    type: DashboardRef,
    description:
      "The caller's tenant over the window [from, to) (at most 366 days), or else the last `days` days (1-366, default 30).",
    authScopes: { scope: 'orders:read' },
    args: {
      days: t.arg.int({ defaultValue: 30 }),
      from: t.arg({ type: 'DateTime', description: 'With `to`: the window instead of `days`.' }),
      to: t.arg({ type: 'DateTime' }),
    },
    resolve: (_root, { days, from, to }, ctx) => {
      if (from || to) {
        if (!from || !to) throw new AppError('invalid_request', 'from and to go together.');
        return readDashboard(ctx.db, tenantOf(ctx), reportWindow({ from, to }));
      }
      const n = days ?? 30;
      if (n < 1 || n > 366) throw new AppError('invalid_request', 'days must be 1 to 366.');
      const now = ctx.now();
      const since = new Date(now.getTime() - n * 24 * 60 * 60 * 1000);
      return readDashboard(ctx.db, tenantOf(ctx), { from: since, to: now });
    },
  }),
  staffAudit: t.prismaConnection(
    {
      type: 'StaffAuditEntry',
      cursor: 'id',
      description:
        "Backoffice: staff changes to the chosen sub-brand's data, newest first, filtered as the " +
        'audit CSV export filters them (GET /admin/api/audit.csv takes the same parameters).',
      authScopes: { staff: true },
      args: {
        action: t.arg.string({ description: 'The mutation, by its exact name.' }),
        targetId: t.arg.string({ description: 'The id the change was about.' }),
        staffId: t.arg.id({ description: 'The staff member who made it.' }),
        staffEmail: t.arg.string({ description: 'The same, by e-mail (case-insensitive).' }),
        from: t.arg.string({
          description: 'From (inclusive): a day (2026-11-01, UTC) or an instant ending in Z.',
        }),
        to: t.arg.string({
          description: 'To (exclusive): a day (taken in whole, UTC) or an instant ending in Z.',
        }),
      },
      resolve: async (query, _root, args, ctx) =>
        ctx.db.staffAuditEntry.findMany({
          ...query,
          where: await auditListWhere(ctx, args),
          orderBy: { id: 'desc' },
        }),
    },
    {
      fields: (c) => ({
        total: c.field({
          type: ListTotalRef,
          description: 'How many changes match: exact up to 10,000, "more than" above.',
          resolve: async ({ args }, _args, ctx) => {
            const where = await auditListWhere(ctx, args);
            return countedTotal((take) => ctx.db.staffAuditEntry.count({ where, take }));
          },
        }),
        actions: c.stringList({
          description: "The actions in the chosen sub-brand's whole trail (a filter's choices).",
          resolve: (_conn, _args, ctx) => auditActions(ctx.db, tenantOf(ctx)),
        }),
        people: c.field({
          type: [StaffMemberRef],
          description: "The staff who appear in the chosen sub-brand's whole trail, by e-mail.",
          resolve: (_conn, _args, ctx) => auditPeople(ctx.db, tenantOf(ctx)),
        }),
      }),
    },
  ),
}));

// The backoffice dashboard's key figures and alerts for a window (domain/reports/kpis.ts). A
// staff-facing read beside the reports, under the same scope.
import { readDashboardKpis, type DashboardKpis } from '../../domain/reports/kpis.js';
import { reportWindow } from '../../domain/reports/window.js';
import { builder } from '../builder.js';
import { onReplica } from '../read.js';
import { tenantOf } from '../tenant.js';

type Budget = DashboardKpis['campaignBudgets'][number];
type Alert = DashboardKpis['alerts'][number];

const BudgetRef = builder.objectRef<Budget>('DashboardCampaignBudget').implement({
  description: 'A running or paused campaign with a budget: what it may award, what it did.',
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    title: t.exposeString('title'),
    status: t.exposeString('status'),
    budget: t.expose('budget', { type: 'SafeInt' }),
    awarded: t.expose('awarded', { type: 'SafeInt' }),
  }),
});

const AlertKindEnum = builder.enumType('DashboardAlertKind', {
  values: ['budget_spent', 'budget_nearly_spent', 'failed_emails', 'low_stock'] as const,
});

const AlertRef = builder.objectRef<Alert>('DashboardAlert').implement({
  fields: (t) => ({
    kind: t.expose('kind', { type: AlertKindEnum }),
    message: t.exposeString('message'),
    targetId: t.exposeID('targetId', {
      nullable: true,
      description: 'The campaign (budgets) or product (stock) it is about.',
    }),
  }),
});

const KpisRef = builder.objectRef<DashboardKpis>('DashboardKpis').implement({
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    coinLiability: t.expose('coinLiability', {
      type: 'SafeInt',
      description: "Coins the tenant's customers hold now (Σ balances).",
    }),
    coinsIssued: t.expose('coinsIssued', {
      type: 'SafeInt',
      description: 'Coins granted in the window: API, engine, campaigns and bulk.',
    }),
    coinsRedeemed: t.expose('coinsRedeemed', {
      type: 'SafeInt',
      description: 'Coins spent on orders in the window, less refunds.',
    }),
    coinsExpired: t.expose('coinsExpired', { type: 'SafeInt' }),
    redemptionRate: t.exposeFloat('redemptionRate', {
      nullable: true,
      description: 'coinsRedeemed / coinsIssued; null when nothing was issued.',
    }),
    activePlayers: t.exposeInt('activePlayers', {
      description: 'Customers with a coin movement in the window.',
    }),
    ordersWaiting: t.exposeInt('ordersWaiting', { description: 'Pending or processing, now.' }),
    campaignBudgets: t.field({ type: [BudgetRef], resolve: (k) => k.campaignBudgets }),
    alerts: t.field({ type: [AlertRef], resolve: (k) => k.alerts }),
  }),
});

builder.queryField('dashboardKpis', (t) =>
  t.field({
    type: KpisRef,
    authScopes: { scope: 'reports:read' },
    description:
      "The tenant's key figures for the window [from, to) (at most 366 days) and today's alerts: campaign budgets at 80 % or spent, failed e-mails in the window, listed stock at 5 units or fewer.",
    args: {
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true }),
    },
    resolve: (_root, { from, to }, ctx) =>
      onReplica(ctx, (db) => readDashboardKpis(db, tenantOf(ctx), reportWindow({ from, to }))),
  }),
);

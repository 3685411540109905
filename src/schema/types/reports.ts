// Reports over the caller's whole tenant (docs/reports.md): coins per day, week or source, top
// earners, orders per status and age, campaign performance. Read by the backoffice dashboard and
// by keys with `reports:read` (REST: /api/v1/reports/…).
import {
  COIN_REPORT_GROUPINGS,
  readCoinReport,
  type CoinReport,
  type CoinReportRow,
  type CoinSums,
} from '../../domain/reports/coin-report.js';
import {
  readCampaignPerformance,
  type CampaignPerformance,
} from '../../domain/reports/campaign-performance.js';
import {
  readOrderReport,
  type OrderAges,
  type OrderStatusRow,
} from '../../domain/reports/order-report.js';
import { readTopEarners, type TopEarner } from '../../domain/reports/top-earners.js';
import { builder } from '../builder.js';
import { OrderStatusEnum } from './order.js';
import { REPORT_SOURCES, type ReportSource } from '../../domain/reports/sources.js';
import type { OrderStatusName } from '../../domain/orders/schemas.js';
import { onReplica } from '../read.js';
import { tenantOf } from '../tenant.js';

const REPORTS = { scope: 'reports:read' } as const;

const GroupingEnum = builder.enumType('CoinReportGrouping', {
  description: 'day: per UTC day; week: per ISO week (from Monday 00:00 UTC); source: per source.',
  values: COIN_REPORT_GROUPINGS,
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer S> ? S : never;

const sumFields = <T extends CoinSums>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, T>) => ({
  credited: t.field({
    type: 'SafeInt',
    description: 'Coins credited.',
    resolve: (r: T) => r.credited,
  }),
  debited: t.field({
    type: 'SafeInt',
    description: 'Coins debited, as a positive number.',
    resolve: (r: T) => r.debited,
  }),
  net: t.field({ type: 'SafeInt', description: 'credited − debited.', resolve: (r: T) => r.net }),
  credits: t.int({ description: 'Movements that credited.', resolve: (r: T) => r.credits }),
  debits: t.int({ description: 'Movements that debited.', resolve: (r: T) => r.debits }),
});

const SumsRef = builder.objectRef<CoinSums>('CoinReportTotals').implement({
  fields: (t) => sumFields(t),
});

const ReportSourceEnum = builder.enumType('ReportSource', {
  description: 'What moved the coins; hold: a hold captured.',
  values: REPORT_SOURCES,
});

const RowRef = builder.objectRef<CoinReportRow>('CoinReportRow').implement({
  fields: (t) => ({
    periodStart: t.expose('periodStart', {
      type: 'DateTime',
      nullable: true,
      description: "The day's or week's first instant (UTC); null when grouped by source.",
    }),
    source: t.field({
      type: ReportSourceEnum,
      nullable: true,
      description: 'By source; null otherwise.',
      resolve: (r) => r.source as ReportSource | null,
    }),
    ...sumFields(t),
  }),
});

const CoinReportRef = builder.objectRef<CoinReport>('CoinReport').implement({
  description: 'Coins credited and debited in a window [from, to), exact to the last commit.',
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    groupBy: t.expose('groupBy', { type: GroupingEnum }),
    totals: t.field({ type: SumsRef, resolve: (r) => r.totals }),
    rows: t.field({
      type: [RowRef],
      description: 'Every period (or source) of the window, in order, zeros included.',
      resolve: (r) => r.rows,
    }),
  }),
});

const TopEarnerRef = builder.objectRef<TopEarner>('TopEarner').implement({
  fields: (t) => ({
    customerId: t.exposeID('customerId'),
    externalId: t.exposeString('externalId'),
    earned: t.expose('earned', {
      type: 'SafeInt',
      description: 'Coins credited in the window, refunds left out.',
    }),
    credits: t.exposeInt('credits', { description: 'Movements that credited them.' }),
    balance: t.expose('balance', { type: 'SafeInt', description: 'The balance now.' }),
  }),
});

type Earners = Awaited<ReturnType<typeof readTopEarners>>;
const TopEarnersRef = builder.objectRef<Earners>('TopEarners').implement({
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    customers: t.field({ type: [TopEarnerRef], resolve: (r) => r.customers }),
  }),
});

const AgesRef = builder.objectRef<OrderAges>('OrderAges').implement({
  description: 'Orders by age (since created), in days: [0,1), [1,3), [3,7), [7,30), 30+.',
  fields: (t) => ({
    underOneDay: t.exposeInt('underOneDay'),
    oneToThreeDays: t.exposeInt('oneToThreeDays'),
    threeToSevenDays: t.exposeInt('threeToSevenDays'),
    sevenToThirtyDays: t.exposeInt('sevenToThirtyDays'),
    overThirtyDays: t.exposeInt('overThirtyDays'),
  }),
});

const OrderStatusRowRef = builder.objectRef<OrderStatusRow>('OrderStatusReport').implement({
  fields: (t) => ({
    status: t.field({ type: OrderStatusEnum, resolve: (r) => r.status as OrderStatusName }),
    count: t.exposeInt('count'),
    coins: t.expose('coins', { type: 'SafeInt', description: 'Σ of their total_coins.' }),
    oldestCreatedAt: t.expose('oldestCreatedAt', { type: 'DateTime', nullable: true }),
    ages: t.field({ type: AgesRef, resolve: (r) => r.ages }),
  }),
});

type Orders = Awaited<ReturnType<typeof readOrderReport>>;
const OrderReportRef = builder.objectRef<Orders>('OrderReport').implement({
  fields: (t) => ({
    asOf: t.expose('asOf', { type: 'DateTime' }),
    statuses: t.field({
      type: [OrderStatusRowRef],
      description: 'Every status, zeros included.',
      resolve: (r) => r.statuses,
    }),
  }),
});

const CampaignRowRef = builder.objectRef<CampaignPerformance>('CampaignPerformance').implement({
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    title: t.exposeString('title'),
    type: t.exposeString('type'),
    status: t.exposeString('status'),
    startsAt: t.expose('startsAt', { type: 'DateTime' }),
    endsAt: t.expose('endsAt', { type: 'DateTime' }),
    playersReached: t.exposeInt('playersReached', { description: 'Players who took part.' }),
    awards: t.exposeInt('awards'),
    awardsClaimed: t.exposeInt('awardsClaimed'),
    awardsExpired: t.exposeInt('awardsExpired'),
    coinsAwarded: t.expose('coinsAwarded', { type: 'SafeInt' }),
    coinsClaimed: t.expose('coinsClaimed', { type: 'SafeInt' }),
  }),
});

type Campaigns = Awaited<ReturnType<typeof readCampaignPerformance>>;
const CampaignReportRef = builder.objectRef<Campaigns>('CampaignPerformanceReport').implement({
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    campaigns: t.field({ type: [CampaignRowRef], resolve: (r) => r.campaigns }),
  }),
});

builder.queryFields((t) => ({
  coinReport: t.field({
    type: CoinReportRef,
    authScopes: REPORTS,
    description:
      "Coins credited and debited in the tenant's window [from, to) (at most 366 days), per day, week or source.",
    args: {
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true }),
      groupBy: t.arg({ type: GroupingEnum, defaultValue: 'day' }),
    },
    resolve: (_root, { from, to, groupBy }, ctx) =>
      onReplica(ctx, (db) =>
        readCoinReport(db, tenantOf(ctx), { from, to, groupBy: groupBy ?? 'day' }),
      ),
  }),
  topEarners: t.field({
    type: TopEarnersRef,
    authScopes: REPORTS,
    description:
      'The customers who earned the most coins in [from, to) (at most 93 days), refunds left out.',
    args: {
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true }),
      limit: t.arg.int({ defaultValue: 10, description: '1 to 100.' }),
    },
    resolve: (_root, { from, to, limit }, ctx) =>
      onReplica(ctx, (db) => readTopEarners(db, tenantOf(ctx), { from, to, limit })),
  }),
  orderReport: t.field({
    type: OrderReportRef,
    authScopes: REPORTS,
    description: "The tenant's orders per status, with their coins and ages.",
    resolve: (_root, _args, ctx) =>
      onReplica(ctx, (db) => readOrderReport(db, tenantOf(ctx), ctx.now())),
  }),
  campaignPerformance: t.field({
    type: CampaignReportRef,
    authScopes: REPORTS,
    description:
      'Campaigns running at some point of [from, to): players reached, awards, coins awarded and claimed.',
    args: {
      from: t.arg({ type: 'DateTime', required: true }),
      to: t.arg({ type: 'DateTime', required: true }),
    },
    resolve: (_root, { from, to }, ctx) =>
      onReplica(ctx, (db) => readCampaignPerformance(db, tenantOf(ctx), { from, to })),
  }),
}));

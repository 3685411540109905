// Reports over the key's whole tenant (docs/reports.md): coins per day, week or source, top
// earners, orders per status and age, campaign performance. Read-only; scope reports:read.
import { z } from 'zod';
import { COIN_REPORT_GROUPINGS } from '../../../domain/reports/coin-report.js';
import { TOP_EARNERS_MAX_DAYS } from '../../../domain/reports/top-earners.js';
import { MAX_WINDOW_DAYS } from '../../../domain/reports/window.js';
import { utcInstant } from '../../../domain/validation.js';
import { defineRoute } from '../../define-route.js';

const DAY_MS = 86_400_000;

/** from and to (required instants): from before to, at most `maxDays` apart. */
const windowQuery = <S extends z.ZodRawShape>(maxDays: number, more: S) =>
  z
    .strictObject({
      from: utcInstant.describe('Start of the window, inclusive (ISO-8601 UTC).'),
      to: utcInstant.describe(`End of the window, exclusive; at most ${maxDays} days after from.`),
      ...more,
    })
    .superRefine((v, ctx) => {
      const { from, to } = v as unknown as { from: unknown; to: unknown };
      if (!(from instanceof Date && to instanceof Date)) return; // already refused
      if (from >= to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
      else if (to.getTime() - from.getTime() > maxDays * DAY_MS)
        ctx.addIssue({
          code: 'custom',
          path: ['to'],
          message: `must be at most ${maxDays} days after from`,
        });
    });

const SUMS = 'credited debited net credits debits';

export const coinReport = defineRoute({
  name: 'get_coin_report',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/reports/coins',
  scope: 'reports:read',
  tag: 'Reports',
  summary: 'Coins credited and debited, per day, week or source',
  description:
    'Tenant-wide coins credited and debited (integer coins, debited positive) in [from, to), max 366 days: per UTC ' +
    'day, ISO week or source (api, engine, campaign, bulk, order, refund, expiry, hold). Exact up to the last ' +
    'commit. Use for totals and trends.',
  hints: { readOnly: true, idempotent: true },
  query: windowQuery(MAX_WINDOW_DAYS, {
    group_by: z
      .enum(COIN_REPORT_GROUPINGS)
      .default('day')
      .describe('day (UTC), week (from Monday 00:00 UTC) or source.'),
  }),
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query CoinReport($from: DateTime!, $to: DateTime!, $groupBy: CoinReportGrouping) {
    coinReport(from: $from, to: $to, groupBy: $groupBy) { ...CoinReport }
  }
  fragment CoinReport on CoinReport {
    from to groupBy totals { ${SUMS} } rows { periodStart source ${SUMS} }
  }`,
  variables: ({ query }) => ({
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    groupBy: query.group_by,
  }),
});

export const topCustomers = defineRoute({
  name: 'get_top_customers_report',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/reports/top-customers',
  scope: 'reports:read',
  tag: 'Reports',
  summary: 'The customers who earned the most coins',
  description:
    'The customers who earned the most coins (credits, refunds left out) in [from, to), max 93 days, most first, ' +
    'with their balance now. limit: 1-100, default 10. Use to find the most engaged players.',
  hints: { readOnly: true, idempotent: true },
  query: windowQuery(TOP_EARNERS_MAX_DAYS, {
    limit: z.coerce.number().int().min(1).max(100).default(10).describe('1 to 100.'),
  }),
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query TopEarners($from: DateTime!, $to: DateTime!, $limit: Int) {
    topEarners(from: $from, to: $to, limit: $limit) { ...TopCustomersReport }
  }
  fragment TopCustomersReport on TopEarners {
    from to customers { customerId externalId earned credits balance }
  }`,
  variables: ({ query }) => ({
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    limit: query.limit,
  }),
});

const AGES = 'underOneDay oneToThreeDays threeToSevenDays sevenToThirtyDays overThirtyDays';

export const orderReport = defineRoute({
  name: 'get_orders_report',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/reports/orders',
  scope: 'reports:read',
  tag: 'Reports',
  summary: 'Orders per status and age',
  description:
    "The tenant's orders per status (every status, zeros included): count, coins, the oldest, and counts by age " +
    'since creation (<1, 1-3, 3-7, 7-30, 30+ days). Use to spot orders waiting too long.',
  hints: { readOnly: true, idempotent: true },
  query: z.strictObject({}),
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query OrderReport {
    orderReport { ...OrdersReport }
  }
  fragment OrdersReport on OrderReport {
    asOf statuses { status count coins oldestCreatedAt ages { ${AGES} } }
  }`,
  variables: () => ({}),
});

export const campaignReport = defineRoute({
  name: 'get_campaigns_report',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/reports/campaigns',
  scope: 'reports:read',
  tag: 'Reports',
  summary: 'Campaign performance',
  description:
    'Campaigns running at some point of [from, to), max 366 days, newest first (up to 100): players reached, awards ' +
    'made, claimed and expired, coins awarded and claimed (lifetime totals). Use to compare campaigns.',
  hints: { readOnly: true, idempotent: true },
  query: windowQuery(MAX_WINDOW_DAYS, {}),
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query CampaignPerformance($from: DateTime!, $to: DateTime!) {
    campaignPerformance(from: $from, to: $to) { ...CampaignsReport }
  }
  fragment CampaignsReport on CampaignPerformanceReport {
    from to campaigns {
        campaignId title type status startsAt endsAt playersReached awards awardsClaimed awardsExpired
        coinsAwarded coinsClaimed
      }
  }`,
  variables: ({ query }) => ({ from: query.from.toISOString(), to: query.to.toISOString() }),
});

// Reports over the key's whole tenant (docs/reports.md): coins per day, week or source, top
// earners, orders per status and age, campaign performance. Read-only; scope reports:read.
import { z } from 'zod';
import { ORDER_STATUSES } from '../../../domain/orders/schemas.js';
import { COIN_REPORT_GROUPINGS } from '../../../domain/reports/coin-report.js';
import { REPORT_SOURCES } from '../../../domain/reports/sources.js';
import { TOP_EARNERS_MAX_DAYS } from '../../../domain/reports/top-earners.js';
import { MAX_WINDOW_DAYS } from '../../../domain/reports/window.js';
import { utcInstant } from '../../../domain/validation.js';
import { snakeKeys } from '../../casing.js';
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

const sums = {
  credited: z.number().int().min(0).describe('Coins credited.'),
  debited: z.number().int().min(0).describe('Coins debited, as a positive number.'),
  net: z.number().int().describe('credited − debited.'),
  credits: z.number().int().min(0).describe('Movements that credited.'),
  debits: z.number().int().min(0).describe('Movements that debited.'),
};

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
  response: z
    .object({
      from: z.iso.datetime(),
      to: z.iso.datetime(),
      group_by: z.enum(COIN_REPORT_GROUPINGS),
      totals: z.object(sums),
      rows: z
        .array(
          z.object({
            period_start: z.iso
              .datetime()
              .nullable()
              .describe("The day's or week's first instant (UTC); null by source."),
            source: z.enum(REPORT_SOURCES).nullable().describe('By source; null otherwise.'),
            ...sums,
          }),
        )
        .describe('Every period (or source) of the window, in order, zeros included.'),
    })
    .meta({ id: 'CoinReport', description: 'Coins credited and debited in a window.' }),
  errors: [],
  operation: `query CoinReport($from: DateTime!, $to: DateTime!, $groupBy: CoinReportGrouping) {
    coinReport(from: $from, to: $to, groupBy: $groupBy) {
      from to groupBy totals { ${SUMS} } rows { periodStart source ${SUMS} }
    }
  }`,
  variables: ({ query }) => ({
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    groupBy: query.group_by,
  }),
  result: (data) => ({ data: snakeKeys(data.coinReport) }),
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
  response: z
    .object({
      from: z.iso.datetime(),
      to: z.iso.datetime(),
      customers: z.array(
        z.object({
          customer_id: z.uuid(),
          external_id: z.string(),
          earned: z.number().int().min(0).describe('Coins credited in the window.'),
          credits: z.number().int().min(0).describe('Movements that credited them.'),
          balance: z.number().int().min(0).describe('The balance now.'),
        }),
      ),
    })
    .meta({ id: 'TopCustomersReport', description: 'Top earners in a window.' }),
  errors: [],
  operation: `query TopEarners($from: DateTime!, $to: DateTime!, $limit: Int) {
    topEarners(from: $from, to: $to, limit: $limit) {
      from to customers { customerId externalId earned credits balance }
    }
  }`,
  variables: ({ query }) => ({
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    limit: query.limit,
  }),
  result: (data) => ({ data: snakeKeys(data.topEarners) }),
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
  response: z
    .object({
      as_of: z.iso.datetime(),
      statuses: z.array(
        z.object({
          status: z.enum(ORDER_STATUSES),
          count: z.number().int().min(0),
          coins: z.number().int().min(0).describe("Σ of the orders' total_coins."),
          oldest_created_at: z.iso.datetime().nullable(),
          ages: z.object({
            under_one_day: z.number().int().min(0),
            one_to_three_days: z.number().int().min(0),
            three_to_seven_days: z.number().int().min(0),
            seven_to_thirty_days: z.number().int().min(0),
            over_thirty_days: z.number().int().min(0),
          }),
        }),
      ),
    })
    .meta({ id: 'OrdersReport', description: 'Orders per status and age.' }),
  errors: [],
  operation: `query OrderReport {
    orderReport { asOf statuses { status count coins oldestCreatedAt ages { ${AGES} } } }
  }`,
  variables: () => ({}),
  result: (data) => ({ data: snakeKeys(data.orderReport) }),
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
  response: z
    .object({
      from: z.iso.datetime(),
      to: z.iso.datetime(),
      campaigns: z.array(
        z.object({
          campaign_id: z.uuid(),
          title: z.string(),
          type: z.string(),
          status: z.string(),
          starts_at: z.iso.datetime(),
          ends_at: z.iso.datetime(),
          players_reached: z.number().int().min(0).describe('Players who took part.'),
          awards: z.number().int().min(0),
          awards_claimed: z.number().int().min(0),
          awards_expired: z.number().int().min(0),
          coins_awarded: z.number().int().min(0),
          coins_claimed: z.number().int().min(0),
        }),
      ),
    })
    .meta({ id: 'CampaignsReport', description: 'Campaign performance in a window.' }),
  errors: [],
  operation: `query CampaignPerformance($from: DateTime!, $to: DateTime!) {
    campaignPerformance(from: $from, to: $to) {
      from to campaigns {
        campaignId title type status startsAt endsAt playersReached awards awardsClaimed awardsExpired
        coinsAwarded coinsClaimed
      }
    }
  }`,
  variables: ({ query }) => ({ from: query.from.toISOString(), to: query.to.toISOString() }),
  result: (data) => ({ data: snakeKeys(data.campaignPerformance) }),
});

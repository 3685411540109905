// What a campaign is made of, as the establishment document names it (camelCase, the wire's own
// casing), and every rule a campaign must satisfy before it is stored (docs/campaigns.md).
import { z } from 'zod';
import { MAX_COINS } from '../../domain/ledger/coins.js';
import { verticalsInput } from '../../domain/jurisdiction/rules.js';
import { nonBlankText } from '../../domain/validation.js';

export const CAMPAIGN_TYPES = [
  'daily_reward_simple',
  'daily_reward_progressive',
  'tournament',
] as const;
export const CAMPAIGN_STATUSES = [
  'draft',
  'in_progress',
  'paused',
  'cancelled',
  'completed',
] as const;
/** What update-status accepts: the other two states are reached only by the server. */
export const REQUESTABLE_STATUSES = ['in_progress', 'paused', 'cancelled'] as const;
export const DURATIONS = [
  'next_weekend',
  'next_week',
  'next_month',
  'next_year',
  'custom',
] as const;

/** The 12 targeting parameters and the kind of value each one is. */
export const PARAMETER_KINDS = {
  bets_amount: 'number',
  total_bets: 'number',
  created_at: 'date',
  bet_result: 'string',
  game_played: 'string',
  event_participation: 'number',
  user_level: 'string',
  language: 'string',
  login_time: 'date',
  source_platform: 'string',
  deposit: 'number',
  cashback: 'number',
} as const;
export type Parameter = keyof typeof PARAMETER_KINDS;
export const PARAMETERS = Object.keys(PARAMETER_KINDS) as Parameter[];

/** The 17 operators. */
export const OPERATORS = [
  'equals',
  'contains',
  'not_equals',
  'greater_than',
  'less_than',
  'greater_than_or_equals',
  'less_than_or_equals',
  'between',
  'top',
  'sum_greater_than',
  'sum_greater_than_or_equals',
  'sum_less_than',
  'sum_less_than_or_equals',
  'last_x_days',
  'on_date',
  'between_dates',
  'last_login',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** Parameters whose values add up over a player's recorded facts (sum_*, top). */
export const SUMMABLE: ReadonlySet<Parameter> = new Set([
  'bets_amount',
  'total_bets',
  'deposit',
  'cashback',
]);

const COMPARE = ['greater_than', 'less_than', 'greater_than_or_equals', 'less_than_or_equals'];
const SUMS = [
  'sum_greater_than',
  'sum_greater_than_or_equals',
  'sum_less_than',
  'sum_less_than_or_equals',
];

/** Which operators apply to which parameter (anything else is 400 naming both). */
export function operatorApplies(parameter: Parameter, operator: Operator): boolean {
  const kind = PARAMETER_KINDS[parameter];
  if (operator === 'last_login') return parameter === 'login_time';
  if (SUMS.includes(operator) || operator === 'top') return SUMMABLE.has(parameter);
  if (kind === 'date')
    return ['equals', 'not_equals', 'on_date', 'between_dates', 'last_x_days', ...COMPARE].includes(
      operator,
    );
  if (kind === 'number') return ['equals', 'not_equals', 'between', ...COMPARE].includes(operator);
  // Strings: a level such as "5" may still be compared as a number (both sides numeric).
  return ['equals', 'not_equals', 'contains', ...COMPARE].includes(operator);
}

const isNumber = (v: string) => v.trim() !== '' && Number.isFinite(Number(v));
const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v));
const isCount = (v: string) => /^\d{1,6}$/.test(v.trim()) && Number(v) >= 1;

/** What `value` must look like for an operator on a parameter, or null when it fits. */
export function valueProblem(
  parameter: Parameter,
  operator: Operator,
  value: string,
): string | null {
  const kind = PARAMETER_KINDS[parameter];
  const pair = value.split(',').map((s) => s.trim());
  switch (operator) {
    case 'between':
      return pair.length === 2 && pair.every(isNumber) && Number(pair[0]) <= Number(pair[1])
        ? null
        : 'must be two numbers "min,max" with min <= max for between';
    case 'between_dates':
      return pair.length === 2 && pair.every(isDate) && Date.parse(pair[0]!) <= Date.parse(pair[1]!)
        ? null
        : 'must be two dates "from,to" (YYYY-MM-DD) with from <= to for between_dates';
    case 'top':
    case 'last_x_days':
    case 'last_login':
      return isCount(value) ? null : `must be a whole number of at least 1 for ${operator}`;
    case 'on_date':
      return isDate(value) ? null : 'must be a date (YYYY-MM-DD) for on_date';
    case 'contains':
      return value.length > 0 ? null : 'must not be empty for contains';
    default:
      if (SUMS.includes(operator))
        return isNumber(value) ? null : `must be a number for ${operator}`;
      if (kind === 'number') return isNumber(value) ? null : `must be a number for ${parameter}`;
      if (kind === 'date') return isDate(value) ? null : `must be a date for ${parameter}`;
      if (parameter === 'bet_result' && !['won', 'lost'].includes(value))
        return 'must be "won" or "lost" for bet_result';
      return null;
  }
}

const condition = z.object({
  parameter: z.enum(PARAMETERS as [Parameter, ...Parameter[]], {
    error: (i) =>
      `unknown parameter ${JSON.stringify(i.input)}: use one of ${PARAMETERS.join(', ')}`,
  }),
  operator: z.enum(OPERATORS, {
    error: (i) => `unknown operator ${JSON.stringify(i.input)}: use one of ${OPERATORS.join(', ')}`,
  }),
  value: z.string().max(200),
  groupId: z.number().int().min(0).max(1000).optional(),
  logic: z.enum(['AND', 'OR']).optional(),
});
export type Condition = z.output<typeof condition>;

const userList = z.array(z.string().min(1).max(120)).max(10_000).default([]);

export const targetingInput = z
  .object({
    conditions: z.array(condition).max(50).default([]),
    includedUsers: userList.describe('Player ids or external ids always eligible.'),
    excludedUsers: userList.describe('Player ids or external ids never eligible.'),
    conditionsExcludeUsers: z
      .boolean()
      .default(false)
      .describe('True: the conditions name who is excluded instead of who is included.'),
  })
  .superRefine((t, ctx) => {
    const logicOf = new Map<number, string>();
    t.conditions.forEach((c, i) => {
      if (!operatorApplies(c.parameter, c.operator)) {
        ctx.addIssue({
          code: 'custom',
          path: ['conditions', i, 'operator'],
          message: `operator ${c.operator} does not apply to parameter ${c.parameter}`,
        });
        return;
      }
      const problem = valueProblem(c.parameter, c.operator, c.value);
      if (problem)
        ctx.addIssue({ code: 'custom', path: ['conditions', i, 'value'], message: problem });
      const group = c.groupId ?? 0;
      if (c.logic && logicOf.has(group) && logicOf.get(group) !== c.logic) {
        ctx.addIssue({
          code: 'custom',
          path: ['conditions', i, 'logic'],
          message: `group ${group} already joins its conditions with ${logicOf.get(group)}`,
        });
      }
      if (c.logic) logicOf.set(group, c.logic);
    });
  });
export type Targeting = z.output<typeof targetingInput>;

/** A prize whose catalogPrize is `game:<name>` grants `quantity` plays of that mini-game. */
export const GAME_PRIZE = /^game:([a-z0-9_-]{1,40})$/;

const RANK = /^(\d{1,6})(?:-(\d{1,6}))?$/;

/** A prize's rank as a range: "3" is 3..3, "4-10" is 4..10. */
export function rankRange(rank: string): [number, number] | null {
  const m = RANK.exec(rank.trim());
  if (!m) return null;
  const lo = Number(m[1]);
  const hi = m[2] === undefined ? lo : Number(m[2]);
  return lo >= 1 && lo <= hi ? [lo, hi] : null;
}

export const prizeInput = z.object({
  coinPrize: z.number().int().min(0).max(MAX_COINS),
  catalogPrize: z
    .string()
    .max(200)
    .describe(
      'A label shown with the prize ("" for none); `game:<name>` grants `quantity` plays of that mini-game.',
    ),
  productPrize: z
    .union([z.literal(''), z.uuid()])
    .describe('A product id whose unit(s) the claim orders at zero coins ("" for none).'),
  quantity: z.number().int().min(0).max(20).describe('Units of productPrize per award.'),
  day: z.number().int().min(0).max(366).describe('Streak day (daily_reward_progressive).'),
  rank: z.string().max(20).describe('Final rank or range, "1" or "4-10" (tournament).'),
});
export type Prize = z.output<typeof prizeInput>;

/** `YYYY-MM-DD` (a whole UTC day) or an ISO-8601 UTC instant. */
const dateField = z
  .string()
  .refine(
    (v) =>
      /^\d{4}-\d{2}-\d{2}$/.test(v)
        ? !Number.isNaN(Date.parse(`${v}T00:00:00Z`))
        : /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(v) && !Number.isNaN(Date.parse(v)),
    'must be a date (YYYY-MM-DD) or an ISO-8601 UTC date-time ending in Z',
  )
  .refine((v) => !v.startsWith('0000'), 'must be in the years 0001 to 9999');

const optionalText = (max: number) => z.string().max(max).nullish();

export const campaignFields = {
  title: nonBlankText(200),
  modalTitle: optionalText(200),
  description: optionalText(5000),
  legalTerms: optionalText(20000),
  duration: z
    .enum(DURATIONS)
    .optional()
    .describe('A preset resolves to dates; custom (or none) takes startDate and endDate.'),
  startDate: dateField.optional(),
  endDate: dateField.optional().describe('A date alone means the end of that UTC day.'),
  type: z.enum(CAMPAIGN_TYPES),
  multiplier: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(1)
    .describe('Tournament points per activity point.'),
  budget: z
    .number()
    .int()
    .min(0)
    .max(MAX_COINS)
    .nullish()
    .describe('Coins this campaign may award in all.'),
  termsAccepted: z.literal(true, { error: 'must be true: a campaign needs its terms accepted' }),
  prizes: z.array(prizeInput).min(1).max(100),
  targeting: targetingInput.optional(),
  isTemplate: z.boolean().default(false).describe('A template never runs; clone it.'),
  verticals: verticalsInput.default([]),
};

/**
 * Each field on its own: what the route checks before the request reaches the establishment's
 * data (so another tenant's id is 404 before a cross-field rule could be 400).
 */
export const campaignObject = z.object(campaignFields);

/** Every rule, across fields too: what the engine stores. */
export const campaignInput = campaignObject.superRefine((c, ctx) => {
  const issue = (path: (string | number)[], message: string, rule = 'invalid') =>
    ctx.addIssue({ code: 'custom', path, message, params: { rule } });
  const custom = c.duration === undefined || c.duration === 'custom';
  if (custom) {
    if (!c.startDate)
      issue(['startDate'], 'is required when duration is custom or not given', 'required');
    if (!c.endDate)
      issue(['endDate'], 'is required when duration is custom or not given', 'required');
  } else {
    if (c.startDate)
      issue(['startDate'], `must not be sent with duration ${c.duration}`, 'conflict');
    if (c.endDate) issue(['endDate'], `must not be sent with duration ${c.duration}`, 'conflict');
  }
  if (c.startDate && c.endDate && startOf(c.startDate) >= endOf(c.endDate))
    issue(['endDate'], 'must be after startDate');
  c.prizes.forEach((p, i) => {
    if (p.coinPrize === 0 && !p.productPrize && !p.catalogPrize)
      issue(
        ['prizes', i],
        'must give something: coinPrize above 0, a productPrize or a catalogPrize',
      );
    if (p.productPrize && p.quantity < 1)
      issue(['prizes', i, 'quantity'], 'must be at least 1 for a productPrize');
  });
  if (c.type === 'daily_reward_simple' && c.prizes.length !== 1)
    issue(
      ['prizes'],
      'must hold exactly one prize for daily_reward_simple (the prize of every day)',
    );
  if (c.type === 'daily_reward_progressive') {
    const seen = new Set<number>();
    c.prizes.forEach((p, i) => {
      if (p.day < 1) issue(['prizes', i, 'day'], 'must be at least 1 for daily_reward_progressive');
      else if (seen.has(p.day)) issue(['prizes', i, 'day'], `day ${p.day} is given twice`);
      seen.add(p.day);
    });
  }
  if (c.type === 'tournament') {
    const ranges: [number, number, number][] = [];
    c.prizes.forEach((p, i) => {
      const r = rankRange(p.rank);
      if (!r)
        return issue(
          ['prizes', i, 'rank'],
          'must be a rank "3" or a range "4-10" (from 1) for tournament',
        );
      const clash = ranges.find(([lo, hi]) => r[0] <= hi && lo <= r[1]);
      if (clash) issue(['prizes', i, 'rank'], `overlaps the rank of prizes.${clash[2]}`);
      ranges.push([r[0], r[1], i]);
    });
  }
});
export type CampaignInput = z.output<typeof campaignInput>;

/** A date-only start is that day's UTC midnight. */
export const startOf = (v: string): Date => new Date(v.length === 10 ? `${v}T00:00:00Z` : v);
/** A date-only end is exclusive: the next UTC midnight (the whole day is in). */
export const endOf = (v: string): Date =>
  v.length === 10 ? new Date(Date.parse(`${v}T00:00:00Z`) + 86_400_000) : new Date(v);

/** The dates a preset stands for, from `now` (all UTC; ends are exclusive). */
export function presetWindow(
  duration: Exclude<(typeof DURATIONS)[number], 'custom'>,
  now: Date,
): { startsAt: Date; endsAt: Date } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const day = (n: number) => new Date(Date.UTC(y, m, d + n));
  const weekday = now.getUTCDay(); // 0 Sunday … 6 Saturday
  switch (duration) {
    case 'next_weekend': {
      const toSaturday = (6 - weekday + 7) % 7 || 7; // the next Saturday after today
      return { startsAt: day(toSaturday), endsAt: day(toSaturday + 2) };
    }
    case 'next_week': {
      const toMonday = (8 - weekday) % 7 || 7; // the next Monday after today
      return { startsAt: day(toMonday), endsAt: day(toMonday + 7) };
    }
    case 'next_month':
      return { startsAt: new Date(Date.UTC(y, m + 1, 1)), endsAt: new Date(Date.UTC(y, m + 2, 1)) };
    case 'next_year':
      return { startsAt: new Date(Date.UTC(y + 1, 0, 1)), endsAt: new Date(Date.UTC(y + 2, 0, 1)) };
  }
}

export const statusInput = z.object({
  status: z.enum(REQUESTABLE_STATUSES, {
    // The value sent is not quoted back: texts of errors reach agents (docs/mcp.md).
    error: () =>
      'cannot be requested: use in_progress, paused or cancelled (draft is where a campaign starts, completed is set by the server when it ends)',
  }),
});

/** When the clock, not a caller, decides a campaign is over. */
export const AWARD_CLAIM_DAYS = 30;

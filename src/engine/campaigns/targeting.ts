// Who a campaign is for: its targeting evaluated against the player's record and the facts that
// insert-activity recorded. The rules are in docs/campaigns.md ("Targeting").
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../domain/db.js';
import type { Tenant } from '../../domain/tenant.js';
import { utcDay } from '../shared/clock.js';
import type { Condition, Parameter, Targeting } from './schemas.js';
import { SUMMABLE } from './schemas.js';

/** Players under these statuses never receive anything from a campaign. */
export const EXCLUDED_STATUSES: ReadonlySet<string> = new Set(['restricted', 'banned']);

export type PlayerFacts = {
  id: string;
  externalId: string | null;
  status: string;
  createdAt: Date;
  preferredLang: string | null;
  segmentId: string | null;
};

/** The fact being processed: its values answer the non-sum operators. */
export type ActivityFacts = {
  amount: number | null;
  betWon: boolean | null;
  betsNumber: number | null;
  loginTime: Date | null;
  game: string | null;
  sourcePlatform: string | null;
  deposit: number | null;
  cashback: number | null;
};

export type TargetingScope = {
  db: Db;
  tenant: Tenant;
  campaign: { id: string; startsAt: Date };
  player: PlayerFacts;
  activity: ActivityFacts;
  now: Date;
};

const COLUMN: Partial<Record<Parameter, Prisma.Sql>> = {
  bets_amount: Prisma.sql`amount`,
  total_bets: Prisma.sql`bets_number`,
  deposit: Prisma.sql`deposit`,
  cashback: Prisma.sql`cashback`,
};

/** Whether the campaign's targeting lets this player in. */
export async function isTargeted(
  targeting: Targeting | undefined,
  s: TargetingScope,
): Promise<boolean> {
  if (EXCLUDED_STATUSES.has(s.player.status)) return false;
  const t = targeting ?? {
    conditions: [],
    includedUsers: [],
    excludedUsers: [],
    conditionsExcludeUsers: false,
  };
  const named = (list: string[]) =>
    list.includes(s.player.id) ||
    (s.player.externalId !== null && list.includes(s.player.externalId));
  if (named(t.excludedUsers)) return false;
  if (named(t.includedUsers)) return true;
  if (t.conditions.length === 0) return t.includedUsers.length === 0;
  const match = await conditionsMatch(t.conditions, s);
  return t.conditionsExcludeUsers ? !match : match;
}

/**
 * Conditions in groups (by groupId; none is group 0). A group joins its conditions with its
 * `logic` (AND unless a condition says OR); the groups are joined with AND.
 */
async function conditionsMatch(conditions: Condition[], s: TargetingScope): Promise<boolean> {
  const groups = new Map<number, Condition[]>();
  for (const c of conditions)
    groups.set(c.groupId ?? 0, [...(groups.get(c.groupId ?? 0) ?? []), c]);
  for (const group of groups.values()) {
    const or = group.some((c) => c.logic === 'OR');
    let result = !or;
    for (const c of group) {
      const ok = await conditionHolds(c, s);
      if (or && ok) {
        result = true;
        break;
      }
      if (!or && !ok) {
        result = false;
        break;
      }
    }
    if (!result) return false;
  }
  return true;
}

const pair = (v: string) => v.split(',').map((x) => x.trim());
const dayMs = 86_400_000;

function compare(op: string, left: number | string, right: number | string): boolean {
  switch (op) {
    case 'greater_than':
    case 'sum_greater_than':
      return left > right;
    case 'less_than':
    case 'sum_less_than':
      return left < right;
    case 'greater_than_or_equals':
    case 'sum_greater_than_or_equals':
      return left >= right;
    case 'less_than_or_equals':
    case 'sum_less_than_or_equals':
      return left <= right;
    case 'not_equals':
      return left !== right;
    default:
      return left === right;
  }
}

/** One condition; a fact the player or the activity does not have makes it false. */
export async function conditionHolds(c: Condition, s: TargetingScope): Promise<boolean> {
  const { operator: op, value } = c;
  if (op === 'top') return inTop(c.parameter, Number(value), s);
  if (op.startsWith('sum_')) return compare(op, await sumOf(c.parameter, s), Number(value));
  if (op === 'last_login') {
    const last = await lastLogin(s);
    return last !== null && s.now.getTime() - last.getTime() <= Number(value) * dayMs;
  }
  const actual = await valueOf(c.parameter, s);
  if (actual === null) return op === 'not_equals';
  if (actual instanceof Date) {
    if (op === 'last_x_days')
      return s.now.getTime() - actual.getTime() <= Number(value) * dayMs && actual <= s.now;
    if (op === 'on_date' || op === 'equals') return utcDay(actual) === value.slice(0, 10);
    if (op === 'not_equals') return utcDay(actual) !== value.slice(0, 10);
    if (op === 'between_dates') {
      const [from, to] = pair(value);
      return utcDay(actual) >= from!.slice(0, 10) && utcDay(actual) <= to!.slice(0, 10);
    }
    return compare(op, actual.getTime(), Date.parse(value));
  }
  if (typeof actual === 'number') {
    if (op === 'between') {
      const [lo, hi] = pair(value).map(Number);
      return actual >= lo! && actual <= hi!;
    }
    return compare(op, actual, Number(value));
  }
  if (op === 'contains') return actual.toLowerCase().includes(value.toLowerCase());
  if (op === 'equals' || op === 'not_equals')
    return compare(op, actual.toLowerCase(), value.toLowerCase());
  // A string compared by size: as numbers when both sides are (levels "2" < "10").
  const numeric = Number.isFinite(Number(actual)) && Number.isFinite(Number(value));
  return numeric ? compare(op, Number(actual), Number(value)) : compare(op, actual, value);
}

async function valueOf(p: Parameter, s: TargetingScope): Promise<number | string | Date | null> {
  const a = s.activity;
  switch (p) {
    case 'bets_amount':
      return a.amount;
    case 'total_bets':
      return a.betsNumber;
    case 'deposit':
      return a.deposit;
    case 'cashback':
      return a.cashback;
    case 'created_at':
      return s.player.createdAt;
    case 'bet_result':
      return a.betWon === null ? null : a.betWon ? 'won' : 'lost';
    case 'game_played':
      return a.game;
    case 'user_level':
      return s.player.segmentId;
    case 'language':
      return s.player.preferredLang;
    case 'login_time':
      return a.loginTime;
    case 'source_platform':
      return a.sourcePlatform;
    case 'event_participation':
      return participation(s);
  }
}

/** Facts the player has recorded for this campaign (this one included). */
async function participation(s: TargetingScope): Promise<number> {
  const [row] = await s.db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM campaign_activities
    WHERE campaign_id = ${s.campaign.id}::uuid AND customer_id = ${s.player.id}::uuid`;
  return Number(row?.n ?? 0);
}

/** The player's sum of a parameter over the facts recorded since the campaign started. */
async function sumOf(p: Parameter, s: TargetingScope): Promise<number> {
  const column = COLUMN[p]!;
  const [row] = await s.db.$queryRaw<{ total: string | null }[]>`
    SELECT sum(${column})::text AS total FROM campaign_activities
    WHERE sub_brand_id = ${s.tenant.subBrandId}::uuid AND environment = ${s.tenant.environment}::environment
      AND customer_id = ${s.player.id}::uuid AND occurred_at >= ${s.campaign.startsAt}`;
  return Number(row?.total ?? 0);
}

/** Whether the player's sum of a parameter is among the N highest of the establishment's players. */
async function inTop(p: Parameter, n: number, s: TargetingScope): Promise<boolean> {
  if (!SUMMABLE.has(p)) return false;
  const column = COLUMN[p]!;
  const [row] = await s.db.$queryRaw<{ ahead: bigint; mine: string | null }[]>`
    WITH sums AS (
      SELECT customer_id, sum(${column}) AS total FROM campaign_activities
      WHERE sub_brand_id = ${s.tenant.subBrandId}::uuid AND environment = ${s.tenant.environment}::environment
        AND occurred_at >= ${s.campaign.startsAt} AND ${column} IS NOT NULL
      GROUP BY customer_id
    )
    SELECT (SELECT total FROM sums WHERE customer_id = ${s.player.id}::uuid)::text AS mine,
           (SELECT count(*) FROM sums WHERE total > (SELECT total FROM sums WHERE customer_id = ${s.player.id}::uuid)) AS ahead`;
  return row?.mine != null && Number(row.ahead) < n;
}

async function lastLogin(s: TargetingScope): Promise<Date | null> {
  const [row] = await s.db.$queryRaw<{ at: Date | null }[]>`
    SELECT max(login_time) AS at FROM campaign_activities
    WHERE sub_brand_id = ${s.tenant.subBrandId}::uuid AND environment = ${s.tenant.environment}::environment
      AND customer_id = ${s.player.id}::uuid AND login_time IS NOT NULL`;
  return row?.at ?? null;
}

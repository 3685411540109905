// insert-activity: record a player's fact once per idempotency key, then let every campaign it
// concerns react: a daily reward counts the UTC day (and the streak), a tournament adds points
// times its multiplier. Awards are created here and claimed later (claim-award.ts).
import { z } from 'zod';
import type { Campaign } from '../../generated/prisma/client.js';
import { sqlFor } from '../../db/sql.js';
import { inTransaction, type Db } from '../../domain/db.js';
import { keyClaim } from '../../exactly-once/claim-key.js';
import { notFound } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import type { Tenant } from '../../domain/tenant.js';
import { parseInput } from '../../domain/validation.js';
import type { RgState } from '../../generated/prisma/enums.js';
import { blockOf, recordRgDecision, type RgBlock } from '../../domain/responsible-gaming/gate.js';
import { utcDay, utcDayStart, utcDaysBetween } from '../shared/clock.js';
import { grantAward, prizeForDay, type GrantedAward } from './grant-award.js';
import { targetingInput, type CAMPAIGN_TYPES, type Prize } from './schemas.js';
import {
  EXCLUDED_STATUSES,
  isTargeted,
  type ActivityFacts,
  type PlayerFacts,
} from './targeting.js';

export const ACTIVITY_MODES = ['player', 'campaign', 'session', 'tournament'] as const;

/** `Y-m-d H:i:s` as the document writes it (read as UTC), or an ISO-8601 UTC instant. */
const loginTime = z
  .string()
  .refine(
    (v) =>
      (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(v) || /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(v)) &&
      !Number.isNaN(Date.parse(v.replace(' ', 'T') + (v.includes('T') ? '' : 'Z'))),
    'must be a date-time "Y-m-d H:i:s" (UTC), e.g. 2026-11-23 18:30:00',
  );

/** The instant a validated login_time names. */
const loginInstant = (v: string) => new Date(v.includes('T') ? v : `${v.replace(' ', 'T')}Z`);

const money = z.number().finite().min(0).max(1e12);

/** Each field on its own (the route's check); activityInput adds the per-mode requirements. */
export const activityObject = z.object({
  mode: z.enum(ACTIVITY_MODES),
  player_id: z.uuid(),
  campaign_id: z.uuid().optional(),
  amount: money.optional(),
  bet_won: z.boolean().optional(),
  bets_number: z.number().int().min(0).max(1_000_000).optional(),
  referred_by: z.string().min(1).max(255).optional(),
  login_time: loginTime.optional(),
  points: z.number().int().min(0).max(1_000_000_000).optional(),
  game: z
    .string()
    .max(120)
    .optional()
    .describe('Additive: the game played (targeting game_played).'),
  source_platform: z
    .string()
    .max(60)
    .optional()
    .describe('Additive: web, ios, android… (targeting).'),
  deposit: money.optional().describe('Additive: a deposit amount (targeting).'),
  cashback: money.optional().describe('Additive: a cashback amount (targeting).'),
});

export const activityInput = activityObject.superRefine((a, ctx) => {
  const need = (field: string, why: string) =>
    ctx.addIssue({
      code: 'custom',
      path: [field],
      message: `is required ${why}`,
      params: { rule: 'required' },
    });
  if (a.mode === 'player' && a.referred_by === undefined)
    need('referred_by', 'when mode is player');
  if (a.mode === 'campaign' && a.campaign_id === undefined)
    need('campaign_id', 'when mode is campaign');
  if (a.mode === 'session' && a.login_time === undefined)
    need('login_time', 'when mode is session');
  if (a.mode === 'tournament' && a.points === undefined) need('points', 'when mode is tournament');
});

/** What a recorded fact did to one campaign it concerns. */
export const ACTIVITY_OUTCOMES = [
  'awarded',
  'already_awarded_today',
  'budget_exhausted',
  'no_prize_for_day',
  'points_added',
  'no_points',
  'not_targeted',
  'player_not_eligible',
  'not_running',
] as const;
/** Why player_not_eligible: the player's `status`, or an active `responsible_gaming` state. */
export const NOT_ELIGIBLE_REASONS = ['status', 'responsible_gaming'] as const;

export type ActivityResult = {
  campaignId: string;
  type: (typeof CAMPAIGN_TYPES)[number];
  outcome: (typeof ACTIVITY_OUTCOMES)[number];
  reason: (typeof NOT_ELIGIBLE_REASONS)[number] | null;
  streak: number | null;
  points: number | null;
  award: GrantedAward | null;
};

export type ActivityAnswer = {
  activityId: string;
  replayed: boolean;
  results: ActivityResult[];
};

export async function insertActivity(
  db: Db,
  tenant: Tenant,
  input: unknown,
  options: { now: Date; idempotencyKey: string | null },
): Promise<ActivityAnswer> {
  const fields = parseInput(activityObject, input);
  const now = options.now;
  return inTransaction(db, async (tx) => {
    const { player, campaigns } = await readPlayerAndCampaigns(tx, tenant, fields, now);
    if (!player) throw notFound('Customer');
    // The records first (another tenant's are not found), then the per-mode requirements.
    if (fields.campaign_id && !campaigns.length) throw notFound('Campaign');
    const a = parseInput(activityInput, input);

    // Once per key: a concurrent twin waits on the unique index, then finds the first one's row.
    const activityId = newId();
    const recorded = await recordActivity(tx, [
      activityId,
      tenant.subBrandId,
      tenant.environment,
      options.idempotencyKey,
      a.mode,
      a.player_id,
      a.campaign_id ?? null,
      a.amount ?? null,
      a.bet_won ?? null,
      a.bets_number ?? null,
      a.referred_by ?? null,
      a.login_time ? loginInstant(a.login_time) : null,
      a.points ?? null,
      a.game ?? null,
      a.source_platform ?? null,
      a.deposit ?? null,
      a.cashback ?? null,
      now,
    ]);
    if (!recorded) return replayOf(tx, tenant, options.idempotencyKey!);

    const facts: ActivityFacts = {
      amount: a.amount ?? null,
      betWon: a.bet_won ?? null,
      betsNumber: a.bets_number ?? null,
      loginTime: a.login_time ? loginInstant(a.login_time) : null,
      game: a.game ?? null,
      sourcePlatform: a.source_platform ?? null,
      deposit: a.deposit ?? null,
      cashback: a.cashback ?? null,
    };
    const results: ActivityResult[] = [];
    for (const c of campaigns) {
      const base = {
        campaignId: c.id,
        type: c.type,
        reason: null,
        streak: null,
        points: null,
        award: null,
      };
      const running =
        c.status === 'in_progress' && !c.isTemplate && c.startsAt <= now && now < c.endsAt;
      if (!running) {
        results.push({ ...base, outcome: 'not_running' });
        continue;
      }
      if (EXCLUDED_STATUSES.has(player.status)) {
        results.push({ ...base, outcome: 'player_not_eligible', reason: 'status' });
        continue;
      }
      const targeting = targetingInput.safeParse(c.targeting).data;
      if (
        !(await isTargeted(targeting, {
          db: tx,
          tenant,
          campaign: c,
          player,
          activity: facts,
          now,
        }))
      ) {
        results.push({ ...base, outcome: 'not_targeted' });
        continue;
      }
      // The gate, where the activity would have paid: the player row was read FOR SHARE.
      if (player.rg) {
        await recordRgDecision(
          tx,
          tenant,
          player.id,
          c.type === 'tournament' ? 'tournament_points' : 'campaign_award',
          player.rg,
          `campaign:${c.id} activity:${activityId}`,
          now,
        );
        results.push({ ...base, outcome: 'player_not_eligible', reason: 'responsible_gaming' });
        continue;
      }
      results.push(
        c.type === 'tournament'
          ? await addPoints(tx, tenant, c, player.id, a.points, now)
          : await countDay(tx, tenant, c, player.id, activityId, now),
      );
    }
    return { activityId, replayed: false, results };
  });
}

// The statements every activity sends go to the driver (src/db/sql.ts), inside the same
// transaction: through Prisma's raw queries they cost several times the CPU (issue 12's
// insert-activity goal, docs/performance.md). Rarer paths (daily rewards, replays) keep Prisma.

/** The fact, once per idempotency key: a concurrent twin waits on the unique index. */
const recordActivity = keyClaim('campaignActivity', [
  'id::uuid',
  'sub_brand_id::uuid',
  'environment::environment',
  'idempotency_key',
  'mode',
  'customer_id::uuid',
  'campaign_id::uuid',
  'amount::numeric',
  'bet_won::boolean',
  'bets_number::int',
  'referred_by',
  'login_time::timestamptz',
  'points::bigint',
  'game',
  'source_platform',
  'deposit::numeric',
  'cashback::numeric',
  'occurred_at::timestamptz',
]);

/** What the activity reads of a campaign. */
type ActiveCampaign = Pick<
  Campaign,
  | 'id'
  | 'type'
  | 'status'
  | 'isTemplate'
  | 'startsAt'
  | 'endsAt'
  | 'targeting'
  | 'prizes'
  | 'multiplier'
  | 'budget'
  | 'totalAwarded'
>;

type PlayerCampaignRow = {
  player_id: string;
  external_id: string | null;
  player_status: string;
  player_created_at: Date;
  preferred_lang: string | null;
  segment_id: string | null;
  rg_state: RgState;
  rg_until: Date | null;
  id: string | null;
  type: Campaign['type'];
  status: Campaign['status'];
  is_template: boolean;
  starts_at: Date;
  ends_at: Date;
  targeting: Campaign['targeting'];
  prizes: Campaign['prizes'];
  multiplier: number;
  budget: bigint | null;
  total_awarded: bigint;
};

/**
 * The player and the campaigns the activity concerns (campaign_id's, whatever its state, or every
 * running one of the tenant), in one raw statement: this was three ORM reads, the largest share
 * of the engine's CPU per activity (docs/performance.md). No row: no such player in this tenant.
 */
async function readPlayerAndCampaigns(
  db: Db,
  tenant: Tenant,
  fields: { player_id: string; campaign_id?: string | undefined },
  now: Date,
): Promise<{ player: (PlayerFacts & { rg: RgBlock | null }) | null; campaigns: ActiveCampaign[] }> {
  const { rows } = await sqlFor(db).query<PlayerCampaignRow>(
    fields.campaign_id ? PLAYER_AND_CAMPAIGN : PLAYER_AND_RUNNING_CAMPAIGNS,
    [fields.player_id, tenant.subBrandId, tenant.environment, fields.campaign_id ?? now],
  );
  const first = rows[0];
  if (!first) return { player: null, campaigns: [] };
  return {
    player: {
      id: first.player_id,
      externalId: first.external_id,
      status: first.player_status,
      createdAt: first.player_created_at,
      preferredLang: first.preferred_lang,
      segmentId: first.segment_id,
      rg: blockOf(first, now),
    },
    campaigns: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id!,
        type: r.type,
        status: r.status,
        isTemplate: r.is_template,
        startsAt: r.starts_at,
        endsAt: r.ends_at,
        targeting: r.targeting,
        prizes: r.prizes,
        multiplier: r.multiplier,
        budget: r.budget,
        totalAwarded: r.total_awarded,
      })),
  };
}

const playerAndCampaigns = (which: string) => `
  SELECT pl.id AS player_id, pl.external_id, pl.status::text AS player_status,
         pl.created_at AS player_created_at, pl.preferred_lang, pl.segment_id, pl.rg_state, pl.rg_until,
         c.id, c.type, c.status, c.is_template, c.starts_at, c.ends_at, c.targeting, c.prizes, c.multiplier,
         c.budget, c.total_awarded
  FROM customers pl
  LEFT JOIN campaigns c ON c.sub_brand_id = pl.sub_brand_id AND c.environment = pl.environment
    AND c.deleted_at IS NULL AND ${which}
  WHERE pl.id = $1::uuid AND pl.sub_brand_id = $2::uuid AND pl.environment = $3::environment
  ORDER BY c.id
  FOR SHARE OF pl`; // the gate's lock (domain/responsible-gaming/gate.ts)
/** $4: the campaign named by campaign_id, whatever its state. */
const PLAYER_AND_CAMPAIGN = playerAndCampaigns('c.id = $4::uuid');
/** $4: now; every running campaign of the tenant. */
const PLAYER_AND_RUNNING_CAMPAIGNS = playerAndCampaigns(
  `NOT c.is_template AND c.status = 'in_progress' AND c.starts_at <= $4::timestamptz AND c.ends_at > $4::timestamptz`,
);

/** A daily reward: the day counts once; the streak grows by consecutive UTC days. */
async function countDay(
  db: Db,
  tenant: Tenant,
  c: ActiveCampaign,
  customerId: string,
  activityId: string,
  now: Date,
): Promise<ActivityResult> {
  const base = { campaignId: c.id, type: c.type, reason: null, points: null };
  await db.$executeRaw`
    INSERT INTO campaign_progress (campaign_id, customer_id, sub_brand_id, environment, streak, reached_at)
    VALUES (${c.id}::uuid, ${customerId}::uuid, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment, 0, ${now})
    ON CONFLICT (sub_brand_id, campaign_id, customer_id) DO NOTHING`;
  const [row] = await db.$queryRaw<{ streak: number; last_day: string | null }[]>`
    SELECT streak, last_day::text AS last_day FROM campaign_progress
    WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND campaign_id = ${c.id}::uuid
      AND customer_id = ${customerId}::uuid FOR UPDATE`;
  const today = utcDayStart(now);
  // A DATE column may come back as a Date or as 'YYYY-MM-DD' depending on the driver.
  const last = row!.last_day === null ? null : new Date(row!.last_day);
  if (last && utcDaysBetween(last, today) === 0) {
    return { ...base, outcome: 'already_awarded_today', streak: row!.streak, award: null };
  }
  const streak = last && utcDaysBetween(last, today) === 1 ? row!.streak + 1 : 1;
  await db.$executeRaw`
    UPDATE campaign_progress SET streak = ${streak}, last_day = ${today}::date, reached_at = ${now}
    WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND campaign_id = ${c.id}::uuid
      AND customer_id = ${customerId}::uuid`;
  const prizes = c.prizes as Prize[];
  const prize = c.type === 'daily_reward_simple' ? prizes[0]! : prizeForDay(prizes, streak);
  if (!prize) return { ...base, outcome: 'no_prize_for_day', streak, award: null };
  const granted = await grantAward(
    db,
    tenant,
    c,
    customerId,
    prize,
    { awardKey: `day:${utcDay(now)}`, day: streak, activityId },
    now,
    { seenBudget: c },
  );
  if (granted.outcome === 'awarded')
    return { ...base, outcome: 'awarded', streak, award: granted.award };
  return {
    ...base,
    outcome: granted.outcome === 'budget_exhausted' ? 'budget_exhausted' : 'already_awarded_today',
    streak,
    award: null,
  };
}

/** A tournament: points times the multiplier; reaching a new total stamps the tie-break time. */
async function addPoints(
  db: Db,
  tenant: Tenant,
  c: ActiveCampaign,
  customerId: string,
  points: number | undefined,
  now: Date,
): Promise<ActivityResult> {
  const base = { campaignId: c.id, type: c.type, reason: null, streak: null, award: null };
  if (!points) return { ...base, outcome: 'no_points', points: null };
  const {
    rows: [row],
  } = await sqlFor(db).query<{ points: bigint }>(ADD_POINTS, [
    c.id,
    customerId,
    tenant.subBrandId,
    tenant.environment,
    points * c.multiplier,
    now,
  ]);
  return { ...base, outcome: 'points_added', points: Number(row!.points) };
}

const ADD_POINTS = `
  INSERT INTO campaign_progress (campaign_id, customer_id, sub_brand_id, environment, points, reached_at)
  VALUES ($1::uuid, $2::uuid, $3::uuid, $4::environment, $5::bigint, $6::timestamptz)
  ON CONFLICT (sub_brand_id, campaign_id, customer_id) DO UPDATE
    SET points = campaign_progress.points + EXCLUDED.points, reached_at = EXCLUDED.reached_at
  RETURNING points`;

/** A key seen before: the first recording's identity and the awards it created. */
async function replayOf(db: Db, tenant: Tenant, key: string): Promise<ActivityAnswer> {
  const first = await db.campaignActivity.findFirstOrThrow({
    where: { ...tenant, idempotencyKey: key },
    select: { id: true },
  });
  const awards = await db.campaignAward.findMany({
    where: { subBrandId: tenant.subBrandId, activityId: first.id },
    include: { campaign: true },
  });
  return {
    activityId: first.id,
    replayed: true,
    results: awards.map((w) => ({
      campaignId: w.campaignId,
      type: w.campaign.type,
      outcome: 'awarded' as const,
      reason: null,
      streak: w.day,
      points: null,
      award: {
        id: w.id,
        coins: Number(w.coins),
        productId: w.productId,
        catalogPrize: w.catalogPrize,
        quantity: w.quantity,
        day: w.day,
        rank: w.rank,
        expiresAt: w.expiresAt,
      },
    })),
  };
}

// A campaign's prizes and the facts it counts (docs/campaigns.md): the awards players won and
// their claims, and the activity the game provider inserts (insert-activity), which may award.
import { claimAward, claimInput, type ClaimResult } from '../../engine/campaigns/claim-award.js';
import {
  ACTIVITY_MODES,
  ACTIVITY_OUTCOMES,
  activityObject,
  insertActivity,
  NOT_ELIGIBLE_REASONS,
  type ActivityAnswer,
  type ActivityResult,
} from '../../engine/campaigns/insert-activity.js';
import type { GrantedAward } from '../../engine/campaigns/grant-award.js';
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { effect } from '../effects.js';
import { keyOf } from '../idempotency-key.js';
import { actorOf, tenantOf } from '../tenant.js';
import { enumOf, inputTypeOf } from '../zod-input.js';
import { CampaignTypeEnum, ownEstablishment, read } from './campaign.js';

const ActivityOutcomeEnum = builder.enumType('CampaignActivityOutcome', {
  description: 'What the fact did to one campaign it concerns.',
  values: ACTIVITY_OUTCOMES,
});
const NotEligibleReasonEnum = builder.enumType('NotEligibleReason', {
  values: NOT_ELIGIBLE_REASONS,
});

const AwardStatusEnum = builder.enumType('AwardStatus', {
  values: ['pending', 'claimed', 'expired'] as const,
});
builder.prismaObject('CampaignAward', {
  description: 'A prize a player won; coins and products reach the player when claimed.',
  fields: (t) => ({
    id: t.exposeID('id'),
    campaignId: t.exposeID('campaignId'),
    customerId: t.exposeID('customerId'),
    awardKey: t.exposeString('awardKey', { description: '`day:YYYY-MM-DD` or `rank`.' }),
    day: t.exposeInt('day', {
      nullable: true,
      description: 'Daily rewards: the streak day it was won on.',
    }),
    rank: t.exposeInt('rank', { nullable: true, description: 'Tournaments: the final rank.' }),
    coins: t.expose('coins', { type: 'SafeInt' }),
    productId: t.exposeID('productId', { nullable: true }),
    catalogPrize: t.exposeString('catalogPrize', { nullable: true }),
    quantity: t.exposeInt('quantity'),
    status: t.field({
      type: AwardStatusEnum,
      description: 'A pending award past its expiry reads as expired.',
      resolve: (a, _args, ctx) =>
        a.status === 'pending' && a.expiresAt <= ctx.now() ? 'expired' : a.status,
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    claimedAt: t.expose('claimedAt', { type: 'DateTime', nullable: true }),
    movementId: t.exposeID('movementId', { nullable: true }),
    orderId: t.exposeID('orderId', { nullable: true }),
    activityId: t.exposeID('activityId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('CampaignActivity', {
  description: 'A fact recorded by insert-activity.',
  fields: (t) => ({
    id: t.exposeID('id'),
    mode: t.exposeString('mode'),
    customerId: t.exposeID('customerId'),
    campaignId: t.exposeID('campaignId', { nullable: true }),
    idempotencyKey: t.exposeString('idempotencyKey', { nullable: true }),
    amount: t.float({
      nullable: true,
      resolve: (a) => (a.amount === null ? null : Number(a.amount)),
    }),
    betWon: t.exposeBoolean('betWon', { nullable: true }),
    betsNumber: t.exposeInt('betsNumber', { nullable: true }),
    points: t.expose('points', { type: 'SafeInt', nullable: true }),
    loginTime: t.expose('loginTime', { type: 'DateTime', nullable: true }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime' }),
  }),
});

const GrantRef = builder.objectRef<GrantedAward>('CampaignGrant').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    coins: t.expose('coins', { type: 'SafeInt' }),
    productId: t.exposeID('productId', { nullable: true }),
    catalogPrize: t.exposeString('catalogPrize', { nullable: true }),
    quantity: t.exposeInt('quantity'),
    day: t.exposeInt('day', { nullable: true }),
    rank: t.exposeInt('rank', { nullable: true }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

const ActivityResultRef = builder.objectRef<ActivityResult>('CampaignActivityResult').implement({
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    type: t.expose('type', { type: CampaignTypeEnum }),
    outcome: t.expose('outcome', { type: ActivityOutcomeEnum }),
    reason: t.expose('reason', {
      type: NotEligibleReasonEnum,
      nullable: true,
      description: 'Why player_not_eligible: status, or responsible_gaming (an active state).',
    }),
    streak: t.exposeInt('streak', {
      nullable: true,
      description:
        'Daily rewards: the streak, in consecutive UTC days counted (1 after a missed day).',
    }),
    points: t.expose('points', {
      type: 'SafeInt',
      nullable: true,
      description: "Tournaments: the player's points after this fact.",
    }),
    award: t.field({ type: GrantRef, nullable: true, resolve: (r) => r.award }),
  }),
});

const ActivityAnswerRef = builder.objectRef<ActivityAnswer>('CampaignActivityAnswer').implement({
  fields: (t) => ({
    activityId: t.exposeID('activityId'),
    replayed: t.exposeBoolean('replayed', { description: 'The idempotency key was seen before.' }),
    results: t.field({ type: [ActivityResultRef], resolve: (a) => a.results }),
  }),
});

const ClaimRef = builder.objectRef<ClaimResult>('CampaignClaim').implement({
  fields: (t) => ({
    award: t.prismaField({ type: 'CampaignAward', resolve: (_q, c) => c.award }),
    movementId: t.exposeID('movementId', { nullable: true }),
    balance: t.expose('balance', {
      type: 'SafeInt',
      nullable: true,
      description: 'The balance after the credit (null: no coins in this prize).',
    }),
    orderId: t.exposeID('orderId', { nullable: true }),
  }),
});

/**
 * The page both campaign lists read (awards, activities): this tenant's rows, of one campaign
 * and/or one player when asked, newest first, 1-500 of them. Null when an id is malformed: such
 * an id matches nothing.
 */
function byCampaignAndPlayer(
  ctx: GraphQLContext,
  args: {
    campaignId?: string | number | null;
    customerId?: string | number | null;
    first?: number | null;
  },
) {
  for (const id of [args.campaignId, args.customerId])
    if (id != null && !isUuid(String(id))) return null;
  return {
    where: {
      ...tenantOf(ctx),
      ...(args.campaignId ? { campaignId: String(args.campaignId) } : {}),
      ...(args.customerId ? { customerId: String(args.customerId) } : {}),
    },
    orderBy: { id: 'desc' as const },
    take: Math.min(Math.max(args.first ?? 50, 1), 500),
  };
}

builder.queryFields((t) => ({
  campaignAwards: t.prismaField({
    type: ['CampaignAward'],
    authScopes: read,
    description: 'Newest first; filtered by campaign and/or player.',
    args: {
      campaignId: t.arg.id(),
      customerId: t.arg.id(),
      first: t.arg.int({ defaultValue: 50 }),
    },
    resolve: async (query, _root, args, ctx) => {
      const page = byCampaignAndPlayer(ctx, args);
      if (!page) return [];
      // A player's prizes: an unknown player (or another tenant's) is not found, not an empty list.
      if (
        args.customerId &&
        !(await ctx.db.customer.count({ where: { id: String(args.customerId), ...tenantOf(ctx) } }))
      )
        throw notFound('Customer');
      return ctx.db.campaignAward.findMany({ ...query, ...page });
    },
  }),
  // One award of the caller's tenant: what a campaign_award event renders (docs/webhooks.md).
  campaignAward: t.prismaField({
    type: 'CampaignAward',
    authScopes: { anyScope: ['campaigns:read', 'events:read'] },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const found = isUuid(String(id))
        ? await ctx.db.campaignAward.findFirst({
            ...query,
            where: { id: String(id), ...tenantOf(ctx) },
          })
        : null;
      if (!found) throw notFound('Award');
      return found;
    },
  }),
  campaignActivities: t.prismaField({
    type: ['CampaignActivity'],
    authScopes: read,
    description: 'Recorded facts, newest first.',
    args: {
      campaignId: t.arg.id(),
      customerId: t.arg.id(),
      first: t.arg.int({ defaultValue: 50 }),
    },
    resolve: (query, _root, args, ctx) => {
      const page = byCampaignAndPlayer(ctx, args);
      return page ? ctx.db.campaignActivity.findMany({ ...query, ...page }) : [];
    },
  }),
}));

/** The engine checks the rule of each mode (activityInput); GraphQL states the fields. */
enumOf(
  'CampaignActivityMode',
  ACTIVITY_MODES,
  'What the activity reports; each mode needs its field.',
);
const ActivityInput = inputTypeOf('CampaignActivityInput', activityObject);
const ClaimInput = inputTypeOf('CampaignAwardClaimInput', claimInput);

builder.mutationFields((t) => ({
  insertCampaignActivity: t.field({
    extensions: effect('moves_coins'),
    type: ActivityAnswerRef,
    authScopes: { scope: 'campaigns:activity' },
    args: {
      input: t.arg({ type: ActivityInput, required: true }),
      idempotencyKey: t.arg.string(),
      establishmentId: t.arg.id(),
    },
    resolve: (_root, args, ctx) => {
      ownEstablishment(ctx, args.establishmentId);
      return insertActivity(ctx.db, tenantOf(ctx), args.input, {
        now: ctx.now(),
        idempotencyKey: keyOf(args.idempotencyKey, ctx),
      });
    },
  }),
  claimCampaignAward: t.field({
    extensions: effect('moves_coins'),
    type: ClaimRef,
    authScopes: { scope: 'prizes:claim' },
    args: {
      customerId: t.arg.id({ required: true }),
      input: t.arg({ type: ClaimInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      claimAward(
        ctx.db,
        tenantOf(ctx),
        actorOf(ctx),
        String(args.customerId),
        args.input,
        ctx.now(),
      ),
  }),
}));

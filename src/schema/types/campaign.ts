// Campaigns (docs/campaigns.md): the fields behind the establishment API's campaign routes and
// the backoffice's campaign screens (campaigns, awards, activity, leaderboard, settlement runs).
// Inputs are the documented JSON bodies, validated by the campaign engine itself.
import { claimAward, type ClaimResult } from '../../engine/campaigns/claim-award.js';
import {
  insertActivity,
  type ActivityAnswer,
  type ActivityResult,
} from '../../engine/campaigns/insert-activity.js';
import type { GrantedAward } from '../../engine/campaigns/grant-award.js';
import {
  cloneCampaign,
  createCampaign,
  deleteCampaign,
  getCampaign,
  countCampaigns,
  listCampaigns,
  type CampaignFilter,
  updateCampaign,
  updateCampaignStatus,
} from '../../engine/campaigns/manage-campaigns.js';
import { CAMPAIGN_STATUSES, CAMPAIGN_TYPES } from '../../engine/campaigns/schemas.js';
import { leaderboard, type Leader } from '../../engine/campaigns/settle-tournaments.js';
import { tournamentPositions, type Position } from '../../engine/campaigns/tournament-positions.js';
import { tenantKey } from '../../engine/shared/keys.js';
import { AppError, notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { builder } from '../builder.js';
import { onReplica } from '../read.js';
import { countedTotal, ListTotalRef } from '../list-total.js';
import type { GraphQLContext } from '../context.js';
import { actorOf, tenantOf } from '../tenant.js';
import { effect } from '../effects.js';
import { keyOf } from '../idempotency-key.js';
import { ProductVerticalEnum } from './jurisdiction.js';

const CampaignTypeEnum = builder.enumType('CampaignType', { values: CAMPAIGN_TYPES });
const CampaignStatusEnum = builder.enumType('CampaignStatus', { values: CAMPAIGN_STATUSES });
const AwardStatusEnum = builder.enumType('AwardStatus', {
  values: ['pending', 'claimed', 'expired'] as const,
});
const SettlementStatusEnum = builder.enumType('SettlementStatus', {
  values: ['pending', 'done', 'failed'] as const,
});

/** An establishment id sent with a request must be the key's own: any other is not found. */
function ownEstablishment(ctx: GraphQLContext, id: string | null | undefined): void {
  if (id != null && id !== ctx.principal.subBrandId) throw notFound('Sub-brand');
}

/** Who holds a place: the backoffice shows names, not ids (read in one query per page). */
type Named = { playerName: string | null; externalId: string | null };
type NamedLeader = Leader & Named;

const LeaderRef = builder.objectRef<NamedLeader>('CampaignLeader').implement({
  description: 'One place of a tournament: by points, then who reached them first.',
  fields: (t) => ({
    rank: t.exposeInt('rank'),
    customerId: t.exposeID('customerId'),
    playerName: t.exposeString('playerName', {
      nullable: true,
      description: 'First and last name (staff and keys of the tenant alike).',
    }),
    externalId: t.exposeString('externalId', { nullable: true }),
    points: t.expose('points', { type: 'SafeInt' }),
    reachedAt: t.expose('reachedAt', { type: 'DateTime' }),
  }),
});

/** The players' names for a page of places: one query, never one per row. */
async function named<T extends { customerId: string }>(
  ctx: GraphQLContext,
  leaders: T[],
): Promise<(T & Named)[]> {
  const players = leaders.length
    ? await ctx.db.customer.findMany({
        where: { id: { in: leaders.map((l) => l.customerId) }, ...tenantOf(ctx) },
        select: { id: true, firstName: true, lastName: true, externalId: true },
      })
    : [];
  const byId = new Map(players.map((p) => [p.id, p]));
  return leaders.map((l) => {
    const p = byId.get(l.customerId);
    return {
      ...l,
      playerName: p ? `${p.firstName} ${p.lastName}` : null,
      externalId: p?.externalId ?? null,
    };
  });
}

const StandingRef = builder
  .objectRef<Omit<Position, 'endsAt' | 'title' | 'status'> & { customerId: string } & Named>(
    'CampaignStanding',
  )
  .implement({
    description: "One player's live place in a running or paused tournament.",
    fields: (t) => ({
      rank: t.exposeInt('rank'),
      customerId: t.exposeID('customerId'),
      playerName: t.exposeString('playerName', { nullable: true }),
      externalId: t.exposeString('externalId', { nullable: true }),
      points: t.expose('points', { type: 'SafeInt' }),
      participants: t.exposeInt('participants'),
      prize: t.expose('prize', {
        type: 'JSON',
        nullable: true,
        description: 'What the place would win if the tournament ended now.',
      }),
    }),
  });

builder.prismaObject('Campaign', {
  description: 'A daily reward or a tournament of one establishment.',
  fields: (t) => ({
    id: t.exposeID('id'),
    establishmentId: t.exposeID('subBrandId'),
    title: t.exposeString('title'),
    modalTitle: t.exposeString('modalTitle', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    legalTerms: t.exposeString('legalTerms', { nullable: true }),
    duration: t.exposeString('duration', { nullable: true }),
    startsAt: t.expose('startsAt', { type: 'DateTime' }),
    endsAt: t.expose('endsAt', { type: 'DateTime', description: 'Exclusive.' }),
    type: t.expose('type', { type: CampaignTypeEnum }),
    status: t.expose('status', { type: CampaignStatusEnum }),
    multiplier: t.exposeInt('multiplier'),
    budget: t.expose('budget', { type: 'SafeInt', nullable: true }),
    totalAwarded: t.expose('totalAwarded', { type: 'SafeInt' }),
    termsAccepted: t.exposeBoolean('termsAccepted'),
    prizes: t.expose('prizes', { type: 'JSON' }),
    targeting: t.expose('targeting', { type: 'JSON' }),
    isTemplate: t.exposeBoolean('isTemplate'),
    verticals: t.expose('verticals', {
      type: [ProductVerticalEnum],
      description: 'The product verticals whose play qualifies (UKGC: at most one).',
    }),
    clonedFromId: t.exposeID('clonedFromId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    leaderboard: t.field({
      type: [LeaderRef],
      description: 'Tournaments: the current (or final) ranking, from `offset`.',
      args: { first: t.arg.int({ defaultValue: 10 }), offset: t.arg.int({ defaultValue: 0 }) },
      resolve: async (c, args, ctx) =>
        named(
          ctx,
          await onReplica(ctx, (db) =>
            leaderboard(
              db,
              c,
              Math.min(Math.max(args.first ?? 10, 1), 100),
              Math.max(args.offset ?? 0, 0),
            ),
          ),
        ),
    }),
    standing: t.field({
      type: StandingRef,
      nullable: true,
      description:
        "Tournaments: a player's live place, found by player id or external id. Null when the player has no points here or the tournament is not running or paused (after the end, the final ranking is the leaderboard).",
      args: { player: t.arg.string({ required: true }) },
      resolve: async (c, args, ctx) => {
        const key = args.player.trim();
        const player = await ctx.db.customer.findFirst({
          where: { ...tenantOf(ctx), ...(isUuid(key) ? { id: key } : { externalId: key }) },
          select: { id: true },
        });
        if (!player) throw notFound('Customer');
        const mine = (await tournamentPositions(ctx.db, tenantOf(ctx), player.id, ctx.now())).find(
          (p) => p.campaignId === c.id,
        );
        if (!mine) return null;
        const [standing] = await named(ctx, [{ ...mine, customerId: player.id }]);
        return standing!;
      },
    }),
    settlement: t.relation('settlement', { nullable: true }),
  }),
});

builder.prismaObject('CampaignSettlement', {
  description: "A tournament's settlement job: its prizes by final rank, given once.",
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    status: t.expose('status', { type: SettlementStatusEnum }),
    attempts: t.exposeInt('attempts'),
    runAfter: t.expose('runAfter', { type: 'DateTime' }),
    lastError: t.exposeString('lastError', { nullable: true }),
    awarded: t.exposeInt('awarded'),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('CampaignAward', {
  description: 'A prize a player won; coins and products reach the player when claimed.',
  fields: (t) => ({
    id: t.exposeID('id'),
    campaignId: t.exposeID('campaignId'),
    customerId: t.exposeID('customerId'),
    awardKey: t.exposeString('awardKey', { description: '`day:YYYY-MM-DD` or `rank`.' }),
    day: t.exposeInt('day', { nullable: true, description: 'The streak day it was won on.' }),
    rank: t.exposeInt('rank', { nullable: true }),
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
    type: t.exposeString('type'),
    outcome: t.exposeString('outcome'),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'Why player_not_eligible: status, or responsible_gaming (an active state).',
    }),
    streak: t.exposeInt('streak', { nullable: true }),
    points: t.expose('points', { type: 'SafeInt', nullable: true }),
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
    balance: t.expose('balance', { type: 'SafeInt', nullable: true }),
    orderId: t.exposeID('orderId', { nullable: true }),
  }),
});

const PositionRef = builder.objectRef<Position>('TournamentPosition').implement({
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    title: t.exposeString('title'),
    status: t.exposeString('status'),
    endsAt: t.expose('endsAt', { type: 'DateTime' }),
    rank: t.exposeInt('rank'),
    points: t.expose('points', { type: 'SafeInt' }),
    participants: t.exposeInt('participants'),
    prize: t.expose('prize', { type: 'JSON', nullable: true }),
  }),
});

const DeletionRef = builder
  .objectRef<{ campaignId: string; keptAwards: number }>('CampaignDeletion')
  .implement({
    fields: (t) => ({
      campaignId: t.exposeID('campaignId'),
      keptAwards: t.exposeInt('keptAwards', {
        description:
          'Awards kept (with their movements): above 0, the campaign was hidden, not erased.',
      }),
    }),
  });

const read = { scope: 'campaigns:read' } as const;
const write = { scope: 'campaigns:write' } as const;

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

/** A list's filter as the domain reads it (GraphQL's null is "not given"). */
const campaignFilterOf = (args: {
  [K in keyof CampaignFilter]?: CampaignFilter[K] | null;
}) => ({
  status: args.status ?? undefined,
  type: args.type ?? undefined,
  isTemplate: args.isTemplate ?? undefined,
});

builder.queryFields((t) => ({
  campaigns: t.prismaField({
    type: ['Campaign'],
    authScopes: read,
    args: {
      establishmentId: t.arg.id(),
      status: t.arg({ type: CampaignStatusEnum }),
      type: t.arg({ type: CampaignTypeEnum }),
      isTemplate: t.arg.boolean(),
    },
    description: 'The campaigns, newest first: at most 1,000 (campaignsTotal counts them all).',
    resolve: async (query, _root, args, ctx) => {
      ownEstablishment(ctx, args.establishmentId);
      const rows = await listCampaigns(ctx.db, tenantOf(ctx), campaignFilterOf(args), ctx.now());
      return rows.length
        ? ctx.db.campaign.findMany({
            ...query,
            where: { subBrandId: tenantOf(ctx).subBrandId, id: { in: rows.map((r) => r.id) } },
            orderBy: { id: 'desc' },
          })
        : [];
    },
  }),
  campaignsTotal: t.field({
    type: ListTotalRef,
    authScopes: read,
    description:
      'How many campaigns `campaigns` with the same filter holds in all: exact up to 10,000, "more than" above.',
    args: {
      establishmentId: t.arg.id(),
      status: t.arg({ type: CampaignStatusEnum }),
      type: t.arg({ type: CampaignTypeEnum }),
      isTemplate: t.arg.boolean(),
    },
    resolve: (_root, args, ctx) => {
      ownEstablishment(ctx, args.establishmentId);
      return countedTotal((take) =>
        countCampaigns(ctx.db, tenantOf(ctx), campaignFilterOf(args), ctx.now(), take),
      );
    },
  }),
  campaign: t.prismaField({
    type: 'Campaign',
    authScopes: read,
    args: { id: t.arg.id({ required: true }), establishmentId: t.arg.id() },
    resolve: async (query, _root, args, ctx) => {
      ownEstablishment(ctx, args.establishmentId);
      const c = await getCampaign(ctx.db, tenantOf(ctx), String(args.id), ctx.now());
      return ctx.db.campaign.findUniqueOrThrow({ ...query, where: tenantKey(c.subBrandId, c.id) });
    },
  }),
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
  campaignSettlements: t.prismaField({
    type: ['CampaignSettlement'],
    authScopes: read,
    description: 'Settlement runs of this establishment’s tournaments, newest first.',
    args: { status: t.arg({ type: SettlementStatusEnum }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.campaignSettlement.findMany({
        ...query,
        where: { ...tenantOf(ctx), ...(args.status ? { status: args.status } : {}) },
        orderBy: { createdAt: 'desc' },
        take: 200,
      }),
  }),
  tournamentPositions: t.field({
    type: [PositionRef],
    authScopes: read,
    args: { customerId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      onReplica(ctx, (db) =>
        tournamentPositions(db, tenantOf(ctx), String(args.customerId), ctx.now()),
      ),
  }),
}));

builder.mutationFields((t) => ({
  createCampaign: t.prismaField({
    extensions: effect('creates'),
    type: 'Campaign',
    authScopes: write,
    args: { input: t.arg({ type: 'JSON', required: true }), establishmentId: t.arg.id() },
    resolve: async (query, _root, args, ctx) => {
      ownEstablishment(ctx, args.establishmentId);
      const c = await createCampaign(ctx.db, tenantOf(ctx), args.input, ctx.now());
      return ctx.db.campaign.findUniqueOrThrow({ ...query, where: tenantKey(c.subBrandId, c.id) });
    },
  }),
  updateCampaign: t.prismaField({
    extensions: effect('changes'),
    type: 'Campaign',
    authScopes: write,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: 'JSON', required: true }),
      establishmentId: t.arg.id(),
    },
    resolve: async (query, _root, args, ctx) => {
      ownEstablishment(ctx, args.establishmentId);
      const c = await updateCampaign(ctx.db, tenantOf(ctx), String(args.id), args.input, ctx.now());
      return ctx.db.campaign.findUniqueOrThrow({ ...query, where: tenantKey(c.subBrandId, c.id) });
    },
  }),
  updateCampaignStatus: t.prismaField({
    extensions: effect('changes'),
    type: 'Campaign',
    authScopes: write,
    description: 'in_progress, paused or cancelled; draft and completed are not requested.',
    args: {
      id: t.arg.id({ required: true }),
      status: t.arg.string({ required: true }),
      establishmentId: t.arg.id(),
    },
    resolve: async (query, _root, args, ctx) => {
      ownEstablishment(ctx, args.establishmentId);
      const c = await updateCampaignStatus(
        ctx.db,
        tenantOf(ctx),
        String(args.id),
        { status: args.status },
        ctx.now(),
      );
      return ctx.db.campaign.findUniqueOrThrow({ ...query, where: tenantKey(c.subBrandId, c.id) });
    },
  }),
  deleteCampaign: t.field({
    extensions: effect('removes'),
    type: DeletionRef,
    authScopes: write,
    args: { id: t.arg.id({ required: true }), establishmentId: t.arg.id() },
    resolve: async (_root, args, ctx) => {
      ownEstablishment(ctx, args.establishmentId);
      const { campaign, keptAwards } = await deleteCampaign(
        ctx.db,
        tenantOf(ctx),
        String(args.id),
        ctx.now(),
      );
      return { campaignId: campaign.id, keptAwards };
    },
  }),
  cloneCampaign: t.prismaField({
    extensions: effect('creates'),
    type: 'Campaign',
    authScopes: write,
    description: 'A draft copy of a template.',
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: 'JSON' }),
      establishmentId: t.arg.id(),
    },
    resolve: async (query, _root, args, ctx) => {
      ownEstablishment(ctx, args.establishmentId);
      const c = await cloneCampaign(
        ctx.db,
        tenantOf(ctx),
        String(args.id),
        args.input ?? {},
        ctx.now(),
      );
      return ctx.db.campaign.findUniqueOrThrow({ ...query, where: tenantKey(c.subBrandId, c.id) });
    },
  }),
  retryCampaignSettlement: t.prismaField({
    extensions: effect('changes'),
    type: 'CampaignSettlement',
    authScopes: write,
    description: 'Puts a failed settlement back in the queue (it runs at the next pass).',
    args: { campaignId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = String(args.campaignId);
      const job = isUuid(id)
        ? await ctx.db.campaignSettlement.findFirst({ where: { campaignId: id, ...tenantOf(ctx) } })
        : null;
      if (!job) throw notFound('Settlement');
      if (job.status !== 'failed')
        throw new AppError(
          'invalid_transition',
          `The settlement is ${job.status}: only a failed one is retried.`,
        );
      return ctx.db.campaignSettlement.update({
        ...query,
        where: { subBrandId_campaignId: { subBrandId: job.subBrandId, campaignId: id } },
        data: { status: 'pending', attempts: 0, runAfter: ctx.now() },
      });
    },
  }),
  insertCampaignActivity: t.field({
    extensions: effect('moves_coins'),
    type: ActivityAnswerRef,
    authScopes: { scope: 'campaigns:activity' },
    args: {
      input: t.arg({ type: 'JSON', required: true }),
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
      input: t.arg({ type: 'JSON', required: true }),
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

// Campaigns (docs/campaigns.md): the fields behind the establishment API's campaign routes and
// the backoffice's campaign screens: the campaigns, their lists and totals, their life (create,
// edit, move, delete, clone) and tournament settlement runs. Their prizes and recorded activity
// are in campaign-awards.ts, leaderboards and places in tournaments.ts. Inputs are the
// documented JSON bodies, validated by the campaign engine itself.
import {
  cloneCampaign,
  countCampaigns,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  type CampaignFilter,
  updateCampaign,
  updateCampaignStatus,
} from '../../engine/campaigns/manage-campaigns.js';
import { z } from 'zod';
import {
  CAMPAIGN_STATUSES,
  CAMPAIGN_TYPES,
  DURATIONS,
  prizeInput,
} from '../../engine/campaigns/schemas.js';
import { tenantKey } from '../../engine/shared/keys.js';
import { AppError, notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { builder } from '../builder.js';
import { countedTotal, ListTotalRef } from '../list-total.js';
import type { GraphQLContext } from '../context.js';
import { tenantOf } from '../tenant.js';
import { effect } from '../effects.js';
import { ProductVerticalEnum } from './jurisdiction.js';

export const CampaignTypeEnum = builder.enumType('CampaignType', { values: CAMPAIGN_TYPES });
const CampaignDurationEnum = builder.enumType('CampaignDuration', {
  description: 'A preset resolves to UTC dates when the campaign is written; custom keeps its own.',
  values: DURATIONS,
});
const CampaignStatusEnum = builder.enumType('CampaignStatus', { values: CAMPAIGN_STATUSES });
const SettlementStatusEnum = builder.enumType('SettlementStatus', {
  values: ['pending', 'done', 'failed'] as const,
});

/** An establishment id sent with a request must be the key's own: any other is not found. */
export function ownEstablishment(ctx: GraphQLContext, id: string | null | undefined): void {
  if (id != null && id !== ctx.principal.subBrandId) throw notFound('Sub-brand');
}

builder.prismaObject('Campaign', {
  description: 'A daily reward or a tournament of one establishment.',
  fields: (t) => ({
    id: t.exposeID('id'),
    establishmentId: t.exposeID('subBrandId'),
    title: t.exposeString('title', { description: 'The title players see.' }),
    modalTitle: t.exposeString('modalTitle', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    legalTerms: t.exposeString('legalTerms', { nullable: true }),
    duration: t.field({
      type: CampaignDurationEnum,
      nullable: true,
      // Stored as text, written only through the engine's DURATIONS.
      resolve: (c) => c.duration as (typeof DURATIONS)[number] | null,
    }),
    startsAt: t.expose('startsAt', { type: 'DateTime' }),
    endsAt: t.expose('endsAt', {
      type: 'DateTime',
      description: 'Exclusive: the first instant after the campaign.',
    }),
    type: t.expose('type', { type: CampaignTypeEnum }),
    status: t.expose('status', { type: CampaignStatusEnum }),
    multiplier: t.exposeInt('multiplier'),
    budget: t.expose('budget', { type: 'SafeInt', nullable: true }),
    totalAwarded: t.expose('totalAwarded', {
      type: 'SafeInt',
      description: 'Coins awarded so far (claimed or not).',
    }),
    termsAccepted: t.exposeBoolean('termsAccepted'),
    prizes: t.expose('prizes', { type: 'JSON', extensions: { jsonShape: z.array(prizeInput) } }),
    targeting: t.expose('targeting', {
      type: 'JSON',
      extensions: { jsonShape: z.record(z.string(), z.unknown()) },
    }),
    isTemplate: t.exposeBoolean('isTemplate'),
    verticals: t.expose('verticals', {
      type: [ProductVerticalEnum],
      description: 'The product verticals whose play qualifies (UKGC: at most one).',
    }),
    clonedFromId: t.exposeID('clonedFromId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
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

const DeletionRef = builder
  .objectRef<{ campaignId: string; keptAwards: number }>('CampaignDeletion')
  .implement({
    fields: (t) => ({
      campaignId: t.exposeID('campaignId'),
      deleted: t.boolean({
        description: 'Always true: gone from every read.',
        resolve: () => true,
      }),
      keptAwards: t.exposeInt('keptAwards', {
        description:
          'Awards kept (with their movements): above 0, the campaign was hidden, not erased.',
      }),
    }),
  });

/** The campaign fields' scopes (the awards and tournament files use them too). */
export const read = { scope: 'campaigns:read' } as const;
export const write = { scope: 'campaigns:write' } as const;

/** A list's filter as the domain reads it (GraphQL's null is "not given"). */
const campaignFilterOf = (args: {
  [K in keyof CampaignFilter]?: CampaignFilter[K] | null;
}) => ({
  status: args.status ?? undefined,
  type: args.type ?? undefined,
  isTemplate: args.isTemplate ?? undefined,
});

builder.queryFields((t) => {
  // One filter for the list and its total.
  const listArgs = {
    establishmentId: t.arg.id(),
    status: t.arg({ type: CampaignStatusEnum }),
    type: t.arg({ type: CampaignTypeEnum }),
    isTemplate: t.arg.boolean(),
  };
  return {
    campaigns: t.prismaField({
      type: ['Campaign'],
      authScopes: read,
      args: listArgs,
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
      args: listArgs,
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
        return ctx.db.campaign.findUniqueOrThrow({
          ...query,
          where: tenantKey(c.subBrandId, c.id),
        });
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
  };
});

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
}));

// Responsible gaming (docs/compliance.md): a customer's state and its history, the mutation that
// sets it, and the gate's decisions, for the partner API, the establishment API and the backoffice.
import {
  effectiveRg,
  rgHistory,
  setResponsibleGaming,
  RG_SOURCES,
  RG_STATES,
} from '../../domain/responsible-gaming/state.js';
import { builder } from '../builder.js';
import { effect } from '../effects.js';
import { countedTotal, ListTotalRef } from '../list-total.js';
import { actorOf, tenantOf } from '../tenant.js';
import type { GraphQLContext } from '../context.js';

const RgStateEnum = builder.enumType('RgState', {
  description: 'A responsible-gaming state; every one but none blocks incentives while active.',
  values: RG_STATES,
});
const RgSourceEnum = builder.enumType('RgSource', { values: RG_SOURCES });

type RgView = {
  state: (typeof RG_STATES)[number];
  until: Date | null;
  source: (typeof RG_SOURCES)[number] | null;
  since: Date | null;
};

const ResponsibleGamingRef = builder.objectRef<RgView>('ResponsibleGaming').implement({
  description: "The customer's state in force now: `none` once a dated state has ended.",
  fields: (t) => ({
    state: t.field({ type: RgStateEnum, resolve: (r) => r.state }),
    until: t.expose('until', {
      type: 'DateTime',
      nullable: true,
      description: 'When it ends; null: indefinite (self_excluded) or none.',
    }),
    source: t.field({
      type: RgSourceEnum,
      nullable: true,
      description: 'Who asked for it: operator, player or regulator.',
      resolve: (r) => r.source,
    }),
    since: t.expose('since', { type: 'DateTime', nullable: true, description: 'When it was set.' }),
  }),
});

builder.prismaObjectField('Customer', 'responsibleGaming', (t) =>
  t.field({
    type: ResponsibleGamingRef,
    select: { rgState: true, rgUntil: true, rgSource: true, rgSince: true },
    resolve: (c, _args, ctx) => {
      const { state, until } = effectiveRg(c, ctx.now());
      return state === 'none'
        ? { state, until, source: null, since: null }
        : { state, until, source: c.rgSource, since: c.rgSince };
    },
  }),
);

builder.prismaObject('RgChange', {
  description: 'One change of a customer’s responsible-gaming state: never edited nor deleted.',
  fields: (t) => ({
    id: t.exposeID('id'),
    customerId: t.exposeID('customerId'),
    state: t.expose('state', { type: RgStateEnum }),
    until: t.expose('until', { type: 'DateTime', nullable: true }),
    source: t.expose('source', { type: RgSourceEnum }),
    note: t.exposeString('note', { nullable: true }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'Why an active state was shortened or lifted.',
    }),
    previousState: t.expose('previousState', { type: RgStateEnum }),
    previousUntil: t.expose('previousUntil', { type: 'DateTime', nullable: true }),
    via: t.exposeString('via', { description: 'api, backoffice or cli.' }),
    apiKeyId: t.exposeID('apiKeyId', { nullable: true }),
    staffUserId: t.exposeID('staffUserId', { nullable: true }),
    requestId: t.exposeString('requestId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField('Customer', 'responsibleGamingHistory', (t) =>
  t.prismaField({
    type: ['RgChange'],
    description: 'Changes of its responsible-gaming state, newest first (the last 50).',
    resolve: (_query, c, _args, ctx) => rgHistory(ctx.db, tenantOf(ctx), c.id),
  }),
);

builder.prismaObject('RgDecision', {
  description: 'One refusal of the responsible-gaming gate.',
  fields: (t) => ({
    id: t.exposeID('id'),
    customerId: t.exposeID('customerId'),
    path: t.exposeString('path', {
      description:
        'engine_grant, campaign_award, tournament_points, claim, game_play, store_session or bulk_credit.',
    }),
    state: t.expose('state', { type: RgStateEnum }),
    until: t.expose('until', { type: 'DateTime', nullable: true }),
    reference: t.exposeString('reference', {
      nullable: true,
      description:
        'What was refused: an engine event id, a campaign and activity, an award, a bulk adjustment.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    customer: t.prismaField({
      type: 'Customer',
      nullable: true,
      description: 'The player; null once deleted (the decision is kept).',
      resolve: (query, d, _args, ctx) =>
        ctx.db.customer.findFirst({ ...query, where: { id: d.customerId, ...tenantOf(ctx) } }),
    }),
  }),
});

type DecisionsArgs = { from?: Date | null; to?: Date | null; customerId?: string | number | null };

/** The refusals listed: the tenant's, of one player when asked, in [from, to). */
const decisionsWhere = (ctx: GraphQLContext, { from, to, customerId }: DecisionsArgs) => ({
  ...tenantOf(ctx),
  ...(customerId ? { customerId: String(customerId) } : {}),
  createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) },
});

builder.queryField('rgDecisions', (t) =>
  t.prismaConnection(
    {
      type: 'RgDecision',
      cursor: 'subBrandId_id',
      authScopes: { scope: 'customers:read' },
      description: "The gate's refusals in [from, to), newest first.",
      args: {
        from: t.arg({ type: 'DateTime' }),
        to: t.arg({ type: 'DateTime' }),
        customerId: t.arg.id(),
      },
      resolve: (query, _root, args, ctx) =>
        ctx.db.rgDecision.findMany({
          ...query,
          where: decisionsWhere(ctx, args),
          orderBy: { id: 'desc' },
        }),
    },
    {
      fields: (c) => ({
        total: c.field({
          type: ListTotalRef,
          description: 'How many refusals match: exact up to 10,000, "more than" above.',
          resolve: ({ args }, _args, ctx) =>
            countedTotal((take) =>
              ctx.db.rgDecision.count({ where: decisionsWhere(ctx, args), take }),
            ),
        }),
      }),
    },
  ),
);

/** Only a person with a brand's reach may relax a state (state.ts); the CLI passes its own. */
const mayRelax = (ctx: GraphQLContext) =>
  ctx.principal.staff?.role === 'brand_admin' || ctx.principal.staff?.role === 'platform_admin';

const RgInput = builder.inputType('ResponsibleGamingInput', {
  fields: (t) => ({
    state: t.field({ type: RgStateEnum, required: true }),
    until: t.field({
      type: 'DateTime',
      description: 'Required for cool_off and limit_reached; absent for self_excluded: indefinite.',
    }),
    source: t.field({ type: RgSourceEnum, description: 'Default operator.' }),
    note: t.string(),
    reason: t.string({ description: 'Required to shorten or lift an active state.' }),
  }),
});

builder.mutationField('setResponsibleGaming', (t) =>
  t.prismaField({
    type: 'Customer',
    extensions: effect('changes'),
    authScopes: { scope: 'responsible_gaming:write' },
    description:
      "Sets a customer's responsible-gaming state. Setting or extending: any holder of the scope. Shortening or " +
      'lifting an active state: brand admins, with a reason; never through an API key.',
    args: {
      customerId: t.arg.id({ required: true }),
      input: t.arg({ type: RgInput, required: true }),
    },
    resolve: async (query, _root, { customerId, input }, ctx) => {
      const updated = await setResponsibleGaming(
        ctx.db,
        tenantOf(ctx),
        String(customerId),
        {
          state: input.state,
          until: input.until?.toISOString() ?? null,
          source: input.source ?? undefined,
          note: input.note,
          reason: input.reason,
        },
        {
          ...actorOf(ctx),
          via: ctx.principal.staff ? 'backoffice' : 'api',
          mayRelax: mayRelax(ctx),
        },
        ctx.now(),
      );
      return ctx.db.customer.findUniqueOrThrow({ ...query, where: { id: updated.id } });
    },
  }),
);

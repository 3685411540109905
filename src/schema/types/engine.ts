// The engine: deliveries (partner keys, scope engine:events), and executions, audit and the
// simulator for the backoffice (platform admin keys).
import { deliverEvent } from '../../engine/points/deliver-event.js';
import { ENGINE_OUTCOMES, type EngineEventResult } from '../../engine/points/delivery.js';
import { deliverWebhook } from '../../engine/points/deliver-webhook.js';
import { simulateEvent, type Simulation } from '../../engine/points/simulate-event.js';
import { isClient } from '../../domain/db.js';
import { AppError, notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import type { Tenant } from '../../domain/tenant.js';
import { builder } from '../builder.js';
import { countedTotal, ListTotalRef } from '../list-total.js';
import type { GraphQLContext } from '../context.js';
import { EnvironmentEnum } from './environment.js';
import { actorOf, tenantOf } from '../tenant.js';
import { effect } from '../effects.js';
import { keyOf, requiredKeyOf } from '../idempotency-key.js';

const OutcomeEnum = builder.enumType('EngineOutcome', {
  description: 'What a delivery did: completed (coins moved), skipped (a rule) or failed.',
  values: ENGINE_OUTCOMES,
});

const ResultRef = builder.objectRef<EngineEventResult>('EngineEventResult').implement({
  description:
    'The outcome of a delivery. Check status: a delivery that passed pre-flight always answers 200.',
  fields: (t) => ({
    eventId: t.exposeID('eventId', { description: 'The execution id.' }),
    status: t.expose('status', {
      type: OutcomeEnum,
      description: 'Check it: a delivery that passed pre-flight always answers 200.',
    }),
    replayed: t.exposeBoolean('replayed', {
      description:
        'Webhooks: true when the key was already executed (the frozen result). Events: always false; a ' +
        'replay is the original body with the idempotent-replay: true header.',
    }),
    correlationId: t.exposeString('correlationId'),
    customerId: t.exposeID('customerId', { nullable: true }),
    pointsRequested: t.exposeInt('pointsRequested'),
    pointsApplied: t.exposeInt('pointsApplied'),
    balanceBefore: t.expose('balanceBefore', { type: 'SafeInt' }),
    balanceAfter: t.expose('balanceAfter', { type: 'SafeInt' }),
    errorCode: t.exposeString('errorCode', {
      nullable: true,
      description:
        'Why it was skipped or failed: outside_active_window, max_daily_reached, cooldown_active, ' +
        'invalid_constraints, player_id_missing, player_not_found, insufficient_balance, rg_blocked.',
    }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
  }),
});

/** Deliveries commit in steps of their own (the claim first), so they take the client. */
function client(ctx: GraphQLContext): PrismaClient {
  if (!isClient(ctx.db)) throw new Error('an engine delivery cannot run inside a transaction');
  return ctx.db;
}

const engineOptions = (ctx: GraphQLContext) => ({ ...ctx.engine, now: ctx.now });

const DeliverInput = builder.inputType('DeliverEngineEventInput', {
  fields: (t) => ({
    eventCode: t.string({ required: true }),
    data: t.field({
      type: 'JSON',
      required: true,
      description: "An object holding the definition's player-id field.",
    }),
    pointsOverride: t.float({
      description: 'Only for definitions that opt in; a whole number within ±1,000,000.',
    }),
    correlationId: t.string({ description: 'Echoed back; generated when omitted.' }),
  }),
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

builder.mutationFields((t) => ({
  deliverEngineEvent: t.field({
    extensions: effect('moves_coins', { ownTransactions: true }),
    type: ResultRef,
    authScopes: { scope: 'engine:events' },
    args: {
      input: t.arg({ type: DeliverInput, required: true }),
      idempotencyKey: t.arg.string({ description: 'Else the request’s Idempotency-Key header.' }),
    },
    resolve: (_root, { input, idempotencyKey }, ctx) => {
      if (!isObject(input.data))
        throw new AppError('invalid_request', 'Invalid request. data: must be an object');
      return deliverEvent(
        client(ctx),
        tenantOf(ctx),
        actorOf(ctx),
        {
          channel: 'events',
          eventCode: input.eventCode,
          data: input.data,
          pointsOverride: input.pointsOverride ?? undefined,
          correlationId: input.correlationId,
          idempotencyKey: requiredKeyOf(idempotencyKey, ctx),
        },
        engineOptions(ctx),
      );
    },
  }),
  deliverEngineWebhook: t.field({
    extensions: effect('moves_coins', { ownTransactions: true }),
    type: ResultRef,
    authScopes: { scope: 'engine:events' },
    args: {
      code: t.arg.string({ required: true }),
      payload: t.arg({ type: 'JSON', required: true }),
      idempotencyKey: t.arg.string({ description: 'Used when the payload carries no id.' }),
    },
    resolve: (_root, { code, payload, idempotencyKey }, ctx) => {
      if (!isObject(payload))
        throw new AppError(
          'invalid_request',
          'Invalid request. The webhook body must be a JSON object.',
        );
      return deliverWebhook(
        client(ctx),
        tenantOf(ctx),
        actorOf(ctx),
        { code, payload, headerKey: keyOf(idempotencyKey, ctx) },
        engineOptions(ctx),
      );
    },
  }),
}));

const EXECUTION_STATUSES = ['processing', ...ENGINE_OUTCOMES] as const;
const StatusEnum = builder.enumType('ExecutionStatus', { values: EXECUTION_STATUSES });
const isExecutionStatus = (s: string): s is (typeof EXECUTION_STATUSES)[number] =>
  (EXECUTION_STATUSES as readonly string[]).includes(s);

/**
 * The executions' players, batched per request: every id asked for in one tick (a page of
 * executions) is read by one findMany per tenant, confined to that tenant, instead of one query
 * per row. engine_executions has no Prisma relation to customers (one would need a migration).
 * `query` is Pothos's selection for the field, alike for every row of a page (part of the key).
 */
type Player = Prisma.CustomerGetPayload<object>;
type Batch = { ids: Set<string>; found: Promise<Map<string, Player>> };
const playerBatches = new WeakMap<GraphQLContext, Map<string, Batch>>();

function playerOf(
  ctx: GraphQLContext,
  query: object,
  tenant: Tenant,
  id: string,
): Promise<Player | null> {
  let batches = playerBatches.get(ctx);
  if (!batches) playerBatches.set(ctx, (batches = new Map()));
  const key = JSON.stringify([tenant.subBrandId, tenant.environment, query]);
  let batch = batches.get(key);
  if (!batch) {
    const ids = new Set<string>();
    const open = batches;
    const found = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      open.delete(key); // a later tick starts its own batch
      const rows = await ctx.db.customer.findMany({
        ...query,
        where: {
          id: { in: [...ids] },
          subBrandId: tenant.subBrandId,
          environment: tenant.environment,
        },
      });
      return new Map(rows.map((r) => [r.id, r]));
    });
    batches.set(key, (batch = { ids, found }));
  }
  batch.ids.add(id);
  return batch.found.then((players) => players.get(id) ?? null);
}

builder.prismaObject('EngineExecution', {
  fields: (t) => ({
    id: t.exposeID('id'),
    subBrandId: t.exposeID('subBrandId'),
    environment: t.expose('environment', { type: EnvironmentEnum }),
    definitionId: t.exposeID('definitionId'),
    eventCode: t.string({
      description: 'The event definition’s code, as it was for this delivery.',
      resolve: (e) => String((e.definitionSnapshot as { code?: unknown }).code ?? ''),
    }),
    idempotencyKey: t.exposeString('idempotencyKey'),
    channel: t.exposeString('channel'),
    status: t.expose('status', { type: StatusEnum }),
    customerId: t.exposeID('customerId', { nullable: true }),
    customer: t.prismaField({
      type: 'Customer',
      nullable: true,
      description:
        'The player the delivery was for, of the execution’s own tenant; null when none or since deleted. A page’s players are read together, once.',
      authScopes: { scope: 'customers:read', admin: true },
      resolve: (query, e, _args, ctx) =>
        e.customerId
          ? playerOf(
              ctx,
              query,
              { subBrandId: e.subBrandId, environment: e.environment },
              e.customerId,
            )
          : null,
    }),
    pointsRequested: t.exposeInt('pointsRequested'),
    pointsApplied: t.exposeInt('pointsApplied'),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    correlationId: t.exposeString('correlationId'),
    definitionSnapshot: t.expose('definitionSnapshot', {
      type: 'JSON',
      description: 'The definition as it was for this delivery.',
    }),
    result: t.expose('result', { type: 'JSON', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.prismaObject('EngineAudit', {
  fields: (t) => ({
    id: t.exposeID('id'),
    executionId: t.exposeID('executionId', { nullable: true }),
    definitionId: t.exposeID('definitionId', { nullable: true }),
    eventCode: t.exposeString('eventCode'),
    idempotencyKey: t.exposeString('idempotencyKey', { nullable: true }),
    channel: t.exposeString('channel'),
    outcome: t.exposeString('outcome', {
      description: 'completed, skipped, failed, replayed or rejected.',
    }),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    correlationId: t.exposeString('correlationId'),
    requestId: t.exposeString('requestId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const EngineFilter = builder.inputType('EngineFilter', {
  fields: (t) => ({
    environment: t.field({ type: EnvironmentEnum, required: true }),
    definitionId: t.id(),
    customerId: t.id({
      description: 'Executions only (audit rows name the execution, not the player).',
    }),
    status: t.string({ description: 'Executions: an ExecutionStatus. Audit: an outcome.' }),
    correlationId: t.string(),
    from: t.field({ type: 'DateTime', description: 'Inclusive.' }),
    to: t.field({ type: 'DateTime', description: 'Exclusive.' }),
  }),
});

type Filter = {
  environment: 'live' | 'test';
  definitionId?: string | number | null;
  customerId?: string | number | null;
  status?: string | null;
  correlationId?: string | null;
  from?: Date | null;
  to?: Date | null;
};
const uuidOrNone = (value: string | number | null | undefined) =>
  value === null || value === undefined
    ? undefined
    : isUuid(String(value))
      ? String(value)
      : '00000000-0000-0000-0000-000000000000';
const common = (subBrandId: string, f: Filter) => ({
  subBrandId: uuidOrNone(subBrandId),
  environment: f.environment,
  definitionId: uuidOrNone(f.definitionId),
  correlationId: f.correlationId ?? undefined,
  createdAt: { gte: f.from ?? undefined, lt: f.to ?? undefined },
});

/** A status that is none of the executions' finds none (as a malformed id does), not a 500. */
const statusOrNone = (status: string | null | undefined) =>
  status == null ? undefined : isExecutionStatus(status) ? status : { in: [] };
const executionsWhere = (subBrandId: string, f: Filter) => ({
  ...common(subBrandId, f),
  customerId: uuidOrNone(f.customerId),
  status: statusOrNone(f.status),
});
const deliveriesWhere = (subBrandId: string, f: Filter) => ({
  ...common(subBrandId, f),
  outcome: f.status ?? undefined,
});

builder.queryFields((t) => ({
  // One execution of the caller's tenant: what an engine_execution event renders
  // (docs/webhooks.md).
  engineExecution: t.prismaField({
    type: 'EngineExecution',
    authScopes: { anyScope: ['engine:events', 'events:read'] },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const found = isUuid(String(id))
        ? await ctx.db.engineExecution.findFirst({
            ...query,
            where: { id: String(id), ...tenantOf(ctx) },
          })
        : null;
      if (!found) throw notFound('Engine execution');
      return found;
    },
  }),
  engineExecutions: t.prismaConnection(
    {
      type: 'EngineExecution',
      cursor: 'id',
      authScopes: { admin: true },
      description: "A sub-brand's executions, newest first.",
      args: {
        subBrandId: t.arg.id({ required: true }),
        filter: t.arg({ type: EngineFilter, required: true }),
      },
      resolve: (query, _root, { subBrandId, filter }, ctx) =>
        ctx.db.engineExecution.findMany({
          ...query,
          where: executionsWhere(String(subBrandId), filter),
          orderBy: { id: 'desc' },
        }),
    },
    {
      fields: (c) => ({
        total: c.field({
          type: ListTotalRef,
          description: 'How many executions match: exact up to 10,000, "more than" above.',
          resolve: ({ args }, _args, ctx) =>
            countedTotal((take) =>
              ctx.db.engineExecution.count({
                where: executionsWhere(String(args.subBrandId), args.filter),
                take,
              }),
            ),
        }),
      }),
    },
  ),
  engineAudit: t.prismaConnection(
    {
      type: 'EngineAudit',
      cursor: 'id',
      authScopes: { admin: true },
      description:
        "A sub-brand's delivery audit, newest first: every delivery, replays and rejections included.",
      args: {
        subBrandId: t.arg.id({ required: true }),
        filter: t.arg({ type: EngineFilter, required: true }),
      },
      resolve: (query, _root, { subBrandId, filter }, ctx) =>
        ctx.db.engineAudit.findMany({
          ...query,
          where: deliveriesWhere(String(subBrandId), filter),
          orderBy: { id: 'desc' },
        }),
    },
    {
      fields: (c) => ({
        total: c.field({
          type: ListTotalRef,
          description: 'How many deliveries match: exact up to 10,000, "more than" above.',
          resolve: ({ args }, _args, ctx) =>
            countedTotal((take) =>
              ctx.db.engineAudit.count({
                where: deliveriesWhere(String(args.subBrandId), args.filter),
                take,
              }),
            ),
        }),
      }),
    },
  ),
}));

const SimulationRef = builder.objectRef<Simulation>('EngineSimulation').implement({
  fields: (t) => ({
    status: t.exposeString('status', {
      description: 'completed, skipped, failed, or rejected (pre-flight).',
    }),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    explanation: t.exposeString('explanation', { description: 'Which rule decided, and why.' }),
    customerId: t.exposeID('customerId', { nullable: true }),
    pointsRequested: t.exposeInt('pointsRequested'),
    balanceBefore: t.expose('balanceBefore', { type: 'SafeInt' }),
    balanceAfter: t.expose('balanceAfter', { type: 'SafeInt' }),
  }),
});

builder.queryField('simulateEngineEvent', (t) =>
  t.field({
    type: SimulationRef,
    authScopes: { admin: true },
    description:
      'Runs the pipeline for a sample payload without claiming a key or moving coins, and explains the outcome.',
    args: {
      subBrandId: t.arg.id({ required: true }),
      environment: t.arg({
        type: EnvironmentEnum,
        required: true,
        description: 'Whose customers to look up.',
      }),
      eventCode: t.arg.string({ required: true }),
      data: t.arg({ type: 'JSON', required: true }),
      pointsOverride: t.arg.float(),
      at: t.arg({ type: 'DateTime', description: 'The instant to simulate (default now).' }),
    },
    resolve: (_root, args, ctx) => {
      if (!isObject(args.data))
        throw new AppError('invalid_request', 'Invalid request. data: must be an object');
      return simulateEvent(
        ctx.db,
        { subBrandId: String(args.subBrandId), environment: args.environment },
        {
          eventCode: args.eventCode,
          data: args.data,
          pointsOverride: args.pointsOverride ?? undefined,
        },
        args.at ?? ctx.now(),
      );
    },
  }),
);

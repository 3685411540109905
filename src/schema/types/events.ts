// Outbound events and webhook endpoints (docs/webhooks.md): the feed, the endpoints and their
// deliveries, for the partner routes, the MCP tools and the backoffice's Webhooks screen.
import {
  deleteEndpoint,
  createEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from '../../domain/events/endpoints.js';
import {
  countDeliveries,
  listDeliveries,
  redeliverEvent,
  replayEvents,
} from '../../domain/events/deliveries.js';
import {
  countEvents,
  decodeCursor,
  encodeCursor,
  readEvent,
  readEvents,
  type FeedEvent,
} from '../../domain/events/feed.js';
import {
  EVENT_TYPE_NAMES,
  EVENT_TYPES,
  EVENTS_API_VERSION,
  eventTypesOf,
} from '../../domain/events/types.js';
import { invalidRequest } from '../../domain/errors.js';
import { CURSOR_PAGE } from '../../domain/pages.js';
import { builder } from '../builder.js';
import { effect } from '../effects.js';
import { countedTotal, ListTotalRef } from '../list-total.js';
import { tenantOf } from '../tenant.js';
import { EnvironmentEnum } from './environment.js';

const read = { scope: 'events:read' };
const manage = { scope: 'webhooks:manage' };

const OutboundEventRef = builder.objectRef<FeedEvent>('OutboundEvent').implement({
  description: 'One effect, as the feed and webhooks show it.',
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'Unique; every delivery of it carries it as `webhook-id`: deduplicate on it.',
    }),
    type: t.exposeString('type', { description: 'What happened, e.g. order.shipped.' }),
    createdAt: t.expose('createdAt', {
      type: 'DateTime',
      description: 'When the effect committed (its transaction’s time).',
    }),
    environment: t.expose('environment', { type: EnvironmentEnum }),
    apiVersion: t.string({
      description: 'The version of `data`’s shape.',
      resolve: () => EVENTS_API_VERSION,
    }),
    resourceType: t.exposeString('resourceType'),
    resourceId: t.exposeString('resourceId'),
    data: t.expose('data', {
      type: 'JSON',
      description: 'The resource as the partner API renders it, when the event was relayed.',
    }),
  }),
});

const EventTypeRef = builder
  .objectRef<{ name: string; description: string }>('EventType')
  .implement({
    fields: (t) => ({
      name: t.exposeString('name'),
      description: t.exposeString('description'),
    }),
  });

/** A page read by the domain as a Relay connection (these pages go forward only). */
function connectionOf<T>(
  nodes: T[],
  cursorOf: (node: T) => string,
  hasMore: boolean,
  after: string | null | undefined,
) {
  const edges = nodes.map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: hasMore,
      hasPreviousPage: Boolean(after),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/**
 * The connection with its `total` still to count: counted only when the query selects it, with
 * the filter the page was read with (the connection fields see the page, not the arguments).
 */
const withTotal = <C extends object>(connection: C, countUpTo: (take: number) => Promise<number>) =>
  Object.assign(connection, { countUpTo });

/** A connection's `total`, counted with the countUpTo its page left (withTotal). */
const totalOf = (things: string) => ({
  type: ListTotalRef,
  description: `How many ${things} match: exact up to 10,000, "more than" above.`,
  resolve: (connection: { countUpTo: (take: number) => Promise<number> }) =>
    countedTotal(connection.countUpTo),
});

/** The core's cursor page (domain/pages.ts), checked here: this connection is resolved by hand. */
const pageSize = (first: number | null | undefined) => {
  const n = first ?? CURSOR_PAGE.defaultSize;
  if (!Number.isInteger(n) || n < 1 || n > CURSOR_PAGE.maxSize)
    throw invalidRequest([
      { field: 'limit', code: 'too_big', message: `must be 1-${CURSOR_PAGE.maxSize}` },
    ]);
  return n;
};

builder.queryFields((t) => ({
  events: t.connection(
    {
      type: OutboundEventRef,
      authScopes: read,
      description: 'The tenant’s events, oldest first (the relayed ones: docs/webhooks.md).',
      args: {
        types: t.arg.stringList({
          description: `Only these types (${EVENT_TYPE_NAMES.length} exist: eventTypes).`,
        }),
        newestFirst: t.arg.boolean({
          description: 'Newest first, `after` going back in time (a log to read, not a feed).',
        }),
      },
      resolve: async (_root, args, ctx) => {
        // The cursor first: a bad one is refused before the types (whose error names them).
        const after = args.after ? decodeCursor(args.after) : null;
        const limit = pageSize(args.first);
        const types = args.types?.length ? eventTypesOf(args.types) : null;
        const { events, hasMore } = await readEvents(ctx.db, tenantOf(ctx), {
          after,
          limit,
          types,
          newestFirst: args.newestFirst ?? false,
        });
        return withTotal(connectionOf(events, encodeCursor, hasMore, args.after), (take) =>
          countEvents(ctx.db, tenantOf(ctx), types, take),
        );
      },
    },
    { fields: (c) => ({ total: c.field(totalOf('events')) }) },
  ),
  eventTypes: t.field({
    type: [EventTypeRef],
    authScopes: read,
    description: 'Every event type: what a feed filter or an endpoint may name.',
    resolve: () =>
      EVENT_TYPE_NAMES.map((name) => ({ name, description: EVENT_TYPES[name].description })),
  }),
  event: t.field({
    type: OutboundEventRef,
    authScopes: read,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => readEvent(ctx.db, tenantOf(ctx), String(id)),
  }),
}));

const EndpointStatusEnum = builder.enumType('WebhookEndpointStatus', {
  values: ['active', 'disabled'] as const,
});

builder.prismaObject('WebhookEndpoint', {
  description: 'Where a tenant’s events are pushed, signed (docs/webhooks.md).',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    description: t.exposeString('description', { nullable: true }),
    eventTypes: t.exposeStringList('eventTypes', { description: 'Empty: every type.' }),
    status: t.field({
      type: EndpointStatusEnum,
      resolve: (e) => e.status as 'active' | 'disabled',
    }),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: 'Why it is disabled: by its owner, or after 3 days of failed deliveries.',
    }),
    failingSince: t.expose('failingSince', {
      type: 'DateTime',
      nullable: true,
      description: 'Since when every attempt has failed; null once one succeeds.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

/** An endpoint with its signing secret: only in the answer that made the secret. */
const EndpointSecretRef = builder
  .objectRef<{ endpointId: string; secret: string; previousExpiresAt: Date | null }>(
    'WebhookEndpointSecret',
  )
  .implement({
    fields: (t) => ({
      endpoint: t.prismaField({
        type: 'WebhookEndpoint',
        resolve: (query, s, _args, ctx) =>
          ctx.db.webhookEndpoint.findUniqueOrThrow({
            ...query,
            where: { subBrandId_id: { subBrandId: tenantOf(ctx).subBrandId, id: s.endpointId } },
          }),
      }),
      secret: t.exposeString('secret', {
        description:
          'whsec_…: the signing secret, shown in this answer only. Keep it to verify deliveries.',
      }),
      previousSecretExpiresAt: t.expose('previousExpiresAt', {
        type: 'DateTime',
        nullable: true,
        description: 'After a rotation: until when the old secret also signs each delivery.',
      }),
    }),
  });

type AttemptShape = {
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
};
const AttemptRef = builder.objectRef<AttemptShape>('WebhookAttempt').implement({
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime' }),
    statusCode: t.exposeInt('statusCode', {
      nullable: true,
      description: 'Null: no answer (timeout, refused connection, refused address).',
    }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true, description: 'Null on a 2xx.' }),
  }),
});

type DeliveryShape = Awaited<ReturnType<typeof listDeliveries>>['deliveries'][number];
const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a delivery stands: pending, succeeded or failed.',
  values: ['pending', 'succeeded', 'failed'] as const,
});

const DeliveryRef = builder.objectRef<DeliveryShape>('WebhookDelivery').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId'),
    eventType: t.exposeString('eventType', { nullable: true }),
    status: t.field({
      type: DeliveryStatusEnum,
      resolve: (d) => d.status as 'pending' | 'succeeded' | 'failed',
    }),
    attempts: t.exposeInt('attempts'),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (d) => (d.status === 'pending' ? d.nextAttemptAt : null),
    }),
    replay: t.exposeBoolean('replay', { description: 'Asked for again (replay, redeliver).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    attemptLog: t.field({
      type: [AttemptRef],
      description: 'Its attempts, newest first (the last 10).',
      resolve: (d) => d.attemptList,
    }),
  }),
});

builder.queryFields((t) => ({
  webhookEndpoints: t.prismaField({
    type: ['WebhookEndpoint'],
    authScopes: manage,
    resolve: async (query, _root, _args, ctx) => {
      const rows = await listEndpoints(ctx.db, tenantOf(ctx));
      return ctx.db.webhookEndpoint.findMany({
        ...query,
        where: { ...tenantOf(ctx), id: { in: rows.map((r) => r.id) } },
        orderBy: { id: 'asc' },
      });
    },
  }),
  webhookEndpoint: t.prismaField({
    type: 'WebhookEndpoint',
    authScopes: manage,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const e = await getEndpoint(ctx.db, tenantOf(ctx), String(id));
      return ctx.db.webhookEndpoint.findUniqueOrThrow({
        ...query,
        where: { subBrandId_id: { subBrandId: tenantOf(ctx).subBrandId, id: e.id } },
      });
    },
  }),
  webhookDeliveries: t.connection(
    {
      type: DeliveryRef,
      authScopes: manage,
      description: 'An endpoint’s deliveries, newest first, each with its attempts.',
      args: { endpointId: t.arg.id({ required: true }) },
      resolve: async (_root, args, ctx) => {
        const endpointId = String(args.endpointId);
        const { deliveries, hasMore } = await listDeliveries(ctx.db, tenantOf(ctx), endpointId, {
          first: pageSize(args.first),
          after: args.after ?? null,
        });
        return withTotal(
          connectionOf(deliveries, (d) => d.id, hasMore, args.after),
          (take) => countDeliveries(ctx.db, tenantOf(ctx), endpointId, take),
        );
      },
    },
    { fields: (c) => ({ total: c.field(totalOf('deliveries')) }) },
  ),
}));

const CreateEndpointInput = builder.inputType('CreateWebhookEndpointInput', {
  fields: (t) => ({
    url: t.string({ required: true }),
    eventTypes: t.stringList(),
    description: t.string(),
  }),
});

const UpdateEndpointInput = builder.inputType('UpdateWebhookEndpointInput', {
  fields: (t) => ({
    url: t.string(),
    eventTypes: t.stringList(),
    description: t.string(),
    status: t.field({ type: EndpointStatusEnum }),
  }),
});

/** GraphQL's absent list is "not given": the domain's defaults apply. */
const given = <T extends Record<string, unknown>>(input: T) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

const ReplayRef = builder
  .objectRef<{ endpointId: string; deliveries: number }>('WebhookReplay')
  .implement({
    description: 'A window of events queued again to one endpoint.',
    fields: (t) => ({
      endpointId: t.exposeID('endpointId'),
      deliveries: t.exposeInt('deliveries', { description: 'Deliveries queued.' }),
    }),
  });

const RedeliveryRef = builder
  .objectRef<{ eventId: string; deliveries: number }>('EventRedelivery')
  .implement({
    description: 'One event queued again, to one endpoint or to every one that receives it.',
    fields: (t) => ({
      eventId: t.exposeID('eventId'),
      deliveries: t.exposeInt('deliveries', { description: 'Deliveries queued.' }),
    }),
  });

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    // The secret is kept (it signs every delivery), so a replayed answer reveals nothing new.
    extensions: effect('creates'),
    type: EndpointSecretRef,
    authScopes: manage,
    args: { input: t.arg({ type: CreateEndpointInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const e = await createEndpoint(ctx.db, tenantOf(ctx), {
        ...given(input),
        eventTypes: input.eventTypes ?? [],
      });
      return { endpointId: e.id, secret: e.secret, previousExpiresAt: null };
    },
  }),
  updateWebhookEndpoint: t.prismaField({
    extensions: effect('changes'),
    type: 'WebhookEndpoint',
    authScopes: manage,
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateEndpointInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, ctx) => {
      const e = await updateEndpoint(ctx.db, tenantOf(ctx), String(id), given(input));
      return ctx.db.webhookEndpoint.findUniqueOrThrow({
        ...query,
        where: { subBrandId_id: { subBrandId: tenantOf(ctx).subBrandId, id: e.id } },
      });
    },
  }),
  deleteWebhookEndpoint: t.id({
    extensions: effect('removes'),
    authScopes: manage,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) =>
      (await deleteEndpoint(ctx.db, tenantOf(ctx), String(id))).id,
  }),
  rotateWebhookEndpointSecret: t.field({
    // A second rotation is another secret: a retry must get the first one's answer.
    extensions: effect('creates'),
    type: EndpointSecretRef,
    authScopes: manage,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const e = await rotateSecret(ctx.db, tenantOf(ctx), String(id), ctx.now());
      return { endpointId: e.id, secret: e.secret, previousExpiresAt: e.previousExpiresAt };
    },
  }),
  replayWebhookEvents: t.field({
    extensions: effect('creates'),
    type: ReplayRef,
    authScopes: manage,
    args: {
      endpointId: t.arg.id({ required: true }),
      from: t.arg.string({ required: true }),
      to: t.arg.string({ required: true }),
    },
    resolve: (_root, { endpointId, from, to }, ctx) =>
      replayEvents(ctx.db, tenantOf(ctx), String(endpointId), { from, to }),
  }),
  redeliverEvent: t.field({
    extensions: effect('creates'),
    type: RedeliveryRef,
    authScopes: manage,
    args: { id: t.arg.id({ required: true }), endpointId: t.arg.id() },
    resolve: (_root, { id, endpointId }, ctx) =>
      redeliverEvent(
        ctx.db,
        tenantOf(ctx),
        String(id),
        endpointId == null ? null : String(endpointId),
      ),
  }),
}));

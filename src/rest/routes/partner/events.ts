// The event feed and redelivery (docs/webhooks.md).
import { z } from 'zod';
import { EVENT_TYPE_NAMES, EVENTS_API_VERSION } from '../../../domain/events/types.js';
import { connectionSelection, pageParams, toPage } from '../../pagination.js';
import { defineRoute } from '../../define-route.js';
import { fragment, wireRecord } from '../../wire-answer.js';
import { idOf } from './wire.js';

const REDELIVERY = fragment('Redelivery', 'EventRedelivery', 'eventId deliveries');

/**
 * The event as the feed and every delivery carry it. Its wire values: `type` is one of the known
 * names (GraphQL's enum names cannot hold their dots), `api_version` the one version, and `data`
 * an object, rendered as the partner API renders the resource.
 */
const EVENT = fragment(
  'Event',
  'OutboundEvent',
  'id type createdAt environment apiVersion data',
  [],
  {
    description: 'One effect: a coin movement, an order’s step, a prize….',
    values: {
      type: ({ schema, map }) => ({
        schema: z
          .enum(EVENT_TYPE_NAMES as [string, ...string[]])
          .describe(schema.description ?? ''),
        map,
      }),
      apiVersion: ({ schema, map }) => ({
        schema: z.literal(EVENTS_API_VERSION).describe(schema.description ?? ''),
        map,
      }),
      data: ({ map }) => ({
        schema: z
          .record(z.string(), z.unknown())
          .describe(
            'The resource as the partner API renders it (the webhooks section of this document gives each type’s).',
          ),
        map,
      }),
    },
  },
);
const event = wireRecord('partner', EVENT);
export const eventRecord = event.schema;

const eventId = idOf('The event’s `id` (from list_events or a delivery’s webhook-id).');

export const listEvents = defineRoute({
  name: 'list_events',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/events',
  scope: 'events:read',
  tag: 'Events',
  summary: 'Read the event feed',
  description:
    'Every effect of the key’s sub-brand and environment (coin movements, customers, orders and their steps, ' +
    'engine executions, campaign prizes, tournaments), OLDEST first. Follow page.next_cursor: the feed never ' +
    'skips an event that commits late and never repeats one. page.next_cursor is always set (the cursor sent, on ' +
    'an empty page): keep it and poll it for what is new; has_more false means nothing more for now. type: only these types, comma-separated. Events are kept 30 days.',
  hints: { readOnly: true, idempotent: true },
  query: z.strictObject({
    type: z
      .string()
      .max(2000)
      .optional()
      .describe(`Comma-separated event types, e.g. order.shipped,order.delivered.`),
    ...pageParams,
  }),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  response: eventRecord,
  errors: [],
  operation: `query ListEvents($types: [String!], $first: Int, $after: String) {
    events(types: $types, first: $first, after: $after) { ${connectionSelection(`${EVENT}`)} }
  } ${EVENT.definition}`,
  variables: ({ query }) => ({
    types: query.type
      ? query.type
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : null,
    first: query.limit,
    after: query.cursor ?? null,
  }),
  // A feed is polled: next_cursor is always where this page ended (the cursor sent, on an empty
  // page), so a reader keeps it and asks again later; has_more says whether to ask at once.
  result: (data, { input }) => {
    const page = toPage(data.events, event.map as (node: never) => unknown);
    const end = (data.events as { pageInfo: { endCursor: string | null } }).pageInfo.endCursor;
    return { ...page, page: { ...page.page, next_cursor: end ?? input.query.cursor ?? null } };
  },
});

export const getEvent = defineRoute({
  name: 'get_event',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/events/{id}',
  scope: 'events:read',
  tag: 'Events',
  summary: 'Get an event',
  description: 'One event, as its deliveries carry it.',
  hints: { readOnly: true, idempotent: true },
  mcp: false,
  params: eventId,
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query GetEvent($id: ID!) { event(id: $id) { ${EVENT} } } ${EVENT.definition}`,
  variables: ({ params }) => ({ id: params.id }),
});

export const redeliverEvent = defineRoute({
  name: 'redeliver_event',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/events/{id}/redeliver',
  scope: 'webhooks:manage',
  tag: 'Webhooks',
  summary: 'Send an event again',
  description:
    'Queues a new delivery of the event, with its own id as webhook-id, to one endpoint (endpoint_id) or to every ' +
    'active endpoint that receives its type.',
  hints: {},
  mcp: false,
  params: eventId,
  body: z.strictObject({
    endpoint_id: z.uuid().optional().describe('Only this endpoint (it must receive the type).'),
  }),
  idempotency: 'optional',
  successStatus: 200,
  errors: ['conflict'],
  operation: `mutation RedeliverEvent($id: ID!, $endpointId: ID) {
    redeliverEvent(id: $id, endpointId: $endpointId) { ${REDELIVERY} }
  } ${REDELIVERY.definition}`,
  variables: ({ params, body }) => ({ id: params.id, endpointId: body.endpoint_id ?? null }),
});

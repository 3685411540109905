// Webhook endpoints, their deliveries and replays (docs/webhooks.md). Only listing them is an MCP
// tool: secrets and replays are for people and programs.
import { z } from 'zod';
import { createEndpointInput, updateEndpointInput } from '../../../domain/events/endpoints.js';
import { camelKeys, snakeShape } from '../../casing.js';
import { connectionSelection, pageParams } from '../../pagination.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';
import { idOf } from './wire.js';

const WEBHOOK_ENDPOINT = fragment(
  'WebhookEndpoint',
  'WebhookEndpoint',
  'id url description eventTypes status disabledReason failingSince createdAt updatedAt',
);

/** The secret is shown once, beside the endpoint's fields (the partner document's answer). */
const WITH_SECRET = fragment(
  'WebhookEndpointWithSecret',
  'WebhookEndpointSecret',
  `endpoint { ${WEBHOOK_ENDPOINT} } secret previousSecretExpiresAt`,
  [WEBHOOK_ENDPOINT],
  { spread: ['endpoint'] },
);

const REPLAY = fragment('WebhookReplay', 'WebhookReplay', 'endpointId deliveries');

const endpointId = idOf(
  'The endpoint’s `id` (from create_webhook_endpoint or list_webhook_endpoints).',
);
const tag = 'Webhooks';
const scope = 'webhooks:manage';

export const createWebhookEndpoint = defineRoute({
  name: 'create_webhook_endpoint',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/webhook-endpoints',
  scope,
  tag,
  summary: 'Add a webhook endpoint',
  description:
    'Events of the key’s sub-brand and environment are POSTed to url, signed as the Standard Webhooks ' +
    'specification says (webhook-id, webhook-timestamp, webhook-signature), at least once, retried for 3 days. ' +
    'event_types: the types it receives (empty: all). Live endpoints must be https on a public address; test ' +
    'ones may also be http on loopback. Answers the signing secret once. At most 16 per environment.',
  hints: {},
  mcp: false,
  body: z.strictObject(snakeShape(createEndpointInput.shape)),
  idempotency: 'optional',
  successStatus: 201,
  errors: ['conflict'],
  operation: `mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) { ${WITH_SECRET} }
  } ${WITH_SECRET.definition}`,
  variables: ({ body }) => ({ input: camelKeys(body) }),
});

export const listWebhookEndpoints = defineRoute({
  name: 'list_webhook_endpoints',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/webhook-endpoints',
  scope,
  tag,
  summary: 'List webhook endpoints',
  description:
    'The sub-brand’s endpoints in this environment (at most 16), oldest first, with their status and, when ' +
    'disabled, why. Never their secrets.',
  hints: { readOnly: true, idempotent: true },
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query ListWebhookEndpoints { webhookEndpoints { ${WEBHOOK_ENDPOINT} } }
  ${WEBHOOK_ENDPOINT.definition}`,
  variables: () => ({}),
});

export const getWebhookEndpoint = defineRoute({
  name: 'get_webhook_endpoint',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/webhook-endpoints/{id}',
  scope,
  tag,
  summary: 'Get a webhook endpoint',
  description: 'One endpoint: its URL, types, status and why it is disabled. Never its secret.',
  hints: { readOnly: true, idempotent: true },
  mcp: false,
  params: endpointId,
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query GetWebhookEndpoint($id: ID!) { webhookEndpoint(id: $id) { ${WEBHOOK_ENDPOINT} } }
  ${WEBHOOK_ENDPOINT.definition}`,
  variables: ({ params }) => ({ id: params.id }),
});

export const updateWebhookEndpoint = defineRoute({
  name: 'update_webhook_endpoint',
  family: 'partner',
  method: 'PATCH',
  path: '/api/v1/webhook-endpoints/{id}',
  scope,
  tag,
  summary: 'Change a webhook endpoint',
  description:
    'Changes the fields sent. status: disabled stops deliveries (they wait); active resumes them and forgets a ' +
    'failing streak.',
  hints: { idempotent: true },
  mcp: false,
  params: endpointId,
  body: z.strictObject(snakeShape(updateEndpointInput.shape)),
  idempotency: 'optional',
  successStatus: 200,
  errors: [],
  operation: `mutation UpdateWebhookEndpoint($id: ID!, $input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(id: $id, input: $input) { ${WEBHOOK_ENDPOINT} }
  }
  ${WEBHOOK_ENDPOINT.definition}`,
  variables: ({ params, body }) => ({ id: params.id, input: camelKeys(body) }),
});

export const deleteWebhookEndpoint = defineRoute({
  name: 'delete_webhook_endpoint',
  family: 'partner',
  method: 'DELETE',
  path: '/api/v1/webhook-endpoints/{id}',
  scope,
  tag,
  summary: 'Delete a webhook endpoint',
  description: 'Deletes the endpoint and its delivery history; events stay in the feed.',
  hints: { destructive: true, idempotent: true },
  mcp: false,
  params: endpointId,
  idempotency: 'none',
  successStatus: 200,
  response: z
    .object({ id: z.uuid(), deleted: z.literal(true) })
    .meta({ id: 'DeletedWebhookEndpoint' }),
  errors: [],
  operation: 'mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }',
  variables: ({ params }) => ({ id: params.id }),
  result: (data) => ({ data: { id: data.deleteWebhookEndpoint, deleted: true } }),
});

export const rotateWebhookSecret = defineRoute({
  name: 'rotate_webhook_endpoint_secret',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/webhook-endpoints/{id}/rotate-secret',
  scope,
  tag,
  summary: 'Rotate an endpoint’s secret',
  description:
    'Answers a new signing secret, once. For 24 hours every delivery is signed with both (two v1 signatures in ' +
    'webhook-signature), so receivers can switch without missing one.',
  hints: {},
  mcp: false,
  params: endpointId,
  idempotency: 'optional',
  successStatus: 200,
  errors: [],
  operation: `mutation RotateWebhookSecret($id: ID!) {
    rotateWebhookEndpointSecret(id: $id) { ${WITH_SECRET} }
  } ${WITH_SECRET.definition}`,
  variables: ({ params }) => ({ id: params.id }),
});

const DELIVERY_SELECTION =
  'id eventId eventType status attempts nextAttemptAt replay createdAt attemptLog { at statusCode durationMs error }';

export const listWebhookDeliveries = defineRoute({
  name: 'list_webhook_deliveries',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/webhook-endpoints/{id}/deliveries',
  scope,
  tag,
  summary: 'An endpoint’s deliveries',
  description:
    'Newest first: each delivery’s event, status (pending, succeeded, failed), attempts and next attempt, and its ' +
    'last 10 attempts (time, HTTP status, duration, error). Cursor-paginated.',
  hints: { readOnly: true, idempotent: true },
  mcp: false,
  params: endpointId,
  query: z.strictObject(pageParams),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  errors: [],
  operation: `query ListWebhookDeliveries($id: ID!, $first: Int, $after: String) {
    webhookDeliveries(endpointId: $id, first: $first, after: $after) {
      ${connectionSelection('...WebhookDelivery')}
    }
  }
  fragment WebhookDelivery on WebhookDelivery { ${DELIVERY_SELECTION} }`,
  variables: ({ params, query }) => ({
    id: params.id,
    first: query.limit,
    after: query.cursor ?? null,
  }),
});

export const replayWebhookEvents = defineRoute({
  name: 'replay_webhook_events',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/webhook-endpoints/{id}/replay',
  scope,
  tag,
  summary: 'Send a window of events again',
  description:
    'Queues a new delivery to this endpoint of every event created in [from, to) that it receives (its types), ' +
    'each with the event’s own id as webhook-id. At most 10,000 events per call: split a larger window.',
  hints: {},
  mcp: false,
  params: endpointId,
  body: z.strictObject({
    from: z.iso.datetime().describe('Events created at or after this instant (RFC 3339, UTC).'),
    to: z.iso.datetime().describe('…and before this one.'),
  }),
  idempotency: 'optional',
  successStatus: 200,
  errors: [],
  operation: `mutation ReplayWebhookEvents($id: ID!, $from: String!, $to: String!) {
    replayWebhookEvents(endpointId: $id, from: $from, to: $to) { ${REPLAY} }
  } ${REPLAY.definition}`,
  variables: ({ params, body }) => ({ id: params.id, from: body.from, to: body.to }),
});

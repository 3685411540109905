import { z } from 'zod';
import { auditStoredReplay } from '../../../engine/points/audit-replay.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';

/** Events are limited to 16 KB, body fields included (spec: Limits). */
const EVENT_BYTES = 16 * 1024;

const ENGINE_EVENT_RESULT = fragment(
  'EngineEventResult',
  'EngineEventResult',
  'eventId status replayed correlationId customerId pointsRequested pointsApplied balanceBefore balanceAfter errorCode errorMessage',
);

const ENGINE_ERRORS = [
  'not_found',
  'override_not_allowed',
  'invalid_points',
  'missing_idempotency_key',
  'idempotency_conflict',
] as const;

export const ingestEvent = defineRoute({
  name: 'ingest_engine_event',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/engine/events',
  scope: 'engine:events',
  tag: 'Engine',
  summary: 'Deliver a gameplay event',
  description:
    "Turns an event into coins under its definition's rules, exactly once per Idempotency-Key (the event's " +
    "business id). data holds the definition's player-id field (default externalUserId) with the customer's " +
    'external_id. Answers 200 with status completed, skipped or failed: check it. points_override only where the ' +
    'definition opts in. Body at most 16 KB.',
  hints: { movesCoins: true, idempotent: true },
  body: z.strictObject({
    event_code: z.string().min(1).max(64).describe('The code of an active event definition.'),
    data: z.record(z.string(), z.unknown()).describe("The event's data, with the player-id field."),
    correlation_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe('Echoed back; generated when omitted.'),
    points_override: z
      .number()
      .optional()
      // Stated as the rule it is; a fraction or a value out of range is refused by the engine
      // as 400 invalid_points (the spec's code), not by this schema.
      .meta({
        type: 'integer',
        minimum: -1_000_000,
        maximum: 1_000_000,
        description: 'Whole coins within ±1,000,000; only where the definition opts in.',
      }),
  }),
  idempotency: 'required',
  transaction: 'self',
  maxBodyBytes: EVENT_BYTES,
  successStatus: 200,
  errors: [...ENGINE_ERRORS],
  operation: `mutation IngestEvent($input: DeliverEngineEventInput!, $key: String!) {
    deliverEngineEvent(input: $input, idempotencyKey: $key) { ${ENGINE_EVENT_RESULT} }
  }
  ${ENGINE_EVENT_RESULT.definition}`,
  // Built by hand: `data` is the partner's own JSON and keeps its keys as sent.
  variables: ({ body }, { idempotencyKey }) => ({
    input: {
      eventCode: body.event_code,
      data: body.data,
      pointsOverride: body.points_override,
      correlationId: body.correlation_id,
    },
    key: idempotencyKey,
  }),
  onStoredReplay: (prisma, principal, replay) =>
    auditStoredReplay(
      prisma,
      { subBrandId: principal.subBrandId, environment: principal.environment },
      replay,
    ),
});

export const ingestWebhook = defineRoute({
  name: 'ingest_engine_webhook',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/engine/webhooks/{code}',
  scope: 'engine:events',
  tag: 'Engine',
  summary: 'Deliver a provider webhook',
  description:
    'The same pipeline for a raw webhook payload: {code} selects the definition, the payload is the event data. ' +
    "The idempotency key comes from the payload's field named by the definition (default event_id, then id), " +
    'or else from an Idempotency-Key header; with neither, 400 missing_idempotency_key. ' +
    'A repeat answers the frozen result with replayed: true. Body at most 16 KB.',
  hints: {},
  params: z.strictObject({
    code: z.string().min(1).max(64).describe('The event definition code.'),
  }),
  body: z.record(z.string(), z.unknown()),
  headers: [
    {
      name: 'Idempotency-Key',
      description:
        "Used only when the payload has no idempotency field (the definition's, else event_id, then id).",
      pattern: '^[\\x20-\\x7E]{1,64}$',
    },
  ],
  idempotency: 'none',
  maxBodyBytes: EVENT_BYTES,
  successStatus: 200,
  errors: [...ENGINE_ERRORS],
  operation: `mutation IngestWebhook($code: String!, $payload: JSON!, $key: String) {
    deliverEngineWebhook(code: $code, payload: $payload, idempotencyKey: $key) { ${ENGINE_EVENT_RESULT} }
  }
  ${ENGINE_EVENT_RESULT.definition}`,
  variables: ({ params, body }, { idempotencyHeader }) => ({
    code: params.code,
    payload: body,
    key: idempotencyHeader,
  }),
});

export const listEventDefinitions = defineRoute({
  name: 'list_event_definitions',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/engine/definitions',
  scope: 'engine:events',
  tag: 'Engine',
  summary: 'List the active event definitions',
  description:
    'The event codes your sub-brand accepts, with their points, player-id field, limits and verticals: what ' +
    'ingest_engine_event needs. Definitions are authored by the operator; inactive ones are not listed.',
  hints: { readOnly: true, idempotent: true },
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query ActiveEventDefinitions { activeEventDefinitions { ...EventDefinition } }
    fragment EventDefinition on ActiveEventDefinition {
      code points playerIdField idempotencyKeyField allowPointsOverride constraints version verticals
    }`,
  variables: () => ({}),
});

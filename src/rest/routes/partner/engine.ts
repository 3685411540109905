import { z } from 'zod';
import { PRODUCT_VERTICALS } from '../../../domain/jurisdiction/rules.js';
import { auditStoredReplay } from '../../../engine/points/audit-replay.js';
import { snakeKeys } from '../../casing.js';
import { defineRoute } from '../../define-route.js';

/** Events are limited to 16 KB, body fields included (spec: Limits). */
const EVENT_BYTES = 16 * 1024;

const RESULT_SELECTION =
  'eventId status replayed correlationId customerId pointsRequested pointsApplied balanceBefore balanceAfter errorCode errorMessage';

const engineEventResult = z
  .object({
    event_id: z.uuid().describe('The execution id.'),
    status: z
      .enum(['completed', 'skipped', 'failed'])
      .describe('Check it: a delivery that passed pre-flight always answers 200.'),
    replayed: z
      .boolean()
      .describe(
        'Webhooks: true when the key was already executed (the frozen result). Events: always false; a replay is ' +
          'the original body with the idempotent-replay: true header.',
      ),
    correlation_id: z.string(),
    customer_id: z.uuid().nullable(),
    points_requested: z.number().int(),
    points_applied: z.number().int(),
    balance_before: z.number().int(),
    balance_after: z.number().int(),
    error_code: z
      .enum([
        'outside_active_window',
        'max_daily_reached',
        'cooldown_active',
        'invalid_constraints',
        'player_id_missing',
        'player_not_found',
        'insufficient_balance',
        'rg_blocked',
      ])
      .nullable(),
    error_message: z.string().nullable(),
  })
  .meta({
    id: 'EngineEventResult',
    description:
      'What the engine did with one event: its status, the points applied and the balances.',
  });

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
  response: engineEventResult,
  errors: [...ENGINE_ERRORS],
  operation: `mutation IngestEvent($input: DeliverEngineEventInput!, $key: String!) {
    deliverEngineEvent(input: $input, idempotencyKey: $key) { ${RESULT_SELECTION} }
  }`,
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
  result: (data) => ({ data: snakeKeys(data.deliverEngineEvent) }),
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
  response: engineEventResult,
  errors: [...ENGINE_ERRORS],
  operation: `mutation IngestWebhook($code: String!, $payload: JSON!, $key: String) {
    deliverEngineWebhook(code: $code, payload: $payload, idempotencyKey: $key) { ${RESULT_SELECTION} }
  }`,
  variables: ({ params, body }, { idempotencyHeader }) => ({
    code: params.code,
    payload: body,
    key: idempotencyHeader,
  }),
  result: (data) => ({ data: snakeKeys(data.deliverEngineWebhook) }),
});

const activeDefinition = z
  .object({
    code: z.string().describe('The event_code to send to ingest_engine_event.'),
    points: z.number().int().describe('Coins granted (negative: removed) per completed event.'),
    player_id_field: z
      .string()
      .describe("The field of the event's data holding the player's external_id."),
    idempotency_key_field: z
      .string()
      .nullable()
      .describe('Webhooks: the payload field used as idempotency key (null: event_id, then id).'),
    allow_points_override: z.boolean(),
    constraints: z
      .record(z.string(), z.unknown())
      .describe('starts_at, ends_at, max_daily_per_player, cooldown_seconds, as set.'),
    version: z.number().int(),
    verticals: z
      .array(z.enum(PRODUCT_VERTICALS))
      .describe('The product verticals the event stands for (UKGC sub-brands: at most one).'),
  })
  .meta({
    id: 'EventDefinition',
    description: 'An active event definition: the event code to send and its rules.',
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
  response: z.array(activeDefinition),
  errors: [],
  operation: `query ActiveEventDefinitions { activeEventDefinitions {
    code points playerIdField idempotencyKeyField allowPointsOverride constraints version verticals } }`,
  variables: () => ({}),
  result: (data) => ({ data: snakeKeys(data.activeEventDefinitions, new Set(['constraints'])) }),
});

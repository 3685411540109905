// The partner API under /api/v1 (spec/partner-api-v1.md): snake_case, `{ data, page? }` bodies,
// cursor pages, `{ error: { code, message, request_id } }`, unknown fields refused.
import { ERROR_CODES, type AppError } from '../../domain/errors.js';
import { FIELD_ISSUE_SCHEMA } from './field-issue.js';
import { DEFAULT_LIMITS, WINDOW_SECONDS } from '../../http/rate-limit.js';
import { httpStatus } from '../../http/status.js';
import type { Family } from './family.js';
import { eventWebhooks } from '../routes/partner/event-data.js';

export const partnerErrorBody = (error: AppError, requestId: string) => ({
  error: {
    code: error.code,
    message: error.message,
    request_id: requestId,
    // Additive to the documented envelope: the same problems, one per field, for programs.
    ...(error.issues.length ? { details: error.issues } : {}),
  },
});

export const partner: Family = {
  name: 'partner',
  prefix: '/api/v1',
  unknownFields: 'refuse',
  status: (error) => httpStatus(error),
  errorBody: partnerErrorBody,
  openapi: {
    title: 'Partner Rewards API',
    description: [
      'Coins, prizes and orders for casino and betting operators. JSON with snake_case fields;',
      'dates are ISO-8601 UTC; money is integer minor units with a `currency`; ids are UUIDv7.',
      '',
      '**Authentication**: `Authorization: Bearer svc_live_…` or `svc_test_…`. Test keys never see live data.',
      `**Rate limits**: per key, ${DEFAULT_LIMITS.read} reads (GET) and ${DEFAULT_LIMITS.write} writes (other methods) per ${WINDOW_SECONDS} s by default.`,
      '**Errors**: `{ "error": { "code", "message", "request_id" } }`; only `internal_error` is worth retrying unchanged.',
      '**Pagination**: pass `page.next_cursor` as `cursor` until `page.has_more` is false.',
      '',
      'Integration guide: [/api/v1/guide](/api/v1/guide). The establishment API: [/openapi/establishment.json](/openapi/establishment.json).',
    ].join('\n'),
    successSchema: (route, data) =>
      route.paginated
        ? {
            type: 'object',
            required: ['data', 'page'],
            properties: {
              data: { type: 'array', items: data },
              page: { $ref: '#/components/schemas/Page' },
            },
          }
        : { type: 'object', required: ['data'], properties: { data } },
    // The envelope around the shared error object, narrowed to this answer's codes inside the
    // object itself: a narrowing beside the envelope (`allOf` + `properties.error`) leaves the
    // object's other members unevaluated, and strict validators (Redocly's example check) refuse
    // every error example for it.
    errorSchema: (_route, _status, codes) => ({
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          allOf: [{ $ref: '#/components/schemas/Error' }],
          properties: { code: { enum: codes } },
        },
      },
    }),
    webhooks: eventWebhooks,
    components: {
      Error: {
        type: 'object',
        required: ['code', 'message', 'request_id'],
        properties: {
          code: { type: 'string', enum: Object.keys(ERROR_CODES) },
          message: {
            type: 'string',
            description: 'For people: says what was wrong and, for bad input, which field.',
          },
          request_id: {
            type: 'string',
            description: 'Ours (req_<32 hex>), or a well-formed X-Request-Id the client sent.',
            pattern: '^[A-Za-z0-9._:-]{8,128}$',
          },
          details: {
            type: 'array',
            description:
              'On `invalid_request`: each bad field, the rule it broke, and the same words as the message.',
            items: { $ref: '#/components/schemas/FieldIssue' },
          },
        },
      },
      FieldIssue: FIELD_ISSUE_SCHEMA,
      Page: {
        type: 'object',
        required: ['has_more', 'next_cursor'],
        properties: {
          has_more: { type: 'boolean', description: 'False on the last page.' },
          next_cursor: {
            type: ['string', 'null'],
            description: 'Pass as `cursor` for the next page; null on the last.',
          },
        },
      },
    },
  },
};

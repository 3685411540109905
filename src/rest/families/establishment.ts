// The establishment API at the root (spec/establishment-api.md): camelCase, bare bodies,
// page/limit/total pages, unknown fields ignored, and its error shapes:
// - `{ error, message, code, details?, requestId }` by default (the document's variant shape,
//   with `requestId` added), `details[]` naming each bad field;
// - a field map `{ field: [messages] }` with 422 on routes that document it;
// - `{ message }` on the statuses a route documents with that body.
// A refusal of record state is 400 here (409 on the partner API), a malformed id 400 (404 there).
import { FIELD_ISSUE_SCHEMA } from './field-issue.js';
import { STATUS_CODES } from 'node:http';
import { ERROR_CODES, type AppError, type ErrorCode } from '../../domain/errors.js';
import { DEFAULT_LIMITS, WINDOW_SECONDS } from '../../http/rate-limit.js';
import { HTTP_STATUS } from '../../http/status.js';
import type { Route } from '../route.js';
import type { Family } from './family.js';

/** Not-found codes and nouns by the domain's resource name; others are RESOURCE_NOT_FOUND. */
const NOT_FOUND: Record<string, { code: string; noun: string }> = {
  Customer: { code: 'PLAYER_NOT_FOUND', noun: 'Player' },
  'Sub-brand': { code: 'ESTABLISHMENT_NOT_FOUND', noun: 'Establishment' },
  Product: { code: 'PRODUCT_NOT_FOUND', noun: 'Product' },
  Campaign: { code: 'CAMPAIGN_NOT_FOUND', noun: 'Campaign' },
};

/** The document's codes; the others are the domain code in upper case (INSUFFICIENT_BALANCE). */
export function establishmentCode(code: ErrorCode, resource?: string): string {
  if (code === 'not_found') return NOT_FOUND[resource ?? '']?.code ?? 'RESOURCE_NOT_FOUND';
  if (code === 'invalid_request') return 'VALIDATION_ERROR';
  if (code === 'internal_error') return 'INTERNAL_SERVER_ERROR';
  if (ERROR_CODES[code] === 'invalid') return 'INVALID_PARAMETERS';
  return code.toUpperCase();
}

/** The one code table, for the OpenAPI document: every domain code as this wire names it. */
export const ESTABLISHMENT_CODES = [
  'VALIDATION_ERROR',
  'INVALID_PARAMETERS',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'PLAYER_NOT_FOUND',
  'ESTABLISHMENT_NOT_FOUND',
  'PRODUCT_NOT_FOUND',
  'CAMPAIGN_NOT_FOUND',
  'RESOURCE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'IDEMPOTENCY_CONFLICT',
  'IDEMPOTENCY_IN_PROGRESS',
  'INSUFFICIENT_BALANCE',
  'OUT_OF_STOCK',
  'CUSTOMER_NOT_ELIGIBLE',
  'INVALID_TRANSITION',
  'ORDER_NOT_CANCELLABLE',
  'ORDER_NOT_EDITABLE',
  'BILLING_BLOCKED',
  'DUPLICATE_RESERVATION',
  'PRODUCT_UNAVAILABLE',
  'AWARD_ALREADY_CLAIMED',
  'AWARD_EXPIRED',
  'BUDGET_EXHAUSTED',
  'NO_GAME_CREDITS',
  'RG_BLOCKED',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_SERVER_ERROR',
  'SERVICE_UNAVAILABLE',
];

const fieldMapped = (error: AppError, route?: Route) =>
  error.code === 'invalid_request' && route?.wire?.validation === 'field-map-422';

const unavailable = (error: AppError, route?: Route) =>
  route?.wire?.unavailable?.includes(error.code) ?? false;

function status(error: AppError, route?: Route): number {
  if (fieldMapped(error, route)) return 422;
  if (unavailable(error, route)) return 409;
  return error.kind === 'state' ? 400 : HTTP_STATUS[error.kind];
}

function message(error: AppError): string {
  const found = error.code === 'not_found' && NOT_FOUND[error.resource ?? ''];
  return found ? `${found.noun} not found.` : error.message;
}

export const establishment: Family = {
  name: 'establishment',
  prefix: '',
  unknownFields: 'ignore',
  status,
  errorBody(error, requestId, route) {
    if (fieldMapped(error, route)) {
      const map: Record<string, string[]> = {};
      for (const issue of error.issues) (map[issue.field || 'body'] ??= []).push(issue.message);
      return map;
    }
    const code = status(error, route);
    if (route?.wire?.messageBody?.includes(code)) return { message: message(error) };
    return {
      error: STATUS_CODES[code] ?? 'Error',
      message: message(error),
      code: unavailable(error, route)
        ? 'PRODUCT_UNAVAILABLE'
        : establishmentCode(error.code, error.resource),
      ...(error.issues.length ? { details: error.issues } : {}),
      requestId,
    };
  },
  openapi: {
    title: 'Partner Rewards establishment API',
    description: [
      "An establishment's view of the platform: its profile and branding, its players (the partner API's",
      'customers, the same rows and wallets), their coins, their orders (the partner order book, seen as',
      'reservation, acquisition and cancellation records), and the marketplace login. JSON with camelCase',
      'fields; dates are ISO-8601 UTC; ids are UUIDv7.',
      '',
      '**Authentication**: `Authorization: Bearer svc_live_…` or `svc_test_…` (the same keys as the partner API).',
      `**Rate limits**: per key, ${DEFAULT_LIMITS.read} reads and ${DEFAULT_LIMITS.write} writes per ${WINDOW_SECONDS} s by default; a search sent as POST is a read.`,
      '**Errors**: `{ "error", "message", "code", "details"?, "requestId" }`; some routes document `{ "message" }` or a 422 field map instead.',
      '**Idempotency**: writes accept an optional `Idempotency-Key`; a retry with the same key replays the first answer.',
      '**Pagination**: `page` (from 1) and `limit`; answers carry `total` and `hasMore`.',
      '**Unknown fields**: ignored in bodies (the document re-sends whole objects); an unknown query parameter is refused on every route (400 naming it).',
      '**Where this differs from the establishment document**, kept on purpose: a new product needs `translations` (its name), an import needs neither `stock` nor `translations`; `POST /exclusive` needs `productId` beside `days`; the send answer carries `deliveryDetailsCapturedAt` and, deprecated, its earlier name `deliveryCapturedAt`.',
      '',
      'The partner API: [/openapi.json](/openapi.json).',
    ].join('\n'),
    successSchema: (_route, response) => response,
    errorSchema: (route, status, codes) => {
      if (status === 422 && route.wire?.validation === 'field-map-422') {
        return { $ref: '#/components/schemas/FieldErrors' };
      }
      if (route.wire?.messageBody?.includes(status))
        return { $ref: '#/components/schemas/Message' };
      const wireCodes = [
        ...new Set(
          codes.flatMap((c) =>
            c === 'not_found'
              ? [...Object.values(NOT_FOUND).map((n) => n.code), 'RESOURCE_NOT_FOUND']
              : route.wire?.unavailable?.includes(c as ErrorCode)
                ? ['PRODUCT_UNAVAILABLE']
                : [establishmentCode(c as ErrorCode)],
          ),
        ),
      ];
      return {
        allOf: [{ $ref: '#/components/schemas/Error' }],
        properties: { code: { enum: wireCodes } },
      };
    },
    components: {
      Error: {
        type: 'object',
        required: ['error', 'message', 'code', 'requestId'],
        properties: {
          error: { type: 'string', description: 'The HTTP reason phrase, e.g. `Not Found`.' },
          message: { type: 'string', description: 'For people: what was wrong.' },
          code: { type: 'string', enum: ESTABLISHMENT_CODES },
          details: {
            type: 'array',
            description: 'One entry per bad field.',
            items: { $ref: '#/components/schemas/FieldIssue' },
          },
          requestId: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
      },
      FieldIssue: FIELD_ISSUE_SCHEMA,
      FieldErrors: {
        type: 'object',
        description: 'Each bad field with its messages.',
        additionalProperties: { type: 'array', items: { type: 'string' } },
      },
      Message: {
        type: 'object',
        required: ['message'],
        properties: { message: { type: 'string' } },
      },
    },
  },
};

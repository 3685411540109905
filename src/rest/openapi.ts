// /openapi.json, derived from the route table: every route with its parameters, body, responses,
// scope and error codes. Schemas come from the same zod schemas that validate requests.
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../domain/errors.js';
import { DEFAULT_LIMITS, WINDOW_SECONDS } from '../http/rate-limit.js';
import type { Route } from './route.js';

export const CONTRACT_VERSION = '1.16.0';

const TAG_DESCRIPTIONS: Record<string, string> = {
  System: 'Key checks and service health.',
  Customers: 'Players mirrored from the partner platform.',
  Wallet: 'Virtual-coin balances and their movement log.',
  Catalog: 'Products, stores, catalogs, categories and brands visible to the key.',
  Orders: 'Prize reservations, their life cycle and shipping.',
  Engine: 'Gameplay events turned into coin grants under rules, exactly once.',
  Test: 'Routes used by the test suite only.',
};

type JsonSchema = Record<string, unknown>;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a zod schema, without the `$schema` line. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  });
  return rest;
}

/** Every error code a route can answer with: its own plus those its shape implies. */
export function errorCodesOf(route: Route): ErrorCode[] {
  const codes = new Set<ErrorCode>([
    'unauthorized',
    'forbidden',
    'rate_limited',
    'internal_error',
    ...route.errors,
  ]);
  if (route.params || route.query || route.body) codes.add('invalid_request');
  if (route.body)
    ['invalid_json', 'payload_too_large', 'unsupported_media_type'].forEach((c) =>
      codes.add(c as ErrorCode),
    );
  if (route.idempotency !== 'none') {
    ['invalid_idempotency_key', 'idempotency_conflict', 'idempotency_in_progress'].forEach((c) =>
      codes.add(c as ErrorCode),
    );
    if (route.idempotency === 'required') codes.add('missing_idempotency_key');
  }
  if (route.params) codes.add('not_found');
  return [...codes].sort();
}

const rateHeaders = {
  'x-request-id': { $ref: '#/components/headers/RequestId' },
  'x-ratelimit-limit': { $ref: '#/components/headers/RateLimitLimit' },
  'x-ratelimit-remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'x-ratelimit-reset': { $ref: '#/components/headers/RateLimitReset' },
};

function parameters(route: Route): unknown[] {
  const out: unknown[] = [];
  const add = (where: 'path' | 'query', schema: z.ZodObject<z.ZodRawShape> | undefined) => {
    if (!schema) return;
    const json = jsonSchema(schema, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...propertySchema } = property;
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: propertySchema,
      });
    }
  };
  add('path', route.params);
  add('query', route.query);
  if (route.idempotency !== 'none') {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: route.idempotency === 'required',
      description:
        'A key of 1-64 printable ASCII characters identifying this request. Retrying with the same key ' +
        'and body within 24 hours replays the first answer (header `idempotent-replay: true`); the same ' +
        'key with another body is 409 `idempotency_conflict`.',
      schema: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[\\x20-\\x7E]{1,64}$' },
    });
  }
  return out;
}

function responses(route: Route): Record<string, unknown> {
  const data = jsonSchema(route.response, 'output');
  const success = route.paginated
    ? {
        type: 'object',
        required: ['data', 'page'],
        properties: {
          data: { type: 'array', items: data },
          page: { $ref: '#/components/schemas/Page' },
        },
      }
    : { type: 'object', required: ['data'], properties: { data } };
  const out: Record<string, unknown> = {
    [route.successStatus]: {
      description: route.successStatus === 201 ? 'Created.' : 'Success.',
      headers:
        route.idempotency === 'none'
          ? rateHeaders
          : {
              ...rateHeaders,
              'idempotent-replay': { $ref: '#/components/headers/IdempotentReplay' },
            },
      content: { 'application/json': { schema: success } },
    },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[status] = {
      description: `Error: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
      headers:
        status === 429
          ? { ...rateHeaders, 'retry-after': { $ref: '#/components/headers/RetryAfter' } }
          : rateHeaders,
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }],
            properties: { error: { type: 'object', properties: { code: { enum: codes } } } },
          },
        },
      },
    };
  }
  return out;
}

function operation(route: Route): Record<string, unknown> {
  return {
    operationId: route.name,
    summary: route.summary,
    description: `${route.description}\n\nScope: \`${route.scope}\`.`,
    tags: [route.tag],
    security: [{ bearerAuth: [route.scope] }],
    'x-scope': route.scope,
    'x-hints': route.hints,
    parameters: parameters(route),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }
      : {}),
    responses: responses(route),
  };
}

export function buildOpenApi(
  routes: Route[],
  serverUrl: string | undefined,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner Rewards API',
      version: CONTRACT_VERSION,
      description: [
        'Coins, prizes and orders for casino and betting operators. JSON with snake_case fields;',
        'dates are ISO-8601 UTC; money is integer minor units with a `currency`; ids are UUIDv7.',
        '',
        '**Authentication**: `Authorization: Bearer svc_live_…` or `svc_test_…`. Test keys never see live data.',
        `**Rate limits**: per key, ${DEFAULT_LIMITS.read} reads (GET) and ${DEFAULT_LIMITS.write} writes (other methods) per ${WINDOW_SECONDS} s by default.`,
        '**Errors**: `{ "error": { "code", "message", "request_id" } }`; only `internal_error` is worth retrying unchanged.',
        '**Pagination**: pass `page.next_cursor` as `cursor` until `page.has_more` is false.',
        '',
        'Integration guide: [/api/v1/guide](/api/v1/guide).',
      ].join('\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: serverUrl ?? '/',
        description: serverUrl ? 'This server' : 'The server that served this document',
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({
      name,
      description: TAG_DESCRIPTIONS[name] ?? name,
    })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_live_<32 hex> | svc_test_<32 hex>',
        },
      },
      schemas: {
        ErrorEnvelope: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'request_id'],
              properties: {
                code: { type: 'string', enum: Object.keys(ERROR_CODES) },
                message: {
                  type: 'string',
                  description: 'For people: says what was wrong and, for bad input, which field.',
                },
                request_id: { type: 'string', pattern: '^req_[0-9a-f]{32}$' },
              },
            },
          },
        },
        ...(routes.some((r) => r.paginated) ? { Page: PAGE_SCHEMA } : {}),
      },
      headers: {
        RequestId: header('Identifies the request in logs and support (`req_<32 hex>`).', 'string'),
        RateLimitLimit: header("The key's cap per minute for this bucket (reads or writes)."),
        RateLimitRemaining: header('Requests left in the current window.'),
        RateLimitReset: header('Unix time (seconds) when the window resets.'),
        RetryAfter: header('Seconds to wait before retrying.'),
        ...(routes.some((r) => r.idempotency !== 'none')
          ? { IdempotentReplay: IDEMPOTENT_REPLAY_HEADER }
          : {}),
      },
    },
  };
}

const header = (description: string, type: 'integer' | 'string' = 'integer') => ({
  description,
  schema: { type },
});

const PAGE_SCHEMA = {
  type: 'object',
  required: ['has_more', 'next_cursor'],
  properties: {
    has_more: { type: 'boolean', description: 'False on the last page.' },
    next_cursor: {
      type: ['string', 'null'],
      description: 'Pass as `cursor` for the next page; null on the last.',
    },
  },
};

const IDEMPOTENT_REPLAY_HEADER = {
  description:
    '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
  schema: { type: 'string', enum: ['true'] },
};

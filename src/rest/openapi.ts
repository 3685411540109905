// One OpenAPI document per API family (/openapi.json for the partner API,
// /openapi/establishment.json), derived from the route table: every route with its parameters,
// body, responses, scope and error codes. Schemas come from the same zod schemas that validate
// requests; bodies and statuses around them come from the family.
import { z } from 'zod';
import { AppError, type ErrorCode } from '../domain/errors.js';
import type { Family } from './families/index.js';
import { exampleOf, REQUEST_EXAMPLES } from './openapi-examples.js';
import type { Route } from './route.js';

export const CONTRACT_VERSION = '1.20.3';

const TAG_DESCRIPTIONS: Record<string, string> = {
  System: 'Key checks and service health.',
  Customers: 'Players mirrored from the partner platform.',
  Wallet: 'Virtual-coin balances and their movement log.',
  Catalog: 'Products, stores, catalogs, categories and brands visible to the key.',
  Orders: 'Prize reservations, their life cycle and shipping.',
  Engine: 'Gameplay events turned into coin grants under rules, exactly once.',
  Establishments: "The establishment's profile, branding, currency and coin ratio.",
  Players: "The establishment's players: the partner API's customers, seen by the establishment.",
  Coins: "Credits and debits of a player's coins, on the one ledger.",
  Iframe: 'Signed marketplace sessions for one player.',
  Test: 'Routes used by the test suite only.',
  Reports: 'Tenant-wide reports: coins per day, week or source, top earners, orders, campaigns.',
};

type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a zod schema, without the `$schema` line.
 * Resources named with `.meta({ id })` (Customer, Order…) come out under `$defs`, referenced
 * where they are used; `inline` puts them back in place, for readers that do not follow
 * references (MCP clients).
 */
export function jsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  refs: 'defs' | 'inline' = 'defs',
): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  });
  return refs === 'inline' ? inlined(rest) : rest;
}

const DEF_REF = /^#\/\$defs\/(.+)$/;

/** The schema with every `$ref` to its `$defs` replaced by the definition (ours never recurse). */
function inlined(schema: JsonSchema): JsonSchema {
  const { $defs = {}, ...root } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const { $ref, ...rest } = v as Record<string, unknown>;
    const name = typeof $ref === 'string' ? DEF_REF.exec($ref)?.[1] : undefined;
    const base = name ? (walk($defs[name]) as Record<string, unknown>) : {};
    return {
      ...base,
      ...Object.fromEntries(Object.entries(rest).map(([k, x]) => [k, walk(x)])),
      ...($ref && !name ? { $ref } : {}),
    };
  };
  return walk(root) as JsonSchema;
}

/**
 * A document's named schemas: each `$defs` entry of a converted schema moves here, and its
 * references point at `#/components/schemas/<id>`. A request's view of a resource can differ from
 * the answer's (zod's input and output: defaults make fields optional, answers allow no extra
 * fields); then the request's is named `<id>Input`.
 */
class NamedSchemas {
  readonly schemas: Record<string, JsonSchema> = {};

  hoist(converted: JsonSchema, io: 'input' | 'output'): JsonSchema {
    const { $defs = {}, ...root } = converted as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    // References rewritten to components, under the names chosen for this schema's definitions.
    const point = (v: unknown, names: Map<string, string>) =>
      JSON.parse(
        JSON.stringify(v).replace(
          /"#\/\$defs\/([^"]+)"/g,
          (_, id: string) => `"#/components/schemas/${names.get(id) ?? id}"`,
        ),
      ) as JsonSchema;
    // A definition keeps its id when it matches what is stored under it (both compared with
    // their references pointing at components), or when it is an answer's.
    const asStored = new Map<string, string>(); // empty: every reference under its own id
    const names = new Map<string, string>();
    for (const [id, def] of Object.entries($defs)) {
      const taken = this.schemas[id];
      const same = !taken || JSON.stringify(taken) === JSON.stringify(point(def, asStored));
      names.set(id, same || io === 'output' ? id : `${id}Input`);
    }
    for (const [id, def] of Object.entries($defs)) {
      const name = names.get(id)!;
      const moved = point(def, names);
      const taken = this.schemas[name];
      if (taken && JSON.stringify(taken) !== JSON.stringify(moved))
        throw new Error(`Two different schemas are named ${name}: give one another id.`);
      this.schemas[name] = moved;
    }
    return point(root, names);
  }
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
  // Any route may be sent a query parameter it does not take, or a NUL in one.
  codes.add('invalid_request');
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
  // An id the key cannot see is not_found, wherever the id travels (path, query or body).
  if (route.params || [route.query, route.body].some(takesAnId)) codes.add('not_found');
  return [...codes].sort();
}

const takesAnId = (schema: z.ZodType | undefined): boolean =>
  !!schema && JSON.stringify(jsonSchema(schema, 'input', 'inline')).includes('"format":"uuid"');

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
    const json = jsonSchema(schema, 'input', 'inline') as {
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
  for (const h of route.headers ?? []) {
    out.push({
      name: h.name,
      in: 'header',
      required: false,
      description: h.description,
      schema: { type: 'string', pattern: h.pattern },
    });
  }
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

/**
 * A route's answer as a named schema: its resource's `.meta({ id })` when it has one, else the
 * shape under its operation's name (`delete_player` → `DeletePlayerAnswer`), so every answer of
 * both documents is a component a generated client can import by name.
 */
function answerSchema(route: Route): JsonSchema {
  const converted = jsonSchema(route.response, 'output');
  if (typeof converted.$ref === 'string') return converted;
  const { $defs, ...root } = converted as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const name = `${route.name.replace(/(^|_)([a-z0-9])/g, (_, _s, c: string) => c.toUpperCase())}Answer`;
  return { $ref: `#/$defs/${name}`, $defs: { ...$defs, [name]: root } };
}

function responses(family: Family, route: Route, named: NamedSchemas): Record<string, unknown> {
  const success = family.openapi.successSchema(route, named.hoist(answerSchema(route), 'output'));
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
    const status = family.status(new AppError(code, ''), route);
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
          schema: family.openapi.errorSchema(route, status, codes),
          // The partner envelope of the status's first code; other answers get theirs from the
          // finished schemas (addExamples).
          ...(family.name === 'partner'
            ? { example: partnerErrorExample(codes[0]!, family, route) }
            : {}),
        },
      },
    };
  }
  return out;
}

function operation(family: Family, route: Route, named: NamedSchemas): Record<string, unknown> {
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
            content: {
              'application/json': {
                schema: withBodyRules(route, named.hoist(jsonSchema(route.body, 'input'), 'input')),
              },
            },
          },
        }
      : {}),
    responses: responses(family, route, named),
  };
}

/** A coin delta is signed and never 0. */
const NON_ZERO = { not: { const: 0 } };

/**
 * Rules the server checks that a zod schema cannot state itself (a refinement is a function),
 * added to the request body's JSON Schema by operation: the partner wallet's `delta` is never 0,
 * and a cohort reward names its customers by a non-empty `filter` or by `all: true`, not both.
 * (Where the route's own schema can carry a rule, it does: `.meta({ oneOf })`, as
 * `exactlyOneOf` in domain/validation.ts.) test/rest/openapi.test.ts checks each is stated.
 */
const BODY_RULES: Record<
  string,
  (body: JsonSchema & { properties: Record<string, JsonSchema> }) => void
> = {
  adjust_customer_coins: (body) => Object.assign(body.properties.delta ?? {}, NON_ZERO),
  bulk_adjust_customer_coins: (body) => {
    Object.assign(body.properties.delta ?? {}, NON_ZERO);
    body.oneOf = [
      {
        description: 'The customers matching a filter (at least one criterion).',
        required: ['filter'],
        properties: { filter: { minProperties: 1 }, all: { not: {} } }, // `all` may not be sent
      },
      {
        description: 'Every customer of the key.',
        required: ['all'],
        properties: { filter: { maxProperties: 0 } },
      },
    ];
  },
};

function withBodyRules(route: Route, schema: JsonSchema): JsonSchema {
  const rule = BODY_RULES[route.name];
  // An inline object (a body named as a component would need its rule on the component).
  if (rule && schema.properties)
    rule(schema as JsonSchema & { properties: Record<string, JsonSchema> });
  return schema;
}

export function buildOpenApi(
  family: Family,
  allRoutes: Route[],
  serverUrl: string | undefined,
): Record<string, unknown> {
  const routes = allRoutes.filter((r) => r.family === family.name);
  const named = new NamedSchemas();
  // Answers first: a resource keeps its name for the shape it is answered in, and a request that
  // sends it differently gets `<id>Input`.
  for (const route of routes) named.hoist(answerSchema(route), 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = withRestNames(
      operation(family, route, named),
      routes,
    );
  }
  const hooks = family.openapi.webhooks && webhooksOf(family.openapi.webhooks(), named);
  const schemas = {
    ...usedSchemas(family.openapi.components, paths),
    ...withRestNames(named.schemas, routes),
  };
  addExamples(routes, paths, schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: family.openapi.title,
      version: CONTRACT_VERSION,
      description: family.openapi.description,
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
    ...(hooks ? { webhooks: hooks } : {}),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_live_<32 hex> | svc_test_<32 hex>',
        },
      },
      schemas,
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

const WEBHOOK_HEADERS = [
  ['webhook-id', 'The event’s id, the same on every retry: deduplicate on it.'],
  [
    'webhook-timestamp',
    'Unix seconds when this attempt was signed: refuse it if far from now (5 min).',
  ],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint’s secret ' +
      '(Standard Webhooks); during a rotation two, space-separated: accept if either matches.',
  ],
].map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
}));

/**
 * What the family sends (docs/webhooks.md): one POST per event type, its body the event with
 * `data` typed, signed per Standard Webhooks. Named schemas join the answers' (a Customer is the
 * same in both).
 */
function webhooksOf(
  hooks: ReturnType<NonNullable<Family['openapi']['webhooks']>>,
  named: NamedSchemas,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(hooks).map(([type, { description, body }]) => [
      type,
      {
        post: {
          operationId: `event_${type.replace('.', '_')}`,
          summary: type,
          description,
          tags: ['Events'],
          parameters: WEBHOOK_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: named.hoist(jsonSchema(body, 'output'), 'output') },
            },
          },
          responses: {
            '2XX': {
              description:
                'Received. Anything else, or no answer within 10 s, is retried for 3 days (same webhook-id).',
            },
          },
        },
      },
    ]),
  );
}

type MediaType = { schema: unknown; example?: unknown };
type Operation = {
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
};

/**
 * An example on every request body and answer that has none yet, derived from the finished
 * schemas (openapi-examples.ts); partner errors got theirs where their codes are known.
 */
function addExamples(
  routes: Route[],
  paths: Record<string, Record<string, unknown>>,
  schemas: Record<string, unknown>,
): void {
  for (const route of routes) {
    const op = paths[route.path]![route.method.toLowerCase()] as Operation;
    const json = (m: { content?: Record<string, MediaType> } | undefined) =>
      m?.content?.['application/json'];
    const body = json(op.requestBody);
    if (body) body.example = REQUEST_EXAMPLES[route.name] ?? exampleOf(body.schema, schemas);
    for (const response of Object.values(op.responses)) {
      const media = json(response);
      if (!media) continue;
      media.example ??= exampleOf(media.schema, schemas);
    }
  }
}

const partnerErrorExample = (code: ErrorCode, family: Family, route: Route) =>
  family.errorBody(
    code === 'invalid_request'
      ? new AppError(code, 'Invalid request. first_name: is required', {
          issues: [{ field: 'first_name', code: 'required', message: 'is required' }],
        })
      : new AppError(code, 'Says what was wrong, for people.'),
    'req_0123456789abcdef0123456789abcdef',
    route,
  );

/**
 * Route descriptions are written once for people and agents, and name other routes by their
 * operation (`ids come from list_customers`): the MCP tool name, which is what an agent calls.
 * A REST reader calls paths, so here every such name in a description becomes its method and
 * path (`GET /api/v1/customers`).
 */
function withRestNames<T>(value: T, routes: Route[]): T {
  const byName = new Map(routes.map((r) => [r.name, `${r.method} ${r.path}`]));
  const names = new RegExp(`\`?\\b(${[...byName.keys()].join('|')})\\b\`?`, 'g');
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string')
      return key === 'description' ? v.replace(names, (_, n: string) => `\`${byName.get(n)}\``) : v;
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(value) as T;
}

/** Only the shared schemas the paths reference (a linter flags unused components). */
function usedSchemas(
  components: Record<string, JsonSchema>,
  paths: Record<string, unknown>,
): Record<string, JsonSchema> {
  const used = new Set<string>();
  const visit = (value: unknown) => {
    for (const [, name] of JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (used.has(name!) || !components[name!]) continue;
      used.add(name!);
      visit(components[name!]); // what a used schema references is used too
    }
  };
  visit(paths);
  return Object.fromEntries(Object.entries(components).filter(([name]) => used.has(name)));
}

const header = (description: string, type: 'integer' | 'string' = 'integer') => ({
  description,
  schema: { type },
});

const IDEMPOTENT_REPLAY_HEADER = {
  description:
    '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
  schema: { type: 'string', enum: ['true'] },
};

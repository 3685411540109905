// Issue 13: a seeded, bounded fuzz test generated from the route table. For every route (and
// GraphQL and MCP), inputs are built from the route's own zod schemas, then broken: NUL, invalid
// UTF-8, huge and negative numbers, out-of-range dates, wrong types, unknown fields, deep nesting,
// wrong content encodings and types, broken paths. Every answer must be a documented 4xx (or a
// success) in the family's envelope: never a 5xx, never a hang.
//
// By default each route gets each kind of breakage once (10 requests); FUZZ_CASES adds that many
// more per route, drawn at random, and FUZZ_SEED (default 13) picks another draw:
//   FUZZ_CASES=300 FUZZ_SEED=7 TEST_DB=postgres npx vitest run test/http/fuzz.test.ts
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { HTTP_STATUS } from '../../src/http/status.js';
import { ESTABLISHMENT_CODES } from '../../src/rest/families/establishment.js';
import { FAMILIES } from '../../src/rest/families/index.js';
import { buildOpenApi } from '../../src/rest/openapi.js';
import type { Route } from '../../src/rest/route.js';
import { ROUTES } from '../../src/rest/table.js';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

const EXTRA_CASES = Number(process.env.FUZZ_CASES ?? 0);
const SEED = Number(process.env.FUZZ_SEED ?? 13);
/** A request still unanswered after this is a hang (the server answers these in milliseconds). */
const HANG_MS = 20_000;

let h: Harness;
let key: string;
let admin: string;
let ids: Record<string, string>;
beforeAll(async () => {
  h = await startHarness();
  const p = await partner(h);
  key = p.key;
  const c = await p.customer({ external_id: 'fuzz-player' });
  await p.credit(c.id, 1000);
  await createDefinition(h.db.prisma, { subBrandId: p.subBrandId, code: 'spin', points: 10 });
  const created = await adminKey(h.db.prisma);
  await h.db.prisma.apiKey.update({
    where: { id: created.id },
    data: { readLimit: 1_000_000, writeLimit: 1_000_000 },
  });
  admin = created.key;
  ids = {
    id: c.id,
    playerId: c.id,
    code: 'spin',
    brand_id: p.brandId,
    sub_brand_id: p.subBrandId,
    establishmentId: p.subBrandId,
  };
});
afterAll(() => h.close());

// ---- valid inputs from a route's own schemas (via their JSON Schema) ----

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: Json[];
  const?: Json;
  format?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  default?: Json;
};

const jsonSchema = (schema: z.ZodType | undefined): Schema | undefined =>
  schema ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Schema) : undefined;

function validSample(s: Schema | undefined): Json {
  if (!s) return null;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0]!;
  const options = s.anyOf ?? s.oneOf;
  if (options) return validSample(options.find((o) => o.type !== 'null') ?? options[0]);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, Json> = {};
      for (const [name, prop] of Object.entries(s.properties ?? {})) out[name] = validSample(prop);
      if (!s.properties) out.externalUserId = 'fuzz-player';
      return out;
    }
    case 'array':
      return [validSample(s.items)];
    case 'integer':
    case 'number':
      return s.minimum !== undefined && s.minimum > 1 ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'uuid') return '01a20000-0000-7000-8000-000000000001';
      if (s.format === 'date-time') return '2026-01-31T12:00:00Z';
      if (s.format === 'email') return 'fuzz@example.com';
      if (s.pattern === '^[A-Z]{2}$' || s.minLength === 2) return 'ES';
      return 'fuzz'.padEnd(Math.max(1, s.minLength ?? 1), 'z');
    default:
      return 'fuzz';
  }
}

// ---- ways to break a value ----

const DEEP = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as Json;
const BAD_VALUES: Json[] = [
  'a\u0000b',
  '\u0000',
  1e308,
  -1e308,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  2 ** 31,
  -1,
  0,
  1.5,
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '2026-02-30T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  true,
  null,
  [],
  {},
  'x'.repeat(70_000),
  '\ud800',
  '%ff',
  '01a20000-0000-7000-8000-00000000000\u0000',
];
const BAD_QUERY_VALUES = [
  '%00',
  'a%00b',
  '%ff',
  '%',
  '1e308',
  '-1',
  '2147483648',
  '9007199254740993',
  '0000-01-01T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '',
  'true',
  'x'.repeat(3000),
];
const BAD_PATH_SEGMENTS = ['%00', 'a%00b', '%ff', '%', 'x'.repeat(3000), '%2e%2e', '..', '%2F'];

type Breakage =
  | 'none'
  | 'field'
  | 'nul-key'
  | 'unknown-field'
  | 'deep'
  | 'wrong-body-type'
  | 'invalid-utf8'
  | 'encoding'
  | 'content-type'
  | 'query'
  | 'path';
const BREAKAGES: Breakage[] = [
  'none', // well-formed, with made-up ids in the body: it may succeed, or be a declared refusal
  'field',
  'nul-key',
  'unknown-field',
  'deep',
  'wrong-body-type',
  'invalid-utf8',
  'encoding',
  'content-type',
  'query',
  'path',
];

type FuzzRequest = { method: string; path: string; headers: Record<string, string>; body?: Buffer };

/** A route's request, valid but for one breakage chosen by `pick`. */
function brokenRequest(route: Route, breakage: Breakage, pick: number): FuzzRequest {
  let path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? ids.id!);
  const query = validSample(jsonSchema(route.query)) as Record<string, Json> | null;
  let body: Json | undefined = route.body ? validSample(jsonSchema(route.body)) : undefined;
  const headers: Record<string, string> = {
    authorization: `Bearer ${key}`,
    'idempotency-key': `fuzz-${SEED}-${pick}-${route.name}-${breakage}`,
  };
  let raw: Buffer | undefined;
  const fields = (v: Json | undefined): string[] =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [];
  const queryEntries = Object.entries(query ?? {}).filter(([, v]) => v !== null);
  let queryString = queryEntries.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);

  switch (breakage) {
    case 'none':
      break;
    case 'field': {
      const bad = BAD_VALUES[pick % BAD_VALUES.length]!;
      const names = fields(body);
      if (names.length && body && typeof body === 'object' && !Array.isArray(body))
        body = { ...body, [names[pick % names.length]!]: bad };
      else body = bad;
      break;
    }
    case 'nul-key':
      body = { ...(body && typeof body === 'object' ? body : {}), 'bad\u0000key': 1 };
      break;
    case 'unknown-field':
      body = { ...(body && typeof body === 'object' ? body : {}), colour: 'blue' };
      break;
    case 'deep': {
      // Written as text: the deepest cases would overflow JSON.stringify here.
      const depth = [40, 5_000, 30_000][pick % 3]!;
      const names = fields(body);
      const holder =
        names.length && body && typeof body === 'object' && !Array.isArray(body)
          ? { ...body, [names[pick % names.length]!]: '__DEEP__' }
          : '__DEEP__';
      raw = Buffer.from(
        JSON.stringify(holder).replace('"__DEEP__"', `${'['.repeat(depth)}${']'.repeat(depth)}`),
      );
      break;
    }
    case 'wrong-body-type':
      body = [['a', 1, true, null, 'x'][pick % 5]!] as Json;
      break;
    case 'invalid-utf8': {
      const text = Buffer.from(JSON.stringify(body ?? { a: 'b' }));
      const at = Math.max(1, text.indexOf('"', 1) + 1);
      raw = Buffer.concat([
        text.subarray(0, at),
        Buffer.from([0xff, 0xfe, 0xc3]),
        text.subarray(at),
      ]);
      break;
    }
    case 'encoding': {
      const json = Buffer.from(JSON.stringify(body ?? {}));
      const variants: [string, Buffer][] = [
        ['gzip', Buffer.from('not gzip at all')],
        ['br', Buffer.from('not brotli either')],
        ['deflate', Buffer.from([0x78, 0x9c, 0xff, 0xff])],
        ['gzip', gzipSync(json).subarray(0, 12)],
        ['br', brotliCompressSync(json)], // well-formed: must work or be refused cleanly
        ['compress', json],
      ];
      const [encoding, bytes] = variants[pick % variants.length]!;
      headers['content-encoding'] = encoding;
      raw = bytes;
      break;
    }
    case 'content-type': {
      const types = [
        'text/plain',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ];
      headers['content-type'] = types[pick % types.length]!;
      raw = Buffer.from(JSON.stringify(body ?? {}));
      break;
    }
    case 'query': {
      const bad = BAD_QUERY_VALUES[pick % BAD_QUERY_VALUES.length]!;
      const names = [...queryEntries.map(([k]) => k), 'unknown_param'];
      const name = names[pick % names.length]!;
      queryString = [...queryString.filter((q) => !q.startsWith(`${name}=`)), `${name}=${bad}`];
      if (pick % 4 === 0) queryString.push(`${name}=again`); // a repeated parameter is an array
      break;
    }
    case 'path': {
      const bad = BAD_PATH_SEGMENTS[pick % BAD_PATH_SEGMENTS.length]!;
      const segments = path.split('/');
      // Never the first segment: it names the API (`/api`, `/players`); a path outside every API
      // answers in the partner envelope, which is not this route's family.
      const at = Math.max(2, segments.length - 1 - (pick % 2));
      segments[at] = bad;
      path = segments.join('/');
      break;
    }
  }
  if (!raw && body !== undefined && route.body) raw = Buffer.from(JSON.stringify(body));
  if (raw) headers['content-type'] ??= 'application/json';
  return {
    method: route.method,
    path: queryString.length ? `${path}?${queryString.join('&')}` : path,
    headers,
    body: route.method === 'GET' ? undefined : raw,
  };
}

// ---- sending, and what every answer must be ----

type Answer = { status: number; headers: Headers; text: string; json: any };

async function send(request: FuzzRequest): Promise<Answer> {
  const res = await fetch(`${h.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body ? new Uint8Array(request.body) : undefined,
    signal: AbortSignal.timeout(HANG_MS),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A partner-envelope code whose status is the one answered. */
const documented = (code: unknown, status: number) =>
  typeof code === 'string' &&
  code in ERROR_CODES &&
  HTTP_STATUS[ERROR_CODES[code as keyof typeof ERROR_CODES]] === status;

/** Problems with one answer of a route of `family` (empty when it is fine). */
function restProblems(family: Route['family'], a: Answer, path = ''): string[] {
  if (a.status >= 500) return [`${a.status} ${a.text.slice(0, 200)}`];
  // A dot segment (`..`, `%2e%2e`) moves the URL out of the route's API (to `/`, the landing
  // page, or an unknown path in the partner envelope): not this route's answer to judge.
  if (/\/(\.\.|%2e%2e)(\/|\?|$)/i.test(path)) return [];
  if (a.status < 400) {
    if (family === 'establishment') return a.json !== undefined ? [] : [`${a.status} not JSON`];
    return a.json && 'data' in a.json ? [] : [`${a.status} without data`];
  }
  const requestId = a.headers.get('x-request-id');
  const partnerShaped =
    documented(a.json?.error?.code, a.status) && a.json.error.request_id === requestId;
  // Node's parser refuses an over-long URL before any route is known: the partner envelope.
  if (partnerShaped && (family === 'partner' || a.status === 431)) return [];
  if (family === 'establishment') {
    const b = a.json ?? {};
    const variant = ESTABLISHMENT_CODES.includes(b.code) && b.requestId === requestId;
    const messageOnly = typeof b.message === 'string' && Object.keys(b).length === 1;
    const fieldMap = a.status === 422 && Object.values(b).every(Array.isArray);
    if (variant || messageOnly || fieldMap) return [];
  }
  return [`${a.status} undocumented: ${a.text.slice(0, 200)}`];
}

/**
 * The statuses each route's OpenAPI document declares: a route must not answer any other (issue
 * 15, item 7), or a generated client meets a status it has no type for.
 */
const DECLARED = new Map<Route, Set<number>>(
  ROUTES.map((route) => {
    const doc = buildOpenApi(FAMILIES[route.family], ROUTES, undefined) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const responses = doc.paths[route.path]![route.method.toLowerCase()]!.responses;
    return [route, new Set(Object.keys(responses).map(Number))];
  }),
);

/** Every kind of breakage once, then `extra` more at random; the same for the same seed. */
const cases = (extra: number, seed: number): [Breakage, number][] => [
  ...BREAKAGES.map((b, i): [Breakage, number] => [
    b,
    fc.sample(fc.nat(10_000), { seed: seed + i, numRuns: 1 })[0]!,
  ]),
  ...(extra > 0
    ? fc.sample(fc.tuple(fc.constantFrom(...BREAKAGES), fc.nat({ max: 10_000 })), {
        seed,
        numRuns: extra,
      })
    : []),
];

describe(`fuzz (seed ${SEED}, ${BREAKAGES.length + EXTRA_CASES} cases per route)`, () => {
  it.each(ROUTES.map((r) => [r.name, r] as const))('%s', async (_name, route) => {
    const problems: string[] = [];
    for (const [breakage, pick] of cases(EXTRA_CASES, SEED + route.name.length)) {
      const request = brokenRequest(route, breakage, pick);
      const answer = await send(request);
      const where = `${breakage} ${request.method} ${request.path.slice(0, 120)}`;
      for (const p of restProblems(route.family, answer, request.path))
        problems.push(`${where}: ${p}`);
      // A broken path may be another route's (or none's) to answer; Node's parser answers 431
      // before any route is known.
      if (breakage !== 'path' && answer.status !== 431 && !DECLARED.get(route)!.has(answer.status))
        problems.push(`${where}: ${answer.status} is not declared: ${answer.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });

  it('GraphQL', async () => {
    const documents = [
      '{ brands(first: 1) { edges { node { id name } } } }',
      'query($f: Int) { brands(first: $f) { edges { cursor } } }',
      'mutation($n: String!) { createBrand(input: { name: $n }) { id } }',
      'query($s: ID!, $at: DateTime) { simulateEngineEvent(subBrandId: $s, environment: test, eventCode: "spin", data: {}, at: $at) { status } }',
    ];
    const problems: string[] = [];
    for (const [, pick] of cases(EXTRA_CASES + 8, SEED)) {
      const bad = BAD_VALUES[pick % BAD_VALUES.length]!;
      const document = documents[pick % documents.length]!;
      const variants: { body: Buffer; headers?: Record<string, string> }[] = [
        {
          body: Buffer.from(
            JSON.stringify({ query: document, variables: { f: bad, n: bad, s: bad, at: bad } }),
          ),
        },
        { body: Buffer.from(JSON.stringify({ query: `${document}\u0000` })) },
        { body: Buffer.from(JSON.stringify({ query: bad, variables: bad })) },
        {
          body: Buffer.from(
            JSON.stringify({ query: `{ ${'a { '.repeat(3000)}b${' }'.repeat(3000)} }` }),
          ),
        },
        { body: Buffer.from('not gzip'), headers: { 'content-encoding': 'gzip' } },
        { body: Buffer.from(JSON.stringify([{ query: document }])) },
      ];
      const v = variants[pick % variants.length]!;
      const a = await send({
        method: 'POST',
        path: '/graphql',
        headers: {
          authorization: `Bearer ${admin}`,
          'content-type': 'application/json',
          ...v.headers,
        },
        body: v.body,
      });
      const codes = (a.json?.errors ?? []).map((e: any) => e?.extensions?.code);
      if (a.status >= 500 || codes.includes('internal_error'))
        problems.push(`${a.status} ${a.text.slice(0, 200)} for ${v.body.toString().slice(0, 200)}`);
      else if (
        a.status >= 400 &&
        !(codes.length && codes.every((c: unknown) => typeof c === 'string'))
      )
        problems.push(`${a.status} without codes: ${a.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });

  it('MCP', async () => {
    const tools = ROUTES.map((r) => r.name);
    const problems: string[] = [];
    for (const [breakage, pick] of cases(EXTRA_CASES + 8, SEED + 1)) {
      const route = ROUTES[pick % ROUTES.length]!;
      const valid = {
        ...(validSample(jsonSchema(route.params)) as object),
        ...(validSample(jsonSchema(route.query)) as object),
        ...(route.body ? { ...(validSample(jsonSchema(route.body)) as object) } : {}),
        id: ids.id,
      } as Record<string, Json>;
      const names = Object.keys(valid);
      const bad = BAD_VALUES[pick % BAD_VALUES.length]!;
      const args =
        breakage === 'unknown-field'
          ? { ...valid, colour: 'blue' }
          : breakage === 'deep'
            ? { ...valid, [names[0]!]: DEEP(400) }
            : { ...valid, [names[pick % names.length]!]: bad };
      const message = {
        jsonrpc: '2.0',
        id: pick,
        method: 'tools/call',
        params: { name: tools[pick % tools.length], arguments: args },
      };
      const bodies = [
        JSON.stringify(message),
        JSON.stringify([message, message]),
        JSON.stringify({ ...message, params: bad }),
        JSON.stringify({ jsonrpc: '2.0', id: pick, method: bad }),
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_health", "arguments": {"a": "\u0000"}}}',
      ];
      const a = await send({
        method: 'POST',
        path: '/api/mcp',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: Buffer.from(bodies[pick % bodies.length]!),
      });
      if (a.status >= 500) problems.push(`${a.status} ${a.text.slice(0, 200)}`);
      else if (a.status >= 400 && !(documented(a.json?.error?.code, a.status) || a.json?.jsonrpc))
        problems.push(`${a.status} undocumented: ${a.text.slice(0, 200)}`);
      // Tool errors travel inside a 200: they carry the route's status, never a 5xx.
      for (const status of a.text.matchAll(/Error (\d{3}) (\w+):/g))
        if (Number(status[1]) >= 500)
          problems.push(`tool answered ${status[0]}: ${a.text.slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });
});

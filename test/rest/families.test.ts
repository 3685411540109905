// The two API families over one machinery: each answers in its own wire format, and route rows
// follow their family's rules (checked for every row, so a new route is covered when added).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FAMILIES } from '../../src/rest/families/index.js';
import { ROUTES } from '../../src/rest/table.js';
import { adminKey, createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { TEST_ROUTES } from '../support/test-routes.js';

let h: Harness;
let p: Awaited<ReturnType<typeof partner>>;
let admin: string;
beforeAll(async () => {
  h = await startHarness({ routes: TEST_ROUTES });
  p = await partner(h);
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

/** Every object schema reachable from a schema, unwrapping optional, default, arrays, pipes. */
function objectsIn(schema: z.ZodType | undefined): z.ZodObject[] {
  if (!schema) return [];
  const def = (schema as unknown as { _zod: { def: Record<string, any> } })._zod.def;
  if (schema instanceof z.ZodObject) {
    return [schema, ...Object.values(schema.shape).flatMap((s) => objectsIn(s as z.ZodType))];
  }
  return [def.innerType, def.element, def.in, def.out, ...(def.options ?? [])]
    .filter(Boolean)
    .flatMap((s) => objectsIn(s));
}

const isStrict = (o: z.ZodObject) =>
  (o._zod.def.catchall as z.ZodType | undefined)?._zod.def.type === 'never';

describe('route rows follow their family', () => {
  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s: unknown fields as its family says',
    (_name, route) => {
      const objects = [route.params, route.query, route.body].flatMap((s) => objectsIn(s));
      const refuse = FAMILIES[route.family].unknownFields === 'refuse';
      // Partner rows refuse unknown fields (strict); establishment rows ignore them (stripped).
      expect(objects.map(isStrict)).toEqual(objects.map(() => refuse));
    },
  );

  it('establishment paths are at the root, partner paths under /api/v1', () => {
    for (const route of ROUTES) {
      expect(route.path.startsWith('/api/')).toBe(route.family === 'partner');
    }
  });
});

describe('unknown query parameters (issue 32)', () => {
  // Refused on every route of both families, whether the route takes a query or not: a typo
  // (`?stauts=`) must not pass as "no filter". 400 naming it, or the route's 422 field map.
  it.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s refuses ?stauts=',
    async (_name, route) => {
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        /id$/i.test(name) ? '0192f1e4-7a3b-7c1d-9e2f-3a4b5c6d7e8f' : 'wheel',
      );
      const res = await h.call(route.method, `${path}?stauts=active`, {
        key: route.scope === 'admin' ? admin : p.key,
      });
      if (route.family === 'partner') {
        expect(res.status, res.text).toBe(400);
        expect(res.body.error).toMatchObject({
          code: 'invalid_request',
          details: [{ field: 'stauts', code: 'unknown_field', message: 'is not a known field' }],
        });
      } else if (route.wire?.validation === 'field-map-422') {
        expect(res.status, res.text).toBe(422);
        expect(res.body).toEqual({ stauts: ['is not a known field'] });
      } else {
        expect(res.status, res.text).toBe(400);
        expect(res.body).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: [{ field: 'stauts', code: 'unknown_field', message: 'is not a known field' }],
        });
      }
    },
  );

  it('a key without the route’s scope still hears 403 first', async () => {
    const tenant = await createTenant(h.db.prisma);
    const { key } = await tenant.key({ scopes: ['customers:read'] });
    const players = await h.call('GET', '/players?stauts=active', { key });
    expect(players.status, players.text).toBe(400); // it may list players: the parameter is the fault
    const orders = await h.call('GET', '/api/v1/orders?stauts=active', { key });
    expect(orders.status, orders.text).toBe(403);
    const records = await h.call('POST', '/orders/list?stauts=active', { key, body: {} });
    expect(records.status, records.text).toBe(403);
  });

  it('a known parameter still works, and a route without a query takes none', async () => {
    expect((await h.call('GET', '/players?page=1&limit=5', { key: p.key })).status).toBe(200);
    const health = await h.call('GET', '/api/v1/health?verbose=1', { key: p.key });
    expect(health.status).toBe(400);
    expect(health.body.error.message).toBe('Invalid request. verbose: is not a known field');
  });
});

describe('establishment error shapes', () => {
  it('default: { error, message, code, details[], requestId }', async () => {
    const res = await h.call('POST', '/players', { key: p.key, body: { name: 7 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'Bad Request',
      message: expect.stringContaining('establishmentId'),
      code: 'VALIDATION_ERROR',
      details: [
        { field: 'establishmentId', code: 'required', message: 'is required' },
        { field: 'name', code: 'type', message: 'must be a string' },
      ],
      requestId: res.headers.get('x-request-id'),
    });
  });

  it('malformed JSON is 400 INVALID_PARAMETERS; a wrong content type 415', async () => {
    const bad = await h.call('POST', '/players', {
      key: p.key,
      raw: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'Bad Request', code: 'INVALID_PARAMETERS' });
    const text = await h.call('POST', '/players', {
      key: p.key,
      raw: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('no key is 401 UNAUTHORIZED, a missing scope 403 FORBIDDEN, a wrong method 405', async () => {
    const none = await h.call('GET', `/players/${p.subBrandId}`);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
    const narrow = await p.otherKey({ scopes: ['customers:read'] });
    const forbidden = await h.call('PUT', '/coins', {
      key: narrow,
      body: { playerId: p.subBrandId, amount: 1 },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('FORBIDDEN');
    const method = await h.call('PATCH', '/players', { key: p.key });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET, POST');
    expect(method.body.code).toBe('METHOD_NOT_ALLOWED');
    const unknown = await h.call('GET', '/players/a/b/c', { key: p.key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('a route documenting a 422 field map answers one', async () => {
    const res = await h.call('POST', '/test-establishment/sub-brands', {
      key: admin,
      body: { brandId: 'nope', name: '' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      brandId: ['must be a valid uuid'],
      name: ['must not be empty'],
    });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('a route documenting `{ message }` for 400 and 404 answers only that', async () => {
    const json = await h.call('POST', '/test-establishment/sub-brands', {
      key: admin,
      raw: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ message: 'The request body is not valid JSON.' });
    const missing = await h.call('POST', '/test-establishment/sub-brands', {
      key: admin,
      body: { brandId: '0190aaaa-0000-7000-8000-000000000000', name: 'x' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Brand not found.' });
    expect(missing.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('the same refusal is 409 on the partner API and 400 here', async () => {
    const c = await p.customer();
    const partnerDebit = await p.post(`/api/v1/customers/${c.id}/coins`, { delta: -1 });
    expect(partnerDebit.status).toBe(409);
    expect(partnerDebit.body.error.code).toBe('insufficient_balance');
    const establishmentDebit = await p.put('/coins', { playerId: c.id, amount: -1 });
    expect(establishmentDebit.status).toBe(400);
    expect(establishmentDebit.body.code).toBe('INSUFFICIENT_BALANCE');
  });
});

describe('unknown fields and ids per family', () => {
  it('ignored on establishment routes, still refused on /api/v1', async () => {
    const player = await h.call('POST', '/players', {
      key: p.key,
      body: { establishmentId: p.subBrandId, name: 'Ana García', favouriteGame: 'slots' },
    });
    expect(player.status).toBe(200);
    const customer = await p.post('/api/v1/customers', {
      first_name: 'Ana',
      last_name: 'García',
      favourite_game: 'slots',
    });
    expect(customer.status).toBe(400);
    expect(customer.body.error.message).toContain('favourite_game: is not a known field');
  });

  it('a malformed id is 400 here and 404 on the partner API', async () => {
    expect((await p.get('/players/nope')).status).toBe(400);
    expect((await p.get('/api/v1/customers/nope')).status).toBe(404);
  });
});

describe('rate units come from the route', () => {
  it('POST /players/search spends the read budget, POST /players the write budget', async () => {
    const tenant = await createTenant(h.db.prisma);
    const { key } = await tenant.key({ readLimit: 50, writeLimit: 7 });
    const search = await h.call('POST', '/players/search', { key, body: {} });
    expect(search.status).toBe(200);
    expect(search.headers.get('x-ratelimit-limit')).toBe('50');
    expect(search.headers.get('x-ratelimit-remaining')).toBe('49');
    const create = await h.call('POST', '/players', {
      key,
      body: { establishmentId: tenant.subBrandId, name: 'Write Unit' },
    });
    expect(create.headers.get('x-ratelimit-limit')).toBe('7');
    const again = await h.call('POST', '/players/search', { key, body: {} });
    expect(again.headers.get('x-ratelimit-remaining')).toBe('48');
  });
});

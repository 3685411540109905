import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi, errorCodesOf } from '../../src/rest/openapi.js';
import { TEST_ROUTES } from '../support/test-routes.js';
import { FAMILIES } from '../../src/rest/families/index.js';
import { ROUTES } from '../../src/rest/table.js';
import { startHarness, type Harness } from '../support/harness.js';

// Redocly's example check treats every object as closed unless told otherwise, which misreads an
// `allOf` that narrows a shared envelope's `code`; the schemas say themselves where extra
// properties are refused (`additionalProperties: false` on every answer).
const LINT_RULES = {
  'no-server-example.com': 'off',
  'no-invalid-media-type-examples': { severity: 'error', allowAdditionalProperties: true },
} as const;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1, version 1.18.0, and passes Redocly’s recommended lint with no errors', async () => {
    const res = await h.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('1.18.0');
    const config = await createConfig({
      extends: ['recommended-strict'],
      rules: LINT_RULES,
    });
    const problems = await lintFromString({
      source: res.text,
      absoluteRef: 'openapi.json',
      config,
    });
    const report = problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
    );
    expect(report).toEqual([]);
  });

  it('stays valid for body, idempotent and 201 routes too (the generator, not just today’s table)', async () => {
    const config = await createConfig({
      extends: ['recommended-strict'],
      rules: LINT_RULES,
    });
    const source = JSON.stringify(
      buildOpenApi(FAMILIES.partner, TEST_ROUTES, 'https://rewards.test'),
    );
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual(
      [],
    );
    const op = JSON.parse(source).paths['/api/v1/test/brands'].post;
    expect(op.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true }),
    );
    expect(op.requestBody.content['application/json'].schema.required).toEqual(['name']);
  });

  it('has every partner route of the table with its scope, parameters and error codes', async () => {
    const { body } = await h.call('GET', '/openapi.json');
    for (const route of ROUTES.filter((r) => r.family === 'partner')) {
      const op = body.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.operationId).toBe(route.name);
      expect(op.security).toEqual([{ bearerAuth: [route.scope] }]);
      const documented = Object.entries(op.responses)
        .filter(([status]) => Number(status) >= 400)
        .flatMap(
          ([, r]: [string, any]) =>
            r.content['application/json'].schema.properties.error.properties.code.enum,
        );
      expect(documented.sort()).toEqual(errorCodesOf(route));
      expect(
        op.responses[String(route.successStatus)].headers['x-ratelimit-remaining'],
      ).toBeDefined();
    }
  });

  it('names every resource in components.schemas, for generated clients to import', async () => {
    const { body } = await h.call('GET', '/openapi.json');
    const named = Object.keys(body.components.schemas);
    for (const resource of [
      'Health',
      'Customer',
      'DeletedCustomer',
      'CoinBalance',
      'CoinMovement',
      'BulkAdjustment',
      'Product',
      'Listing',
      'Catalog',
      'Store',
      'Category',
      'SubBrand',
      'Order',
      'Shipping',
      'ReservationRequest',
      'StoreSession',
      'EngineEventResult',
      'EventDefinition',
    ])
      expect(named).toContain(resource);
    // Every success answer of a route is a named resource (or a list of them), not an inline shape.
    for (const [path, ops] of Object.entries<any>(body.paths))
      for (const [method, op] of Object.entries<any>(ops)) {
        const success = Object.entries<any>(op.responses).find(([s]) => s.startsWith('2'))![1];
        const data = success.content['application/json'].schema.properties.data;
        expect(JSON.stringify(data), `${method} ${path}`).toMatch(/"#\/components\/schemas\/\w+"/);
      }
  });

  it('has an example on every request body and answer (checked against its schema by the lint)', async () => {
    for (const doc of ['/openapi.json', '/openapi/establishment.json']) {
      const { body } = await h.call('GET', doc);
      for (const [path, ops] of Object.entries<any>(body.paths))
        for (const [method, op] of Object.entries<any>(ops)) {
          const media = [
            op.requestBody?.content['application/json'],
            ...Object.values<any>(op.responses).map((r) => r.content?.['application/json']),
          ].filter(Boolean);
          for (const m of media) expect(m, `${doc} ${method} ${path}`).toHaveProperty('example');
        }
    }
  });

  it('states in the schemas the rules the server checks', async () => {
    const { body } = await h.call('GET', '/openapi.json');
    const schemaOf = (path: string, method: string) =>
      body.paths[path][method].requestBody.content['application/json'].schema;
    // Exactly one of the two listing fields.
    expect(schemaOf('/api/v1/orders', 'post').oneOf).toEqual([
      { required: ['listing_market_ids'] },
      { required: ['listing_market_id'] },
    ]);
    // A shipping correction must change something.
    expect(schemaOf('/api/v1/orders/{id}/shipping', 'patch').minProperties).toBe(1);
    // Countries are ISO alpha-2.
    expect(schemaOf('/api/v1/customers', 'post').properties.country.anyOf).toContainEqual(
      expect.objectContaining({ type: 'string', pattern: '^[A-Z]{2}$' }),
    );
    // points_override is whole coins.
    expect(schemaOf('/api/v1/engine/events', 'post').properties.points_override).toMatchObject({
      type: 'integer',
      maximum: 1_000_000,
    });
    // The webhook reads an optional Idempotency-Key.
    expect(body.paths['/api/v1/engine/webhooks/{code}'].post.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    );
  });

  it('names other routes by method and path in its text, never by their MCP tool names', async () => {
    const doc = (await h.call('GET', '/openapi.json')).body;
    const texts: string[] = [];
    const collect = (v: unknown, key?: string): void => {
      if (typeof v === 'string' && key === 'description') texts.push(v);
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) collect(x, Array.isArray(v) ? undefined : k);
    };
    collect(doc.paths);
    const names = ROUTES.filter((r) => r.family === 'partner').map((r) => r.name);
    const offenders = texts.filter((t) => names.some((n) => new RegExp(`\\b${n}\\b`).test(t)));
    expect(offenders).toEqual([]);
    // The same sentences, with paths: "Ids come from `GET /api/v1/customers`".
    expect(texts.some((t) => t.includes('`GET /api/v1/customers`'))).toBe(true);
  });

  it('lists no establishment route: that family has its own document', async () => {
    const { body } = await h.call('GET', '/openapi.json');
    expect(Object.keys(body.paths).every((path) => path.startsWith('/api/v1/'))).toBe(true);
  });

  it('documents the health record as the spec gives it', async () => {
    const { body } = await h.call('GET', '/openapi.json');
    const schema =
      body.paths['/api/v1/health'].get.responses['200'].content['application/json'].schema;
    expect(schema.properties.data).toEqual({ $ref: '#/components/schemas/Health' });
    expect(Object.keys(body.components.schemas.Health.properties)).toEqual([
      'status',
      'environment',
      'sub_brand_id',
      'api_version',
      'server_time',
      'brand_id', // additive, after the spec's fields
    ]);
  });
});

describe('GET /openapi/establishment.json', () => {
  it('passes Redocly’s recommended-strict lint with no problems', async () => {
    const res = await h.call('GET', '/openapi/establishment.json');
    expect(res.status).toBe(200);
    const config = await createConfig({
      extends: ['recommended-strict'],
      rules: LINT_RULES,
    });
    const problems = await lintFromString({ source: res.text, absoluteRef: 'e.json', config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual(
      [],
    );
  });

  it('has every establishment route, with the family’s statuses and error codes', async () => {
    const { body } = await h.call('GET', '/openapi/establishment.json');
    const routes = ROUTES.filter((r) => r.family === 'establishment');
    expect(Object.values(body.paths).flatMap((p) => Object.keys(p as object))).toHaveLength(
      routes.length,
    );
    for (const route of routes) {
      const op = body.paths[route.path]?.[route.method.toLowerCase()];
      expect(op?.operationId, `${route.method} ${route.path}`).toBe(route.name);
    }
    // A refusal of record state is 400 here (409 on the partner API), with the document's codes.
    const coins = body.paths['/coins'].put.responses;
    expect(coins['409']?.description).not.toContain('insufficient_balance');
    expect(coins['400'].content['application/json'].schema.properties.code.enum).toEqual(
      expect.arrayContaining(['INSUFFICIENT_BALANCE', 'VALIDATION_ERROR', 'INVALID_PARAMETERS']),
    );
    // Success bodies are the bare shapes, not the partner's `{ data }`.
    const player = body.paths['/players/{playerId}'].get.responses['200'];
    expect(player.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PlayerDetail',
    });
    expect(body.components.schemas.PlayerDetail.properties).toHaveProperty('playerId');
    expect(body.components.schemas.PlayerDetail.properties).toHaveProperty('wallet');
  });
});

describe('human documentation', () => {
  it('GET /docs renders the reference from /openapi.json with local assets', async () => {
    const page = await h.call('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const scripts = [...page.text.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src.startsWith('/')).toBe(true); // no CDN: the page works offline
      expect((await h.call('GET', src)).status).toBe(200);
    }
    const init = (await h.call('GET', '/docs/init.js')).text;
    expect(init).toContain("url: '/openapi.json'");
    expect(init).toContain("url: '/openapi/establishment.json'");
  });

  it('GET /api/v1/guide walks the integration loop with curl lines for this server', async () => {
    const page = await h.call('GET', '/api/v1/guide');
    expect(page.status).toBe(200);
    for (const step of [
      '/api/v1/health',
      '/api/v1/customers',
      '/coins',
      '/api/v1/products',
      '/api/v1/orders',
      '/shipping',
      '/api/v1/webhook-endpoints',
      '/api/v1/events',
    ]) {
      expect(page.text).toContain(step);
    }
    expect(page.text).toContain(`curl -s ${h.url}/api/v1/health`);
  });
});

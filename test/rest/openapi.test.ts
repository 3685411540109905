import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi, errorCodesOf } from '../../src/rest/openapi.js';
import { TEST_ROUTES } from '../support/test-routes.js';
import { FAMILIES } from '../../src/rest/families/index.js';
import { ROUTES } from '../../src/rest/table.js';
import { startHarness, type Harness } from '../support/harness.js';

// Redocly's recommended-strict ruleset, nothing relaxed (issue 32: the partner document's error
// examples used to need `allowAdditionalProperties`); the CLI lints the served documents too
// (openapi-lint.test.ts).
const LINT_RULES = {} as const;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1, version 1.20.3, and passes Redocly’s recommended lint with no errors', async () => {
    const res = await h.call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toBe('1.20.3');
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
    // A coin delta is never 0; a cohort reward takes a non-empty filter or all: true (issue 32).
    expect(schemaOf('/api/v1/customers/{id}/coins', 'post').properties.delta.not).toEqual({
      const: 0,
    });
    const bulk = schemaOf('/api/v1/customers/bulk/coins', 'post');
    expect(bulk.properties.delta.not).toEqual({ const: 0 });
    expect(bulk.oneOf).toEqual([
      expect.objectContaining({ required: ['filter'] }),
      expect.objectContaining({ required: ['all'] }),
    ]);
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

describe('the establishment document states what the server checks (issue 32)', () => {
  let doc: any;
  beforeAll(async () => {
    doc = (await h.call('GET', '/openapi/establishment.json')).body;
  });
  const bodyOf = (path: string, method: string) =>
    doc.paths[path][method].requestBody.content['application/json'].schema;
  const nonNull = (schema: any) => schema.anyOf?.find((s: any) => s.type !== 'null') ?? schema;

  it('e-mail, URI, locale and origin formats', () => {
    const profile = bodyOf('/establishments/{establishmentId}', 'put').properties;
    expect(nonNull(profile.email).format).toBe('email');
    expect(nonNull(profile.imageUrl)).toMatchObject({ format: 'uri', pattern: '^https?://' });
    expect(nonNull(profile.thumbnailUrl).format).toBe('uri');
    expect(profile.locale.pattern).toBeDefined();
    expect(profile.frameOrigins.items.pattern).toBeDefined();
    expect(nonNull(bodyOf('/players', 'post').properties.email).format).toBe('email');
    expect(nonNull(bodyOf('/players/{playerId}', 'put').properties.email).format).toBe('email');
  });

  it('at least one translation, and what a new product and an import need', () => {
    const create = bodyOf('/products', 'post');
    expect(create.properties.translations.minProperties).toBe(1);
    expect(bodyOf('/products/{productId}', 'put').properties.translations.minProperties).toBe(1);
    expect(create.oneOf.map((o: any) => o.required)).toEqual([
      ['stock', 'translations'],
      ['isImport', 'productId'],
    ]);
  });

  it('campaign dates: their format, and a preset or custom dates', () => {
    for (const [path, method] of [
      ['/establishments/{establishmentId}/campaigns', 'post'],
      ['/establishments/{establishmentId}/campaigns/{campaignId}', 'put'],
    ]) {
      const body = bodyOf(path!, method!);
      expect(new RegExp(body.properties.startDate.pattern).test('2026-07-01')).toBe(true);
      expect(new RegExp(body.properties.endDate.pattern).test('2026-07-01T00:00:00Z')).toBe(true);
      expect(new RegExp(body.properties.endDate.pattern).test('01/07/2026')).toBe(false);
      expect(body.anyOf.map((o: any) => o.required)).toEqual([
        ['duration'],
        ['startDate', 'endDate'],
      ]);
    }
    const activity = bodyOf('/establishments/{establishmentId}/campaigns/insert-activity', 'post');
    expect(new RegExp(activity.properties.login_time.pattern).test('2026-11-23 18:30:00')).toBe(
      true,
    );
    expect(activity.oneOf).toHaveLength(4);
  });

  it('names every success answer in components.schemas', () => {
    const inline: string[] = [];
    for (const [path, ops] of Object.entries<any>(doc.paths))
      for (const [method, op] of Object.entries<any>(ops)) {
        const success = Object.entries<any>(op.responses).find(([s]) => s.startsWith('2'))![1];
        const schema = success.content['application/json'].schema;
        const name = /^#\/components\/schemas\/(\w+)$/.exec(schema.$ref ?? '')?.[1];
        if (!name || !doc.components.schemas[name]) inline.push(`${method} ${path}`);
      }
    expect(inline).toEqual([]);
    for (const name of [
      'Campaign',
      'CampaignSummary',
      'EstablishmentProduct',
      'EstablishmentCatalogDetail',
    ])
      expect(doc.components.schemas).toHaveProperty(name);
  });

  it('marks the send answer’s earlier name deprecated beside the document’s', () => {
    const send = doc.components.schemas.OrderSendRecord.properties;
    expect(send.deliveryDetailsCapturedAt.format).toBe('date-time');
    expect(send.deliveryCapturedAt.deprecated).toBe(true);
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

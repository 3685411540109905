import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { explode, TEST_ROUTES } from '../support/test-routes.js';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness({ routes: TEST_ROUTES });
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

const expectEnvelope = (
  res: { status: number; body: any; headers: Headers },
  status: number,
  code: string,
) => {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({
    error: {
      code,
      message: expect.any(String),
      request_id: res.headers.get('x-request-id'),
      // Field-by-field problems come with validation errors only.
      ...(code === 'invalid_request' ? { details: expect.any(Array) } : {}),
    },
  });
};

const raw = (raw: string, headers: Record<string, string> = {}) =>
  h.call('POST', '/api/v1/test/brands', {
    key: admin,
    raw,
    headers: {
      'content-type': 'application/json',
      'idempotency-key': `k-${Math.random()}`,
      ...headers,
    },
  });

describe('error envelopes', () => {
  it('malformed JSON is 400 invalid_json', async () => {
    expectEnvelope(await raw('{"name": "x",'), 400, 'invalid_json');
  });

  it('a body over the route limit is 400 payload_too_large', async () => {
    expectEnvelope(await raw(JSON.stringify({ name: 'x'.repeat(2000) })), 400, 'payload_too_large');
  });

  it('a body that is not JSON is 415 unsupported_media_type', async () => {
    expectEnvelope(
      await raw('name=x', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'unsupported_media_type',
    );
  });

  it('validation names each bad field and why', async () => {
    const res = await raw(JSON.stringify({ name: '', colour: 'red' }));
    expectEnvelope(res, 400, 'invalid_request');
    expect(res.body.error.message).toMatch(/name: must not be empty/);
    expect(res.body.error.message).toMatch(/colour: is not a known field/);
    // The same problems for programs: a stable rule code beside the words.
    expect(res.body.error.details).toEqual([
      { field: 'name', code: 'too_small', message: 'must not be empty' },
      { field: 'colour', code: 'unknown_field', message: 'is not a known field' },
    ]);
  });

  it('a missing body is a validation error, not a crash', async () => {
    const res = await h.call('POST', '/api/v1/test/brands', {
      key: admin,
      headers: { 'idempotency-key': 'k-empty' },
    });
    expectEnvelope(res, 400, 'invalid_request');
  });

  it('an unknown route is 404 not_found, with or without a key', async () => {
    expectEnvelope(await h.call('GET', '/api/v1/nothing-here', { key: admin }), 404, 'not_found');
    expectEnvelope(await h.call('GET', '/api/v1/nothing-here'), 404, 'not_found');
    expectEnvelope(await h.call('GET', '/no/such/page'), 404, 'not_found');
  });

  it('a known path with another method is 405 with Allow', async () => {
    const res = await h.call('DELETE', '/api/v1/health', { key: admin });
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('an internal failure is 500 internal_error without internals', async () => {
    explode.remaining = 1;
    const res = await raw(JSON.stringify({ name: 'will-fail' }));
    expectEnvelope(res, 500, 'internal_error');
    expect(res.body.error.message).toContain(res.headers.get('x-request-id'));
    expect(res.text).not.toMatch(/injected|Error:|\.ts:\d+/);
  });

  it('every response, errors included, carries the request id and rate headers', async () => {
    for (const res of [
      await raw('{'),
      await h.call('GET', '/api/v1/health'),
      await h.call('GET', '/x'),
    ]) {
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
    }
  });

  it('each request gets its own id', async () => {
    const a = await h.call('GET', '/api/v1/health');
    const b = await h.call('GET', '/api/v1/health');
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

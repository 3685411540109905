// Issue 15, item 6: validation errors are for programs too. Every partner route refuses an empty
// body with an unknown field, and answers `details: [{ field, code, message }]` beside the
// message; a rule is worded the same on every route (a client may show the words, and must be
// able to key on the code).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_RULES } from '../../src/domain/errors.js';
import { ROUTES } from '../../src/rest/table.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
let key: string;
let customerId: string;
beforeAll(async () => {
  h = await startHarness();
  const p = await partner(h);
  key = p.key;
  customerId = (await p.customer()).id;
});
afterAll(() => h.close());

const bodyRoutes = ROUTES.filter(
  (r) => r.family === 'partner' && r.body && 'shape' in r.body && !r.path.includes('test-helpers'),
);

describe('validation details on the partner envelope', () => {
  it('lists each bad field with a rule code, in the words of the message', async () => {
    const wordings = new Map<string, Set<string>>();
    for (const route of bodyRoutes) {
      const path = route.path.replace(/\{\w+\}/g, customerId);
      const res = await h.call(route.method, path, {
        key,
        body: { colour: 'blue' },
        headers: { 'idempotency-key': `details-${route.name}` },
      });
      expect(res.status, `${route.name}: ${res.text}`).toBe(400);
      const { message, details } = res.body.error;
      expect(details.length, route.name).toBeGreaterThan(0);
      for (const d of details) {
        expect(FIELD_RULES, `${route.name} ${JSON.stringify(d)}`).toContain(d.code);
        expect(message).toContain(d.field ? `${d.field}: ${d.message}` : d.message);
        if (!wordings.has(d.code)) wordings.set(d.code, new Set());
        wordings.get(d.code)!.add(d.message);
      }
      expect(details).toContainEqual({
        field: 'colour',
        code: 'unknown_field',
        message: 'is not a known field',
      });
    }
    // One wording per rule, across every route.
    expect([...wordings.get('unknown_field')!]).toEqual(['is not a known field']);
    expect([...(wordings.get('required') ?? [])].filter((m) => !m.startsWith('send '))).toEqual([
      'is required',
    ]);
  });

  it('names the rule of a wrong type, a range and an enum', async () => {
    const res = await h.call('GET', '/api/v1/customers?limit=0&status=gone', { key });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'limit', code: 'too_small' }),
        expect.objectContaining({ field: 'status', code: 'enum' }),
      ]),
    );
  });

  it('carries no details on errors that are not about fields', async () => {
    const res = await h.call('GET', '/api/v1/customers/0190a6f0-0000-7000-8000-000000000000', {
      key,
    });
    expect(res.status).toBe(404);
    expect(res.body.error).not.toHaveProperty('details');
  });
});

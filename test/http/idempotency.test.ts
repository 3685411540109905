import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminKey, createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { explode, TEST_ROUTES } from '../support/test-routes.js';
import { recentAnswers } from '../../src/exactly-once/keyed-requests.js';
import { partner } from '../support/partner.js';

let h: Harness;
let admin: string;
let n = 0;
const unique = (prefix: string) =>
  `${prefix}-${process.pid}-${++n}-${Math.random().toString(36).slice(2, 8)}`;
const brandsNamed = (name: string) => h.db.prisma.brand.count({ where: { name } });

beforeAll(async () => {
  h = await startHarness({ routes: TEST_ROUTES });
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

const post = (key: string, body: unknown, idempotencyKey?: string, path = '/api/v1/test/brands') =>
  h.call('POST', path, {
    key,
    body,
    headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });

describe('Idempotency-Key', () => {
  it('is required where the route says so', async () => {
    const res = await post(admin, { name: unique('b') });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('missing_idempotency_key');
  });

  it.each([
    ['65 characters', 'k'.repeat(65)],
    ['a control character', 'abc\tdef'],
  ])('refuses a key of %s', async (_name, key) => {
    const res = await post(admin, { name: unique('b') }, key);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_idempotency_key');
  });

  it('replays the first answer verbatim and applies once', async () => {
    const name = unique('once');
    const key = unique('key');
    const first = await post(admin, { name }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replay')).toBeNull();
    const second = await post(admin, { name }, key);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await brandsNamed(name)).toBe(1);
  });

  it('treats the same JSON with keys in another order as the same request', async () => {
    const key = unique('key');
    const first = await h.call('POST', '/api/v1/test/sub-brands', {
      key: admin,
      raw: '{"brand_id":"00000000-0000-7000-8000-000000000000","name":"x"}',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    const second = await h.call('POST', '/api/v1/test/sub-brands', {
      key: admin,
      raw: '{ "name": "x", "brand_id": "00000000-0000-7000-8000-000000000000" }',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.text).toBe(first.text);
  });

  it('answers 409 idempotency_conflict for the same key with another body, and changes nothing', async () => {
    const key = unique('key');
    const name = unique('first');
    await post(admin, { name }, key);
    const other = unique('other');
    const res = await post(admin, { name: other }, key);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('idempotency_conflict');
    expect(await brandsNamed(other)).toBe(0);
  });

  it('executes concurrent duplicates once; the others wait and replay', async () => {
    const name = unique('race');
    const key = unique('key');
    const replies = await Promise.all(Array.from({ length: 12 }, () => post(admin, { name }, key)));
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
    expect(replies.filter((r) => r.headers.get('idempotent-replay') === 'true')).toHaveLength(11);
    expect(await brandsNamed(name)).toBe(1);
  });

  it('does not keep a 500: the write is rolled back and a retry with the same key succeeds', async () => {
    const name = unique('boom');
    const key = unique('key');
    explode.remaining = 1;
    const failed = await post(admin, { name }, key);
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('internal_error');
    expect(failed.text).not.toMatch(/injected|at .*\.ts/); // no internals on the wire
    expect(await brandsNamed(name)).toBe(0);
    const retried = await post(admin, { name }, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replay')).toBeNull();
    expect(await brandsNamed(name)).toBe(1);
  });

  it('keeps a business refusal (4xx) so that a replay answers the same', async () => {
    const key = unique('key');
    const body = { brand_id: '00000000-0000-7000-8000-000000000000', name: 'nobody' };
    const first = await post(admin, body, key, '/api/v1/test/sub-brands');
    expect(first.status).toBe(404);
    expect(first.body.error.code).toBe('not_found');
    const second = await post(admin, body, key, '/api/v1/test/sub-brands');
    expect(second.status).toBe(404);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.body).toEqual(first.body); // the original request_id included
  });

  it('replays from the database once this process forgot the answer, even where the work would now fail', async () => {
    // The claim travels with the work's first statement: a taken key must answer its stored
    // answer, not what running the work again says (docs/idempotency.md).
    const p = await partner(h);
    const customer = await p.customer();
    await p.credit(customer.id, 100);
    const spend = unique('key');
    const first = await p.post(`/api/v1/customers/${customer.id}/coins`, { delta: -100 }, spend);
    expect(first.status).toBe(201);
    const external = unique('ext');
    const create = unique('key');
    const body = { first_name: 'Ana', last_name: 'García', external_id: external };
    const created = await p.post('/api/v1/customers', body, create);
    expect(created.status).toBe(201);
    recentAnswers.clear(); // another process, or this one later: only the database knows the keys

    // Spending 100 again would be refused now (the balance is 0).
    const spentAgain = await p.post(
      `/api/v1/customers/${customer.id}/coins`,
      { delta: -100 },
      spend,
    );
    expect(spentAgain.status).toBe(201);
    expect(spentAgain.headers.get('idempotent-replay')).toBe('true');
    expect(spentAgain.text).toBe(first.text);
    // Creating the customer again would break its unique external id.
    const createdAgain = await p.post('/api/v1/customers', body, create);
    expect(createdAgain.status).toBe(201);
    expect(createdAgain.headers.get('idempotent-replay')).toBe('true');
    expect(createdAgain.text).toBe(created.text);
    expect((await p.get(`/api/v1/customers/${customer.id}/coins`)).body.data.balance).toBe(0);
  });

  it('answers a replay from memory only for the same request by a key with the scope', async () => {
    const p = await partner(h);
    const customer = await p.customer();
    const path = `/api/v1/customers/${customer.id}/coins`;
    const key = unique('key');
    const first = await p.post(path, { delta: 5 }, key);
    expect(first.status).toBe(201);
    // Another key of the tenant, without the scope: refused before any replay.
    const readOnly = await p.otherKey({ scopes: ['customers:read'] });
    const refused = await h.call('POST', path, {
      key: readOnly,
      body: { delta: 5 },
      headers: { 'idempotency-key': key },
    });
    expect(refused.status).toBe(403);
    // An invalid body under the used key is a 400 (validation first), a valid other one a 409.
    const invalid = await p.post(path, { delta: 0 }, key);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('invalid_request');
    const other = await p.post(path, { delta: 6 }, key);
    expect(other.body.error.code).toBe('idempotency_conflict');
    // An unknown query parameter is refused on every route (issue 32), under a used key too.
    const withQuery = await p.post(`${path}?x=1`, { delta: 5 }, key);
    expect(withQuery.status).toBe(400);
    expect(withQuery.body.error.details[0]).toMatchObject({ field: 'x', code: 'unknown_field' });
    const same = await p.post(path, { delta: 5 }, key);
    expect(same.headers.get('idempotent-replay')).toBe('true');
    expect(same.text).toBe(first.text);
    expect((await p.get(path)).body.data.balance).toBe(5);
  });

  it('does not keep a validation error: the corrected request may reuse the key', async () => {
    const key = unique('key');
    const bad = await post(admin, { name: '' }, key);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_request');
    const name = unique('fixed');
    const good = await post(admin, { name }, key);
    expect(good.status).toBe(201);
    expect(await brandsNamed(name)).toBe(1);
  });

  it('forgets a key after 24 hours', async () => {
    const key = unique('key');
    await post(admin, { name: unique('old') }, key);
    await h.db.prisma.idempotencyRecord.updateMany({
      where: { key },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    recentAnswers.clear(); // 24 hours on, this process's memory of the answer has expired too
    const name = unique('new');
    const res = await post(admin, { name }, key);
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replay')).toBeNull();
    expect(await brandsNamed(name)).toBe(1);
  });

  it('keeps keys apart per tenant and per environment', async () => {
    const a = await createTenant(h.db.prisma);
    const b = await createTenant(h.db.prisma);
    const aTest = (await a.key({ env: 'test' })).key;
    const aLive = (await a.key({ env: 'live' })).key;
    const bTest = (await b.key({ env: 'test' })).key;
    const key = unique('shared');
    const r1 = await post(aTest, {}, key, '/api/v1/test/echo');
    const r2 = await post(bTest, {}, key, '/api/v1/test/echo');
    const r3 = await post(aLive, {}, key, '/api/v1/test/echo');
    const r4 = await post(aTest, {}, key, '/api/v1/test/echo');
    for (const r of [r1, r2, r3]) expect(r.headers.get('idempotent-replay')).toBeNull();
    expect(r2.body.data.sub_brand_id).toBe(b.subBrandId);
    expect(r4.headers.get('idempotent-replay')).toBe('true');
    expect(r4.text).toBe(r1.text);
  });
});

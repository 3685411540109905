import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
let p: Awaited<ReturnType<typeof partner>>;
beforeAll(async () => {
  h = await startHarness();
  p = await partner(h);
});
afterAll(() => h.close());

const FULL = {
  external_id: 'player-1',
  segment_id: 'vip',
  first_name: 'Ana',
  last_name: 'García',
  nickname: 'anita',
  email: 'ana@example.com',
  phone: '+34 600 000 000',
  address_line: 'Calle Mayor 1',
  postal_code: '28013',
  zone: 'Centro',
  locality: 'Sol',
  city: 'Madrid',
  state: 'Madrid',
  country: 'ES',
  preferred_lang: 'es',
  platform_registered_at: '2025-03-04T05:06:07.000Z',
  status: 'watch',
};

describe('POST /api/v1/customers', () => {
  it('creates with every field and reads back the same', async () => {
    const created = await p.post('/api/v1/customers', { ...FULL, external_id: 'full-1' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      ...FULL,
      external_id: 'full-1',
      coin_balance: 0,
      order_count: 0,
      status_note: null,
    });
    expect(created.body.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/); // UUIDv7
    expect(created.body.data.status_changed_at).toBe(created.body.data.created_at);
    const read = await p.get(`/api/v1/customers/${created.body.data.id}`);
    expect(read.body).toEqual(created.body);
  });

  it('needs only first and last name; status defaults to active', async () => {
    const c = await p.customer({});
    expect(c).toMatchObject({ status: 'active', external_id: null, email: null, country: null });
  });

  it('needs an Idempotency-Key and replays a retry', async () => {
    const missing = await p.post('/api/v1/customers', { first_name: 'A', last_name: 'B' }, null);
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('missing_idempotency_key');
    const first = await p.post(
      '/api/v1/customers',
      { first_name: 'Re', last_name: 'Play' },
      'create-replay',
    );
    const again = await p.post(
      '/api/v1/customers',
      { last_name: 'Play', first_name: 'Re' },
      'create-replay',
    );
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    const other = await p.post(
      '/api/v1/customers',
      { first_name: 'Other', last_name: 'Body' },
      'create-replay',
    );
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
  });

  it('refuses a duplicate external_id with 409 conflict; other sub-brands may reuse it', async () => {
    await p.customer({ external_id: 'dup-1' });
    const dup = await p.post('/api/v1/customers', {
      first_name: 'X',
      last_name: 'Y',
      external_id: 'dup-1',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('conflict');
    expect(dup.body.error.message).toMatch(/external_id/);
    const other = await partner(h);
    expect(
      (
        await other.post('/api/v1/customers', {
          first_name: 'X',
          last_name: 'Y',
          external_id: 'dup-1',
        })
      ).status,
    ).toBe(201);
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['missing first_name', { first_name: undefined }, 'first_name: is required'],
    ['empty last_name', { first_name: 'x', last_name: '' }, 'last_name: must not be empty'],
    ['blank first_name', { first_name: '   ', last_name: 'x' }, 'first_name: must not be blank'],
    [
      'first_name over 120',
      { first_name: 'x'.repeat(121), last_name: 'x' },
      'first_name: must be at most 120 characters',
    ],
    ['external_id over 120', { external_id: 'x'.repeat(121) }, 'external_id: must be at most 120'],
    ['segment_id over 36', { segment_id: 'x'.repeat(37) }, 'segment_id: must be at most 36'],
    ['nickname over 120', { nickname: 'x'.repeat(121) }, 'nickname: must be at most 120'],
    ['email malformed', { email: 'ana@' }, 'email: must be an e-mail address'],
    ['email over 255', { email: `${'a'.repeat(250)}@x.com` }, 'email: must be at most 255'],
    ['phone over 40', { phone: '1'.repeat(41) }, 'phone: must be at most 40'],
    [
      'address_line over 240',
      { address_line: 'x'.repeat(241) },
      'address_line: must be at most 240',
    ],
    ['postal_code over 40', { postal_code: 'x'.repeat(41) }, 'postal_code: must be at most 40'],
    ['city over 120', { city: 'x'.repeat(121) }, 'city: must be at most 120'],
    ['zone over 120', { zone: 'x'.repeat(121) }, 'zone: must be at most 120'],
    ['locality over 120', { locality: 'x'.repeat(121) }, 'locality: must be at most 120'],
    ['state over 120', { state: 'x'.repeat(121) }, 'state: must be at most 120'],
    ['country of 3 letters', { country: 'ESP' }, 'country: must be an ISO-3166-1 alpha-2'],
    ['country in lower case', { country: 'es' }, 'country: must be an ISO-3166-1 alpha-2'],
    ['country not assigned', { country: 'XX' }, 'country: must be an ISO-3166-1 alpha-2'],
    ['preferred_lang not offered', { preferred_lang: 'de' }, 'preferred_lang: must be one of'],
    [
      'platform_registered_at with an offset',
      { platform_registered_at: '2025-03-04T05:06:07+02:00' },
      'platform_registered_at: must be an ISO-8601 UTC',
    ],
    [
      'platform_registered_at without time',
      { platform_registered_at: '2025-03-04' },
      'platform_registered_at: must be an ISO-8601 UTC',
    ],
    ['unknown status', { status: 'vip' }, 'status: must be one of'],
    ['status_note on create', { status_note: 'hello' }, 'status_note: is not a known field'],
    ['unknown field', { favourite_game: 'poker' }, 'favourite_game: is not a known field'],
    ['first_name not a string', { first_name: 42 }, 'first_name: must be a string'],
  ];
  it.each(bad)('400 for %s', async (_name, fields, message) => {
    const res = await p.post('/api/v1/customers', {
      first_name: 'Ana',
      last_name: 'García',
      ...fields,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(message);
  });
});

describe('PATCH /api/v1/customers/{id}', () => {
  it('leaves omitted fields, unsets explicit nulls, refuses null for required ones', async () => {
    const c = await p.customer({ email: 'a@b.co', city: 'Madrid', nickname: 'n' });
    const res = await p.patch(`/api/v1/customers/${c.id}`, { email: null, city: 'Sevilla' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      email: null,
      city: 'Sevilla',
      nickname: 'n',
      first_name: 'Ana',
    });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(c.updated_at));
    const nulled = await p.patch(`/api/v1/customers/${c.id}`, { first_name: null });
    expect(nulled.status).toBe(400);
    expect(nulled.body.error.message).toContain('first_name');
    const empty = await p.patch(`/api/v1/customers/${c.id}`, {});
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({ email: null, city: 'Sevilla' });
  });

  it('stamps status_changed_at on a status change only, and keeps status_note', async () => {
    const c = await p.customer();
    await new Promise((r) => setTimeout(r, 5));
    const same = await p.patch(`/api/v1/customers/${c.id}`, { status: 'active', city: 'Bilbao' });
    expect(same.body.data.status_changed_at).toBe(c.status_changed_at);
    const changed = await p.patch(`/api/v1/customers/${c.id}`, {
      status: 'banned',
      status_note: 'chargeback',
    });
    expect(changed.body.data).toMatchObject({ status: 'banned', status_note: 'chargeback' });
    expect(Date.parse(changed.body.data.status_changed_at)).toBeGreaterThan(
      Date.parse(c.status_changed_at),
    );
    const note = await p.patch(`/api/v1/customers/${c.id}`, { status_note: 'x'.repeat(501) });
    expect(note.status).toBe(400);
  });

  it('refuses taking another customer’s external_id', async () => {
    await p.customer({ external_id: 'patch-taken' });
    const c = await p.customer({ external_id: 'patch-mine' });
    const res = await p.patch(`/api/v1/customers/${c.id}`, { external_id: 'patch-taken' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
  });
});

describe('DELETE /api/v1/customers/{id}', () => {
  it('hard-deletes the customer with its wallet and movements; a second delete is 404', async () => {
    const c = await p.customer();
    await p.credit(c.id, 100);
    const res = await p.delete(`/api/v1/customers/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: c.id, deleted: true } });
    expect((await p.get(`/api/v1/customers/${c.id}`)).status).toBe(404);
    expect(await h.db.prisma.coinMovement.count({ where: { customerId: c.id } })).toBe(0);
    expect(await h.db.prisma.wallet.count({ where: { customerId: c.id } })).toBe(0);
    expect((await p.delete(`/api/v1/customers/${c.id}`)).status).toBe(404);
  });
});

describe('tenancy and environments', () => {
  it('every customer and wallet route answers 404 for another sub-brand’s customer, and changes nothing', async () => {
    const mine = await p.customer({ email: 'keep@me.com' });
    await p.credit(mine.id, 50);
    const other = await partner(h);
    const id = mine.id;
    const calls = [
      () => other.get(`/api/v1/customers/${id}`),
      () => other.patch(`/api/v1/customers/${id}`, { email: null }),
      () => other.delete(`/api/v1/customers/${id}`),
      () => other.post(`/api/v1/customers/${id}/coins`, { delta: -50 }),
      () => other.get(`/api/v1/customers/${id}/coins`),
      () => other.get(`/api/v1/customers/${id}/coins/movements`),
    ];
    for (const call of calls) {
      const res = await call();
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const list = await other.get('/api/v1/customers?q=keep');
    expect(list.body.data).toEqual([]);
    const after = await p.get(`/api/v1/customers/${id}`);
    expect(after.body.data).toMatchObject({ email: 'keep@me.com', coin_balance: 50 });
  });

  it('test keys never see live customers, and live keys never see test ones', async () => {
    const liveKey = await p.otherKey({ env: 'live' });
    const c = await p.customer({ external_id: 'env-test' });
    expect((await h.call('GET', `/api/v1/customers/${c.id}`, { key: liveKey })).status).toBe(404);
    expect(
      (await h.call('GET', '/api/v1/customers?q=env-test', { key: liveKey })).body.data,
    ).toEqual([]);
    const credit = await h.call('POST', `/api/v1/customers/${c.id}/coins`, {
      key: liveKey,
      body: { delta: 5 },
      headers: { 'idempotency-key': 'live-credit' },
    });
    expect(credit.status).toBe(404);
    // The same external_id may exist once per environment.
    const liveTwin = await h.call('POST', '/api/v1/customers', {
      key: liveKey,
      body: { first_name: 'L', last_name: 'Twin', external_id: 'env-test' },
      headers: { 'idempotency-key': 'live-twin' },
    });
    expect(liveTwin.status).toBe(201);
    expect((await p.get(`/api/v1/customers/${liveTwin.body.data.id}`)).status).toBe(404);
  });

  it('each route needs its scope', async () => {
    const readOnly = await p.otherKey({ scopes: ['customers:read'] });
    const c = await p.customer();
    const attempts = [
      h.call('POST', '/api/v1/customers', {
        key: readOnly,
        body: { first_name: 'a', last_name: 'b' },
        headers: { 'idempotency-key': 's1' },
      }),
      h.call('PATCH', `/api/v1/customers/${c.id}`, { key: readOnly, body: { city: 'x' } }),
      h.call('DELETE', `/api/v1/customers/${c.id}`, { key: readOnly }),
      h.call('POST', `/api/v1/customers/${c.id}/coins`, {
        key: readOnly,
        body: { delta: 1 },
        headers: { 'idempotency-key': 's2' },
      }),
      h.call('POST', '/api/v1/customers/bulk/coins', {
        key: readOnly,
        body: { delta: 1, all: true },
        headers: { 'idempotency-key': 's3' },
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
  });
});

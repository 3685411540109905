// Issue 32's agent traps on the customer side: exact e-mail and external_id lookups, the segment
// list, a bulk adjustment read by id, and a dry run that leaves its key for the real call.
import { randomUUID } from 'node:crypto';
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

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((c) => c.id);

describe('exact lookups on the customer list', () => {
  it('finds one customer by e-mail in any case, and by external_id exactly', async () => {
    const ana = await p.customer({ email: 'Ana.Garcia@Example.com', external_id: 'ext-42' });
    await p.customer({ email: 'xana.garcia@example.com', external_id: 'ext-421' });
    const byEmail = await p.get('/api/v1/customers?email=ana.garcia%40example.com');
    expect(byEmail.status, byEmail.text).toBe(200);
    expect(ids(byEmail)).toEqual([ana.id]); // not the one that only contains it
    expect(ids(await p.get('/api/v1/customers?external_id=ext-42'))).toEqual([ana.id]);
    expect(ids(await p.get('/api/v1/customers?external_id=EXT-42'))).toEqual([]);
    // Another tenant's customer with the same e-mail is never found.
    const other = await partner(h);
    await other.customer({ email: 'ana.garcia@example.com' });
    expect(ids(await p.get('/api/v1/customers?email=ANA.GARCIA%40EXAMPLE.COM'))).toEqual([ana.id]);
    // A wildcard is a literal character, not a pattern.
    expect(ids(await p.get('/api/v1/customers?email=%25%40example.com'))).toEqual([]);
    const bad = await p.get(`/api/v1/customers?external_id=${'x'.repeat(121)}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('external_id');
  });
});

describe('segments', () => {
  it('lists the segment ids in use with their counts, largest first, for the key only', async () => {
    const t = await partner(h);
    for (const segment of ['vip', 'vip', 'vip', 'new', 'new', null])
      await t.customer(segment ? { segment_id: segment } : {});
    await p.customer({ segment_id: 'other-tenant' });
    const res = await t.get('/api/v1/segments');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([
      { segment_id: 'vip', customers: 3 },
      { segment_id: 'new', customers: 2 },
    ]);
    expect((await t.get('/api/v1/segments?limit=1')).status).toBe(400);
    const narrow = await t.otherKey({ scopes: ['orders:read'] });
    expect((await h.call('GET', '/api/v1/segments', { key: narrow })).status).toBe(403);
  });
});

describe('bulk adjustments', () => {
  it('a dry run leaves its key unspent; the run is then read by id, by its tenant only', async () => {
    const t = await partner(h);
    const a = await t.customer({ segment_id: 'spring' });
    const b = await t.customer({ segment_id: 'spring' });
    const key = randomUUID();
    const body = { filter: { segment_id: 'spring' }, delta: 25 };
    const preview = await t.post('/api/v1/customers/bulk/coins', { ...body, dry_run: true }, key);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.data).toMatchObject({
      dry_run: true,
      would_apply: 2,
      applied: 0,
      id: null,
    });
    const run = await t.post('/api/v1/customers/bulk/coins', body, key);
    expect(run.status, run.text).toBe(200);
    expect(run.body.data).toMatchObject({ dry_run: false, applied: 2, matched: 2 });
    const again = await t.post('/api/v1/customers/bulk/coins', body, key);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body.data).toEqual(run.body.data);
    for (const c of [a, b])
      expect((await t.get(`/api/v1/customers/${c.id}/coins`)).body.data.balance).toBe(25);

    const read = await t.get(`/api/v1/bulk-adjustments/${run.body.data.id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data).toEqual(run.body.data);
    expect(read.body.data.completed_at).not.toBeNull();
    // Another tenant's key, an unknown id and a malformed one.
    expect((await p.get(`/api/v1/bulk-adjustments/${run.body.data.id}`)).status).toBe(404);
    expect((await t.get(`/api/v1/bulk-adjustments/${randomUUID()}`)).status).toBe(404);
    expect((await t.get('/api/v1/bulk-adjustments/not-an-id')).status).toBe(404);
  });
});

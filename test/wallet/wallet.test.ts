import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkAdjustCoins } from '../../src/domain/wallet/bulk-adjust-coins.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('POST /api/v1/customers/{id}/coins', () => {
  it('credits and debits, answering the movement with the balance after', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const credit = await p.post(`/api/v1/customers/${c.id}/coins`, {
      delta: 300,
      reason: 'welcome bonus',
    });
    expect(credit.status).toBe(201);
    expect(credit.body.data).toMatchObject({
      customer_id: c.id,
      delta: 300,
      balance_after: 300,
      reason: 'welcome bonus',
      source: 'api',
    });
    expect(credit.body.data.request_id).toBe(credit.headers.get('x-request-id'));
    const debit = await p.post(`/api/v1/customers/${c.id}/coins`, { delta: -120 });
    expect(debit.body.data).toMatchObject({ delta: -120, balance_after: 180, reason: null });
    expect((await p.get(`/api/v1/customers/${c.id}/coins`)).body.data).toMatchObject({
      customer_id: c.id,
      balance: 180,
    });
    expect((await p.get(`/api/v1/customers/${c.id}`)).body.data.coin_balance).toBe(180);
  });

  it('refuses an overdraft with 409 insufficient_balance stating the balance', async () => {
    const p = await partner(h);
    const c = await p.customer();
    await p.credit(c.id, 40);
    const res = await p.post(`/api/v1/customers/${c.id}/coins`, { delta: -41 });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'insufficient_balance',
      message: expect.stringContaining('40 coins'),
    });
    expect((await p.get(`/api/v1/customers/${c.id}/coins`)).body.data.balance).toBe(40);
  });

  it('applies once per Idempotency-Key, even for concurrent retries', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const key = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        p.post(`/api/v1/customers/${c.id}/coins`, { delta: 25 }, key),
      ),
    );
    expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
    expect(replies.filter((r) => r.headers.get('idempotent-replay') === 'true')).toHaveLength(9);
    expect((await p.get(`/api/v1/customers/${c.id}/coins`)).body.data.balance).toBe(25);
  });

  it.each([
    [{}, 'delta: is required'],
    [{ delta: 0 }, 'delta: must not be 0'],
    [{ delta: 1.5 }, 'delta: must be an int'],
    [{ delta: '10' }, 'delta: must be a number'],
    [{ delta: 2 ** 53 }, 'delta'],
    [{ delta: 1, reason: '' }, 'reason: must not be empty'],
    [{ delta: 1, reason: 'x'.repeat(501) }, 'reason: must be at most 500'],
    [{ delta: 1, reason: 'engine:forged' }, 'reason: must not start with engine:'],
    [{ delta: 1, note: 'x' }, 'note: is not a known field'],
  ])('400 for %j', async (body, message) => {
    const p = await partner(h);
    const c = await p.customer();
    const res = await p.post(`/api/v1/customers/${c.id}/coins`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });

  it('refuses a credit that would pass 2^53 - 1', async () => {
    const p = await partner(h);
    const c = await p.customer();
    await p.credit(c.id, Number.MAX_SAFE_INTEGER);
    const res = await p.post(`/api/v1/customers/${c.id}/coins`, { delta: 1 });
    expect(res.status).toBe(400);
  });
});

describe('GET /api/v1/customers/{id}/coins/movements', () => {
  it('lists movements newest first with who caused them, paginated', async () => {
    const p = await partner(h);
    const c = await p.customer();
    for (const d of [10, 20, -5, 30]) await p.credit(c.id, d);
    const page1 = await p.get(`/api/v1/customers/${c.id}/coins/movements?limit=3`);
    expect(page1.body.data.map((m: { delta: number }) => m.delta)).toEqual([30, -5, 20]);
    expect(page1.body.data.map((m: { balance_after: number }) => m.balance_after)).toEqual([
      55, 25, 30,
    ]);
    expect(page1.body.data[0]).toMatchObject({
      source: 'api',
      api_key_id: expect.any(String),
      request_id: expect.stringMatching(/^req_/),
    });
    const page2 = await p.get(
      `/api/v1/customers/${c.id}/coins/movements?limit=3&cursor=${encodeURIComponent(page1.body.page.next_cursor)}`,
    );
    expect(page2.body.data.map((m: { delta: number }) => m.delta)).toEqual([10]);
    expect(page2.body.page).toEqual({ has_more: false, next_cursor: null });
  });
});

describe('POST /api/v1/customers/bulk/coins', () => {
  async function cohort() {
    const p = await partner(h);
    const a = await p.customer({ country: 'ES', segment_id: 'vip' });
    const b = await p.customer({ country: 'ES' });
    const c = await p.customer({ country: 'PT' });
    await p.credit(a.id, 100);
    await p.credit(b.id, 10);
    return { p, a, b, c };
  }
  const balance = async (p: Awaited<ReturnType<typeof partner>>, id: string) =>
    (await p.get(`/api/v1/customers/${id}/coins`)).body.data.balance;

  it('credits the filtered cohort once', async () => {
    const { p, a, b, c } = await cohort();
    const res = await p.post('/api/v1/customers/bulk/coins', {
      filter: { country: 'ES' },
      delta: 50,
      reason: 'spring promo',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      dry_run: false,
      matched: 2,
      applied: 2,
      skipped: 0,
      delta: 50,
      total_delta: 100,
    });
    expect([await balance(p, a.id), await balance(p, b.id), await balance(p, c.id)]).toEqual([
      150, 60, 0,
    ]);
    const movement = (await p.get(`/api/v1/customers/${a.id}/coins/movements`)).body.data[0];
    expect(movement).toMatchObject({
      source: 'bulk',
      bulk_id: res.body.data.id,
      reason: 'spring promo',
    });
  });

  it('skips and reports the customers a debit would take below zero', async () => {
    const { p, a, b, c } = await cohort();
    const res = await p.post('/api/v1/customers/bulk/coins', { delta: -20, all: true });
    expect(res.body.data).toMatchObject({ matched: 3, applied: 1, skipped: 2, total_delta: -20 });
    expect(res.body.data.skipped_customer_ids.sort()).toEqual([b.id, c.id].sort());
    expect([await balance(p, a.id), await balance(p, b.id), await balance(p, c.id)]).toEqual([
      80, 10, 0,
    ]);
  });

  it('previews with dry_run without moving coins', async () => {
    const { p, a, b } = await cohort();
    const res = await p.post('/api/v1/customers/bulk/coins', {
      filter: { min_coins: 1 },
      delta: -50,
      dry_run: true,
    });
    expect(res.body.data).toMatchObject({
      id: null,
      dry_run: true,
      matched: 2,
      applied: 0, // a preview applies nothing…
      would_apply: 1, // …and says what it would
      skipped: 1,
      total_delta: -50,
    });
    expect(res.body.data.skipped_customer_ids).toEqual([b.id]);
    expect(await balance(p, a.id)).toBe(100);
  });

  it('replays with the same key and refuses it for another body', async () => {
    const { p, a } = await cohort();
    const key = randomUUID();
    const first = await p.post('/api/v1/customers/bulk/coins', { delta: 5, all: true }, key);
    const again = await p.post('/api/v1/customers/bulk/coins', { delta: 5, all: true }, key);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await balance(p, a.id)).toBe(105);
    const other = await p.post('/api/v1/customers/bulk/coins', { delta: 6, all: true }, key);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
  });

  it('concurrent duplicates apply once per customer', async () => {
    const { p, a, b, c } = await cohort();
    const key = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 5 }, () =>
        p.post('/api/v1/customers/bulk/coins', { delta: 7, all: true }, key),
      ),
    );
    for (const r of replies) expect(r.status).toBe(200);
    expect([await balance(p, a.id), await balance(p, b.id), await balance(p, c.id)]).toEqual([
      107, 17, 7,
    ]);
  });

  it('resumes after a crash between batches and applies each customer exactly once', async () => {
    const p = await partner(h);
    const customers = [];
    for (let i = 0; i < 7; i++) customers.push(await p.customer({ segment_id: 'resume' }));
    const tenant = { subBrandId: p.subBrandId, environment: 'test' as const };
    const actor = { apiKeyId: null, requestId: null };
    const input = { filter: { segmentId: 'resume' }, delta: 3 };
    await expect(
      bulkAdjustCoins(h.db.prisma, tenant, actor, 'crash-key', input, {
        batchSize: 2,
        afterBatch: (n) => {
          if (n === 2) throw new Error('crash after the second batch');
        },
      }),
    ).rejects.toThrow('crash');
    const moved = await h.db.prisma.coinMovement.count({
      where: { customerId: { in: customers.map((c) => c.id) } },
    });
    expect(moved).toBe(4); // two batches of two committed
    const done = await bulkAdjustCoins(h.db.prisma, tenant, actor, 'crash-key', input, {
      batchSize: 2,
    });
    expect(done).toMatchObject({ matched: 7, applied: 7, skipped: 0, totalDelta: 21 });
    for (const c of customers) expect(await balance(p, c.id)).toBe(3);
  });

  it('leaves customers created after it began out of the cohort', async () => {
    const p = await partner(h);
    const early = [await p.customer(), await p.customer()];
    const tenant = { subBrandId: p.subBrandId, environment: 'test' as const };
    let late: { id: string } | undefined;
    const result = await bulkAdjustCoins(
      h.db.prisma,
      tenant,
      { apiKeyId: null, requestId: null },
      'late-key',
      { delta: 1 },
      {
        batchSize: 1,
        afterBatch: async (n) => {
          if (n === 1) late = await p.customer(); // arrives while the adjustment runs
        },
      },
    );
    expect(result.applied).toBe(2);
    for (const c of early) expect(await balance(p, c.id)).toBe(1);
    expect(await balance(p, late!.id)).toBe(0);
  });

  it.each([
    [{ delta: 0, all: true }, 'delta: must not be 0'],
    // An empty filter does not silently mean everyone.
    [{ delta: 5 }, 'filter: is empty: send a filter, or all: true to reward every customer'],
    [{ delta: 5, filter: {} }, 'filter: is empty'],
    [{ delta: 5, all: true, filter: { country: 'ES' } }, 'filter: send a filter or all: true'],
    [{ delta: 5, all: false }, 'all: must be one of true'],
    [{ delta: 5, filter: { country: 'España' } }, 'filter.country'],
    [{ delta: 5, filter: { min_coins: 'x' } }, 'filter.min_coins'],
    [{ delta: 5, filter: { colour: 'red' } }, 'filter.colour: is not a known field'],
    [{ delta: 5, all: true, dry_run: 'yes' }, 'dry_run: must be a boolean'],
  ])('400 for %j', async (body, message) => {
    const p = await partner(h);
    const res = await p.post('/api/v1/customers/bulk/coins', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });
});

// Coin holds (docs/expiry-and-holds.md): they lower what can be spent without moving the balance,
// never exceed it under any concurrency, capture once, release, and expire on their own.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCoinExpiry } from '../../src/domain/wallet/expire-coins.js';
import { setCoinExpiry } from '../../src/domain/wallet/expiry-policy.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let clock = new Date('2026-05-01T08:00:00.000Z');
const later = (seconds: number) => new Date(clock.getTime() + seconds * 1000);
let h: Harness;
beforeAll(async () => {
  // The expiry job reads every tenant, on this file's clock: a database of the file's own.
  h = await startHarness({ now: () => clock, ownDatabase: true });
});
afterAll(() => h.close());

type Partner = Awaited<ReturnType<typeof partner>>;
const holds = (id: string) => `/api/v1/customers/${id}/coins/holds`;
const hold = (p: Partner, id: string, body: Record<string, unknown>, key?: string) =>
  p.post(holds(id), { expires_in_seconds: 600, ...body }, key);
const coins = async (p: Partner, id: string) =>
  (await p.get(`/api/v1/customers/${id}/coins`)).body.data;

describe('holds', () => {
  it('lower available, not the balance; a debit cannot spend held coins; capture debits once', async () => {
    const p = await partner(h);
    const c = await p.customer();
    await p.credit(c.id, 100);
    const placed = await hold(p, c.id, { amount: 70, reason: 'prize reserved' });
    expect(placed.status).toBe(201);
    expect(placed.body.data).toMatchObject({
      customer_id: c.id,
      amount: 70,
      reason: 'prize reserved',
      status: 'active',
      expires_at: later(600).toISOString(),
      captured_amount: null,
      movement_id: null,
    });
    expect(await coins(p, c.id)).toMatchObject({ balance: 100, held: 70, available: 30 });

    const debit = await p.post(`/api/v1/customers/${c.id}/coins`, { delta: -31 });
    expect(debit.status).toBe(409);
    expect(debit.body.error).toMatchObject({
      code: 'insufficient_balance',
      message: expect.stringContaining('70 of them on hold'),
    });
    expect((await p.post(`/api/v1/customers/${c.id}/coins`, { delta: -30 })).status).toBe(201);

    const id = placed.body.data.id;
    const key = randomUUID();
    const captures = await Promise.all(
      Array.from({ length: 5 }, () => p.post(`${holds(c.id)}/${id}/capture`, { amount: 50 }, key)),
    );
    expect(captures.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const captured = captures[0]!.body.data;
    expect(captured).toMatchObject({ status: 'captured', captured_amount: 50 });
    expect(captures.every((r) => r.body.data.movement_id === captured.movement_id)).toBe(true);
    // The rest of the hold is released: 20 spendable again.
    expect(await coins(p, c.id)).toMatchObject({ balance: 20, held: 0, available: 20 });
    const moves = (await p.get(`/api/v1/customers/${c.id}/coins/movements`)).body.data;
    expect(moves[0]).toMatchObject({ id: captured.movement_id, delta: -50, reason: `hold:${id}` });

    // Another key cannot capture it twice, nor release it.
    const again = await p.post(`${holds(c.id)}/${id}/capture`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('hold_not_active');
    expect((await p.post(`${holds(c.id)}/${id}/release`, {})).body.error.code).toBe(
      'hold_not_active',
    );
  });

  it('release gives the coins back; a second release answers the released hold', async () => {
    const p = await partner(h);
    const c = await p.customer();
    await p.credit(c.id, 40);
    const id = (await hold(p, c.id, { amount: 40 })).body.data.id;
    expect(await coins(p, c.id)).toMatchObject({ available: 0 });
    const released = await p.post(`${holds(c.id)}/${id}/release`, {}, null);
    expect(released.status).toBe(200);
    expect(released.body.data).toMatchObject({
      status: 'released',
      closed_at: clock.toISOString(),
    });
    expect((await p.post(`${holds(c.id)}/${id}/release`, {}, null)).body.data.status).toBe(
      'released',
    );
    expect(await coins(p, c.id)).toMatchObject({ balance: 40, held: 0, available: 40 });
    expect((await p.get(`${holds(c.id)}/${id}`)).body.data.status).toBe('released');
    const list = (await p.get(holds(c.id))).body;
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([id]);
  });

  it('expires on its own: the coins are free at expires_at, capture is 409 hold_expired, the job closes it', async () => {
    const p = await partner(h);
    const c = await p.customer();
    await p.credit(c.id, 10);
    const id = (await hold(p, c.id, { amount: 10, expires_in_seconds: 60 })).body.data.id;
    const start = clock;
    clock = new Date(start.getTime() + 60_000);
    expect(await coins(p, c.id)).toMatchObject({ held: 0, available: 10 });
    expect((await p.get(`${holds(c.id)}/${id}`)).body.data.status).toBe('expired');
    const capture = await p.post(`${holds(c.id)}/${id}/capture`, {});
    expect(capture.status).toBe(409);
    expect(capture.body.error.code).toBe('hold_expired');
    await runCoinExpiry(h.db.prisma, clock);
    const row = await h.db.prisma.coinHold.findFirstOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'expired', closedAt: new Date(start.getTime() + 60_000) });
    const evts = await h.db.prisma.event.findMany({
      where: { subBrandId: p.subBrandId, resourceId: id },
      orderBy: [{ xid: 'asc' }, { id: 'asc' }],
    });
    expect(evts.map((e) => e.type)).toEqual(['coin_hold.created', 'coin_hold.expired']);
  });

  it('an expiry that leaves too few coins cuts the newest holds to fit', async () => {
    const p = await partner(h);
    await setCoinExpiry(h.db.prisma, p.subBrandId, { policy: 'rolling_days', days: 1 });
    const c = await p.customer();
    await p.credit(c.id, 50); // expires in a day
    clock = later(3600);
    await p.credit(c.id, 30); // expires a day later
    const older = (await hold(p, c.id, { amount: 20, expires_in_seconds: 7 * 86_400 })).body.data;
    const newer = (await hold(p, c.id, { amount: 50, expires_in_seconds: 7 * 86_400 })).body.data;
    clock = later(86_400 - 1800); // past the first lot's expiry, before the second's
    await runCoinExpiry(h.db.prisma, clock);
    expect(await coins(p, c.id)).toMatchObject({ balance: 30, held: 30, available: 0 });
    expect((await p.get(`${holds(c.id)}/${newer.id}`)).body.data).toMatchObject({
      amount: 10,
      status: 'active',
    });
    expect((await p.get(`${holds(c.id)}/${older.id}`)).body.data.amount).toBe(20);
  });

  it('refuses bad input, other tenants and missing keys', async () => {
    const p = await partner(h);
    const other = await partner(h);
    const c = await p.customer();
    await p.credit(c.id, 10);
    const bad = [
      {},
      { amount: 0, expires_in_seconds: 60 },
      { amount: 1.5, expires_in_seconds: 60 },
      { amount: '5', expires_in_seconds: 60 },
      { amount: 5, expires_in_seconds: 0 },
      { amount: 5, expires_in_seconds: 90 * 86_400 + 1 },
      { amount: 5, expires_in_seconds: 60, extra: true },
    ];
    for (const body of bad) {
      const res = await p.post(holds(c.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await hold(p, c.id, { amount: 11 })).body.error.code).toBe('insufficient_balance');
    const missingKey = await p.post(holds(c.id), { amount: 1, expires_in_seconds: 60 }, null);
    expect(missingKey.status).toBe(400);
    expect(missingKey.body.error.code).toBe('missing_idempotency_key');
    expect((await hold(other, c.id, { amount: 1 })).status).toBe(404);
    const id = (await hold(p, c.id, { amount: 5 })).body.data.id;
    expect((await other.get(`${holds(c.id)}/${id}`)).status).toBe(404);
    expect((await other.post(`${holds(c.id)}/${id}/capture`, {})).status).toBe(404);
    expect((await other.post(`${holds(c.id)}/${id}/release`, {})).status).toBe(404);
    const c2 = await p.customer();
    expect((await p.post(`${holds(c2.id)}/${id}/capture`, {})).status).toBe(404);
    const over = await p.post(`${holds(c.id)}/${id}/capture`, { amount: 6 });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toContain('amount');
    expect((await p.get(`${holds(c.id)}/${id}`)).body.data.status).toBe('active');
    expect(await coins(p, c.id)).toMatchObject({ balance: 10, held: 5 });
  });
});

describe('holds under concurrency', () => {
  it('100 concurrent holds on one wallet never exceed its available balance', async () => {
    const p = await partner(h);
    const c = await p.customer();
    await p.credit(c.id, 250);
    await hold(p, c.id, { amount: 50 });
    const replies = await Promise.all(
      Array.from({ length: 100 }, () => hold(p, c.id, { amount: 7 })),
    );
    const placed = replies.filter((r) => r.status === 201).length;
    expect(replies.filter((r) => r.status !== 201).map((r) => r.body.error.code)).toEqual(
      Array(100 - placed).fill('insufficient_balance'),
    );
    expect(placed).toBe(Math.floor(200 / 7)); // every hold that fit, and no more
    expect(await coins(p, c.id)).toMatchObject({ balance: 250, held: 50 + placed * 7 });
  });

  it.runIf(TEST_DB === 'postgres')(
    'holds and debits at once never spend held coins nor hold spent ones',
    async () => {
      const p = await partner(h);
      const c = await p.customer();
      await p.credit(c.id, 300);
      const replies = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          i % 2
            ? hold(p, c.id, { amount: 10 })
            : p.post(`/api/v1/customers/${c.id}/coins`, { delta: -10 }),
        ),
      );
      const ok = replies.filter((r) => r.status === 201).length;
      expect(ok).toBe(30); // 300 coins cover exactly 30 of the 60
      const after = await coins(p, c.id);
      expect(after.available).toBe(0);
      expect(after.balance - after.held).toBe(0);
    },
  );
});

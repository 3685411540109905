// Coin expiry (docs/expiry-and-holds.md): lots spent earliest expiry first, written off once at
// their expiry, never spent after it, and balances as of any instant. The server's clock is the
// harness's `now`, moved by the tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCoinExpiry } from '../../src/domain/wallet/expire-coins.js';
import { setCoinExpiry } from '../../src/domain/wallet/expiry-policy.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { createStaff, signInAs } from '../support/staff.js';

const DAY = 86_400_000;
const D = new Date('2026-03-01T12:00:00.000Z');
const at = (days: number, hours = 0) => new Date(D.getTime() + days * DAY + hours * 3_600_000);

let clock = D;
let h: Harness;
beforeAll(async () => {
  // The expiry job reads every tenant, on this file's clock: a database of the file's own.
  h = await startHarness({ now: () => clock, ownDatabase: true });
});
afterAll(() => h.close());

async function rollingTenant(days = 30) {
  const p = await partner(h);
  await setCoinExpiry(h.db.prisma, p.subBrandId, { policy: 'rolling_days', days });
  return p;
}

const movements = async (p: Awaited<ReturnType<typeof partner>>, id: string) =>
  (await p.get(`/api/v1/customers/${id}/coins/movements?limit=100`)).body.data as {
    delta: number;
    reason: string | null;
    source: string;
    lot_id: string | null;
    balance_after: number;
  }[];

describe('rolling_days expiry: the worked example', () => {
  // The example spends on D+31, after the first lot's expiry at D+30, yet has it spent
  // and not expired; with expiry at the exact instant, the spend comes before it: the second
  // credit and the spend are on day 30, an hour or two before the first lot expires.
  it('spends the first lot first, expires only what is left of the second, once; as_of answers 50', async () => {
    const p = await rollingTenant(30);
    const c = await p.customer();
    clock = at(0);
    const first = await p.credit(c.id, 100);
    expect(first.lot_id).toEqual(expect.any(String));
    clock = at(30, -2);
    const second = await p.credit(c.id, 100);
    clock = at(30, -1);
    const spend = await p.post(`/api/v1/customers/${c.id}/coins`, { delta: -150 });
    expect(spend.status).toBe(201);
    expect(spend.body.data).toMatchObject({ balance_after: 50, lot_id: null });

    const coins = (await p.get(`/api/v1/customers/${c.id}/coins`)).body.data;
    expect(coins).toMatchObject({ balance: 50, held: 0, available: 50, as_of: null });
    expect(coins.expiring).toEqual([{ amount: 50, expires_at: at(60, -2).toISOString() }]);

    clock = at(30);
    await runCoinExpiry(h.db.prisma, clock);
    expect((await movements(p, c.id)).filter((m) => m.source === 'expiry')).toEqual([]);

    clock = at(60, -2);
    await runCoinExpiry(h.db.prisma, clock);
    await runCoinExpiry(h.db.prisma, clock); // a second pass (or process) finds nothing more
    const expiries = (await movements(p, c.id)).filter((m) => m.source === 'expiry');
    expect(expiries).toEqual([
      expect.objectContaining({
        delta: -50,
        reason: `expiry:${second.lot_id}`,
        lot_id: second.lot_id,
        balance_after: 0,
      }),
    ]);

    const asOf = await p.get(`/api/v1/customers/${c.id}/coins?as_of=${at(45).toISOString()}`);
    expect(asOf.body.data).toMatchObject({
      balance: 50,
      as_of: at(45).toISOString(),
      held: null,
      available: null,
    });
    const now = (await p.get(`/api/v1/customers/${c.id}/coins`)).body.data;
    expect(now).toMatchObject({ balance: 0, available: 0, expiring: [] });
  });
});

describe('expired coins are never spent', () => {
  it('writes off a due lot before a debit, which is then refused', async () => {
    const p = await rollingTenant(10);
    const c = await p.customer();
    clock = at(0);
    await p.credit(c.id, 80);
    clock = at(10, 1); // due, and the job has not run
    const read = (await p.get(`/api/v1/customers/${c.id}/coins`)).body.data;
    expect(read).toMatchObject({ balance: 80, available: 0 });
    const debit = await p.post(`/api/v1/customers/${c.id}/coins`, { delta: -10 });
    expect(debit.status).toBe(409);
    expect(debit.body.error.code).toBe('insufficient_balance');
    // A credit writes the due lot off first: the expiry comes before it in the ledger.
    await p.credit(c.id, 5);
    const moves = await movements(p, c.id);
    expect(moves.map((m) => [m.delta, m.source, m.balance_after])).toEqual([
      [5, 'api', 5],
      [-80, 'expiry', 0],
      [80, 'api', 80],
    ]);
    await runCoinExpiry(h.db.prisma, clock);
    expect(await movements(p, c.id)).toHaveLength(3);
  });

  it('gives a refund back to the lots its order took, expiring at once what went back to an expired lot', async () => {
    const p = await rollingTenant(10);
    const c = await p.customer();
    clock = at(0);
    const first = await p.credit(c.id, 60);
    clock = at(5);
    const second = await p.credit(c.id, 60);
    clock = at(6);
    // An order's debit (the refund path is the order's cancel; the ledger sees reason order:<id>).
    const { applyMovements } = await import('../../src/domain/ledger/apply-movements.js');
    const tenant = { subBrandId: p.subBrandId, environment: 'test' as const };
    const actor = { apiKeyId: null, requestId: null };
    await applyMovements(
      h.db.prisma,
      tenant,
      [{ customerId: c.id, delta: -90, reason: 'order:x' }],
      { ...actor, source: 'order', at: at(6) },
    );
    clock = at(12); // the first lot (60 spent) is past its expiry; the second (30 spent) is not
    await applyMovements(
      h.db.prisma,
      tenant,
      [{ customerId: c.id, delta: 90, reason: 'refund:x' }],
      { ...actor, source: 'refund', refundOf: 'order:x', at: at(12) },
    );
    const lots = await h.db.prisma.coinLot.findMany({ where: { customerId: c.id } });
    const byId = Object.fromEntries(lots.map((l) => [l.id, Number(l.remaining)]));
    expect(byId).toEqual({ [first.lot_id]: 0, [second.lot_id]: 60 });
    const moves = await movements(p, c.id);
    expect(moves.slice(0, 2).map((m) => [m.delta, m.source, m.lot_id, m.balance_after])).toEqual([
      [-60, 'expiry', first.lot_id, 60],
      [90, 'refund', null, 120],
    ]);
    expect((await p.get(`/api/v1/customers/${c.id}/coins`)).body.data.balance).toBe(60);
  });
});

describe('the other policies', () => {
  it('fixed_date: every credit expires at the next 1 January, 00:00 UTC', async () => {
    const p = await partner(h);
    await setCoinExpiry(h.db.prisma, p.subBrandId, { policy: 'fixed_date', month: 1, day: 1 });
    const c = await p.customer();
    clock = new Date('2026-12-31T23:00:00.000Z');
    await p.credit(c.id, 10);
    clock = new Date('2027-01-01T00:00:00.000Z');
    await p.credit(c.id, 20);
    const lots = await h.db.prisma.coinLot.findMany({
      where: { customerId: c.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(lots.map((l) => l.expiresAt?.toISOString())).toEqual([
      '2027-01-01T00:00:00.000Z',
      '2028-01-01T00:00:00.000Z',
    ]);
    // The 20 credited at the first lot's expiry instant wrote it off first.
    expect((await p.get(`/api/v1/customers/${c.id}/coins`)).body.data.balance).toBe(20);
  });

  it('inactivity_days: every movement moves all coins’ expiry; silence expires them all', async () => {
    const p = await partner(h);
    await setCoinExpiry(h.db.prisma, p.subBrandId, { policy: 'inactivity_days', days: 30 });
    const c = await p.customer();
    clock = at(0);
    await p.credit(c.id, 10);
    clock = at(20);
    await p.credit(c.id, 10);
    clock = at(45); // 25 days after the last movement: nothing is due
    await runCoinExpiry(h.db.prisma, clock);
    const coins = (await p.get(`/api/v1/customers/${c.id}/coins`)).body.data;
    expect(coins.expiring).toEqual([{ amount: 20, expires_at: at(50).toISOString() }]);
    clock = at(50);
    await runCoinExpiry(h.db.prisma, clock);
    expect((await movements(p, c.id)).map((m) => [m.delta, m.source])).toEqual([
      [-10, 'expiry'],
      [-10, 'expiry'],
      [10, 'api'],
      [10, 'api'],
    ]);
    expect((await p.get(`/api/v1/customers/${c.id}/coins`)).body.data.balance).toBe(0);
  });

  it('none (the default): coins never expire', async () => {
    const p = await partner(h);
    const c = await p.customer();
    clock = at(0);
    const credit = await p.credit(c.id, 10);
    const lot = await h.db.prisma.coinLot.findFirstOrThrow({ where: { id: credit.lot_id } });
    expect(lot.expiresAt).toBeNull();
    clock = at(10_000);
    await runCoinExpiry(h.db.prisma, clock);
    expect((await p.get(`/api/v1/customers/${c.id}/coins`)).body.data).toMatchObject({
      balance: 10,
      expiring: [],
    });
  });
});

describe('GET coins?as_of and bad input', () => {
  it('refuses an as_of in the future or malformed, 400 naming it', async () => {
    const p = await rollingTenant();
    const c = await p.customer();
    clock = at(0);
    for (const q of [at(1).toISOString(), 'yesterday', '2026-13-01T00:00:00Z']) {
      const res = await p.get(`/api/v1/customers/${c.id}/coins?as_of=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.message).toContain('as_of');
    }
  });

  it('answers 0 before the first movement and 404 for another tenant’s customer', async () => {
    const p = await rollingTenant();
    const other = await partner(h);
    const c = await p.customer();
    clock = at(2);
    await p.credit(c.id, 7);
    const before = await p.get(`/api/v1/customers/${c.id}/coins?as_of=${at(1).toISOString()}`);
    expect(before.body.data.balance).toBe(0);
    const theirs = await other.get(`/api/v1/customers/${c.id}/coins?as_of=${at(1).toISOString()}`);
    expect(theirs.status).toBe(404);
  });

  it('announces coins.expiring seven days ahead, once, and coins.expired with the amount', async () => {
    const p = await rollingTenant(10);
    const c = await p.customer();
    clock = at(0);
    const credit = await p.credit(c.id, 33);
    clock = at(2);
    await runCoinExpiry(h.db.prisma, clock);
    clock = at(3);
    await runCoinExpiry(h.db.prisma, clock);
    await runCoinExpiry(h.db.prisma, clock);
    clock = at(10);
    await runCoinExpiry(h.db.prisma, clock);
    const events = await h.db.prisma.event.findMany({
      where: { subBrandId: p.subBrandId, type: { in: ['coins.expiring', 'coins.expired'] } },
      orderBy: [{ xid: 'asc' }, { id: 'asc' }],
    });
    expect(events.map((e) => [e.type, e.resourceId])).toEqual([
      ['coins.expiring', credit.lot_id],
      ['coins.expired', credit.lot_id],
    ]);
    expect(events[0]!.data).toEqual({
      lot_id: credit.lot_id,
      customer_id: c.id,
      amount: 33,
      expires_at: at(10).toISOString(),
    });
    expect(events[1]!.data).toMatchObject({ amount: 33, balance_after: 0 });
  });
});

describe('who sets the policy, and where it shows', () => {
  const SET = `mutation($s: ID!, $p: ExpiryPolicy!, $days: Int, $month: Int, $day: Int) {
    setCoinExpiry(subBrandId: $s, policy: $p, days: $days, month: $month, day: $day) { policy days month day }
  }`;
  const code = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) =>
    res.body.errors?.[0]?.extensions?.code;

  it('platform and brand admins set it (their brand’s only); operators and support cannot', async () => {
    const p = await partner(h);
    const other = await partner(h);
    const sign = async (...args: Parameters<typeof createStaff>) =>
      signInAs(h.url, (await createStaff(...args)).email);
    const brandAdmin = await sign(h.db.prisma, 'brand_admin', { brandId: p.brandId });
    const operator = await sign(h.db.prisma, 'establishment_operator', {
      subBrandId: p.subBrandId,
    });
    const platform = await sign(h.db.prisma, 'platform_admin');

    const set = await brandAdmin.gql(SET, { s: p.subBrandId, p: 'rolling_days', days: 90 });
    expect(set.body.data.setCoinExpiry).toEqual({
      policy: 'rolling_days',
      days: 90,
      month: null,
      day: null,
    });
    expect(code(await brandAdmin.gql(SET, { s: other.subBrandId, p: 'none' }))).toBe('not_found');
    expect(code(await operator.gql(SET, { s: p.subBrandId, p: 'none' }))).toBe('forbidden');
    const bad = await platform.gql(SET, { s: p.subBrandId, p: 'fixed_date', month: 2, day: 29 });
    expect(code(bad)).toBe('invalid_request');
    expect(bad.body.errors[0].message).toContain('day');
    const fixed = await platform.gql(SET, {
      s: other.subBrandId,
      p: 'fixed_date',
      month: 12,
      day: 31,
    });
    expect(fixed.body.data.setCoinExpiry).toMatchObject({
      policy: 'fixed_date',
      month: 12,
      day: 31,
    });
    const row = await h.db.prisma.subBrand.findUniqueOrThrow({ where: { id: p.subBrandId } });
    expect(row).toMatchObject({ expiryPolicy: 'rolling_days', expiryDays: 90 });
  });

  it('shows on the partner sub-brand, the establishment and the player’s wallet', async () => {
    const p = await rollingTenant(30);
    const c = await p.customer();
    clock = at(0);
    await p.credit(c.id, 40);
    const sub = await p.get(`/api/v1/brands/${p.brandId}/sub-brands/${p.subBrandId}`);
    expect(sub.body.data.coin_expiry).toEqual({
      policy: 'rolling_days',
      days: 30,
      month: null,
      day: null,
    });
    const est = await p.get(`/establishments/${p.subBrandId}`);
    expect(est.status, est.text).toBe(200);
    expect(est.body.coinExpiry).toMatchObject({ policy: 'rolling_days', days: 30 });
    await p.post(`/api/v1/customers/${c.id}/coins/holds`, { amount: 15, expires_in_seconds: 600 });
    const player = await p.get(`/players/${c.id}`);
    expect(player.status, player.text).toBe(200);
    expect(player.body.wallet).toMatchObject({
      held: 15,
      available: 25,
      expiring: [{ amount: 40, expiresAt: at(30).toISOString() }],
      holds: [expect.objectContaining({ holdId: expect.any(String), amount: 15 })],
      lots: [
        expect.objectContaining({
          lotId: expect.any(String),
          amount: 40,
          remaining: 40,
          expiresAt: at(30).toISOString(),
        }),
      ],
    });
  });
});

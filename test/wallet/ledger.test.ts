// The ledger's promises: never negative, balance = sum(movements), exactly once for engine grants.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { applyMovements } from '../../src/domain/ledger/apply-movements.js';
import { moveCoins } from '../../src/domain/ledger/move-coins.js';
import { createTenant } from '../support/factories.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const system = { source: 'api' as const, apiKeyId: null, requestId: null };

async function balanceAndSum(customerId: string) {
  const wallet = await h.db.prisma.wallet.findUniqueOrThrow({ where: { customerId } });
  const sum = await h.db.prisma.coinMovement.aggregate({
    where: { customerId },
    _sum: { delta: true },
  });
  return { balance: Number(wallet.balance), sum: Number(sum._sum.delta ?? 0) };
}

describe('concurrent debits', () => {
  it('50 parallel debits of 1 against a balance of 20: exactly 20 succeed, balance 0', async () => {
    const p = await partner(h);
    const c = await p.customer();
    await p.credit(c.id, 20);
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => p.post(`/api/v1/customers/${c.id}/coins`, { delta: -1 })),
    );
    const ok = replies.filter((r) => r.status === 201);
    const refused = replies.filter((r) => r.status === 409);
    expect(ok).toHaveLength(20);
    expect(refused).toHaveLength(30);
    for (const r of refused) expect(r.body.error.code).toBe('insufficient_balance');
    expect(await balanceAndSum(c.id)).toEqual({ balance: 0, sum: 0 });
    // Every successful debit saw a distinct balance: the lock serialized them.
    expect(new Set(ok.map((r) => r.body.data.balance_after)).size).toBe(20);
  });

  it('concurrent credits and debits on one wallet keep balance = sum of movements', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const deltas = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? -7 : 5));
    await Promise.all(deltas.map((delta) => p.post(`/api/v1/customers/${c.id}/coins`, { delta })));
    const { balance, sum } = await balanceAndSum(c.id);
    expect(balance).toBe(sum);
    expect(balance).toBeGreaterThanOrEqual(0);
  });
});

describe('overlapping cohorts', () => {
  it('two cohort adjustments and single adjustments over the same wallets, at once, neither deadlock nor lose a move', async () => {
    const p = await partner(h);
    const cs = [];
    for (let i = 0; i < 30; i++) cs.push(await p.customer());
    const work = [
      p.post('/api/v1/customers/bulk/coins', { delta: 2, all: true }),
      p.post('/api/v1/customers/bulk/coins', { delta: 3, all: true }),
      ...cs.slice(0, 10).map((c) => p.post(`/api/v1/customers/${c.id}/coins`, { delta: 1 })),
    ];
    const replies = await Promise.all(work);
    for (const r of replies) expect([200, 201]).toContain(r.status);
    for (const [i, c] of cs.entries()) {
      const { balance, sum } = await balanceAndSum(c.id);
      expect(balance).toBe(sum);
      expect(balance).toBe(5 + (i < 10 ? 1 : 0));
    }
  });
});

describe('property: random adjustment sequences', () => {
  it('keep balance = sum(movements) >= 0, refusing exactly the debits that would go negative', async () => {
    const tenant = await createTenant(h.db.prisma);
    const t = { subBrandId: tenant.subBrandId, environment: 'test' as const };
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.integer({ min: -500, max: 500 }).filter((d) => d !== 0),
          { minLength: 1, maxLength: 25 },
        ),
        async (deltas) => {
          const c = await createCustomer(h.db.prisma, t, { firstName: 'P', lastName: 'Q' });
          let model = 0;
          for (const delta of deltas) {
            const result = await moveCoins(
              h.db.prisma,
              t,
              { customerId: c.id, delta, reason: null },
              system,
            ).then(
              (m) => m.balanceAfter,
              (e: { code?: string }) => e.code,
            );
            if (model + delta < 0) expect(result).toBe('insufficient_balance');
            else expect(result).toBe((model += delta));
          }
          const { balance, sum } = await balanceAndSum(c.id);
          expect(balance).toBe(model);
          expect(sum).toBe(model);
        },
      ),
      { numRuns: TEST_DB === 'postgres' ? 40 : 25 },
    );
  });
});

describe('database guards', () => {
  it('refuses a second engine: movement even when the pipeline is bypassed', async () => {
    const tenant = await createTenant(h.db.prisma);
    const t = { subBrandId: tenant.subBrandId, environment: 'test' as const };
    const c = await createCustomer(h.db.prisma, t, { firstName: 'E', lastName: 'Ngine' });
    const reason = 'engine:01a00000-0000-7000-8000-000000000001';
    await moveCoins(
      h.db.prisma,
      t,
      { customerId: c.id, delta: 10, reason },
      { ...system, source: 'engine' },
    );
    await expect(
      moveCoins(
        h.db.prisma,
        t,
        { customerId: c.id, delta: 10, reason },
        { ...system, source: 'engine' },
      ),
    ).rejects.toThrow(/coin_movements_engine_reason|Unique constraint/);
    await expect(
      h.db.prisma
        .$executeRaw`INSERT INTO coin_movements (id, customer_id, sub_brand_id, environment, delta, reason, balance_after, source)
        VALUES (gen_random_uuid(), ${c.id}::uuid, ${t.subBrandId}::uuid, 'test', 10, ${reason}, 20, 'engine')`,
    ).rejects.toThrow();
    expect(await balanceAndSum(c.id)).toEqual({ balance: 10, sum: 10 });
  });

  it('refuses a negative balance even when the guard in the statement is bypassed', async () => {
    const tenant = await createTenant(h.db.prisma);
    const t = { subBrandId: tenant.subBrandId, environment: 'test' as const };
    const c = await createCustomer(h.db.prisma, t, { firstName: 'N', lastName: 'Eg' });
    await expect(
      h.db.prisma.$executeRaw`UPDATE wallets SET balance = -1 WHERE customer_id = ${c.id}::uuid`,
    ).rejects.toThrow(/wallets_balance_range|check constraint/i);
  });

  it('moves many wallets at once, refusing only those that would go negative', async () => {
    const tenant = await createTenant(h.db.prisma);
    const t = { subBrandId: tenant.subBrandId, environment: 'test' as const };
    const cs = await Promise.all(
      [1, 2, 3].map((i) => createCustomer(h.db.prisma, t, { firstName: `M${i}`, lastName: 'x' })),
    );
    await moveCoins(h.db.prisma, t, { customerId: cs[0]!.id, delta: 10, reason: null }, system);
    const { applied, refused } = await applyMovements(
      h.db.prisma,
      t,
      [
        { customerId: cs[0]!.id, delta: -5, reason: null },
        { customerId: cs[1]!.id, delta: -5, reason: null },
        { customerId: '01a00000-0000-7000-8000-0000000000ff', delta: 5, reason: null },
      ],
      system,
    );
    expect(applied.map((a) => [a.customerId, a.balanceAfter])).toEqual([[cs[0]!.id, 5]]);
    expect(refused.map((r) => r.refusal).sort()).toEqual(['insufficient_balance', 'not_found']);
  });
});

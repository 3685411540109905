// A property test of coin lots (docs/expiry-and-holds.md): random sequences of credits, debits,
// holds, captures, releases, refunds and clock moves, the invariants checked after every step.
// The expiry job reads every tenant's lots, so the file has a database of its own.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '../../src/domain/errors.js';
import { applyMovements } from '../../src/domain/ledger/apply-movements.js';
import { runCoinExpiry } from '../../src/domain/wallet/expire-coins.js';
import { setCoinExpiry } from '../../src/domain/wallet/expiry-policy.js';
import { captureHold, placeHold, releaseHold } from '../../src/domain/wallet/holds.js';
import { readCoins } from '../../src/domain/wallet/read-coins.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ownDatabase: true });
});
afterAll(() => h.close());

const step = fc.oneof(
  fc.record({ kind: fc.constant('credit' as const), amount: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('debit' as const), amount: fc.integer({ min: 1, max: 100 }) }),
  fc.record({
    kind: fc.constant('hold' as const),
    amount: fc.integer({ min: 1, max: 80 }),
    hours: fc.integer({ min: 1, max: 96 }),
  }),
  fc.record({
    kind: fc.constant('capture' as const),
    pick: fc.nat(),
    amount: fc.option(fc.integer({ min: 1, max: 80 })),
  }),
  fc.record({ kind: fc.constant('release' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('refund' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('clock' as const), hours: fc.integer({ min: 1, max: 72 }) }),
);

/** Refusals a step may meet; anything else fails the property. */
const EXPECTED = new Set(['insufficient_balance', 'hold_expired', 'hold_not_active']);

it('balance = Σ movements = Σ lot remainders, no lot below 0, available = balance − holds ≥ 0, expired lots empty', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 5 }),
      fc.array(step, { minLength: 1, maxLength: 25 }),
      async (days, steps) => {
        const p = await partner(h);
        await setCoinExpiry(h.db.prisma, p.subBrandId, { policy: 'rolling_days', days });
        const c = await p.customer();
        const tenant = { subBrandId: p.subBrandId, environment: 'test' as const };
        const actor = { apiKeyId: null, requestId: null };
        const db = h.db.prisma;
        let now = new Date('2026-06-01T00:00:00.000Z');
        const holds: string[] = [];
        const debits: string[] = [];
        const refunded = new Set<string>();
        for (const s of steps) {
          try {
            if (s.kind === 'credit' || s.kind === 'debit') {
              // Order reasons are unique across tenants (one debit per order).
              const reason = s.kind === 'debit' ? `order:${randomUUID()}` : null;
              const { applied } = await applyMovements(
                db,
                tenant,
                [{ customerId: c.id, delta: s.kind === 'debit' ? -s.amount : s.amount, reason }],
                { ...actor, source: s.kind === 'debit' ? 'order' : 'api', at: now },
              );
              if (applied.length && reason) debits.push(reason);
            } else if (s.kind === 'hold') {
              const hold = await placeHold(
                db,
                tenant,
                actor,
                c.id,
                {
                  amount: s.amount,
                  expiresInSeconds: s.hours * 3600,
                },
                now,
              );
              holds.push(hold.id);
            } else if (s.kind === 'capture' && holds.length) {
              const id = holds[s.pick % holds.length]!;
              await captureHold(db, tenant, actor, c.id, id, { amount: s.amount }, now).catch(
                (e: unknown) => {
                  // A capture above what is held is the caller's mistake, refused as such.
                  if (e instanceof AppError && e.code === 'invalid_request') return;
                  throw e;
                },
              );
            } else if (s.kind === 'release' && holds.length) {
              await releaseHold(db, tenant, c.id, holds[s.pick % holds.length]!, now);
            } else if (s.kind === 'refund' && debits.length) {
              const debit = debits[s.pick % debits.length]!;
              if (!refunded.has(debit)) {
                const movement = await db.coinMovement.findFirstOrThrow({
                  where: { customerId: c.id, reason: debit },
                });
                await applyMovements(
                  db,
                  tenant,
                  [
                    {
                      customerId: c.id,
                      delta: -Number(movement.delta),
                      reason: `refund:${debit.slice('order:'.length)}`,
                    },
                  ],
                  { ...actor, source: 'refund', refundOf: debit, at: now },
                );
                refunded.add(debit);
              }
            } else if (s.kind === 'clock') {
              now = new Date(now.getTime() + s.hours * 3_600_000);
              await runCoinExpiry(db, now);
            }
          } catch (e) {
            if (!(e instanceof AppError && EXPECTED.has(e.code))) throw e;
          }

          const wallet = await db.wallet.findUniqueOrThrow({ where: { customerId: c.id } });
          const moved = await db.coinMovement.aggregate({
            _sum: { delta: true },
            where: { customerId: c.id },
          });
          const lots = await db.coinLot.findMany({ where: { customerId: c.id } });
          const coins = await readCoins(db, tenant, c.id, now);
          expect(moved._sum.delta ?? 0n).toBe(wallet.balance);
          expect(lots.reduce((sum, l) => sum + l.remaining, 0n)).toBe(wallet.balance);
          expect(lots.every((l) => l.remaining >= 0n && l.remaining <= l.amount)).toBe(true);
          expect(coins.available).toBe(wallet.balance - coins.held!);
          expect(coins.available! >= 0n).toBe(true);
          const expired = lots.filter((l) => l.expiresAt && l.expiresAt <= now);
          expect(expired.filter((l) => l.remaining > 0n)).toEqual([]);
        }
      },
    ),
    { numRuns: TEST_DB === 'postgres' ? 20 : 12 },
  );
});

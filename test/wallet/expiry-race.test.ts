// The expiry job racing debits on the same wallets (docs/expiry-and-holds.md): 32 connections of
// debits and four job passes at once leave no negative balance, and every due lot is written off
// exactly once. PostgreSQL only: PGlite runs one statement at a time.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyMovements } from '../../src/domain/ledger/apply-movements.js';
import { runCoinExpiry } from '../../src/domain/wallet/expire-coins.js';
import { setCoinExpiry } from '../../src/domain/wallet/expiry-policy.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

const T0 = new Date('2026-07-01T00:00:00.000Z');
const HOUR = 3_600_000;

let h: Harness;
let wide: Database;
beforeAll(async () => {
  h = await startHarness({ ownDatabase: true });
  if (TEST_DB === 'postgres') wide = await openDatabase({ url: h.databaseUrl!, poolSize: 32 });
});
afterAll(async () => {
  await wide?.close();
  await h.close();
});

it.runIf(TEST_DB === 'postgres')(
  'the expiry job racing 32 connections of debits: 0 negative balances, each lot expired once',
  async () => {
    const p = await partner(h);
    await setCoinExpiry(h.db.prisma, p.subBrandId, { policy: 'rolling_days', days: 1 });
    const tenant = { subBrandId: p.subBrandId, environment: 'test' as const };
    const actor = { apiKeyId: null, requestId: null };
    const customers = await Promise.all(Array.from({ length: 16 }, () => p.customer()));
    // Three lots each: at T0 and T0+1h (due at the race's instant) and T0+3h (not due).
    for (const hours of [0, 1, 3]) {
      await applyMovements(
        h.db.prisma,
        tenant,
        customers.map((c) => ({ customerId: c.id, delta: 100, reason: null })),
        { ...actor, source: 'api', at: new Date(T0.getTime() + hours * HOUR) },
      );
    }
    const now = new Date(T0.getTime() + 26 * HOUR);
    const debits = Array.from(
      { length: 320 },
      (_, i) => () =>
        applyMovements(
          wide.prisma,
          tenant,
          [
            {
              customerId: customers[i % customers.length]!.id,
              delta: -(7 + (i % 23)),
              reason: null,
            },
          ],
          { ...actor, source: 'api', at: now },
        ),
    );
    let next = 0;
    const worker = async () => {
      while (next < debits.length) await debits[next++]!();
    };
    await Promise.all([
      ...Array.from({ length: 32 }, worker),
      ...Array.from({ length: 4 }, () => runCoinExpiry(wide.prisma, now)),
    ]);
    await runCoinExpiry(h.db.prisma, now); // whatever no debit and no pass reached

    const ids = customers.map((c) => c.id);
    const [row] = await h.db.prisma.$queryRaw<{ negative: bigint }[]>`
      SELECT count(*)::bigint AS negative FROM wallets WHERE customer_id = ANY(${ids}::uuid[]) AND balance < 0`;
    expect(row!.negative).toBe(0n);
    const expiries = await h.db.prisma.coinMovement.groupBy({
      by: ['lotId'],
      where: { customerId: { in: ids }, source: 'expiry' },
      _count: { _all: true },
    });
    expect(expiries.every((e) => e._count._all === 1)).toBe(true);
    const lots = await h.db.prisma.coinLot.findMany({ where: { customerId: { in: ids } } });
    const due = lots.filter((l) => l.expiresAt! <= now);
    expect(due).toHaveLength(32);
    expect(due.every((l) => l.remaining === 0n)).toBe(true);
    // Every due lot with coins left at its expiry has its one write-off; a lot debits emptied first
    // has none.
    expect(expiries.length).toBeLessThanOrEqual(32);
    for (const c of customers) {
      const wallet = await h.db.prisma.wallet.findUniqueOrThrow({ where: { customerId: c.id } });
      const sum = await h.db.prisma.coinMovement.aggregate({
        _sum: { delta: true },
        where: { customerId: c.id },
      });
      const left = lots.filter((l) => l.customerId === c.id).reduce((s, l) => s + l.remaining, 0n);
      expect([sum._sum.delta, left]).toEqual([wallet.balance, wallet.balance]);
    }
  },
);

// A property test of the hot-row group commit (src/db/hot-rows.ts, issue 36): random bursts of
// adjustments on ONE wallet, sent at once over HTTP, with overdrafts, duplicates of a request sent
// beside it, and requests that crash their transaction (a raised error, or the connection killed
// by the database) — checked against a model of the wallet: what was answered is what the ledger
// holds. On PostgreSQL the burst's requests are committed in batches; the test also shows that
// they were (fewer transactions than requests). On PGlite there is one connection and nothing to
// coalesce: the same properties hold of its one-by-one commits.
//
// The crashes are the database's doing, not a hook in production code: a trigger on
// coin_movements raises, or terminates its own backend, for a movement whose reason says so.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { driverOf } from '../../src/db/sql.js';
import { startHarness, TEST_DB, type Harness, type Reply } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
beforeAll(async () => {
  // Its own database: the trigger below would otherwise sit on the shared ledger's inserts.
  h = await startHarness({ ownDatabase: true });
  await h.db.prisma.$executeRawUnsafe(`CREATE FUNCTION crash_on_reason() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.reason LIKE 'raise %' THEN RAISE EXCEPTION 'injected crash: %', NEW.reason; END IF;
      IF NEW.reason LIKE 'kill %' THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
      RETURN NEW;
    END $$`);
  await h.db.prisma
    .$executeRawUnsafe(`CREATE TRIGGER crash_on_reason BEFORE INSERT ON coin_movements
    FOR EACH ROW EXECUTE FUNCTION crash_on_reason()`);
});
afterAll(() => h.close());

/** Killing a backend is PostgreSQL's; PGlite is one process in ours. */
const faults =
  TEST_DB === 'postgres' ? (['none', 'raise', 'kill'] as const) : (['none', 'raise'] as const);
type Fault = (typeof faults)[number];

const request = fc.record({
  delta: fc.integer({ min: -40, max: 40 }).filter((d) => d !== 0),
  fault: fc.oneof(
    { weight: 8, arbitrary: fc.constant<Fault>('none') },
    { weight: 1, arbitrary: fc.constantFrom<Fault>(...faults) },
  ),
  /** Sent twice at once with the same key, as a client's too-early retry. */
  twin: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
});

const hotRows = () => driverOf(h.db.prisma)?.pool?.hotRows.counts;

it('a burst on one wallet: every answer is the ledger’s, each key applied at most once, never below 0, a crash refuses only its own request', async () => {
  const before = { ...(hotRows() ?? { units: 0, transactions: 0, fallbacks: 0 }) };
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 60 }),
      fc.array(request, { minLength: 2, maxLength: 24 }),
      async (opening, requests) => {
        const p = await partner(h);
        const c = await p.customer();
        if (opening > 0) await p.credit(c.id, opening);
        const path = `/api/v1/customers/${c.id}/coins`;
        const sent = requests.map((r, i) => ({
          ...r,
          key: randomUUID(),
          body: { delta: r.delta, reason: r.fault === 'none' ? `move ${i}` : `${r.fault} ${i}` },
        }));
        const send = (s: (typeof sent)[number]) => p.post(path, s.body, s.key);
        // All at once: the first finds the wallet idle and commits alone, the others wait for it
        // and go together.
        const first = await Promise.all(
          sent.map(async (s) => {
            const answers = await Promise.all(s.twin ? [send(s), send(s)] : [send(s)]);
            return { ...s, answers };
          }),
        );
        const movements = await h.db.prisma.coinMovement.findMany({
          where: { customerId: c.id },
          orderBy: { seq: 'asc' },
        });

        // The ledger: a chain of balances from the opening credit, never below 0.
        let balance = 0;
        for (const m of movements) {
          balance += Number(m.delta);
          expect(Number(m.balanceAfter)).toBe(balance);
          expect(balance).toBeGreaterThanOrEqual(0);
        }
        const byReason = new Map(movements.map((m) => [m.reason, m]));
        expect(byReason.size).toBe(movements.length); // each request at most once

        for (const s of first) {
          const moved = byReason.get(s.body.reason);
          const applied = s.answers.filter((a) => a.status === 201);
          if (s.fault !== 'none') {
            // A crash fails its own request, as a failure worth retrying, and nothing moved (a
            // debit the balance refuses never reaches the insert that crashes; a twin may be told
            // the key is in use meanwhile).
            expect(moved).toBeUndefined();
            for (const a of s.answers) expect([409, 500, 503], a.text).toContain(a.status);
            continue;
          }
          // A neighbour's crash never fails this request: it applied, or was refused on its
          // own balance (409 insufficient_balance), or (a twin) was told its key is in use.
          for (const a of s.answers) expect([201, 409], a.text).toContain(a.status);
          if (moved) {
            expect(applied.length).toBeGreaterThanOrEqual(1);
            for (const a of applied) expectMovement(a, moved);
          } else {
            expect(applied).toEqual([]);
            const codes = s.answers.map((a) => a.body.error.code);
            expect(codes, JSON.stringify(codes)).toContain('insufficient_balance');
          }
          // A later retry answers what was answered, byte for byte, and moves nothing. (Twins
          // refused at once each ran, a refusal holding no claim: the key keeps the answer
          // recorded first, the same refusal under either's request id.)
          const settled = s.answers.filter((a) => a.body.error?.code !== 'idempotency_in_progress');
          if (settled.length) {
            const again = await send(s);
            expect(settled.map((a) => a.text)).toContain(again.text);
          }
        }
        // A refused debit was refused on a balance that could not cover it: the wallet ends at
        // the sum of what applied, which the balance endpoint agrees with.
        const coins = await p.get(`${path}`);
        expect(coins.body.data.balance).toBe(balance);
        expect(await h.db.prisma.coinMovement.count({ where: { customerId: c.id } })).toBe(
          movements.length,
        );
      },
    ),
    { numRuns: TEST_DB === 'postgres' ? 25 : 10 },
  );
  const after = hotRows();
  if (TEST_DB === 'postgres') {
    // The bursts were coalesced: fewer transactions than requests committed through them.
    const units = after!.units - before.units;
    const transactions = after!.transactions - before.transactions;
    expect(units).toBeGreaterThan(0);
    expect(transactions).toBeLessThan(units);
    expect(after!.fallbacks - before.fallbacks).toBeGreaterThan(0); // crashes met batches
  }
}, 120_000);

function expectMovement(answer: Reply, moved: { id: string; delta: bigint; balanceAfter: bigint }) {
  const data = answer.body.data;
  expect(data.id).toBe(moved.id);
  expect(data.delta).toBe(Number(moved.delta));
  expect(data.balance_after).toBe(Number(moved.balanceAfter));
}

// The group commit's scheduling (src/db/hot-rows.ts), with units that record what was asked of
// them: who goes alone and at once, who waits (and gives its connection back), what goes together
// and in which order, and what a failed batch does. What the database makes of a batch is the
// property test's (test/wallet/hot-rows-property.test.ts).
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { HotRows, MAX_BATCH, type Unit } from '../../src/db/hot-rows.js';

type Deferred = { resolve: (r: pg.QueryResult[]) => void; reject: (e: unknown) => void };

/** A unit of one statement named `name`, whose sends wait until the test settles them. */
function unit(name: string, log: string[]) {
  const pending: Deferred[] = [];
  const send = (what: string) =>
    new Promise<pg.QueryResult[]>((resolve, reject) => {
      log.push(what);
      pending.push({ resolve, reject });
    });
  const u: Unit & { pending: Deferred[]; parked: boolean } = {
    statements: [{ text: name }],
    alone: () => send(`alone ${name}`),
    together: (statements) => send(`together ${statements.map((s) => s.text).join(' ')}`),
    park: () => void (u.parked = true),
    pending,
    parked: false,
  };
  return u;
}

const result = (command: string) => ({ command }) as pg.QueryResult;
const tick = () => new Promise((r) => setImmediate(r));

describe('HotRows', () => {
  it('sends a lone unit at once, alone; units arriving meanwhile wait parked, then go together in arrival order', async () => {
    const rows = new HotRows();
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => unit(n, log));
    const answers = [a, b, c].map((u) => rows.commit('wallet:1', u!));
    const other = rows.commit('wallet:2', d!); // another row is not held up
    await tick();
    expect(log).toEqual(['alone a', 'alone d']);
    expect([a!.parked, b!.parked, c!.parked, d!.parked]).toEqual([false, true, true, false]);

    a!.pending[0]!.resolve([result('A')]);
    await tick();
    expect(log.at(-1)).toBe('together b c');
    b!.pending[0]!.resolve([result('B'), result('C')]); // the lead's connection answers both
    expect(await Promise.all(answers)).toEqual([[result('A')], [result('B')], [result('C')]]);

    d!.pending[0]!.resolve([result('D')]);
    await other;
    // Nothing in flight any more: the next unit goes alone at once.
    const e = unit('e', log);
    void rows.commit('wallet:1', e);
    await tick();
    expect(log.at(-1)).toBe('alone e');
    expect(e.parked).toBe(false);
    // a, d, e alone; b and c in one: five units in four transactions.
    expect(rows.counts).toMatchObject({ units: 5, transactions: 4, fallbacks: 0 });
  });

  it('sends a failed batch again unit by unit, in order, each with its own answer', async () => {
    const rows = new HotRows();
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => unit(n, log));
    const answers = [a, b, c, d].map((u) =>
      rows.commit('wallet:1', u!).then(
        (r) => r[0]!.command,
        (e: Error) => `failed: ${e.message}`,
      ),
    );
    await tick();
    a!.pending[0]!.resolve([result('A')]);
    await tick();
    expect(log.at(-1)).toBe('together b c d');
    b!.pending[0]!.reject(new Error('duplicate key'));
    await tick();
    expect(log.at(-1)).toBe('alone b');
    b!.pending[1]!.resolve([result('B')]);
    await tick();
    expect(log.at(-1)).toBe('alone c');
    c!.pending[0]!.reject(new Error('crash'));
    await tick();
    expect(log.at(-1)).toBe('alone d');
    d!.pending[0]!.resolve([result('D')]);
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'failed: crash', 'D']);
    expect(rows.counts.fallbacks).toBe(1);
  });

  it(`takes at most ${MAX_BATCH} units in one transaction`, async () => {
    const rows = new HotRows();
    const log: string[] = [];
    const units = Array.from({ length: MAX_BATCH + 2 }, (_, i) => unit(`u${i}`, log));
    const answers = units.map((u) => rows.commit('wallet:1', u));
    await tick();
    units[0]!.pending[0]!.resolve([result('first')]);
    await tick();
    const first = log.at(-1)!.split(' ').slice(1);
    expect(first).toEqual(units.slice(1, MAX_BATCH + 1).map((u) => u.statements[0]!.text));
    units[1]!.pending[0]!.resolve(first.map(result));
    await tick();
    expect(log.at(-1)).toBe(`alone u${MAX_BATCH + 1}`); // the one left over, alone
    units[MAX_BATCH + 1]!.pending[0]!.resolve([result('last')]);
    await Promise.all(answers);
  });
});

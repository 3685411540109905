// Issue 13 items 3, 4 and 7: cohort totals that cannot overflow, refusals explained by the
// balance that refused them, and a movement history in the order it was applied.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const NEAR_2_52 = 2 ** 52;

describe('cohort rewards whose total would overflow (item 3)', () => {
  it('are refused, dry run or not, before any coin moves, and the refusal replays as such', async () => {
    const p = await partner(h);
    const customers = [await p.customer(), await p.customer(), await p.customer()];
    const dry = await p.post('/api/v1/customers/bulk/coins', {
      delta: NEAR_2_52,
      dry_run: true,
      all: true,
    });
    expect(dry.status).toBe(400);
    expect(dry.body.error.code).toBe('invalid_request');
    expect(dry.body.error.message).toMatch(/delta: 4503599627370496 for each of the 3 customers/);
    const key = randomUUID();
    const real = await p.post('/api/v1/customers/bulk/coins', { delta: NEAR_2_52, all: true }, key);
    expect(real.status).toBe(400);
    expect(real.text.replace(/req_\w+/g, '')).toBe(dry.text.replace(/req_\w+/g, ''));
    for (const c of customers) {
      expect((await p.get(`/api/v1/customers/${c.id}/coins`)).body.data.balance).toBe(0);
    }
    // Nothing was started: the same key with a smaller cohort runs, and answers its total.
    const narrowed = await p.post(
      '/api/v1/customers/bulk/coins',
      { delta: NEAR_2_52, filter: { q: 'nobody-matches-this' } },
      randomUUID(),
    );
    expect(narrowed.status).toBe(200);
  });

  it('answer the total when it fits', async () => {
    const p = await partner(h);
    await p.customer();
    await p.customer();
    const res = await p.post('/api/v1/customers/bulk/coins', { delta: NEAR_2_52 - 1, all: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ applied: 2, total_delta: 2 ** 53 - 2 });
  });
});

describe.runIf(TEST_DB === 'postgres')('concurrent debits and credits on one wallet', () => {
  it('every refused debit is insufficient_balance, stating a balance that could not cover it (item 4)', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const replies = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        p.post(`/api/v1/customers/${c.id}/coins`, { delta: i % 2 === 0 ? -7 : 5 }),
      ),
    );
    const refused = replies.filter((r) => r.status !== 201);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('insufficient_balance');
      const stated = Number(/has (\d+) coins/.exec(r.body.error.message)![1]);
      expect(stated).toBeLessThan(7);
    }
  });

  it('the movement history reads in the order it was applied: each balance follows from the one before (item 7)', async () => {
    const p = await partner(h);
    const c = await p.customer();
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        p.post(`/api/v1/customers/${c.id}/coins`, { delta: i + 1 }),
      ),
    );
    const history: { delta: number; balance_after: number }[] = [];
    let cursor: string | null = null;
    do {
      const page = await p.get(
        `/api/v1/customers/${c.id}/coins/movements?limit=25${cursor ? `&cursor=${cursor}` : ''}`,
      );
      history.push(...page.body.data);
      cursor = page.body.page.next_cursor;
    } while (cursor);
    expect(history).toHaveLength(60);
    const chronological = history.reverse();
    let balance = 0;
    for (const m of chronological) {
      balance += m.delta;
      expect(m.balance_after).toBe(balance);
    }
  });
});

// A placed order answers from the rows it wrote (src/schema/written-order.ts): after its insert,
// its transaction sends only the contended writes (coins, stock, a prepaid brand's money) and the
// commit, on the driver: never a read of the order, nor anything through Prisma, which would cost
// round trips and Prisma's CPU (its transaction joined to the order's) while the wallet and the
// stock are locked. A field whose selection of a relation differs from the one the answer already
// loads (`waitingFor` once selected the lines' kind alone) makes Pothos read the order again, and
// a prepaid brand short of money once marked its order blocked through Prisma: both failed here.
// Statements are seen on the driver: PostgreSQL only.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB, startHarness, type Harness } from '../support/harness.js';
import { establishmentShop } from '../establishment/orders-support.js';
import { shop } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Statement = { text: string; values: unknown[] };

/** The statements sent on the driver while `run` runs, whitespace folded, with their values. */
async function statementsOf(run: () => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; values?: unknown[] };
    const text = typeof config === 'string' ? config : String(config.text);
    const values = (typeof config === 'string' ? args[1] : config.values) ?? [];
    seen.push({ text: text.replace(/\s+/g, ' '), values: values as unknown[] });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = query;
  }
  return seen;
}

/**
 * What was sent after the order's insert that should not have been: a read of order `id`, or any
 * statement through Prisma (its statements name tables as "public"."…"), which joins a Prisma
 * transaction to the order's while the wallet and the stock are locked.
 */
const strayAfterInsert = (statements: Statement[], id: string) => {
  const after = statements.slice(
    statements.findIndex((s) => s.text.includes('INSERT INTO orders')) + 1,
  );
  expect(after.length).toBeGreaterThan(0);
  return after
    .filter(
      (s) =>
        (/FROM "?(public"\.")?orders"? /.test(s.text) && s.values.includes(id)) ||
        s.text.includes('"public".'),
    )
    .map((s) => s.text);
};

describe.skipIf(TEST_DB !== 'postgres')('a placed order', () => {
  for (const prepaid of [false, true]) {
    it(`is answered without reading it back${prepaid ? ' (a prepaid brand)' : ''}`, async () => {
      const s = await shop(h, { stock: 10, prepaid });
      const customer = await s.buyer(s.listing.coin_price * 3);
      let answer: Awaited<ReturnType<typeof s.order>> | undefined;
      const statements = await statementsOf(async () => {
        answer = await s.order({
          customer_id: customer,
          listing_market_id: s.listing.listing_market_id,
        });
      });
      expect(answer!.status).toBe(201);
      // The answer still says what the order waits for, from the written lines.
      expect(answer!.body.data.waiting_for).toBe(prepaid ? 'prepaid_balance' : 'fulfilment');
      expect(strayAfterInsert(statements, answer!.body.data.id)).toEqual([]);
    });
  }

  it('is answered without reading it back, reserved by an establishment', async () => {
    const s = await establishmentShop(h, { stock: 10 });
    const player = await s.player(s.listing.coin_price * 3);
    let answer: Awaited<ReturnType<typeof s.reserve>> | undefined;
    const statements = await statementsOf(async () => {
      answer = await s.reserve(player, { email: 'ana@example.com' });
    });
    expect(answer!.status, answer!.text).toBe(200);
    expect(strayAfterInsert(statements, answer!.body.transactionId)).toEqual([]);
  });
});

// A claimed product prize is an order, and like every order it writes its logistics e-mail to the
// outbox in the claim's transaction: exactly one, even when the same award is claimed concurrently.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listedProduct } from '../support/catalog.js';
import { campaignBody, campaignWorld, prize } from './support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
beforeAll(async () => {
  w = await campaignWorld('2026-11-23T12:00:00Z');
});
afterAll(() => w.h.close());

/** A player holding a pending award of one unit of a fresh product. */
async function productAward(email: string | null, stock = 5) {
  const product = await listedProduct(w.h.db.prisma, w.p.subBrandId, {
    stock,
    kind: 'digital',
    name: 'Gold watch',
  });
  const id = await w.campaign(
    campaignBody({
      prizes: [prize({ coinPrize: 0, productPrize: product.productId, quantity: 1 })],
    }),
  );
  const player = await w.player(email ? { email } : {});
  const won = await w.activity({ mode: 'campaign', player_id: player, campaign_id: id });
  expect(won.status, won.text).toBe(200);
  return { player, product, awardId: won.body.results[0].award.awardId as string };
}

const messagesOf = (orderId: string) => w.h.db.prisma.notification.findMany({ where: { orderId } });

describe('a claimed product prize', () => {
  it("writes the order's logistics e-mail to the player, in the claim's transaction", async () => {
    const { player, awardId } = await productAward('winner@example.com');
    const claimed = await w.claim(player, awardId);
    expect(claimed.status, claimed.text).toBe(200);
    const messages = await messagesOf(claimed.body.orderId);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      template: 'reserved',
      recipient: 'winner@example.com',
      status: 'pending',
      subBrandId: w.p.subBrandId,
    });
    expect(messages[0]!.subject).toContain('Gold watch');
    expect(messages[0]!.nextAttemptAt.toISOString()).toBe('2026-11-23T12:00:00.000Z');
  });

  it('10 concurrent claims of one award: one order, one e-mail', async () => {
    const { player, awardId } = await productAward('race@example.com');
    const answers = await Promise.all(Array.from({ length: 10 }, () => w.claim(player, awardId)));
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200))
      expect([a.status, a.body.code]).toEqual([400, 'AWARD_ALREADY_CLAIMED']);
    const orders = await w.h.db.prisma.order.findMany({ where: { customerId: player } });
    expect(orders.map((o) => o.id)).toEqual([won[0]!.body.orderId]);
    expect(await messagesOf(won[0]!.body.orderId)).toHaveLength(1);
    expect(
      await w.h.db.prisma.notification.count({ where: { recipient: 'race@example.com' } }),
    ).toBe(1);
  });

  it('a claim refused for lack of stock leaves no order and no e-mail', async () => {
    const { player, awardId } = await productAward('short@example.com', 0);
    const refused = await w.claim(player, awardId);
    expect([refused.status, refused.body.code]).toEqual([400, 'OUT_OF_STOCK']);
    expect(await w.h.db.prisma.order.count({ where: { customerId: player } })).toBe(0);
    expect(
      await w.h.db.prisma.notification.count({ where: { recipient: 'short@example.com' } }),
    ).toBe(0);
  });

  it('a player without an e-mail address gets the order and no e-mail', async () => {
    const { player, awardId } = await productAward(null);
    const claimed = await w.claim(player, awardId);
    expect(claimed.status, claimed.text).toBe(200);
    expect(await messagesOf(claimed.body.orderId)).toEqual([]);
  });
});

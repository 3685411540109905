// A player whose store session was open before a responsible-gaming state began (issue 34, on the
// marketplace of issue 28): the rewards page says rewards are paused, and a claim sent anyway is
// refused with one decision, the award left to claim once the state ends.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { campaignBody, prize } from '../campaigns/support.js';
import { marketplaceShop } from '../marketplace/support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('the marketplace under a responsible-gaming state', () => {
  it('says rewards are paused and until when; a claim is refused and recorded', async () => {
    const shop = await marketplaceShop(h);
    const player = await shop.player(0);
    const base = `/establishments/${shop.subBrandId}/campaigns`;
    const created = await shop.post(
      base,
      campaignBody({ prizes: [prize({ coinPrize: 40 })] }),
      null,
    );
    const campaignId = created.body[0].campaignId as string;
    await shop.put(`${base}/${campaignId}/update-status`, { status: 'in_progress' });
    const won = await shop.post(`${base}/insert-activity`, {
      mode: 'campaign',
      player_id: player.id,
      campaign_id: campaignId,
    });
    const awardId = won.body.results[0].award.awardId as string;

    const open = await player.run('MarketplaceRewards', {}, null);
    expect(open.body.data.marketplace.player).toEqual({
      rewardsPaused: false,
      rewardsPausedUntil: null,
    });

    const until = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const set = await shop.put(`/api/v1/customers/${player.id}/responsible-gaming`, {
      state: 'cool_off',
      until,
    });
    expect(set.status, set.text).toBe(200);
    const paused = await player.run('MarketplaceRewards', {}, null);
    expect(paused.body.data.marketplace.player).toEqual({
      rewardsPaused: true,
      rewardsPausedUntil: until,
    });
    // The award is still listed: it waits for the state to end.
    expect(paused.body.data.marketplace.awards.map((a: { id: string }) => a.id)).toEqual([awardId]);

    const claim = await player.run('MarketplaceClaim', { awardId }, randomUUID());
    expect(claim.body.errors[0].extensions.code).toBe('rg_blocked');
    expect(claim.body.errors[0].message).toMatch(/responsible-gaming state \(cool_off until/);
    const decisions = await h.db.prisma.rgDecision.findMany({ where: { customerId: player.id } });
    expect(decisions.map((d) => [d.path, d.reference])).toEqual([['claim', `award:${awardId}`]]);
    const balance = await shop.get(`/api/v1/customers/${player.id}`);
    expect(balance.body.data.coin_balance).toBe(0);
  });
});

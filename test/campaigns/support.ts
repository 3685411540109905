// Campaign test helpers: a server on a clock the test moves (UTC midnights, end dates), a tenant
// with a key, and short-hands for the campaign routes.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { startHarness, type Harness, type HarnessOptions } from '../support/harness.js';
import { partner } from '../support/partner.js';

export type Clock = { at: Date; set(iso: string): void; now: () => Date };

export function testClock(iso: string): Clock {
  const clock: Clock = {
    at: new Date(iso),
    set(v) {
      clock.at = new Date(v);
    },
    now: () => clock.at,
  };
  return clock;
}

export async function campaignWorld(iso = '2026-11-23T10:00:00Z', overrides: HarnessOptions = {}) {
  const clock = testClock(iso);
  const h: Harness = await startHarness({ now: clock.now, ...overrides });
  const p = await partner(h);
  const base = `/establishments/${p.subBrandId}/campaigns`;
  const w = {
    h,
    p,
    clock,
    base,
    async player(fields: Record<string, unknown> = {}) {
      return (await p.customer(fields)).id as string;
    },
    create: (body: Record<string, unknown>) => p.post(base, body, null),
    async campaign(body: Record<string, unknown>, start = true) {
      const res = await w.create(body);
      expect(res.status, res.text).toBe(200);
      const id = res.body[0].campaignId as string;
      if (start) {
        const s = await p.put(`${base}/${id}/update-status`, { status: 'in_progress' });
        expect(s.status, s.text).toBe(200);
      }
      return id;
    },
    activity: (body: Record<string, unknown>, key: string | null = randomUUID()) =>
      p.post(`${base}/insert-activity`, body, key),
    claim: (playerId: string, awardId: string, extra: Record<string, unknown> = {}) =>
      p.post(`/players/${playerId}/claim`, { awardId, ...extra }, null),
    balance: async (playerId: string) => (await p.get(`/players/${playerId}`)).body.coins as number,
  };
  return w;
}

export const prize = (over: Record<string, unknown> = {}) => ({
  coinPrize: 100,
  catalogPrize: '',
  productPrize: '',
  quantity: 0,
  day: 0,
  rank: '',
  ...over,
});

/** A valid create body; override what the test is about. */
export const campaignBody = (over: Record<string, unknown> = {}) => ({
  title: 'Daily login',
  type: 'daily_reward_simple',
  startDate: '2026-11-01',
  endDate: '2026-12-31',
  termsAccepted: true,
  prizes: [prize()],
  ...over,
});

// Daily rewards on an injected clock: one award a UTC day, streaks across midnight, a missed day
// resets, replays of an idempotency key record once, and the budget holds under 50 concurrent
// activities. Per-mode required fields of insert-activity too.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverOf } from '../../src/db/sql.js';
import { holdRow } from '../support/row-lock.js';
import { TEST_DB } from '../support/harness.js';
import { campaignBody, campaignWorld, prize } from './support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
beforeAll(async () => {
  w = await campaignWorld('2026-11-23T23:30:00Z');
});
afterAll(() => w.h.close());

const progressive = () =>
  campaignBody({
    title: 'Login calendar',
    type: 'daily_reward_progressive',
    prizes: [
      prize({ day: 1, coinPrize: 10 }),
      prize({ day: 2, coinPrize: 20 }),
      prize({ day: 3, coinPrize: 50 }),
    ],
  });

const login = (player: string, campaign: string) =>
  w.activity({ mode: 'campaign', player_id: player, campaign_id: campaign });

describe('insert-activity input', () => {
  it('requires the per-mode fields, naming them', async () => {
    const player = await w.player();
    const id = await w.campaign(campaignBody());
    const cases: [Record<string, unknown>, string][] = [
      [{ mode: 'player', player_id: player }, 'referred_by'],
      [{ mode: 'campaign', player_id: player }, 'campaign_id'],
      [{ mode: 'session', player_id: player }, 'login_time'],
      [{ mode: 'tournament', player_id: player, campaign_id: id }, 'points'],
      [{ mode: 'session', player_id: player, login_time: '23/11/2026' }, 'login_time'],
      [{ mode: 'bet', player_id: player }, 'mode'],
      [{ mode: 'player', referred_by: 'x' }, 'player_id'],
      [{ mode: 'tournament', player_id: player, points: -5 }, 'points'],
    ];
    for (const [body, field] of cases) {
      const res = await w.activity(body);
      expect(res.status, `${field}: ${res.text}`).toBe(400);
      expect(res.body.details.map((d: any) => d.field)).toContain(field);
    }
    const unknown = await w.activity({ mode: 'player', player_id: randomUUID(), referred_by: 'x' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'PLAYER_NOT_FOUND']);
    const ok = await w.activity({
      mode: 'session',
      player_id: player,
      login_time: '2026-11-23 18:30:00',
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('records a fact once per idempotency key: a replay creates nothing more', async () => {
    const player = await w.player();
    const id = await w.campaign(campaignBody());
    const key = randomUUID();
    const first = await w.activity({ mode: 'campaign', player_id: player, campaign_id: id }, key);
    const again = await w.activity({ mode: 'campaign', player_id: player, campaign_id: id }, key);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    const prizes = await w.p.get(`/players/${player}/prizes`);
    expect(prizes.body.prizes).toHaveLength(1);
  });
});

describe('daily_reward_simple', () => {
  it('one prize a UTC day: a second activity the same day awards nothing', async () => {
    w.clock.set('2026-11-23T23:30:00Z');
    const id = await w.campaign(campaignBody());
    const player = await w.player();
    const first = await login(player, id);
    expect(first.body.results[0]).toMatchObject({
      outcome: 'awarded',
      streak: 1,
      award: { coins: 100 },
    });
    const second = await login(player, id);
    expect(second.body.results[0]).toMatchObject({ outcome: 'already_awarded_today', award: null });
    w.clock.set('2026-11-24T00:00:01Z'); // past UTC midnight: a new day
    const next = await login(player, id);
    expect(next.body.results[0]).toMatchObject({ outcome: 'awarded', streak: 2 });
    expect((await w.p.get(`/players/${player}/prizes`)).body.prizes).toHaveLength(2);
  });

  it('an activity with no campaign_id reaches every running campaign; drafts and paused ones do not react', async () => {
    w.clock.set('2026-11-23T12:00:00Z');
    const running = await w.campaign(campaignBody());
    const draft = await w.campaign(campaignBody(), false);
    const paused = await w.campaign(campaignBody());
    await w.p.put(`${w.base}/${paused}/update-status`, { status: 'paused' });
    const player = await w.player();
    const res = await w.activity({ mode: 'player', player_id: player, referred_by: 'friend-1' });
    const ids = res.body.results.map((r: any) => r.campaignId);
    expect(ids).toContain(running);
    expect(ids).not.toContain(draft);
    expect(ids).not.toContain(paused);
    const direct = await login(player, paused);
    expect(direct.body.results).toMatchObject([{ campaignId: paused, outcome: 'not_running' }]);
  });
});

describe('daily_reward_progressive', () => {
  it('pays day N of a consecutive streak across UTC midnights; the last day repeats; a missed day resets', async () => {
    w.clock.set('2026-11-23T23:59:00Z');
    const id = await w.campaign(progressive());
    const player = await w.player();
    const day = async (iso: string) => {
      w.clock.set(iso);
      return (await login(player, id)).body.results[0];
    };
    expect(await day('2026-11-23T23:59:00Z')).toMatchObject({ streak: 1, award: { coins: 10 } });
    expect(await day('2026-11-24T00:00:30Z')).toMatchObject({ streak: 2, award: { coins: 20 } });
    expect(await day('2026-11-24T22:00:00Z')).toMatchObject({
      outcome: 'already_awarded_today',
      streak: 2,
    });
    expect(await day('2026-11-25T08:00:00Z')).toMatchObject({ streak: 3, award: { coins: 50 } });
    expect(await day('2026-11-26T08:00:00Z')).toMatchObject({ streak: 4, award: { coins: 50 } });
    // 27th missed: the streak starts again at day 1.
    expect(await day('2026-11-28T08:00:00Z')).toMatchObject({ streak: 1, award: { coins: 10 } });
  });
});

describe('budget', () => {
  it('50 concurrent activities never award beyond the budget', async () => {
    w.clock.set('2026-11-23T12:00:00Z');
    const id = await w.campaign(campaignBody({ budget: 1000, prizes: [prize({ coinPrize: 70 })] }));
    const players = await Promise.all(Array.from({ length: 50 }, () => w.player()));
    const results = await Promise.all(players.map((p) => login(p, id)));
    for (const r of results) expect(r.status, r.text).toBe(200);
    const outcomes = results.map((r) => r.body.results[0].outcome);
    expect(outcomes.filter((o) => o === 'awarded')).toHaveLength(14); // 14 × 70 = 980 ≤ 1000
    expect(outcomes.filter((o) => o === 'budget_exhausted')).toHaveLength(36);
    const campaign = await w.p.get(`${w.base}/${id}`);
    expect(campaign.body).toMatchObject({ budget: 1000, totalAwarded: 980 });
  });

  it('counts the budget with the commit when a read leaves room; spent meanwhile, the activity runs again and answers budget_exhausted', async () => {
    w.clock.set('2026-11-23T12:00:00Z');
    const id = await w.campaign(campaignBody({ budget: 70, prizes: [prize({ coinPrize: 70 })] }));
    const players = await Promise.all(Array.from({ length: 4 }, () => w.player()));
    const counts = driverOf(w.h.db.prisma)?.pool?.counts;
    const rerunsBefore = counts?.optimisticReruns ?? 0;
    // On PostgreSQL a test transaction holds the campaign's row while the four players log in:
    // each reads, without a lock, that the budget has room for its award, and sends the count
    // with its COMMIT, where it waits. Then one award fits and three find the budget spent.
    const held =
      TEST_DB === 'postgres'
        ? await holdRow('SELECT 1 FROM campaigns WHERE id = $1 FOR UPDATE', [id])
        : null;
    const answers = Promise.all(players.map((p) => login(p, id)));
    if (held) {
      await held.waitForQueue(4, 'the four activities wait at their commit');
      await held.release();
    }
    const outcomes = (await answers).map((r) => {
      expect(r.status, r.text).toBe(200);
      return r.body.results[0].outcome;
    });
    expect(outcomes.filter((o) => o === 'awarded')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'budget_exhausted')).toHaveLength(3);
    expect((await w.p.get(`${w.base}/${id}`)).body).toMatchObject({ budget: 70, totalAwarded: 70 });
    expect(await w.h.db.prisma.campaignAward.count({ where: { campaignId: id } })).toBe(1);
    // The three that found the budget spent ran again (PostgreSQL: PGlite counts as it goes).
    if (counts) expect(counts.optimisticReruns - rerunsBefore).toBe(3);
  });
});

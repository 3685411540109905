// Targeting: each operator against the player's record and the recorded facts, groups with AND/OR
// logic, included and excluded users, conditions that exclude, and restricted or banned players.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertActivity } from '../../src/engine/campaigns/insert-activity.js';
import { campaignBody, campaignWorld } from './support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
beforeAll(async () => {
  w = await campaignWorld('2026-11-23T12:00:00Z');
});
afterAll(() => w.h.close());

type Cond = {
  parameter: string;
  operator: string;
  value: string;
  groupId?: number;
  logic?: string;
};

/** A fresh player's outcome on a fresh campaign with this targeting, for one activity. */
async function outcome(
  targeting: Record<string, unknown>,
  activity: Record<string, unknown> = {},
  options: {
    player?: string;
    before?: (player: string, campaign: string) => Promise<void>;
    campaign?: Record<string, unknown>;
  } = {},
) {
  const id = await w.campaign(campaignBody({ targeting, ...options.campaign }));
  const player = options.player ?? (await w.player());
  await options.before?.(player, id);
  const res = await w.activity({
    mode: 'campaign',
    player_id: player,
    campaign_id: id,
    ...activity,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.results[0].outcome as string;
}
const when = (conditions: Cond[], activity: Record<string, unknown> = {}) =>
  outcome({ conditions }, activity);
const one = (
  parameter: string,
  operator: string,
  value: string,
  activity: Record<string, unknown> = {},
) => when([{ parameter, operator, value }], activity);

describe('operators on the activity and the player record', () => {
  it.each([
    ['bets_amount', 'equals', '50', { amount: 50 }, { amount: 51 }],
    ['bets_amount', 'not_equals', '50', { amount: 51 }, { amount: 50 }],
    ['bets_amount', 'greater_than', '50', { amount: 51 }, { amount: 50 }],
    ['bets_amount', 'greater_than_or_equals', '50', { amount: 50 }, { amount: 49 }],
    ['bets_amount', 'less_than', '50', { amount: 49 }, { amount: 50 }],
    ['bets_amount', 'less_than_or_equals', '50', { amount: 50 }, { amount: 51 }],
    ['total_bets', 'between', '3,5', { bets_number: 5 }, { bets_number: 6 }],
    ['bet_result', 'equals', 'won', { bet_won: true }, { bet_won: false }],
    ['game_played', 'contains', 'roulette', { game: 'Euro Roulette' }, { game: 'Blackjack' }],
    ['source_platform', 'equals', 'ios', { source_platform: 'iOS' }, { source_platform: 'web' }],
    ['deposit', 'greater_than', '10', { deposit: 20 }, {}],
    ['cashback', 'less_than', '10', { cashback: 5 }, { cashback: 15 }],
    [
      'login_time',
      'on_date',
      '2026-11-23',
      { login_time: '2026-11-23 08:00:00' },
      { login_time: '2026-11-22 08:00:00' },
    ],
    [
      'login_time',
      'between_dates',
      '2026-11-01,2026-11-10',
      { login_time: '2026-11-10 23:59:59' },
      { login_time: '2026-11-11 00:00:00' },
    ],
  ])('%s %s %s', async (parameter, operator, value, pass, fail) => {
    expect(await one(parameter, operator, value, pass)).toBe('awarded');
    expect(await one(parameter, operator, value, fail)).toBe('not_targeted');
  });

  it('player record: created_at last_x_days, language, user_level compared as numbers', async () => {
    // created_at is the player row's own (the server's wall clock): the test clock moves around it.
    const recent = [{ parameter: 'created_at', operator: 'last_x_days', value: '3' }];
    const player = await w.player();
    w.clock.set(new Date(Date.now() + 86_400_000).toISOString());
    try {
      const always = { startDate: '2000-01-01', endDate: '2999-12-31' };
      expect(await outcome({ conditions: recent }, {}, { player, campaign: always })).toBe(
        'awarded',
      );
      w.clock.set(new Date(Date.now() + 10 * 86_400_000).toISOString());
      expect(await outcome({ conditions: recent }, {}, { player, campaign: always })).toBe(
        'not_targeted',
      );
    } finally {
      w.clock.set('2026-11-23T12:00:00Z');
    }
    const es = await w.player({ preferred_lang: 'es' });
    expect(
      await outcome(
        { conditions: [{ parameter: 'language', operator: 'equals', value: 'es' }] },
        {},
        { player: es },
      ),
    ).toBe('awarded');
    const en = await w.player({ preferred_lang: 'en' });
    expect(
      await outcome(
        { conditions: [{ parameter: 'language', operator: 'equals', value: 'es' }] },
        {},
        { player: en },
      ),
    ).toBe('not_targeted');
    const level10 = await w.player({ segment_id: '10' });
    expect(
      await outcome(
        { conditions: [{ parameter: 'user_level', operator: 'greater_than', value: '9' }] },
        {},
        { player: level10 },
      ),
    ).toBe('awarded'); // "10" > "9" as numbers, not as text
  });

  it('sums, top, participation and last login read the recorded facts', async () => {
    const bets = (amount: number) => async (player: string) => {
      await w.activity({ mode: 'player', player_id: player, referred_by: 'x', amount });
    };
    const sum = [
      { parameter: 'bets_amount', operator: 'sum_greater_than_or_equals', value: '100' },
    ];
    expect(await outcome({ conditions: sum }, { amount: 40 }, { before: bets(60) })).toBe(
      'awarded',
    );
    expect(await outcome({ conditions: sum }, { amount: 40 }, { before: bets(10) })).toBe(
      'not_targeted',
    );
    const sumLess = [{ parameter: 'deposit', operator: 'sum_less_than', value: '100' }];
    expect(await outcome({ conditions: sumLess }, { deposit: 99 })).toBe('awarded');
    // top 1 of the establishment by summed bets_amount since the campaign started.
    const whale = [{ parameter: 'bets_amount', operator: 'top', value: '1' }];
    expect(await outcome({ conditions: whale }, { amount: 1_000_000 })).toBe('awarded');
    expect(await outcome({ conditions: whale }, { amount: 1 })).toBe('not_targeted');
    const second = [
      { parameter: 'event_participation', operator: 'greater_than_or_equals', value: '2' },
    ];
    expect(
      await outcome(
        { conditions: second },
        {},
        {
          before: async (player, campaign) => {
            await w.activity({ mode: 'campaign', player_id: player, campaign_id: campaign });
          },
        },
      ),
    ).toBe('awarded'); // the first fact was not targeted (1 < 2), the second is
    const recent = [{ parameter: 'login_time', operator: 'last_login', value: '2' }];
    expect(await outcome({ conditions: recent }, { login_time: '2026-11-22 12:00:00' })).toBe(
      'awarded',
    );
    expect(await outcome({ conditions: recent }, { login_time: '2026-11-10 12:00:00' })).toBe(
      'not_targeted',
    );
  });
});

describe('groups, lists and statuses', () => {
  const big = { parameter: 'bets_amount', operator: 'greater_than', value: '100' };
  const ios = { parameter: 'source_platform', operator: 'equals', value: 'ios' };
  it('a group joins with its logic; groups join with AND', async () => {
    const orGroup = [
      { ...big, groupId: 1, logic: 'OR' },
      { ...ios, groupId: 1, logic: 'OR' },
    ];
    expect(await when(orGroup, { amount: 1, source_platform: 'ios' })).toBe('awarded');
    expect(await when(orGroup, { amount: 1, source_platform: 'web' })).toBe('not_targeted');
    expect(await when([big, ios], { amount: 500, source_platform: 'web' })).toBe('not_targeted'); // AND
    const twoGroups = [
      { ...big, groupId: 1, logic: 'OR' },
      { ...ios, groupId: 1, logic: 'OR' },
      { parameter: 'bet_result', operator: 'equals', value: 'won', groupId: 2 },
    ];
    expect(await when(twoGroups, { amount: 500, bet_won: false })).toBe('not_targeted');
    expect(await when(twoGroups, { amount: 500, bet_won: true })).toBe('awarded');
  });

  it('included users always, excluded never; conditionsExcludeUsers turns the conditions around', async () => {
    const vip = await w.player({ external_id: `vip-${randomUUID()}` });
    const vipExternal = (await w.p.get(`/api/v1/customers/${vip}`)).body.data.external_id;
    const t = { conditions: [big], includedUsers: [vipExternal], excludedUsers: [] };
    expect(await outcome(t, { amount: 1 }, { player: vip })).toBe('awarded');
    expect(await outcome(t, { amount: 1 })).toBe('not_targeted');
    const banned = await w.player();
    expect(await outcome({ excludedUsers: [banned] }, { amount: 500 }, { player: banned })).toBe(
      'not_targeted',
    );
    const onlyList = { includedUsers: [vip] };
    expect(await outcome(onlyList)).toBe('not_targeted');
    const inverted = { conditions: [big], conditionsExcludeUsers: true };
    expect(await outcome(inverted, { amount: 500 })).toBe('not_targeted');
    expect(await outcome(inverted, { amount: 5 })).toBe('awarded');
  });

  it('restricted and banned players never receive anything, even when included by name', async () => {
    for (const status of ['restricted', 'banned']) {
      const player = await w.player();
      const upd = await w.p.patch(`/api/v1/customers/${player}`, { status, status_note: 'test' });
      expect(upd.status, upd.text).toBe(200);
      expect(await outcome({ includedUsers: [player] }, {}, { player })).toBe(
        'player_not_eligible',
      );
    }
  });

  it('a key replayed after its HTTP record is gone still records once (the fact table holds the key)', async () => {
    const id = await w.campaign(campaignBody());
    const player = await w.player();
    const tenant = { subBrandId: w.p.subBrandId, environment: 'test' as const };
    const input = { mode: 'campaign', player_id: player, campaign_id: id };
    const key = randomUUID();
    const now = w.clock.now();
    const [a, b] = await Promise.all([
      insertActivity(w.h.db.prisma, tenant, input, { now, idempotencyKey: key }),
      insertActivity(w.h.db.prisma, tenant, input, { now, idempotencyKey: key }),
    ]);
    expect(a.activityId).toBe(b.activityId);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    const facts = await w.h.db.prisma.campaignActivity.count({ where: { idempotencyKey: key } });
    expect(facts).toBe(1);
  });
});

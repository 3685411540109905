// Campaign CRUD on the establishment API: every validation rule, presets, the life cycle
// (draft, requested moves, completed by the clock), deletion that keeps awards, template clones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignBody, campaignWorld, prize } from './support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
beforeAll(async () => {
  w = await campaignWorld('2026-11-25T10:00:00Z'); // a Wednesday
});
afterAll(() => w.h.close());

const refused = async (body: Record<string, unknown>, field: string, message: RegExp) => {
  const res = await w.create(body);
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe('VALIDATION_ERROR');
  const detail = res.body.details.find((d: any) => d.field === field);
  expect(detail, `${field} in ${res.text}`).toBeDefined();
  expect(detail.message).toMatch(message);
};

describe('creating a campaign', () => {
  it('a new campaign is a draft and lists with the documented fields', async () => {
    const res = await w.create(campaignBody({ modalTitle: 'Come back daily', budget: 5000 }));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      {
        campaignId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Daily login',
        modalTitle: 'Come back daily',
        duration: 'custom',
        status: 'draft',
        type: 'daily_reward_simple',
        startDate: '2026-11-01T00:00:00.000Z',
        endDate: '2027-01-01T00:00:00.000Z', // a date-only end is the whole day, exclusive
        budget: 5000,
        totalAwarded: 0,
        isTemplate: false,
      },
    ]);
    const id = res.body[0].campaignId;
    const one = await w.p.get(`${w.base}/${id}`);
    expect(one.body).toMatchObject({
      campaignId: id,
      establishmentId: w.p.subBrandId,
      multiplier: 1,
      termsAccepted: true,
      prizes: [prize()],
    });
    const list = await w.p.get(w.base);
    expect(list.body.map((c: any) => c.campaignId)).toContain(id);
  });

  it.each([
    ['next_weekend', '2026-11-28T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
    ['next_week', '2026-11-30T00:00:00.000Z', '2026-12-07T00:00:00.000Z'],
    ['next_month', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['next_year', '2027-01-01T00:00:00.000Z', '2028-01-01T00:00:00.000Z'],
  ])('duration %s resolves to UTC dates from today', async (duration, start, end) => {
    const res = await w.create(
      campaignBody({ duration, startDate: undefined, endDate: undefined }),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body[0]).toMatchObject({ duration, startDate: start, endDate: end });
  });

  it('refuses each broken rule, naming the field', async () => {
    await refused(campaignBody({ title: '  ' }), 'title', /blank/);
    await refused(campaignBody({ title: undefined }), 'title', /required/);
    await refused(campaignBody({ type: 'lottery' }), 'type', /daily_reward_simple/);
    await refused(campaignBody({ termsAccepted: false }), 'termsAccepted', /must be true/);
    await refused(campaignBody({ prizes: [] }), 'prizes', /at least 1/);
    await refused(campaignBody({ startDate: undefined }), 'startDate', /required/);
    await refused(campaignBody({ endDate: '2026-10-01' }), 'endDate', /after startDate/);
    await refused(campaignBody({ endDate: '31/12/2026' }), 'endDate', /date/);
    await refused(
      campaignBody({ duration: 'next_week' }),
      'startDate',
      /not be sent with duration/,
    );
    await refused(campaignBody({ duration: 'forever' }), 'duration', /next_weekend/);
    await refused(campaignBody({ multiplier: 0 }), 'multiplier', /at least 1/);
    await refused(campaignBody({ budget: -1 }), 'budget', /at least 0/);
    await refused(
      campaignBody({ prizes: [prize({ coinPrize: 0 })] }),
      'prizes.0',
      /must give something/,
    );
    await refused(
      campaignBody({ prizes: [prize({ productPrize: 'chair' })] }),
      'prizes.0.productPrize',
      /./,
    );
    await refused(
      campaignBody({ prizes: [prize({ day: undefined })] }),
      'prizes.0.day',
      /required/,
    );
    await refused(
      campaignBody({ prizes: [prize(), prize()] }),
      'prizes',
      /exactly one prize for daily_reward_simple/,
    );
    await refused(
      campaignBody({
        type: 'daily_reward_progressive',
        prizes: [prize({ day: 1 }), prize({ day: 1 })],
      }),
      'prizes.1.day',
      /day 1 is given twice/,
    );
    await refused(
      campaignBody({ type: 'daily_reward_progressive', prizes: [prize({ day: 0 })] }),
      'prizes.0.day',
      /at least 1/,
    );
    await refused(
      campaignBody({ type: 'tournament', prizes: [prize({ rank: 'first' })] }),
      'prizes.0.rank',
      /rank "3" or a range/,
    );
    await refused(
      campaignBody({ type: 'tournament', prizes: [prize({ rank: '1-5' }), prize({ rank: '5' })] }),
      'prizes.1.rank',
      /overlaps the rank of prizes.0/,
    );
  });

  it('an unknown targeting parameter or operator is 400 naming it; a misfit operator or value too', async () => {
    const cond = (c: Record<string, unknown>) =>
      campaignBody({ targeting: { conditions: [{ value: '1', ...c }] } });
    await refused(
      cond({ parameter: 'shoe_size', operator: 'equals' }),
      'targeting.conditions.0.parameter',
      /unknown parameter "shoe_size"/,
    );
    await refused(
      cond({ parameter: 'deposit', operator: 'roughly' }),
      'targeting.conditions.0.operator',
      /unknown operator "roughly"/,
    );
    await refused(
      cond({ parameter: 'language', operator: 'sum_greater_than' }),
      'targeting.conditions.0.operator',
      /sum_greater_than does not apply to parameter language/,
    );
    await refused(
      cond({ parameter: 'deposit', operator: 'between', value: '5' }),
      'targeting.conditions.0.value',
      /min,max/,
    );
    await refused(
      cond({ parameter: 'created_at', operator: 'last_x_days', value: 'week' }),
      'targeting.conditions.0.value',
      /whole number/,
    );
    await refused(
      campaignBody({
        targeting: {
          conditions: [
            {
              parameter: 'deposit',
              operator: 'greater_than',
              value: '1',
              groupId: 1,
              logic: 'AND',
            },
            {
              parameter: 'cashback',
              operator: 'greater_than',
              value: '1',
              groupId: 1,
              logic: 'OR',
            },
          ],
        },
      }),
      'targeting.conditions.1.logic',
      /group 1 already joins its conditions with AND/,
    );
  });

  it('another establishment in the path is 404; a malformed id 400; a key without the scope 403', async () => {
    const other = await w.p.otherKey({ scopes: ['campaigns:read'] });
    const res = await w.h.call('GET', `/establishments/${crypto.randomUUID()}/campaigns`, {
      key: w.p.key,
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('ESTABLISHMENT_NOT_FOUND');
    expect((await w.p.get(`${w.base}/not-a-uuid`)).status).toBe(400);
    const missing = await w.p.get(`${w.base}/${crypto.randomUUID()}`);
    expect([missing.status, missing.body.code]).toEqual([404, 'CAMPAIGN_NOT_FOUND']);
    const write = await w.h.call('POST', w.base, { key: other, body: campaignBody() });
    expect(write.status).toBe(403);
    expect(write.body.message).toMatch(/campaigns:write/);
  });
});

describe('the life cycle', () => {
  it('moves only as documented; a refused move is 400 naming the state', async () => {
    const id = await w.campaign(campaignBody(), false);
    const move = (status: string) => w.p.put(`${w.base}/${id}/update-status`, { status });
    const paused = await move('paused');
    expect(paused.status).toBe(400);
    expect(paused.body.code).toBe('INVALID_TRANSITION');
    expect(paused.body.message).toMatch(/is draft: it cannot move to paused/);
    expect((await move('completed')).body.details[0].message).toMatch(
      /completed is set by the server/,
    );
    expect((await move('in_progress')).body.status).toBe('in_progress');
    expect((await move('paused')).body.status).toBe('paused');
    expect((await move('in_progress')).body.status).toBe('in_progress');
    expect((await move('cancelled')).body.status).toBe('cancelled');
    const after = await move('in_progress');
    expect(after.status).toBe(400);
    expect(after.body.message).toMatch(/is cancelled.*final/);
  });

  it('completes when its end passes, by the server, on read', async () => {
    const id = await w.campaign(
      campaignBody({ startDate: '2026-11-20', endDate: '2026-11-25T12:00:00Z' }),
    );
    expect((await w.p.get(`${w.base}/${id}`)).body.status).toBe('in_progress');
    w.clock.set('2026-11-25T12:00:00Z');
    try {
      expect((await w.p.get(`${w.base}/${id}`)).body.status).toBe('completed');
      const restart = await w.p.put(`${w.base}/${id}/update-status`, { status: 'in_progress' });
      expect(restart.body.message).toMatch(/is completed/);
    } finally {
      w.clock.set('2026-11-25T10:00:00Z');
    }
  });

  it('PUT: a draft takes any change; a running one only texts, budget and a later end', async () => {
    const id = await w.campaign(campaignBody(), false);
    const put = (over: Record<string, unknown>) => w.p.put(`${w.base}/${id}`, campaignBody(over));
    const draft = await put({ multiplier: 3, title: 'Renamed' });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body).toMatchObject({ title: 'Renamed', name: 'Renamed', multiplier: 3 });
    await w.p.put(`${w.base}/${id}/update-status`, { status: 'in_progress' });
    const texts = await put({ multiplier: 3, title: 'Running title', budget: 900 });
    expect(texts.status, texts.text).toBe(200);
    const prizes = await put({ multiplier: 3, prizes: [prize({ coinPrize: 1 })] });
    expect(prizes.status).toBe(400);
    expect(prizes.body.message).toMatch(/is in_progress: .*not prizes/);
    const earlier = await put({ multiplier: 3, endDate: '2026-12-01' });
    expect(earlier.body.details[0]).toMatchObject({ field: 'endDate' });
  });

  it('templates never run and clone into drafts', async () => {
    const t = await w.campaign(
      campaignBody({
        isTemplate: true,
        duration: 'next_week',
        startDate: undefined,
        endDate: undefined,
      }),
      false,
    );
    const start = await w.p.put(`${w.base}/${t}/update-status`, { status: 'in_progress' });
    expect(start.body.message).toMatch(/template/);
    const clone = await w.p.post(`${w.base}/${t}/clone`, { title: 'From template' }, null);
    expect(clone.status, clone.text).toBe(200);
    expect(clone.body).toMatchObject({
      title: 'From template',
      status: 'draft',
      isTemplate: false,
      clonedFromId: t,
      startDate: '2026-11-30T00:00:00.000Z',
    });
    const plain = await w.campaign(campaignBody(), false);
    const notTemplate = await w.p.post(`${w.base}/${plain}/clone`, {}, null);
    expect(notTemplate.body.message).toMatch(/not a template/);
  });

  it('DELETE erases a campaign that awarded nothing, and hides one that did, keeping awards and coins', async () => {
    const empty = await w.campaign(campaignBody(), false);
    const gone = await w.p.delete(`${w.base}/${empty}`);
    expect(gone.body).toEqual({ campaignId: empty, deleted: true, keptAwards: 0 });
    expect((await w.p.get(`${w.base}/${empty}`)).status).toBe(404);

    const id = await w.campaign(campaignBody());
    const player = await w.player();
    const won = await w.activity({ mode: 'campaign', player_id: player, campaign_id: id });
    const awardId = won.body.results[0].award.awardId;
    expect((await w.claim(player, awardId)).status).toBe(200);
    const hidden = await w.p.delete(`${w.base}/${id}`);
    expect(hidden.body).toEqual({ campaignId: id, deleted: true, keptAwards: 1 });
    expect((await w.p.get(`${w.base}/${id}`)).status).toBe(404);
    const prizes = await w.p.get(`/players/${player}/prizes`);
    expect(prizes.body.prizes).toMatchObject([{ awardId, status: 'claimed', coins: 100 }]);
    const movements = await w.p.get(`/api/v1/customers/${player}/coins/movements`);
    expect(movements.body.data).toMatchObject([
      { delta: 100, reason: `campaign:${awardId}`, source: 'campaign' },
    ]);
  });
});

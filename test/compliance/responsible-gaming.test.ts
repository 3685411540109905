// The responsible-gaming gate (docs/compliance.md): a customer's state, set through either API,
// the backoffice or the CLI and kept with its history; while it is active every incentive path
// refuses in the transaction that would have paid, and each refusal leaves one decision row.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { setGameTable } from '../../src/engine/campaigns/mini-games.js';
import { campaignBody, campaignWorld, prize } from '../campaigns/support.js';
import { createStaff, signInAs } from '../support/staff.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
beforeAll(async () => {
  w = await campaignWorld('2026-11-23T12:00:00Z');
});
afterAll(() => w.h.close());

const rgPath = (id: string) => `/api/v1/customers/${id}/responsible-gaming`;
const later = (days: number) => new Date(w.clock.at.getTime() + days * 86_400_000).toISOString();
const decisions = (customerId: string) =>
  w.h.db.prisma.rgDecision.findMany({ where: { customerId }, orderBy: { id: 'asc' } });
const movements = (customerId: string) =>
  w.h.db.prisma.coinMovement.count({ where: { customerId } });

async function brandAdmin() {
  const staff = await createStaff(w.h.db.prisma, 'brand_admin', { brandId: w.p.brandId });
  return signInAs(w.h.url, staff.email);
}

const SET_RG = `mutation ($id: ID!, $input: ResponsibleGamingInput!) {
  setResponsibleGaming(customerId: $id, input: $input) { id responsibleGaming { state until source } }
}`;

describe('the state', () => {
  it('is set through the partner key, shown on the customer and the player, and kept as history', async () => {
    const c = await w.p.customer();
    const none = (await w.p.get(`/api/v1/customers/${c.id}`)).body.data.responsible_gaming;
    expect(none).toEqual({ state: 'none', until: null, source: null, since: null });

    const until = later(7);
    const set = await w.p.put(rgPath(c.id), {
      state: 'cool_off',
      until,
      source: 'player',
      note: 'asked by chat',
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toEqual({
      customer_id: c.id,
      responsible_gaming: {
        state: 'cool_off',
        until,
        source: 'player',
        since: w.clock.at.toISOString(),
      },
    });
    const player = (await w.p.get(`/players/${c.id}`)).body;
    expect(player.responsibleGaming).toMatchObject({ state: 'cool_off', until, source: 'player' });

    // Extending is open to the key; self-exclusion without an end is indefinite.
    const extended = await w.p.put(rgPath(c.id), { state: 'self_excluded', source: 'regulator' });
    expect(extended.body.data.responsible_gaming).toMatchObject({
      state: 'self_excluded',
      until: null,
    });

    const history = await w.h.db.prisma.rgChange.findMany({
      where: { customerId: c.id },
      orderBy: { id: 'asc' },
    });
    expect(history.map((h) => [h.previousState, h.state, h.source, h.via])).toEqual([
      ['none', 'cool_off', 'player', 'api'],
      ['cool_off', 'self_excluded', 'regulator', 'api'],
    ]);
    expect(history[0]).toMatchObject({ note: 'asked by chat', apiKeyId: expect.any(String) });
    // A customer.updated event tells the partner's systems.
    const events = await w.h.db.prisma.event.count({
      where: { resourceId: c.id, type: 'customer.updated' },
    });
    expect(events).toBe(2);
  });

  it('cannot be shortened or lifted through a key: a brand admin does it, with a reason', async () => {
    const c = await w.p.customer();
    await w.p.put(rgPath(c.id), { state: 'self_excluded' });
    const lift = await w.p.put(rgPath(c.id), { state: 'none', reason: 'asked' });
    expect(lift.status).toBe(403);
    expect(lift.body.error.message).toMatch(/self-exclusion cannot be lifted/);
    const establishment = await w.p.put(`/players/${c.id}/responsible-gaming`, {
      state: 'cool_off',
      until: later(1),
    });
    expect(establishment.status).toBe(403);

    const admin = await brandAdmin();
    const opts = { subBrandId: w.p.subBrandId };
    const noReason = await admin.gql(SET_RG, { id: c.id, input: { state: 'none' } }, opts);
    expect(noReason.body.errors[0].extensions.code).toBe('invalid_request');
    expect(noReason.body.errors[0].message).toMatch(/reason/);
    const lifted = await admin.gql(
      SET_RG,
      { id: c.id, input: { state: 'none', reason: 'Regulator confirmed the exclusion ended' } },
      opts,
    );
    expect(lifted.body.data.setResponsibleGaming.responsibleGaming.state).toBe('none');
    const last = await w.h.db.prisma.rgChange.findFirst({
      where: { customerId: c.id },
      orderBy: { id: 'desc' },
    });
    expect(last).toMatchObject({
      via: 'backoffice',
      previousState: 'self_excluded',
      reason: 'Regulator confirmed the exclusion ended',
      staffUserId: expect.any(String),
    });

    // A dated state: an earlier end is a shortening too.
    await w.p.put(rgPath(c.id), { state: 'cool_off', until: later(10) });
    expect((await w.p.put(rgPath(c.id), { state: 'cool_off', until: later(5) })).status).toBe(403);
    expect((await w.p.put(rgPath(c.id), { state: 'cool_off', until: later(20) })).status).toBe(200);
  });

  it('refuses bad input, other tenants and keys without the scope', async () => {
    const c = await w.p.customer();
    const bad = async (body: unknown) => {
      const res = await w.p.put(rgPath(c.id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      return res.body.error;
    };
    expect(
      (await bad({ state: 'cool_off' })).details ?? (await bad({ state: 'cool_off' })).issues,
    ).toBeDefined();
    expect((await bad({ state: 'cool_off' })).message).toMatch(/until: is required/);
    expect((await bad({ state: 'cool_off', until: '2020-01-01T00:00:00Z' })).message).toMatch(
      /future/,
    );
    expect((await bad({ state: 'none', until: later(1) })).message).toMatch(/not taken/);
    expect((await bad({ state: 'paused' })).message).toMatch(/state/);
    expect((await bad({ state: 'self_excluded', until: '2200-01-01T00:00:00Z' })).message).toMatch(
      /10 years/,
    );
    expect((await bad({ state: 'self_excluded', colour: 'red' })).message).toMatch(/colour/);
    expect((await bad({})).message).toMatch(/state/);

    const other = await (await import('../support/partner.js')).partner(w.h);
    expect((await other.put(rgPath(c.id), { state: 'self_excluded' })).status).toBe(404);
    expect((await w.p.put(rgPath(randomUUID()), { state: 'self_excluded' })).status).toBe(404);

    const readOnly = await w.p.otherKey({ scopes: ['customers:read'] });
    const refused = await w.h.call('PUT', rgPath(c.id), {
      key: readOnly,
      body: { state: 'self_excluded' },
    });
    expect(refused.status).toBe(403);
    expect(await w.h.db.prisma.rgChange.count({ where: { customerId: c.id } })).toBe(0);
  });
});

/** A self-excluded player with an award to claim, plays to play and an engine definition. */
async function blockedWorld() {
  const tenant = { subBrandId: w.p.subBrandId, environment: 'test' as const };
  const externalId = `rg-${randomUUID().slice(0, 8)}`;
  const player = (await w.p.customer({ external_id: externalId })).id as string;
  const games = await w.campaign(
    campaignBody({ prizes: [prize({ coinPrize: 0, catalogPrize: 'game:wheel', quantity: 20 })] }),
  );
  await setGameTable(w.h.db.prisma, tenant, games, 'wheel', {
    prizes: [{ label: 'Ten', coins: 10, weight: 1 }],
  });
  const won = await w.activity({ mode: 'campaign', player_id: player, campaign_id: games });
  expect((await w.claim(player, won.body.results[0].award.awardId)).status).toBe(200);
  const coins = await w.campaign(
    campaignBody({ title: 'Coins', prizes: [prize({ coinPrize: 50 })] }),
  );
  const award = (await w.activity({ mode: 'campaign', player_id: player, campaign_id: coins })).body
    .results[0].award.awardId as string;
  const definition = await createDefinition(w.h.db.prisma, {
    subBrandId: w.p.subBrandId,
    code: `spin-${randomUUID().slice(0, 6)}`,
    points: 10,
  });
  return { player, externalId, games, coins, award, definition };
}

describe('the gate', () => {
  it('100 concurrent grants, activities, claims and plays of a self-excluded player move nothing and write 100 decisions; lifting lets the next pay', async () => {
    const b = await blockedWorld();
    const daily = await w.campaign(
      campaignBody({ title: 'Daily', prizes: [prize({ coinPrize: 5 })] }),
    );
    const before = await movements(b.player);
    await w.p.put(rgPath(b.player), { state: 'self_excluded', source: 'player' });

    const grant = () =>
      w.p.post('/api/v1/engine/events', {
        event_code: b.definition.code,
        data: { externalUserId: b.externalId },
      });
    const activity = () =>
      w.activity({ mode: 'campaign', player_id: b.player, campaign_id: daily });
    const claim = () => w.p.post(`/players/${b.player}/claim`, { awardId: b.award });
    const play = () => w.p.post(`/players/${b.player}/game/wheel/${b.games}/play`, {});
    const answers = await Promise.all(
      Array.from({ length: 25 }, () => [grant(), activity(), claim(), play()]).flat(),
    );

    const grants = answers.filter((_, i) => i % 4 === 0);
    expect(grants.map((r) => [r.status, r.body.data.status, r.body.data.error_code])).toEqual(
      Array(25).fill([200, 'skipped', 'rg_blocked']),
    );
    expect(grants[0]!.body.data.error_message).not.toContain(b.externalId);
    const activities = answers.filter((_, i) => i % 4 === 1);
    for (const r of activities)
      expect(r.body.results).toEqual([
        expect.objectContaining({ outcome: 'player_not_eligible', reason: 'responsible_gaming' }),
      ]);
    for (const r of answers.filter((_, i) => i % 4 >= 2)) {
      expect(r.status, r.text).toBe(409);
      expect(r.body.code).toBe('RG_BLOCKED');
    }

    expect(await movements(b.player)).toBe(before);
    const rows = await decisions(b.player);
    expect(rows).toHaveLength(100);
    const count = (path: string) => rows.filter((d) => d.path === path).length;
    expect([
      count('engine_grant'),
      count('campaign_award'),
      count('claim'),
      count('game_play'),
    ]).toEqual([25, 25, 25, 25]);
    expect(rows.every((d) => d.state === 'self_excluded' && d.until === null)).toBe(true);
    // The award is still there to claim, and the plays still there to play.
    const award = await w.h.db.prisma.campaignAward.findFirstOrThrow({ where: { id: b.award } });
    expect(award.status).toBe('pending');

    const admin = await brandAdmin();
    const lifted = await admin.gql(
      SET_RG,
      { id: b.player, input: { state: 'none', reason: 'Exclusion period served' } },
      { subBrandId: w.p.subBrandId },
    );
    expect(lifted.body.data.setResponsibleGaming.responsibleGaming.state).toBe('none');
    const paid = await grant();
    expect(paid.body.data).toMatchObject({ status: 'completed', points_applied: 10 });
    expect((await claim()).status).toBe(200);
    expect((await play()).status).toBe(200);
    expect(await decisions(b.player)).toHaveLength(100);
  });

  it('a state that ended lets incentives through again by itself', async () => {
    const b = await blockedWorld();
    await w.p.put(rgPath(b.player), { state: 'limit_reached', until: later(1) });
    expect((await w.claim(b.player, b.award)).status).toBe(409);
    w.clock.set(later(2));
    try {
      const customer = (await w.p.get(`/api/v1/customers/${b.player}`)).body.data;
      expect(customer.responsible_gaming.state).toBe('none');
      expect((await w.claim(b.player, b.award)).status).toBe(200);
    } finally {
      w.clock.set('2026-11-23T12:00:00Z');
    }
  });

  it('a replayed claim answers its stored refusal without a second decision', async () => {
    const b = await blockedWorld();
    await w.p.put(rgPath(b.player), { state: 'cool_off', until: later(3) });
    const key = randomUUID();
    const first = await w.p.post(`/players/${b.player}/claim`, { awardId: b.award }, key);
    const again = await w.p.post(`/players/${b.player}/claim`, { awardId: b.award }, key);
    expect([first.status, again.status]).toEqual([409, 409]);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(await decisions(b.player)).toHaveLength(1);
  });

  it('store sessions are refused; bulk credits leave blocked customers out and count them', async () => {
    const p = await (await import('../support/partner.js')).partner(w.h);
    const blocked = await p.customer({ segment_id: 'vip' });
    const free = await p.customer({ segment_id: 'vip' });
    await p.put(rgPath(blocked.id), { state: 'self_excluded' });

    const session = await p.post('/api/v1/store-sessions', { customer_id: blocked.id });
    expect(session.status).toBe(409);
    expect(session.body.error.code).toBe('customer_not_eligible');

    const body = { filter: { segment_id: 'vip' }, delta: 25, reason: 'VIP weekend' };
    const preview = await p.post('/api/v1/customers/bulk/coins', { ...body, dry_run: true });
    expect(preview.body.data).toMatchObject({ matched: 2, would_apply: 1, rg_blocked: 1 });
    const bulk = await p.post('/api/v1/customers/bulk/coins', body);
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body.data).toMatchObject({
      matched: 2,
      applied: 1,
      rg_blocked: 1,
      total_delta: 25,
    });
    expect((await p.get(`/api/v1/customers/${free.id}`)).body.data.coin_balance).toBe(25);
    expect((await p.get(`/api/v1/customers/${blocked.id}`)).body.data.coin_balance).toBe(0);
    // A debit is no incentive: the blocked customer is debited like anyone.
    expect((await p.post(`/api/v1/customers/${blocked.id}/coins`, { delta: 5 })).status).toBe(201);
    expect((await p.post(`/api/v1/customers/${blocked.id}/coins`, { delta: -5 })).status).toBe(201);

    const rows = await decisions(blocked.id);
    expect(rows.map((d) => d.path)).toEqual(['store_session', 'bulk_credit']);
    expect(rows[1]!.reference).toBe(`bulk:${bulk.body.data.id}`);
  });
});

describe('the decisions list', () => {
  it('pages by time window, per customer, confined to the tenant', async () => {
    const p = await (await import('../support/partner.js')).partner(w.h);
    const c = await p.customer();
    await p.put(rgPath(c.id), { state: 'self_excluded' });
    for (let i = 0; i < 3; i += 1)
      expect((await p.post('/api/v1/store-sessions', { customer_id: c.id })).status).toBe(409);
    const first = await p.get('/api/v1/compliance/rg-decisions?limit=2');
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0]).toEqual({
      id: expect.any(String),
      customer_id: c.id,
      path: 'store_session',
      state: 'self_excluded',
      until: null,
      reference: null,
      created_at: w.clock.at.toISOString(),
    });
    const next = await p.get(
      `/api/v1/compliance/rg-decisions?limit=2&cursor=${first.body.page.next_cursor}`,
    );
    expect(next.body.data).toHaveLength(1);
    expect(next.body.page.has_more).toBe(false);

    const window = (from: string, to: string) =>
      p.get(`/api/v1/compliance/rg-decisions?from=${from}&to=${to}&customer_id=${c.id}`);
    expect((await window(w.clock.at.toISOString(), later(1))).body.data).toHaveLength(3);
    expect((await window(later(1), later(2))).body.data).toHaveLength(0);
    expect((await p.get('/api/v1/compliance/rg-decisions?from=yesterday')).status).toBe(400);

    const other = await (await import('../support/partner.js')).partner(w.h);
    expect((await other.get('/api/v1/compliance/rg-decisions')).body.data).toEqual([]);
  });
});

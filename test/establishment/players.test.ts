// Players on the establishment API are the partner API's customers: the same rows, the same
// wallet, seen in two shapes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootOf } from '../marketplace/support.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
let p: Awaited<ReturnType<typeof partner>>;
beforeAll(async () => {
  h = await startHarness();
  p = await partner(h);
});
afterAll(() => h.close());

const createPlayer = async (name: string, extra: Record<string, unknown> = {}) => {
  const res = await p.post('/players', { establishmentId: p.subBrandId, name, ...extra }, null);
  expect(res.status, res.text).toBe(200);
  return res.body as Record<string, any>;
};

describe('players are customers', () => {
  it('a player created here is the partner customer: same id, names, status, balance', async () => {
    const player = await createPlayer('Ana María García', { email: 'ana@example.com' });
    expect(player).toEqual({
      playerId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      establishmentId: p.subBrandId,
      name: 'Ana María García',
      email: 'ana@example.com',
      playerStatus: 'active',
      coins: 0,
      createdAt: expect.stringMatching(/Z$/),
      responsibleGaming: { state: 'none', until: null, source: null, since: null },
      gameCredits: {},
      prizes: [],
    });
    const customer = (await p.get(`/api/v1/customers/${player.playerId}`)).body.data;
    expect(customer).toMatchObject({
      id: player.playerId,
      first_name: 'Ana',
      last_name: 'María García',
      email: 'ana@example.com',
      status: 'active',
      coin_balance: 0,
      created_at: player.createdAt,
    });
  });

  it('a one-word name is a first name with an empty last name, and reads back unchanged', async () => {
    const player = await createPlayer('  Madonna ');
    expect(player.name).toBe('Madonna');
    expect((await p.get(`/api/v1/customers/${player.playerId}`)).body.data).toMatchObject({
      first_name: 'Madonna',
      last_name: '',
    });
    expect((await p.get(`/players/${player.playerId}`)).body.name).toBe('Madonna');
  });

  it('coins credited on one API are seen and spendable on the other', async () => {
    const player = await createPlayer('Coin Holder');
    await p.credit(player.playerId, 500, 'partner credit');
    expect((await p.get(`/players/${player.playerId}`)).body.coins).toBe(500);
    const debit = await p.put('/coins', {
      playerId: player.playerId,
      amount: -200,
      reason: 'shop',
    });
    expect(debit.status, debit.text).toBe(200);
    expect(debit.body).toMatchObject({ playerId: player.playerId, amount: -200, coins: 300 });
    const movements = (await p.get(`/api/v1/customers/${player.playerId}/coins/movements`)).body;
    expect(movements.data.map((m: { delta: number }) => m.delta)).toEqual([-200, 500]);
    expect(movements.data[0]).toMatchObject({ id: debit.body.movementId, reason: 'shop' });
  });

  it('a deletion through one API is a 404 through the other, both ways', async () => {
    const a = await createPlayer('Gone Here');
    expect((await p.delete(`/players/${a.playerId}`)).body).toEqual({
      playerId: a.playerId,
      deleted: true,
    });
    expect((await p.get(`/api/v1/customers/${a.playerId}`)).status).toBe(404);
    const b = await p.customer({ first_name: 'Gone', last_name: 'There' });
    expect((await p.delete(`/api/v1/customers/${b.id}`)).status).toBe(200);
    const res = await p.get(`/players/${b.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'Not Found', code: 'PLAYER_NOT_FOUND' });
    expect((await p.delete(`/players/${a.playerId}`)).status).toBe(404);
  });

  it('a status set by the partner reads as playerStatus, and back', async () => {
    const c = await p.customer({ first_name: 'Status', last_name: 'Watcher', status: 'watch' });
    expect((await p.get(`/players/${c.id}`)).body.playerStatus).toBe('watch');
    const put = await p.put(`/players/${c.id}`, { name: 'Status Banned', playerStatus: 'banned' });
    expect(put.status, put.text).toBe(200);
    expect((await p.get(`/api/v1/customers/${c.id}`)).body.data).toMatchObject({
      first_name: 'Status',
      last_name: 'Banned',
      status: 'banned',
    });
  });

  it('test keys never see live players', async () => {
    const live = await p.otherKey({ env: 'live' });
    const player = await createPlayer('Test Only');
    const res = await h.call('GET', `/players/${player.playerId}`, { key: live });
    expect(res.status).toBe(404);
    const search = await h.call('POST', '/players/search', { key: live, body: {} });
    expect(search.body.data).toEqual([]);
    expect(search.body.meta.pagination.total).toBe(0);
  });
});

describe('player writes and their refusals', () => {
  it('refuses a playerStatus outside the four statuses, naming the field', async () => {
    const player = await createPlayer('Bad Status');
    const res = await p.put(`/players/${player.playerId}`, {
      name: 'Bad Status',
      playerStatus: 'suspended',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'Bad Request',
      code: 'VALIDATION_ERROR',
      details: [{ field: 'playerStatus', message: expect.stringContaining('"banned"') }],
      requestId: res.headers.get('x-request-id'),
    });
  });

  it('an establishmentId other than the key’s own is 404 ESTABLISHMENT_NOT_FOUND', async () => {
    const other = await partner(h);
    const res = await p.post('/players', { establishmentId: other.subBrandId, name: 'X Y' }, null);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 'ESTABLISHMENT_NOT_FOUND',
      message: 'Establishment not found.',
    });
  });

  it('missing and malformed fields are named; unknown fields are ignored', async () => {
    const missing = await p.post('/players', { email: 'not-an-email' }, null);
    expect(missing.status).toBe(400);
    // The e-mail's format is checked with the rest (and stated in the OpenAPI document).
    expect(missing.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'email',
      'establishmentId',
      'name',
    ]);
    const blank = await p.post('/players', { establishmentId: p.subBrandId, name: '   ' }, null);
    expect(blank.body.details).toEqual([
      { field: 'name', code: 'blank', message: 'must not be blank' },
    ]);
    const badEmail = await p.post(
      '/players',
      { establishmentId: p.subBrandId, name: 'E Mail', email: 'nope' },
      null,
    );
    expect(badEmail.body.details).toEqual([
      { field: 'email', code: 'format', message: 'must be an e-mail address' },
    ]);
    const extra = await p.post(
      '/players',
      { establishmentId: p.subBrandId, name: 'Extra Fields', phone: '+34', gameCredits: 5 },
      null,
    );
    expect(extra.status).toBe(200);
    expect(extra.body).not.toHaveProperty('phone');
  });

  it('a malformed player id is 400, an unknown one 404', async () => {
    const bad = await p.get('/players/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'playerId' }] });
    const unknown = await p.get('/players/0190aaaa-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PLAYER_NOT_FOUND');
  });

  it('PUT /coins refuses an overdraft with 400 INSUFFICIENT_BALANCE and moves nothing', async () => {
    const player = await createPlayer('Poor Player');
    await p.credit(player.playerId, 10);
    const res = await p.put('/coins', { playerId: player.playerId, amount: -11 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INSUFFICIENT_BALANCE');
    expect((await p.get(`/players/${player.playerId}`)).body.coins).toBe(10);
    const zero = await p.put('/coins', { playerId: player.playerId, amount: 0 });
    expect(zero.body.details).toEqual([
      { field: 'amount', code: 'invalid', message: 'must not be 0' },
    ]);
  });

  it('PUT /coins honours an Idempotency-Key: the retry replays, concurrent retries apply once', async () => {
    const player = await createPlayer('Once Only');
    const body = { playerId: player.playerId, amount: 25, reason: 'welcome' };
    const headers = { 'idempotency-key': `coins-${player.playerId}` };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => p.put('/coins', body, headers)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect((await p.get(`/players/${player.playerId}`)).body.coins).toBe(25);
    const other = await p.put('/coins', { ...body, amount: 26 }, headers);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('concurrent debits never take a wallet below zero', async () => {
    const player = await createPlayer('Contended Wallet');
    await p.credit(player.playerId, 100);
    const debits = await Promise.all(
      Array.from({ length: 12 }, () => p.put('/coins', { playerId: player.playerId, amount: -10 })),
    );
    expect(debits.filter((d) => d.status === 200)).toHaveLength(10);
    expect(
      debits.filter((d) => d.status === 400).every((d) => d.body.code === 'INSUFFICIENT_BALANCE'),
    ).toBe(true);
    expect((await p.get(`/players/${player.playerId}`)).body.coins).toBe(0);
  });
});

describe('POST /players/search and GET /players', () => {
  let tenant: Awaited<ReturnType<typeof partner>>;
  const ids: string[] = [];
  beforeAll(async () => {
    tenant = await partner(h);
    for (const [i, name] of [
      'Zoe Alpha',
      'Yann Beta',
      'Xavi Gamma',
      'Will Delta',
      'Vera Alpha',
    ].entries()) {
      const res = await tenant.post('/players', { establishmentId: tenant.subBrandId, name }, null);
      ids.push(res.body.playerId);
      if (i % 2 === 0) await tenant.credit(res.body.playerId, (i + 1) * 100);
    }
    await tenant.put(`/players/${ids[3]}`, { name: 'Will Delta', playerStatus: 'restricted' });
  });

  const search = (body: unknown) => h.call('POST', '/players/search', { key: tenant.key, body });

  it('answers the documented meta and items, newest first', async () => {
    const res = await search({ pagination: { page: 1, limit: 2 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta).toEqual({
      version: '1.0',
      pagination: { page: 1, limit: 2, total: 5, hasMore: true, totalExact: true },
      filters: {
        types: ['player'],
        statuses: ['active', 'watch', 'restricted', 'banned'],
        categories: [],
        priceRange: null,
        stockRange: null,
        current: {},
      },
      sort: {
        fields: ['createdAt'],
        allowed: ['createdAt:desc', 'createdAt:asc'],
        default: 'createdAt:desc',
        current: 'createdAt:desc',
      },
      paginationControls: {
        defaultLimit: 20,
        maxLimit: 100,
        allowed: [10, 20, 50, 100],
        current: 2,
      },
      coin: { parity: 100, name: 'Coins' },
    });
    expect(res.body.data.map((d: { playerId: string }) => d.playerId)).toEqual([ids[4], ids[3]]);
    expect(res.body.data[0]).toMatchObject({ entityType: 'player', scope: 'establishment' });
    const last = await search({ pagination: { page: 3, limit: 2 } });
    expect(last.body.data.map((d: { playerId: string }) => d.playerId)).toEqual([ids[0]]);
    expect(last.body.meta.pagination.hasMore).toBe(false);
  });

  it('filters by name, id, statuses, coin range and registration window', async () => {
    const names = async (body: unknown) =>
      (await search(body)).body.data.map((d: { name: string }) => d.name).sort();
    expect(await names({ search: 'alpha' })).toEqual(['Vera Alpha', 'Zoe Alpha']);
    expect(await names({ search: ids[1] })).toEqual(['Yann Beta']);
    expect(await names({ filters: { status: ['restricted'] } })).toEqual(['Will Delta']);
    expect(await names({ filters: { coin: { min: 200 } } })).toEqual(['Vera Alpha', 'Xavi Gamma']);
    expect(await names({ filters: { coin: { max: 0 }, status: ['active'] } })).toEqual([
      'Yann Beta',
    ]);
    const created = (await tenant.get(`/players/${ids[2]}`)).body.createdAt as string;
    expect(await names({ filters: { registerDate: { to: created } } })).toEqual([
      'Yann Beta',
      'Zoe Alpha',
    ]);
    const asc = await search({ sort: { field: 'createdAt', order: 'asc' } });
    expect(asc.body.data[0].playerId).toBe(ids[0]);
    expect(asc.body.meta.sort.current).toBe('createdAt:asc');
  });

  it('refuses bad filters naming them', async () => {
    const res = await search({
      filters: { coin: { min: -1 }, status: ['gone'] },
      pagination: { limit: 101 },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'filters.coin.min',
      'filters.status.0',
      'pagination.limit',
    ]);
  });

  it('GET /players is the variant list with its own pagination shape', async () => {
    const res = await h.call('GET', '/players?page=2&limit=2&status=active', { key: tenant.key });
    expect(res.status, res.text).toBe(200);
    expect(res.body.pagination).toEqual({
      currentPage: 2,
      totalPages: 2,
      totalItems: 4,
      itemsPerPage: 2,
    });
    expect(res.body.players).toHaveLength(2);
    const other = await h.call('GET', `/players?establishmentId=${p.subBrandId}`, {
      key: tenant.key,
    });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('ESTABLISHMENT_NOT_FOUND');
  });
});

describe('totals past the bound', () => {
  it('counts exactly to 10000, then says so; pages reach that far and no further', async () => {
    const big = await partner(h);
    await h.db.prisma.$executeRaw`
      INSERT INTO customers (id, sub_brand_id, environment, first_name, last_name, status_changed_at)
      SELECT gen_random_uuid(), ${big.subBrandId}::uuid, 'test', 'Bulk', 'Player ' || g, now()
      FROM generate_series(1, 10005) g`;
    const at = (page: number, limit = 20) =>
      h.call('POST', '/players/search', { key: big.key, body: { pagination: { page, limit } } });
    const first = await at(1);
    expect(first.body.meta.pagination).toEqual({
      page: 1,
      limit: 20,
      total: 10000,
      hasMore: true,
      totalExact: false,
    });
    expect((await at(500)).body.data).toHaveLength(20);
    const beyond = await at(501);
    expect(beyond.status).toBe(400);
    expect(beyond.body.details).toEqual([
      { field: 'page', code: 'too_big', message: expect.stringContaining('first 10000 matches') },
    ]);
    const narrow = await h.call('POST', '/players/search', {
      key: big.key,
      body: { search: 'Player 9999' },
    });
    expect(narrow.body.meta.pagination).toMatchObject({ total: 1, totalExact: true });
    // A text every one of them holds matches more than the bound: its first pages are walked to
    // (domain/customers/first-page.ts), its deep ones read as before. Either way, the same
    // players in the same order as without the text.
    const search = (body: Record<string, unknown>) =>
      h.call('POST', '/players/search', { key: big.key, body });
    for (const [page, order] of [
      [1, 'desc'],
      [2, 'desc'],
      [1, 'asc'],
      [500, 'desc'],
    ] as const) {
      const body = { pagination: { page, limit: 20 }, sort: { field: 'createdAt', order } };
      const all = await search(body);
      const text = await search({ ...body, search: 'PLAYER' });
      expect(text.status, text.text).toBe(200);
      expect(text.body.data.map((p: { playerId: string }) => p.playerId)).toEqual(
        all.body.data.map((p: { playerId: string }) => p.playerId),
      );
      expect(text.body.meta.pagination).toEqual(all.body.meta.pagination);
    }
  });
});

describe('POST /iframe/login and /iframe/logout', () => {
  it('opens the store for the player until signed out', async () => {
    await h.db.prisma.store.create({
      data: {
        id: randomUUID(),
        subBrandId: p.subBrandId,
        name: 'Main store',
        slug: `main-${Date.now()}`,
        active: true,
      },
    });
    const player = await createPlayer('Iframe User');
    const login = await p.post(
      '/iframe/login',
      { playerId: player.playerId, ttlSeconds: 120 },
      null,
    );
    expect(login.status, login.text).toBe(200);
    expect(login.body).toMatchObject({
      playerId: player.playerId,
      token: expect.stringMatching(/^ss_/),
    });
    const page = await fetch(login.body.url);
    expect(page.status).toBe(200);
    expect(bootOf(await page.text())).toMatchObject({ page: 'store', token: login.body.token });
    const other = await partner(h);
    const foreign = await other.post('/iframe/logout', { token: login.body.token }, null);
    expect(foreign.status).toBe(404);
    const out = await p.post('/iframe/logout', { token: login.body.token }, null);
    expect(out.status, out.text).toBe(200);
    expect(out.body).toMatchObject({ sessionId: login.body.sessionId, playerId: player.playerId });
    expect((await fetch(login.body.url)).status).toBe(401);
  });
});

// Provably fair mini-games (docs/fairness.md), over HTTP and the domain: the commitment shown
// before a play, plays recording their seeds and nonce, the rotation that reveals a seed, and the
// public verification of recorded draws: 10,000 of them verify after rotation, a one-byte change
// to the seed does not, and an active seed is never confirmed.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { inTransaction, type Db } from '../../src/domain/db.js';
import { newId } from '../../src/domain/ids.js';
import { fairDraw, seedHash } from '../../src/engine/campaigns/fair-draw.js';
import {
  grantCredits,
  playGame,
  setGameTable,
  type GameTable,
} from '../../src/engine/campaigns/mini-games.js';
import { openSeed } from '../../src/engine/campaigns/seed-cipher.js';
import { verifyDraw } from '../../src/engine/campaigns/verify-draw.js';
import { createCampaign } from '../../src/engine/campaigns/manage-campaigns.js';
import { TEST_DB } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { marketplaceShop } from '../marketplace/support.js';
import { campaignBody, campaignWorld, prize } from './support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
beforeAll(async () => {
  w = await campaignWorld('2026-11-23T12:00:00Z');
});
afterAll(() => w.h.close());

const TABLE_1: GameTable = [
  { label: 'Nothing', coins: 0, weight: 50 },
  { label: 'Five', coins: 5, weight: 30 },
  { label: 'Fifty', coins: 50, weight: 15 },
  { label: 'Jackpot', coins: 500, weight: 5 },
];
const TABLE_2: GameTable = [
  { label: 'Nothing', coins: 0, weight: 7 },
  { label: 'Ten', coins: 10, weight: 3 },
];

/** A running campaign whose `wheel` has TABLE_1, and a player holding `plays` plays of it. */
async function game(plays: number) {
  const tenant = { subBrandId: w.p.subBrandId, environment: 'test' as const };
  const campaignId = await w.campaign(
    campaignBody({ prizes: [prize({ coinPrize: 0, catalogPrize: 'game:wheel', quantity: 1 })] }),
  );
  await setGameTable(w.h.db.prisma, tenant, campaignId, 'wheel', { prizes: TABLE_1 });
  const player = await w.player();
  await grantCredits(w.h.db.prisma, tenant, campaignId, player, 'wheel', plays);
  const path = `/players/${player}/game/wheel/${campaignId}`;
  return {
    tenant,
    campaignId,
    player,
    path,
    rotatePath: `/campaigns/${campaignId}/game/wheel/rotate-seed`,
    play: (body: Record<string, unknown> = {}, key: string | null = randomUUID()) =>
      w.p.post(`${path}/play`, body, key),
    rotate: (key: string | null = randomUUID()) =>
      w.p.post(`/campaigns/${campaignId}/game/wheel/rotate-seed`, {}, key),
  };
}

const verify = (query: Record<string, string | number>) =>
  w.h.call(
    'GET',
    `/fairness/verify?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
  );

/** The game's active seed, opened as the server does (to prove it is never confirmed). */
async function activeSeedOf(db: Db, campaignId: string) {
  const row = await db.campaignGameSeed.findFirstOrThrow({
    where: { campaignId, revealedSeed: null },
  });
  return openSeed(db, row.id, row.seedCipher);
}

/**
 * `clientSeeds.length` draws recorded at once as plays record them: the active seed's next nonces
 * taken in one statement, each draw made by the fair-draw module, the rows written by one INSERT
 * (10,000 plays one by one would take minutes on PGlite; a sample goes through the real play).
 */
async function recordDraws(
  g: Awaited<ReturnType<typeof game>>,
  clientSeeds: string[],
  tableVersion: number,
  table: GameTable,
) {
  const n = clientSeeds.length;
  await inTransaction(w.h.db.prisma, async (tx) => {
    const [seed] = await tx.$queryRaw<{ id: string; seed_cipher: string; first: number }[]>`
      UPDATE campaign_game_seeds SET next_nonce = next_nonce + ${n}
      WHERE sub_brand_id = ${g.tenant.subBrandId}::uuid AND campaign_id = ${g.campaignId}::uuid
        AND game_name = 'wheel' AND revealed_seed IS NULL
      RETURNING id, seed_cipher, next_nonce - ${n} AS first`;
    const serverSeed = await openSeed(tx, seed!.id, seed!.seed_cipher);
    const weights = table.map((p) => p.weight);
    const rows = clientSeeds.map((clientSeed, i) => {
      const nonce = Number(seed!.first) + i;
      const d = fairDraw({ serverSeed, clientSeed, nonce, weights });
      return { id: newId(), nonce, client_seed: clientSeed, draw: d.draw, idx: d.resultIndex };
    });
    const total = weights.reduce((s, w) => s + w, 0);
    await tx.$executeRaw`
      INSERT INTO campaign_game_draws (id, sub_brand_id, environment, campaign_id, customer_id, game_name,
        table_version, idempotency_key, draw, seed_id, client_seed, nonce, total_weight, result_index, label, coins)
      SELECT d.id, ${g.tenant.subBrandId}::uuid, 'test', ${g.campaignId}::uuid, ${g.player}::uuid, 'wheel',
        ${tableVersion}, 'bulk-' || d.id, d.draw, ${seed!.id}::uuid, d.client_seed, d.nonce, ${total}, d.idx,
        t.prizes -> d.idx ->> 'label', (t.prizes -> d.idx ->> 'coins')::bigint
      FROM json_to_recordset(${JSON.stringify(rows)}::json)
        AS d(id uuid, nonce int, client_seed text, draw int, idx int),
        (SELECT ${JSON.stringify(table)}::jsonb AS prizes) t`;
  });
}

describe('the commitment and the plays', () => {
  it('the game read shows the seed hash before the first play, the table version and expected coins', async () => {
    const g = await game(3);
    const state = await w.p.get(g.path);
    expect(state.status, state.text).toBe(200);
    expect(state.body.serverSeedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(state.body.table).toMatchObject({
      version: 1,
      expectedCoins: (0 * 50 + 5 * 30 + 50 * 15 + 500 * 5) / 100,
      prizes: [{ label: 'Nothing', weight: 50, chance: 0.5 }, {}, {}, { weight: 5 }],
    });
    // The read made the seed once: the next read shows the same commitment.
    expect((await w.p.get(g.path)).body.serverSeedHash).toBe(state.body.serverSeedHash);
    expect(
      await w.h.db.prisma.campaignGameSeed.count({ where: { campaignId: g.campaignId } }),
    ).toBe(1);

    const mine = await g.play({ clientSeed: 'my-own_seed!' });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.draw).toMatchObject({
      clientSeed: 'my-own_seed!',
      nonce: 0,
      seedHash: state.body.serverSeedHash,
      serverSeed: null,
      tableVersion: 1,
      totalWeight: 100,
    });
    const generated = await g.play();
    expect(generated.body.draw.clientSeed).toMatch(/^[0-9a-f]{32}$/);
    expect(generated.body.draw.nonce).toBe(1);
    // A replay answers the same draw, its seeds included.
    const key = randomUUID();
    const first = await g.play({ clientSeed: 'again' }, key);
    expect(await g.play({ clientSeed: 'again' }, key)).toMatchObject({
      status: 200,
      body: first.body,
    });
    // The draws of the read carry their seeds and nonces.
    const after = await w.p.get(g.path);
    expect(after.body.draws.map((d: any) => d.nonce)).toEqual([2, 1, 0]);
    for (const d of after.body.draws) expect(d.seedHash).toBe(state.body.serverSeedHash);
    // The seed is sealed at rest: neither it nor its hash's preimage is in the row.
    const row = await w.h.db.prisma.campaignGameSeed.findFirstOrThrow({
      where: { campaignId: g.campaignId },
    });
    const seed = await activeSeedOf(w.h.db.prisma, g.campaignId);
    expect(seedHash(seed)).toBe(row.seedHash);
    expect(JSON.stringify(row)).not.toContain(seed);
    expect(row.nextNonce).toBe(3);
  });

  it('refuses a malformed clientSeed, naming it', async () => {
    const g = await game(5);
    for (const clientSeed of ['', 'x'.repeat(65), 'a:b', 'with space', 'ñandú', 42, ['a']]) {
      const res = await g.play({ clientSeed });
      expect([res.status, res.body.code], JSON.stringify(clientSeed)).toEqual([
        400,
        'VALIDATION_ERROR',
      ]);
      expect(res.body.details[0].field).toBe('clientSeed');
    }
    // Nothing was played.
    expect((await w.p.get(g.path)).body.credits).toBe(5);
    // The domain (GraphQL, the marketplace) refuses it too.
    await expect(
      playGame(
        w.h.db.prisma,
        g.tenant,
        { apiKeyId: null, requestId: null },
        g.player,
        'wheel',
        g.campaignId,
        randomUUID(),
        'a b',
      ),
    ).rejects.toMatchObject({ code: 'invalid_request', issues: [{ field: 'clientSeed' }] });
  });
});

describe('verification', () => {
  it('10,000 recorded draws (100 played, 9,900 recorded in bulk) verify after rotation; the seed changed by one byte does not', async () => {
    const started = Date.now();
    const g = await game(100);
    const hash = (await w.p.get(g.path)).body.serverSeedHash as string;
    // 20 plays over HTTP (half with the player's seed), 80 through the domain, on table 1.
    const http = await Promise.all(
      Array.from({ length: 20 }, (_, i) => g.play(i % 2 ? { clientSeed: `http-${i}` } : {})),
    );
    for (const res of http) expect(res.status, res.text).toBe(200);
    for (let i = 0; i < 80; i++)
      await playGame(
        w.h.db.prisma,
        g.tenant,
        { apiKeyId: null, requestId: null },
        g.player,
        'wheel',
        g.campaignId,
        `domain-${g.campaignId}-${i}`,
        i % 3 ? `domain-${i}` : null,
      );
    const played = Date.now();
    // A new table version, and 9,900 more draws on it.
    await setGameTable(w.h.db.prisma, g.tenant, g.campaignId, 'wheel', { prizes: TABLE_2 });
    await recordDraws(
      g,
      Array.from({ length: 9_900 }, (_, i) => `bulk-${i % 97}`),
      2,
      TABLE_2,
    );
    const recorded = Date.now();

    const rotated = await g.rotate();
    expect(rotated.status, rotated.text).toBe(200);
    const { previousSeed, currentSeedHash } = rotated.body;
    expect(previousSeed).toMatchObject({ seedHash: hash, draws: 10_000 });
    expect(seedHash(previousSeed.serverSeed)).toBe(hash);
    expect(currentSeedHash).not.toBe(hash);
    expect((await w.p.get(g.path)).body).toMatchObject({
      serverSeedHash: currentSeedHash,
      draws: expect.arrayContaining([
        expect.objectContaining({ seedHash: hash, serverSeed: previousSeed.serverSeed }),
      ]),
    });

    const draws = await w.h.db.prisma.campaignGameDraw.findMany({
      where: { subBrandId: g.tenant.subBrandId, campaignId: g.campaignId },
      orderBy: { nonce: 'asc' },
    });
    expect(draws.map((d) => d.nonce)).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
    expect(draws.filter((d) => d.tableVersion === 1)).toHaveLength(100);
    const check = async (d: (typeof draws)[number]) => {
      const v = await verifyDraw(w.h.db.prisma, {
        serverSeed: previousSeed.serverSeed,
        clientSeed: d.clientSeed,
        nonce: String(d.nonce),
        tableVersion: String(d.tableVersion),
      });
      return (
        v.draw === d.draw &&
        v.totalWeight === d.totalWeight &&
        v.resultIndex === d.resultIndex &&
        v.label === d.label &&
        BigInt(v.coins) === d.coins
      );
    };
    let verified = 0;
    const parallel = TEST_DB === 'postgres' ? 10 : 1;
    for (let at = 0; at < draws.length; at += parallel) {
      const ok = await Promise.all(draws.slice(at, at + parallel).map(check));
      verified += ok.filter(Boolean).length;
    }
    expect(verified).toBe(10_000);
    // Some through the public route, without a key, as a player would.
    for (const d of draws.filter((_, i) => i % 500 === 0)) {
      const res = await verify({
        serverSeed: previousSeed.serverSeed,
        clientSeed: d.clientSeed!,
        nonce: d.nonce!,
        tableVersion: d.tableVersion,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        seed: { seedHash: hash, found: true, revealed: true },
        campaignId: g.campaignId,
        gameName: 'wheel',
        draw: d.draw,
        resultIndex: d.resultIndex,
        label: d.label,
        coins: Number(d.coins),
      });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
    // The wrong table version gives another answer or none; a seed changed by one byte, none.
    const first = draws[0]!;
    const otherTable = await verify({
      serverSeed: previousSeed.serverSeed,
      clientSeed: first.clientSeed!,
      nonce: first.nonce!,
      tableVersion: 2,
    });
    expect(otherTable.body).toMatchObject({ tableVersion: 2, totalWeight: 10 });
    expect(first).toMatchObject({ tableVersion: 1, totalWeight: 100 });
    const bytes = Buffer.from(previousSeed.serverSeed, 'hex');
    for (const at of [0, 17, 31]) {
      const changed = Buffer.from(bytes);
      changed[at]! ^= 0x01;
      const res = await verify({
        serverSeed: changed.toString('hex'),
        clientSeed: first.clientSeed!,
        nonce: first.nonce!,
        tableVersion: first.tableVersion,
      });
      expect([res.status, res.body.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
      expect(res.body.message).toContain('No revealed server seed');
    }
    const noTable = await verify({
      serverSeed: previousSeed.serverSeed,
      clientSeed: 'x',
      nonce: 0,
      tableVersion: 3,
    });
    expect([noTable.status, noTable.body.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
    console.log(
      `10,000 draws: 100 played in ${played - started} ms, 9,900 recorded in ${recorded - played} ms, rotated and verified in ${Date.now() - recorded} ms (${TEST_DB})`,
    );
  }, 120_000);

  it('never confirms an active seed: it is answered as an unknown one', async () => {
    const g = await game(2);
    const played = await g.play({ clientSeed: 'secret-test' });
    const active = await activeSeedOf(w.h.db.prisma, g.campaignId);
    const query = { clientSeed: 'secret-test', nonce: 0, tableVersion: 1 };
    const refused = await verify({ serverSeed: active, ...query });
    const unknown = await verify({ serverSeed: 'ab'.repeat(32), ...query });
    expect([refused.status, refused.body.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
    const strip = (body: any) => ({
      ...body,
      message: body.message.replace(/[0-9a-f]{64}/, 'H'),
      requestId: null,
    });
    expect(strip(refused.body)).toEqual(strip(unknown.body));
    expect(refused.text).not.toContain(g.campaignId);
    // Once rotated it verifies, with the draw the play answered.
    await g.rotate();
    const ok = await verify({ serverSeed: active, ...query });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ draw: played.body.draw.draw, label: played.body.draw.label });
    // Upper-case hex is the same seed.
    expect((await verify({ serverSeed: active.toUpperCase(), ...query })).status).toBe(200);
  });

  it('refuses missing and malformed parameters, naming each', async () => {
    const none = await w.h.call('GET', '/fairness/verify');
    expect([none.status, none.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(none.body.details.map((d: any) => d.field).sort()).toEqual([
      'clientSeed',
      'nonce',
      'serverSeed',
      'tableVersion',
    ]);
    expect(none.body.requestId).toBe(none.headers.get('x-request-id'));
    const good = { serverSeed: 'ab'.repeat(32), clientSeed: 'x', nonce: '0', tableVersion: '1' };
    const bad: [string, string][] = [
      ['serverSeed', 'ab'.repeat(31)],
      ['serverSeed', 'zz'.repeat(32)],
      ['clientSeed', 'a:b'],
      ['clientSeed', 'x'.repeat(65)],
      ['nonce', '-1'],
      ['nonce', '1.5'],
      ['nonce', '2147483648'],
      ['nonce', '1e3'],
      ['tableVersion', '0'],
      ['tableVersion', 'one'],
    ];
    for (const [field, value] of bad) {
      const res = await verify({ ...good, [field]: value });
      expect([res.status, res.body.code], `${field}=${value}`).toEqual([400, 'VALIDATION_ERROR']);
      expect(res.body.details.map((d: any) => d.field)).toEqual([field]);
    }
    // Broken encodings and sizes too (as the route table's fuzz test breaks its rows'): a 400,
    // or, where the text is still a valid client seed (`%`), the unknown seed's 404; never a 5xx.
    for (const raw of ['%00', 'a%00b', '%ff', '%', 'x'.repeat(3000)]) {
      for (const field of Object.keys(good)) {
        const query = Object.entries({ ...good, [field]: '@' })
          .map(([k, v]) => `${k}=${v === '@' ? raw : v}`)
          .join('&');
        const res = await w.h.call('GET', `/fairness/verify?${query}`);
        const expected =
          field === 'clientSeed' && raw === '%'
            ? [404, 'RESOURCE_NOT_FOUND']
            : [400, 'VALIDATION_ERROR'];
        expect([res.status, res.body.code], `${field}=${raw.slice(0, 10)}`).toEqual(expected);
      }
    }
    const repeated = await w.h.call(
      'GET',
      `/fairness/verify?serverSeed=${good.serverSeed}&clientSeed=a&clientSeed=b&nonce=0&tableVersion=1`,
    );
    expect([repeated.status, repeated.body.details[0].field]).toEqual([400, 'clientSeed']);
    // Public, and counted by address like every request without a key.
    expect(none.headers.get('x-ratelimit-limit')).toBe('120');
  });
});

describe('rotate-seed', () => {
  it('reveals and restarts; a replayed key answers the same rotation', async () => {
    const g = await game(2);
    const fresh = await g.rotate();
    // A game played never: nothing to reveal yet, a seed started.
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body).toEqual({ previousSeed: null, currentSeedHash: expect.any(String) });
    await g.play();
    const key = randomUUID();
    const once = await g.rotate(key);
    expect(once.body.previousSeed).toMatchObject({
      seedHash: fresh.body.currentSeedHash,
      draws: 1,
      rotatedAt: '2026-11-23T12:00:00.000Z',
    });
    const again = await g.rotate(key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(once.body);
    const seeds = await w.h.db.prisma.campaignGameSeed.findMany({
      where: { campaignId: g.campaignId },
      orderBy: { createdAt: 'asc' },
    });
    expect(seeds.map((s) => s.revealedSeed !== null)).toEqual([true, false]);
    expect(seeds.at(-1)!.seedHash).toBe(once.body.currentSeedHash);
  });

  it('needs campaigns:write, the tenant’s own campaign, a table and a well-formed name', async () => {
    const g = await game(1);
    const reader = await w.p.otherKey({ scopes: ['games:read', 'prizes:claim'] });
    const forbidden = await w.h.call('POST', g.rotatePath, { key: reader, body: {} });
    expect([forbidden.status, forbidden.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await w.h.call('POST', g.rotatePath, { body: {} })).status).toBe(401);
    const other = await partner(w.h);
    const foreign = await other.post(g.rotatePath, {});
    expect([foreign.status, foreign.body.code]).toEqual([404, 'CAMPAIGN_NOT_FOUND']);
    const noTable = await w.p.post(`/campaigns/${g.campaignId}/game/dice/rotate-seed`, {});
    expect([noTable.status, noTable.body.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
    const badName = await w.p.post(`/campaigns/${g.campaignId}/game/Bad!/rotate-seed`, {});
    expect([badName.status, badName.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    // Nothing was rotated by the refusals.
    expect(
      await w.h.db.prisma.campaignGameSeed.count({
        where: { campaignId: g.campaignId, revealedSeed: { not: null } },
      }),
    ).toBe(0);
  });

  it('plays racing a rotation each use one seed, with nonces unique under it, and all verify', async () => {
    const g = await game(30);
    await w.p.get(g.path);
    const [plays, rotation] = await Promise.all([
      Promise.all(Array.from({ length: 30 }, (_, i) => g.play({ clientSeed: `race-${i}` }))),
      new Promise((r) => setTimeout(r, 20)).then(() => g.rotate()),
    ]);
    for (const p of plays) expect(p.status, p.text).toBe(200);
    expect(rotation.status, rotation.text).toBe(200);
    const revealed = rotation.body.previousSeed.serverSeed as string;
    const before = plays.filter((p) => p.body.draw.seedHash === seedHash(revealed));
    const after = plays.filter((p) => p.body.draw.seedHash === rotation.body.currentSeedHash);
    expect(before.length + after.length).toBe(30);
    expect(rotation.body.previousSeed.draws).toBe(before.length);
    for (const group of [before, after])
      expect(new Set(group.map((p) => p.body.draw.nonce)).size).toBe(group.length);
    for (const p of before) {
      const v = await verifyDraw(w.h.db.prisma, {
        serverSeed: revealed,
        clientSeed: p.body.draw.clientSeed,
        nonce: String(p.body.draw.nonce),
        tableVersion: '1',
      });
      expect(v.draw).toBe(p.body.draw.draw);
    }
  });
});

describe('the marketplace', () => {
  it('shows the commitment, plays with the player’s seed, and links revealed draws to the check', async () => {
    const s = await marketplaceShop(w.h);
    const tenant = { subBrandId: s.subBrandId, environment: 'test' as const };
    const campaign = await createCampaign(
      w.h.db.prisma,
      tenant,
      campaignBody({ prizes: [prize({ coinPrize: 0, catalogPrize: 'game:wheel', quantity: 1 })] }),
      w.clock.now(),
    );
    await setGameTable(w.h.db.prisma, tenant, campaign.id, 'wheel', { prizes: TABLE_1 });
    const ana = await s.player(0);
    await grantCredits(w.h.db.prisma, tenant, campaign.id, ana.id, 'wheel', 2);
    const rewards = async () => (await ana.run('MarketplaceRewards', {}, null)).body.data;
    const [before] = (await rewards()).marketplace.games;
    expect(before).toMatchObject({
      serverSeedHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      draws: [],
    });
    const vars = { campaignId: campaign.id, gameName: 'wheel' };
    const refused = await ana.run('MarketplacePlay', { ...vars, clientSeed: 'no:colons' });
    expect(refused.body.errors[0].extensions.code).toBe('invalid_request');
    const played = await ana.run('MarketplacePlay', { ...vars, clientSeed: 'ana-seed' });
    expect(played.status, played.text).toBe(200);
    expect(played.body.data.playMyGame.draw).toMatchObject({
      clientSeed: 'ana-seed',
      nonce: 0,
      seedHash: before.serverSeedHash,
      serverSeed: null,
    });
    const rotated = await s.post(`/campaigns/${campaign.id}/game/wheel/rotate-seed`, {});
    expect(rotated.status, rotated.text).toBe(200);
    const [after] = (await rewards()).marketplace.games;
    expect(after.serverSeedHash).toBe(rotated.body.currentSeedHash);
    expect(after.draws).toEqual([
      expect.objectContaining({
        clientSeed: 'ana-seed',
        nonce: 0,
        seedHash: before.serverSeedHash,
        serverSeed: rotated.body.previousSeed.serverSeed,
      }),
    ]);
    // What the app's "Verify" link asks answers the draw the player saw.
    const d = after.draws[0];
    const check = await verify({
      serverSeed: d.serverSeed,
      clientSeed: d.clientSeed,
      nonce: d.nonce,
      tableVersion: d.tableVersion,
    });
    expect(check.body).toMatchObject({ draw: d.draw, label: d.label });
  });
});

describe('the key that seals seeds', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of ['NODE_ENV', 'FAIRNESS_SEED_KEY', 'FAIRNESS_SEED_KEY_PREVIOUS']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  it('is at least 32 characters, or the server does not start', () => {
    expect(() => loadConfig({ FAIRNESS_SEED_KEY: 'too short' })).toThrow(
      /FAIRNESS_SEED_KEY: must be at least 32 characters/,
    );
    expect(() => loadConfig({ FAIRNESS_SEED_KEY_PREVIOUS: 'too short' })).toThrow(
      /FAIRNESS_SEED_KEY_PREVIOUS: must be at least 32 characters/,
    );
    expect(() => loadConfig({ FAIRNESS_SEED_KEY: 'k'.repeat(32) })).not.toThrow();
  });

  it('in production without FAIRNESS_SEED_KEY, plays and rotations refuse with 503 naming it', async () => {
    const g = await game(2);
    process.env.NODE_ENV = 'production';
    delete process.env.FAIRNESS_SEED_KEY;
    const play = await g.play();
    expect([play.status, play.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(play.body.message).toContain('FAIRNESS_SEED_KEY');
    const rotate = await g.rotate();
    expect([rotate.status, rotate.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    // The read still answers (without a commitment to show yet); nothing was taken.
    const read = await w.p.get(g.path);
    expect(read.body).toMatchObject({ credits: 2, serverSeedHash: null });
  });

  it('seals with FAIRNESS_SEED_KEY; after a key change the previous key still opens', async () => {
    const g = await game(3);
    process.env.FAIRNESS_SEED_KEY = 'first key, long enough for the rule: 32+';
    expect((await g.play()).status).toBe(200);
    const row = await w.h.db.prisma.campaignGameSeed.findFirstOrThrow({
      where: { campaignId: g.campaignId },
    });
    const sealed = Buffer.from(row.seedCipher, 'base64url');
    expect(sealed).toHaveLength(12 + 16 + 32);
    process.env.FAIRNESS_SEED_KEY = 'second key, also long enough for the rule';
    const lost = await g.play();
    expect([lost.status, lost.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(lost.body.message).toContain('FAIRNESS_SEED_KEY_PREVIOUS');
    process.env.FAIRNESS_SEED_KEY_PREVIOUS = 'first key, long enough for the rule: 32+';
    expect((await g.play()).status).toBe(200);
    const rotated = await g.rotate();
    expect(rotated.status, rotated.text).toBe(200);
    // The new seed is sealed with the new key alone.
    delete process.env.FAIRNESS_SEED_KEY_PREVIOUS;
    expect((await g.play()).status).toBe(200);
    expect(
      createHash('sha256')
        .update(Buffer.from(rotated.body.previousSeed.serverSeed, 'hex'))
        .digest('hex'),
    ).toBe(row.seedHash);
  });
});

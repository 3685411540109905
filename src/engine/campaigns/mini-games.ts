// Mini-games: a campaign's game has a versioned prize table; a player's plays (credits) come from
// claiming a `game:<name>` prize; a play takes one credit and draws a prize, provably fairly:
// HMAC-SHA256 of the game's server seed over the player's seed and the play's nonce
// (fair-draw.ts, game-seeds.ts, docs/fairness.md), recording the seed, the client seed, the
// nonce, the number drawn, the table version and the result, once per Idempotency-Key. Coins won
// go through the one ledger function (`campaign:draw:<id>`).
import { assertNotBlocked, refusingWhenBlocked } from '../../domain/responsible-gaming/gate.js';
import { z } from 'zod';
import { inTransaction, type Db } from '../../domain/db.js';
import { keyClaim } from '../../exactly-once/claim-key.js';
import { AppError, notFound } from '../../domain/errors.js';
import { isUuid, newId } from '../../domain/ids.js';
import { MAX_COINS } from '../../domain/ledger/coins.js';
import { moveCoins } from '../../domain/ledger/move-coins.js';
import type { Actor, Tenant } from '../../domain/tenant.js';
import { parseInput } from '../../domain/validation.js';
import type { CampaignGameDraw } from '../../generated/prisma/client.js';
import { EXCLUDED_STATUSES } from './targeting.js';
import { CLIENT_SEED, CLIENT_SEED_RULE, fairDraw, newClientSeed } from './fair-draw.js';
import { commitment, rotateSeed, seedsOf, takeNonce, type SeedInfo } from './game-seeds.js';
import { tenantKey } from '../shared/keys.js';

export const GAME_NAME = /^[a-z0-9_-]{1,40}$/;

export const gameTableInput = z.object({
  prizes: z
    .array(
      z.object({
        label: z.string().min(1).max(200),
        coins: z.number().int().min(0).max(MAX_COINS),
        weight: z.number().int().min(1).max(1_000_000),
      }),
    )
    .min(1)
    .max(50),
});
export type GameTable = z.output<typeof gameTableInput>['prizes'];

const checkName = (gameName: string) => {
  if (!GAME_NAME.test(gameName)) throw notFound('Game');
};

/** A new version of a campaign's game table (versions are kept: draws name theirs). */
export async function setGameTable(
  db: Db,
  tenant: Tenant,
  campaignId: string,
  gameName: string,
  input: unknown,
) {
  const { prizes } = parseInput(gameTableInput, input);
  if (!isUuid(campaignId)) throw notFound('Campaign');
  if (!GAME_NAME.test(gameName))
    throw new AppError('invalid_request', 'gameName: must be 1-40 of a-z, 0-9, _ and -', {
      issues: [{ field: 'gameName', code: 'format', message: 'must be 1-40 of a-z, 0-9, _ and -' }],
    });
  return inTransaction(db, async (tx) => {
    const campaign = await tx.campaign.findFirst({
      where: { id: campaignId, ...tenant, deletedAt: null },
    });
    if (!campaign) throw notFound('Campaign');
    await tx.$queryRaw`SELECT id FROM campaigns WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND id = ${campaignId}::uuid FOR UPDATE`;
    const last = await tx.campaignGameTable.findFirst({
      where: { subBrandId: tenant.subBrandId, campaignId, gameName },
      orderBy: { version: 'desc' },
    });
    return tx.campaignGameTable.create({
      data: {
        id: newId(),
        ...tenant,
        campaignId,
        gameName,
        version: (last?.version ?? 0) + 1,
        prizes,
      },
    });
  });
}

async function currentTable(db: Db, tenant: Tenant, campaignId: string, gameName: string) {
  return db.campaignGameTable.findFirst({
    where: { subBrandId: tenant.subBrandId, campaignId, gameName },
    orderBy: { version: 'desc' },
  });
}

/** Adds plays (claiming a `game:<name>` award). */
export async function grantCredits(
  db: Db,
  tenant: Tenant,
  campaignId: string,
  customerId: string,
  gameName: string,
  credits: number,
) {
  await db.$executeRaw`
    INSERT INTO campaign_game_credits (campaign_id, customer_id, game_name, sub_brand_id, environment, credits)
    VALUES (${campaignId}::uuid, ${customerId}::uuid, ${gameName}, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment, ${credits})
    ON CONFLICT (sub_brand_id, campaign_id, customer_id, game_name) DO UPDATE SET credits = campaign_game_credits.credits + EXCLUDED.credits`;
}

async function findPlayerAndCampaign(
  db: Db,
  tenant: Tenant,
  customerId: string,
  campaignId: string,
  gameName: string,
) {
  checkName(gameName);
  if (!isUuid(customerId)) throw notFound('Customer');
  const player = await db.customer.findFirst({
    where: { id: customerId, ...tenant },
    select: { id: true, status: true },
  });
  if (!player) throw notFound('Customer');
  if (!isUuid(campaignId)) throw notFound('Campaign');
  const campaign = await db.campaign.findFirst({
    where: { id: campaignId, ...tenant, deletedAt: null },
  });
  if (!campaign) throw notFound('Campaign');
  return { player, campaign };
}

/** A draw with the seed it used (null for draws made before seeds existed). */
export type GameDraw = CampaignGameDraw & { seed: SeedInfo | null };

async function withSeeds(db: Db, tenant: Tenant, draws: CampaignGameDraw[]): Promise<GameDraw[]> {
  const seeds = await seedsOf(
    db,
    tenant,
    draws.map((d) => d.seedId),
  );
  return draws.map((d) => ({ ...d, seed: (d.seedId && seeds.get(d.seedId)) || null }));
}

const totalWeight = (prizes: GameTable) => prizes.reduce((sum, p) => sum + p.weight, 0);

/** What a play is worth on average: Σ coins × weight / Σ weight. */
export function expectedCoins(prizes: GameTable): number {
  return prizes.reduce((sum, p) => sum + p.coins * p.weight, 0) / totalWeight(prizes);
}

/** Each prize with its chance of a play: weight / Σ weight (what players and partners are shown). */
export function prizeOdds(prizes: GameTable): (GameTable[number] & { chance: number })[] {
  const total = totalWeight(prizes);
  return prizes.map((p) => ({ ...p, chance: total ? p.weight / total : 0 }));
}

/**
 * The player's plays left, the current table with each prize's chance, the game's commitment
 * (its active seed's hash, the seed started on this read if it has none: players see it before
 * their first play), and the latest draws with their seeds.
 */
export async function readGame(
  db: Db,
  tenant: Tenant,
  customerId: string,
  gameName: string,
  campaignId: string,
) {
  await findPlayerAndCampaign(db, tenant, customerId, campaignId, gameName);
  const [credit, table, draws] = await Promise.all([
    db.campaignGameCredit.findUnique({
      where: {
        subBrandId_campaignId_customerId_gameName: {
          subBrandId: tenant.subBrandId,
          campaignId,
          customerId,
          gameName,
        },
      },
    }),
    currentTable(db, tenant, campaignId, gameName),
    latestDraws(db, tenant, customerId, campaignId, gameName, 20),
  ]);
  return {
    customerId,
    campaignId,
    gameName,
    credits: credit?.credits ?? 0,
    table,
    expectedCoins: table ? expectedCoins(table.prizes as GameTable) : null,
    serverSeedHash: table ? await commitment(db, { tenant, campaignId, gameName }) : null,
    draws,
  };
}

/** A player's latest draws in a game, newest first, with the seeds they used. */
export async function latestDraws(
  db: Db,
  tenant: Tenant,
  customerId: string,
  campaignId: string,
  gameName: string,
  take: number,
): Promise<GameDraw[]> {
  const draws = await db.campaignGameDraw.findMany({
    where: { subBrandId: tenant.subBrandId, campaignId, customerId, gameName },
    orderBy: { id: 'desc' },
    take,
  });
  return withSeeds(db, tenant, draws);
}

const invalidClientSeed = () =>
  new AppError('invalid_request', `clientSeed: must be ${CLIENT_SEED_RULE}`, {
    issues: [{ field: 'clientSeed', code: 'format', message: `must be ${CLIENT_SEED_RULE}` }],
  });

/** A play, once per idempotency key. */
const recordDraw = keyClaim('gameDraw', [
  'id::uuid',
  'sub_brand_id::uuid',
  'environment::environment',
  'campaign_id::uuid',
  'customer_id::uuid',
  'game_name',
  'table_version::int',
  'idempotency_key',
  'draw::int',
  'seed_id::uuid',
  'client_seed',
  'nonce::int',
  'total_weight::int',
  'result_index::int',
  'label',
  'coins::bigint',
]);

/**
 * One play: a credit taken, a prize drawn with the game's seed, the player's seed (`clientSeed`,
 * else one generated) and the seed's next nonce, recorded; a replayed key answers the first draw.
 */
export async function playGame(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  customerId: string,
  gameName: string,
  campaignId: string,
  idempotencyKey: string | null,
  clientSeed?: string | null,
): Promise<{ draw: GameDraw; replayed: boolean }> {
  if (!idempotencyKey)
    throw new AppError(
      'missing_idempotency_key',
      'A play needs an Idempotency-Key header: a retry must not play twice.',
    );
  if (clientSeed != null && !CLIENT_SEED.test(clientSeed)) throw invalidClientSeed();
  const playerSeed = clientSeed ?? newClientSeed();
  return refusingWhenBlocked(db, tenant, async (tx) => {
    const { player } = await findPlayerAndCampaign(tx, tenant, customerId, campaignId, gameName);
    const before = await tx.campaignGameDraw.findFirst({ where: { ...tenant, idempotencyKey } });
    if (before) return { draw: (await withSeeds(tx, tenant, [before]))[0]!, replayed: true };
    if (EXCLUDED_STATUSES.has(player.status))
      throw new AppError(
        'customer_not_eligible',
        `The player's status is ${player.status}: ${player.status} players receive nothing from campaigns.`,
      );
    // The responsible-gaming gate, before a play is taken: a refusal leaves the plays as they were.
    await assertNotBlocked(
      tx,
      tenant,
      customerId,
      'game_play',
      `campaign:${campaignId} game:${gameName}`,
    );
    const table = await currentTable(tx, tenant, campaignId, gameName);
    if (!table) throw notFound('Game');
    const taken = await tx.$executeRaw`
      UPDATE campaign_game_credits SET credits = credits - 1
      WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND campaign_id = ${campaignId}::uuid
        AND customer_id = ${customerId}::uuid AND game_name = ${gameName} AND credits > 0`;
    if (taken === 0)
      throw new AppError(
        'no_game_credits',
        `The player has no plays left in ${gameName} for this campaign.`,
      );
    const prizes = table.prizes as GameTable;
    // The seed's next nonce, its row locked until this play is recorded (a rotation waits).
    const seed = await takeNonce(tx, { tenant, campaignId, gameName });
    const drawn = fairDraw({
      serverSeed: seed.serverSeed,
      clientSeed: playerSeed,
      nonce: seed.nonce,
      weights: prizes.map((p) => p.weight),
    });
    const prize = prizes[drawn.resultIndex]!;
    const id = newId();
    const recorded = await recordDraw(tx, [
      id,
      tenant.subBrandId,
      tenant.environment,
      campaignId,
      customerId,
      gameName,
      table.version,
      idempotencyKey,
      drawn.draw,
      seed.seedId,
      playerSeed,
      seed.nonce,
      drawn.totalWeight,
      drawn.resultIndex,
      prize.label,
      prize.coins,
    ]);
    // A concurrent twin with the same key won: this transaction's credit goes back with its rollback.
    if (!recorded)
      throw new AppError(
        'idempotency_in_progress',
        'The same play is being made right now; retry.',
      );
    if (prize.coins > 0) {
      const moved = await moveCoins(
        tx,
        tenant,
        { customerId, delta: prize.coins, reason: `campaign:draw:${id}` },
        { ...actor, source: 'campaign' },
      );
      await tx.campaignGameDraw.update({
        where: tenantKey(tenant.subBrandId, id),
        data: { movementId: moved.movementId },
      });
    }
    const draw = await tx.campaignGameDraw.findUniqueOrThrow({
      where: tenantKey(tenant.subBrandId, id),
    });
    const used = { seedHash: seed.seedHash, revealedSeed: null, rotatedAt: null };
    return { draw: { ...draw, seed: used }, replayed: false };
  });
}

/**
 * Reveals the game's active seed and starts the next (game-seeds.ts). A deleted campaign's game
 * may still reveal its seed, so that its last plays stay verifiable.
 */
export async function rotateGameSeed(
  db: Db,
  tenant: Tenant,
  campaignId: string,
  gameName: string,
  now: Date,
) {
  checkName(gameName);
  if (!isUuid(campaignId)) throw notFound('Campaign');
  const campaign = await db.campaign.findFirst({
    where: { id: campaignId, ...tenant },
    select: { id: true },
  });
  if (!campaign) throw notFound('Campaign');
  if (!(await currentTable(db, tenant, campaignId, gameName))) throw notFound('Game');
  return rotateSeed(db, { tenant, campaignId, gameName }, now);
}

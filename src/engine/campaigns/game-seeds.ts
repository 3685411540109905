// A mini-game's server seeds (docs/fairness.md): one active seed per campaign game, committed to
// by its SHA-256 before it is used, its nonces taken one per play, revealed when rotated (and a
// new one started in the same transaction). The seed itself is sealed at rest (seed-cipher.ts).
import { inTransaction, type Db } from '../../domain/db.js';
import { AppError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import type { Tenant } from '../../domain/tenant.js';
import { newServerSeed, seedHash } from './fair-draw.js';
import { openSeed, sealSeed } from './seed-cipher.js';

export type SeedInfo = { seedHash: string; revealedSeed: string | null; rotatedAt: Date | null };

type Game = { tenant: Tenant; campaignId: string; gameName: string };

/** The game's active (unrevealed) seed, without its secret. */
export async function findActiveSeed(db: Db, { tenant, campaignId, gameName }: Game) {
  return db.campaignGameSeed.findFirst({
    where: { subBrandId: tenant.subBrandId, campaignId, gameName, revealedSeed: null },
    select: { id: true, seedHash: true, nextNonce: true, createdAt: true },
  });
}

/** Starts a seed unless the game has an active one (the partial unique index decides). */
async function insertSeed(db: Db, { tenant, campaignId, gameName }: Game): Promise<void> {
  const id = newId();
  const seed = newServerSeed();
  const sealed = await sealSeed(db, id, seed);
  await db.$executeRaw`
    INSERT INTO campaign_game_seeds (id, sub_brand_id, environment, campaign_id, game_name, seed_cipher, seed_hash)
    VALUES (${id}::uuid, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment, ${campaignId}::uuid,
            ${gameName}, ${sealed}, ${seedHash(seed)})
    ON CONFLICT (sub_brand_id, campaign_id, game_name) WHERE revealed_seed IS NULL DO NOTHING`;
}

/** The active seed's hash, the seed started first if the game has none. */
export async function ensureActiveSeed(db: Db, game: Game) {
  const found = await findActiveSeed(db, game);
  if (found) return found;
  await insertSeed(db, game);
  const made = await findActiveSeed(db, game);
  if (!made) throw new AppError('conflict', "The game's seed is being rotated; retry.");
  return made;
}

/**
 * The commitment a game shows before a play: its active seed's hash, the seed started on this
 * first read so players see it before the first play. Null only where no seed can be sealed
 * (production without FAIRNESS_SEED_KEY: reads still answer, plays refuse).
 */
export async function commitment(db: Db, game: Game): Promise<string | null> {
  try {
    return (await ensureActiveSeed(db, game)).seedHash;
  } catch (error) {
    if (error instanceof AppError && error.code === 'service_unavailable') return null;
    throw error;
  }
}

export type TakenNonce = { seedId: string; seedHash: string; serverSeed: string; nonce: number };

/**
 * A play's seed and nonce: the active seed's next_nonce, incremented in the caller's transaction
 * (the seed is started first if the game has none). The row stays locked until that transaction
 * ends, so a rotation waits for the play to be recorded before it reveals the seed; a play that
 * waited on a rotation finds the revealed row no longer matches, and takes the new seed's nonce.
 */
export async function takeNonce(tx: Db, game: Game): Promise<TakenNonce> {
  const { tenant, campaignId, gameName } = game;
  for (let attempt = 0; attempt < 3; attempt++) {
    const [row] = await tx.$queryRaw<
      { id: string; seed_hash: string; seed_cipher: string; nonce: number }[]
    >`
      UPDATE campaign_game_seeds SET next_nonce = next_nonce + 1
      WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND campaign_id = ${campaignId}::uuid
        AND game_name = ${gameName} AND revealed_seed IS NULL
      RETURNING id, seed_hash, seed_cipher, next_nonce - 1 AS nonce`;
    if (row) {
      const serverSeed = await openSeed(tx, row.id, row.seed_cipher);
      if (seedHash(serverSeed) !== row.seed_hash)
        throw new Error(`campaign_game_seeds ${row.id}: the seed does not match its hash`);
      return { seedId: row.id, seedHash: row.seed_hash, serverSeed, nonce: Number(row.nonce) };
    }
    await insertSeed(tx, game);
  }
  throw new AppError('conflict', "The game's seed is being rotated; retry.");
}

export type Rotation = {
  previousSeed: {
    seedHash: string;
    serverSeed: string;
    draws: number;
    createdAt: Date;
    rotatedAt: Date;
  } | null;
  currentSeedHash: string;
};

/**
 * Reveals the active seed and starts the next, in one transaction that locks the seed's row
 * first: a play holding it finishes before the reveal, and no play uses a seed once revealed.
 * `draws` is the nonces taken, which are the plays recorded with it (each takes its nonce in the
 * transaction that records it). A game without a seed yet reveals nothing (previousSeed null).
 */
export async function rotateSeed(db: Db, game: Game, now: Date): Promise<Rotation> {
  const { tenant, campaignId, gameName } = game;
  return inTransaction(db, async (tx) => {
    const [row] = await tx.$queryRaw<
      { id: string; seed_hash: string; seed_cipher: string; next_nonce: number; created_at: Date }[]
    >`
      SELECT id, seed_hash, seed_cipher, next_nonce, created_at FROM campaign_game_seeds
      WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND campaign_id = ${campaignId}::uuid
        AND game_name = ${gameName} AND revealed_seed IS NULL
      FOR UPDATE`;
    let previousSeed: Rotation['previousSeed'] = null;
    if (row) {
      const serverSeed = await openSeed(tx, row.id, row.seed_cipher);
      if (seedHash(serverSeed) !== row.seed_hash)
        throw new Error(`campaign_game_seeds ${row.id}: the seed does not match its hash`);
      await tx.$executeRaw`
        UPDATE campaign_game_seeds SET revealed_seed = ${serverSeed}, rotated_at = ${now}
        WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND id = ${row.id}::uuid`;
      previousSeed = {
        seedHash: row.seed_hash,
        serverSeed,
        draws: Number(row.next_nonce),
        createdAt: row.created_at,
        rotatedAt: now,
      };
    }
    const current = await ensureActiveSeed(tx, game);
    return { previousSeed, currentSeedHash: current.seedHash };
  });
}

/** The seeds some draws used (one query), by id. */
export async function seedsOf(
  db: Db,
  tenant: Tenant,
  seedIds: (string | null)[],
): Promise<Map<string, SeedInfo>> {
  const ids = [...new Set(seedIds.filter((id): id is string => id !== null))];
  if (!ids.length) return new Map();
  const rows = await db.campaignGameSeed.findMany({
    where: { subBrandId: tenant.subBrandId, id: { in: ids } },
    select: { id: true, seedHash: true, revealedSeed: true, rotatedAt: true },
  });
  return new Map(rows.map(({ id, ...info }) => [id, info]));
}

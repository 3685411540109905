// The public check of a draw (GET /fairness/verify, docs/fairness.md): given a revealed server
// seed, a client seed, a nonce and a table version, it finds the game by the seed's SHA-256 among
// revealed seeds only, and recomputes the draw and the prize with fair-draw.ts. An active seed is
// answered exactly as an unknown one: until it is revealed a seed is a secret, never confirmed.
import { z } from 'zod';
import { queryRaw } from '../../db/sql.js';
import type { Db } from '../../domain/db.js';
import { AppError } from '../../domain/errors.js';
import { parseInput } from '../../domain/validation.js';
import { Prisma } from '../../generated/prisma/client.js';
import { CLIENT_SEED, CLIENT_SEED_RULE, fairDraw, seedHash } from './fair-draw.js';
import type { GameTable } from './mini-games.js';

const INT_MAX = 2_147_483_647;
const whole = (min: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min).max(INT_MAX));

export const verifyQuery = z.object({
  serverSeed: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (the revealed seed)')
    .transform((s) => s.toLowerCase()),
  clientSeed: z.string().regex(CLIENT_SEED, `must be ${CLIENT_SEED_RULE}`),
  nonce: whole(0),
  tableVersion: whole(1),
});

export type Verification = Awaited<ReturnType<typeof verifyDraw>>;

type Found = {
  campaign_id: string;
  game_name: string;
  revealed_seed: string;
  created_at: Date;
  rotated_at: Date;
  prizes: GameTable | null;
};

/**
 * What a revealed seed and a table version were, by `hash:version`: both never change once
 * revealed and written, so players checking the draws of one seed cost the database one query
 * per table version. Only what was found is kept (an active seed may be revealed later); the
 * oldest entries go past the bound.
 */
const revealedGames = new Map<string, Found>();
const KEPT = 1000;

async function revealedGame(db: Db, hash: string, tableVersion: number) {
  const key = `${hash}:${tableVersion}`;
  const kept = revealedGames.get(key);
  if (kept) return kept;
  // On the driver where there is one: a public route, kept cheap (db/sql.ts).
  const [found] = await queryRaw<Found>(
    db,
    Prisma.sql`
    SELECT s.campaign_id::text, s.game_name, s.revealed_seed, s.created_at, s.rotated_at, t.prizes
    FROM campaign_game_seeds s
    LEFT JOIN campaign_game_tables t
      ON t.sub_brand_id = s.sub_brand_id AND t.campaign_id = s.campaign_id AND t.game_name = s.game_name
     AND t.version = ${tableVersion}
    WHERE s.seed_hash = ${hash} AND s.revealed_seed IS NOT NULL
    LIMIT 1`,
  );
  if (found?.prizes) {
    if (revealedGames.size >= KEPT) revealedGames.delete(revealedGames.keys().next().value!);
    revealedGames.set(key, found);
  }
  return found;
}

/** Recomputes one draw from a revealed seed (one query, the seed and that table version). */
export async function verifyDraw(db: Db, input: unknown) {
  const q = parseInput(verifyQuery, input);
  const hash = seedHash(q.serverSeed);
  const seed = await revealedGame(db, hash, q.tableVersion);
  if (!seed || seed.revealed_seed !== q.serverSeed)
    throw new AppError(
      'not_found',
      `No revealed server seed has the SHA-256 ${hash}. A seed is revealed when its game's seed is rotated; until then it is never confirmed.`,
      { resource: 'Server seed' },
    );
  if (!seed.prizes)
    throw new AppError(
      'not_found',
      `The game of this seed (${seed.game_name}) has no table version ${q.tableVersion}.`,
      { resource: 'Game table' },
    );
  const prizes = seed.prizes;
  const drawn = fairDraw({
    serverSeed: q.serverSeed,
    clientSeed: q.clientSeed,
    nonce: q.nonce,
    weights: prizes.map((p) => p.weight),
  });
  const prize = prizes[drawn.resultIndex]!;
  return {
    seed: {
      seedHash: hash,
      found: true,
      revealed: true,
      createdAt: seed.created_at,
      rotatedAt: seed.rotated_at,
    },
    campaignId: seed.campaign_id,
    gameName: seed.game_name,
    clientSeed: q.clientSeed,
    nonce: q.nonce,
    tableVersion: q.tableVersion,
    prizes: prizes.map((p) => ({ label: p.label, coins: p.coins, weight: p.weight })),
    draw: drawn.draw,
    totalWeight: drawn.totalWeight,
    resultIndex: drawn.resultIndex,
    label: prize.label,
    coins: prize.coins,
  };
}

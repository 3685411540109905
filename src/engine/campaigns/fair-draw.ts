// Provably fair draws (docs/fairness.md): the number a mini-game play draws comes from the game's
// server seed (committed to by its SHA-256 before any play, revealed when rotated), the player's
// client seed and the play's nonce, so anyone can recompute it once the seed is revealed. Pure:
// no database, no clock, the same answer in every language that has HMAC-SHA256.
//
// The algorithm, exactly:
//   1. key = the server seed's 32 bytes (its 64 hex characters decoded).
//   2. For round = 0, 1, 2, …: digest = HMAC-SHA256(key, message), where message is the UTF-8 text
//      `${clientSeed}:${nonce}` in round 0 and `${clientSeed}:${nonce}:${round}` after (nonce and
//      round in decimal, no leading zeros).
//   3. Read the digest as eight unsigned 32-bit big-endian integers x, in order. With
//      limit = 2^32 − (2^32 mod totalWeight) (the largest multiple of totalWeight that fits), the
//      first x < limit gives draw = x mod totalWeight; an x ≥ limit is skipped (rejection
//      sampling: every draw then has exactly limit / totalWeight chances, no modulo bias). When
//      all eight are skipped, the next round's digest continues.
//   4. The prize is the first index i of the table whose cumulative weight
//      w[0] + … + w[i] is greater than draw.
import { createHash, createHmac, randomBytes } from 'node:crypto';

/** A server seed: 32 random bytes, written as 64 lowercase hex characters. */
export const SERVER_SEED = /^[0-9a-f]{64}$/;
/**
 * A player's seed: 1-64 printable ASCII characters other than space and `:` (a `:` would make
 * `a:1` with nonce 2 the same message as `a` with nonce 1 in round 2).
 */
export const CLIENT_SEED = /^[!-9;-~]{1,64}$/;
export const CLIENT_SEED_RULE = '1-64 printable ASCII characters, without spaces or ":"';

const SPACE = 2 ** 32;

export const newServerSeed = (): string => randomBytes(32).toString('hex');
/** The seed of a play that brings none: 16 random bytes, 32 hex characters. */
export const newClientSeed = (): string => randomBytes(16).toString('hex');

/** The commitment players see before they play: SHA-256 of the seed's 32 bytes, hex. */
export const seedHash = (serverSeed: string): string =>
  createHash('sha256').update(Buffer.from(serverSeed, 'hex')).digest('hex');

/** The largest multiple of `total` not above 2^32: 32-bit values at or above it are skipped. */
export function acceptLimit(total: number): number {
  if (!Number.isInteger(total) || total < 1 || total > SPACE)
    throw new RangeError(`totalWeight must be an integer in 1..2^32, not ${total}`);
  return SPACE - (SPACE % total);
}

/** Step 3 on one digest: the draw in [0, total), or null when all eight values are skipped. */
export function drawFromDigest(digest: Uint8Array, total: number): number | null {
  const limit = acceptLimit(total);
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
  for (let at = 0; at + 4 <= digest.byteLength; at += 4) {
    const x = view.getUint32(at, false);
    if (x < limit) return x % total;
  }
  return null;
}

/** Steps 1-3: the number drawn in [0, total). */
export function drawNumber(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  total: number,
): number {
  const key = Buffer.from(serverSeed, 'hex');
  for (let round = 0; ; round++) {
    const message = round === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${round}`;
    const drawn = drawFromDigest(createHmac('sha256', key).update(message).digest(), total);
    if (drawn !== null) return drawn;
  }
}

/** Step 4: the index of the prize whose cumulative weight first exceeds `drawn`. */
export function prizeIndex(weights: readonly number[], drawn: number): number {
  let cumulative = 0;
  for (let i = 0; i < weights.length; i++) {
    cumulative += weights[i]!;
    if (drawn < cumulative) return i;
  }
  throw new RangeError(`draw ${drawn} is not below the total weight ${cumulative}`);
}

export type FairDraw = { draw: number; totalWeight: number; resultIndex: number };

/** A play's draw on a table of weights. */
export function fairDraw(input: {
  serverSeed: string;
  clientSeed: string;
  nonce: number;
  weights: readonly number[];
}): FairDraw {
  const totalWeight = input.weights.reduce((sum, w) => sum + w, 0);
  const draw = drawNumber(input.serverSeed, input.clientSeed, input.nonce, totalWeight);
  return { draw, totalWeight, resultIndex: prizeIndex(input.weights, draw) };
}

// Mini-game server seeds at rest (docs/fairness.md, "Encryption at rest"): AES-256-GCM with a key
// derived from FAIRNESS_SEED_KEY (SHA-256 of its text), bound to the seed's row id (the
// additional authenticated data), stored as base64url(iv | tag | ciphertext). An active seed is a
// secret until it is revealed: a database dump alone must not give it away.
//
// Where the key comes from: FAIRNESS_SEED_KEY; FAIRNESS_SEED_KEY_PREVIOUS also opens (while seeds
// sealed before a key change are rotated out). Unset outside production: a key generated once and
// kept in platform_settings, for development only (a dump then holds the key beside the seeds).
// Unset in production: plays and rotations fail with service_unavailable naming the variable.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { isClient, type Db } from '../../domain/db.js';
import { AppError } from '../../domain/errors.js';

const DEVELOPMENT_KEY = 'fairness_seed_key';
const IV_BYTES = 12;
const TAG_BYTES = 16;

type Keys = { seal: Buffer; open: Buffer[] };

const derive = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Kept once read outside a transaction: inside one, the row may be this transaction's own insert,
 * gone if it rolls back (then another key would be made, and seeds sealed with this one lost).
 */
let developmentKey: Buffer | null = null;

async function keys(db: Db): Promise<Keys> {
  const current = process.env.FAIRNESS_SEED_KEY;
  const previous = process.env.FAIRNESS_SEED_KEY_PREVIOUS;
  const older = previous ? [derive(previous)] : [];
  if (current) return { seal: derive(current), open: [derive(current), ...older] };
  if (process.env.NODE_ENV === 'production')
    throw new AppError(
      'service_unavailable',
      'FAIRNESS_SEED_KEY is not set: mini-game plays and seed rotations need it in production (docs/fairness.md).',
    );
  const key = developmentKey ?? (await readDevelopmentKey(db));
  return { seal: key, open: [key, ...older] };
}

async function readDevelopmentKey(db: Db): Promise<Buffer> {
  const found = await db.platformSetting.findUnique({ where: { key: DEVELOPMENT_KEY } });
  if (found) {
    const key = derive(String(found.value));
    if (isClient(db)) developmentKey = key;
    return key;
  }
  await db.platformSetting.createMany({
    data: [{ key: DEVELOPMENT_KEY, value: randomBytes(32).toString('base64url') }],
    skipDuplicates: true, // the first process to get here wins; the others read its key
  });
  const row = await db.platformSetting.findUniqueOrThrow({ where: { key: DEVELOPMENT_KEY } });
  return derive(String(row.value));
}

/** The seed (64 hex characters) sealed for the row `seedId`. */
export async function sealSeed(db: Db, seedId: string, serverSeed: string): Promise<string> {
  const { seal } = await keys(db);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', seal, iv).setAAD(Buffer.from(seedId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(Buffer.from(serverSeed, 'hex')), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The seed of the row `seedId`, hex; service_unavailable when no configured key opens it. */
export async function openSeed(db: Db, seedId: string, sealed: string): Promise<string> {
  const bytes = Buffer.from(sealed, 'base64url');
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const body = bytes.subarray(IV_BYTES + TAG_BYTES);
  for (const key of (await keys(db)).open) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv)
        .setAAD(Buffer.from(seedId, 'utf8'))
        .setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('hex');
    } catch {
      // Another key sealed it (or the row was altered): try the next one.
    }
  }
  throw new AppError(
    'service_unavailable',
    'A mini-game seed cannot be opened with FAIRNESS_SEED_KEY (nor FAIRNESS_SEED_KEY_PREVIOUS): was the key changed? See docs/fairness.md, "Key management".',
  );
}

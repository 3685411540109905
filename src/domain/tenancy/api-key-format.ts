// API keys are `svc_<environment>_<32 hex>`. Only their SHA-256 is stored: a key is 128 random
// bits, so a fast hash is enough (no salt or KDF needed against guessing), and lookup stays O(1).
import { randomBytes } from 'node:crypto';
import type { Environment } from '../../generated/prisma/enums.js';
import { sha256 } from '../fingerprint.js';

const KEY_PATTERN = /^svc_(live|test)_[0-9a-f]{32}$/;

export type MintedKey = { key: string; hash: string; displayPrefix: string };

export function mintKey(environment: Environment): MintedKey {
  const key = `svc_${environment}_${randomBytes(16).toString('hex')}`;
  return { key, hash: hashKey(key), displayPrefix: `${key.slice(0, 13)}…` };
}

export const hashKey = (key: string): string => sha256(key);

/** The environment a well-formed key names, or null for a malformed one. */
export function parseKey(key: string): Environment | null {
  const match = KEY_PATTERN.exec(key);
  return match ? (match[1] as Environment) : null;
}

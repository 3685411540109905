// The order tracking link (`trackToken`, `trackUrl`): a stateless token naming one order, signed
// with the store-session secret (HMAC-SHA256, domain-separated by a `track:` prefix). It never
// expires: a player may open it until the order is gone. It shows status and history only.
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../db.js';
import { isUuid } from '../ids.js';
import { signWithSessionSecret } from '../store-sessions/store-session.js';

const hexOf = (id: string) => id.replace(/-/g, '');
const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * Tokens this process signed lately, by order: a reservation signs its order's token for the
 * e-mail and again for the answer's trackToken and trackUrl, and an HMAC was 1-2 % of a
 * reservation's server CPU (docs/performance.md). A token never changes for an order, so keeping
 * it is safe; the bound keeps memory flat.
 */
const signed = new Map<string, string>();
const SIGNED_MAX = 1000;

export async function trackToken(db: Db, orderId: string): Promise<string> {
  const known = signed.get(orderId);
  if (known !== undefined) return known;
  const payload = Buffer.from(hexOf(orderId), 'hex').toString('base64url');
  const token = `ot_${payload}.${await signWithSessionSecret(db, `track:${orderId}`)}`;
  signed.set(orderId, token);
  if (signed.size > SIGNED_MAX) signed.delete(signed.keys().next().value!);
  return token;
}

export const trackPath = (token: string) => `/track/${encodeURIComponent(token)}`;

/** The order id a valid token names; null for anything malformed or forged. */
export async function verifyTrackToken(db: Db, token: string): Promise<string | null> {
  const match = /^ot_([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const id = uuidOf(Buffer.from(match[1]!, 'base64url').toString('hex'));
  if (!isUuid(id)) return null;
  const expected = Buffer.from(await signWithSessionSecret(db, `track:${id}`));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

// Store sessions (POST /api/v1/store-sessions): a short-lived, signed pass that lets one customer
// browse one store of the embedded marketplace without an API key. The token is stateless:
// an HMAC-SHA256 over its claims, with a secret from STORE_SESSION_SECRET or, when that is unset,
// one generated once and kept in platform_settings so every process agrees on it.
import { assertNotBlocked, refusingWhenBlocked } from '../responsible-gaming/gate.js';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';

const SECRET_KEY = 'store_session_secret';
export const DEFAULT_TTL_SECONDS = 900;

export const storeSessionInput = z.strictObject({
  customerId: z.uuid(),
  storeId: z.uuid().optional().describe("Omitted: the sub-brand's first active store."),
  ttlSeconds: z
    .number()
    .int()
    .min(60)
    .max(3600)
    .default(DEFAULT_TTL_SECONDS)
    .describe('How long the session lasts, 60-3600 seconds, default 900.'),
});

export type StoreSessionClaims = {
  /** Session id. */
  sid: string;
  subBrandId: string;
  environment: 'live' | 'test';
  customerId: string;
  storeId: string;
  /** Unix seconds. */
  exp: number;
};

let cachedSecret: Promise<Buffer> | null = null;

async function secret(db: Db): Promise<Buffer> {
  const fromEnv = process.env.STORE_SESSION_SECRET;
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  cachedSecret ??= (async () => {
    await db.platformSetting.createMany({
      data: [{ key: SECRET_KEY, value: randomBytes(32).toString('base64url') }],
      skipDuplicates: true, // the first process to get here wins; the others read its secret
    });
    const row = await db.platformSetting.findUniqueOrThrow({ where: { key: SECRET_KEY } });
    return Buffer.from(String(row.value), 'base64url');
  })().catch((error: unknown) => {
    cachedSecret = null;
    throw error;
  });
  return cachedSecret;
}

const sign = (key: Buffer, payload: string) =>
  createHmac('sha256', key).update(payload).digest('base64url');

/** HMAC-SHA256 with the store-session secret, for other signed links (order tracking). */
export const signWithSessionSecret = async (db: Db, payload: string): Promise<string> =>
  sign(await secret(db), payload);

export async function createStoreSession(
  db: Db,
  tenant: Tenant,
  input: z.input<typeof storeSessionInput>,
  now: Date,
) {
  const data = parseInput(storeSessionInput, input);
  const customer = await db.customer.findFirst({
    where: { id: data.customerId, ...tenant },
    select: { status: true },
  });
  if (!customer) throw notFound('Customer');
  if (customer.status === 'banned') {
    throw new AppError('customer_not_eligible', 'The customer is banned and cannot open a store.');
  }
  // The responsible-gaming gate: a blocked player is not invited into the store.
  await refusingWhenBlocked(db, tenant, (tx) =>
    assertNotBlocked(tx, tenant, data.customerId, 'store_session', null, now),
  );
  const store = await db.store.findFirst({
    where: {
      subBrandId: tenant.subBrandId,
      active: true,
      ...(data.storeId ? { id: data.storeId } : {}),
    },
    orderBy: { id: 'asc' },
  });
  if (!store) throw notFound(data.storeId ? 'Store' : 'An active store of this sub-brand');
  const claims: StoreSessionClaims = {
    sid: newId(),
    ...tenant,
    customerId: data.customerId,
    storeId: store.id,
    exp: Math.floor(now.getTime() / 1000) + data.ttlSeconds,
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const token = `ss_${payload}.${sign(await secret(db), payload)}`;
  return {
    id: claims.sid,
    token,
    storeId: store.id,
    customerId: data.customerId,
    expiresAt: new Date(claims.exp * 1000),
    path: `/store/${store.id}?session=${encodeURIComponent(token)}`,
  };
}

/** The claims a token carries when its signature is ours (expired or signed out, maybe). */
export async function signedClaims(db: Db, token: string): Promise<StoreSessionClaims | null> {
  const match = /^ss_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  const expected = Buffer.from(sign(await secret(db), payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as StoreSessionClaims;
}

/** The claims of a valid, unexpired token; anything else is `unauthorized`. */
export async function verifyStoreSession(
  db: Db,
  token: string,
  now: Date,
): Promise<StoreSessionClaims> {
  const refused = (why: string) => new AppError('unauthorized', `Store session ${why}.`);
  if (!/^ss_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)) throw refused('token is malformed');
  const claims = await signedClaims(db, token);
  if (!claims) throw refused('token is not valid');
  if (claims.exp * 1000 <= now.getTime()) throw refused('has expired');
  const revoked = await db.storeSessionRevocation.findUnique({
    where: { subBrandId_sessionId: { subBrandId: claims.subBrandId, sessionId: claims.sid } },
  });
  if (revoked) throw refused('was signed out');
  return claims;
}

/**
 * Ends a session before its expiry (the iframe's sign-out). Only the tenant that opened it may;
 * another tenant's or an invalid token is not found. Repeating it is harmless.
 */
export async function revokeStoreSession(db: Db, tenant: Tenant, token: string, now: Date) {
  let claims: StoreSessionClaims;
  try {
    claims = await verifyStoreSession(db, token, now);
  } catch {
    throw notFound('Store session'); // expired, revoked, forged: nothing to sign out of
  }
  if (claims.subBrandId !== tenant.subBrandId || claims.environment !== tenant.environment) {
    throw notFound('Store session');
  }
  await db.storeSessionRevocation.createMany({
    data: [
      {
        sessionId: claims.sid,
        subBrandId: claims.subBrandId,
        expiresAt: new Date(claims.exp * 1000),
      },
    ],
    skipDuplicates: true,
  });
  return { id: claims.sid, customerId: claims.customerId, revokedAt: now };
}

/** Revocations of sessions that have expired anyway; the server sweeps them. */
export const sweepExpiredRevocations = (db: Db) =>
  db.storeSessionRevocation.deleteMany({ where: { expiresAt: { lte: new Date() } } });

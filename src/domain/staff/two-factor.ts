// Two-factor sign-in for staff: TOTP (RFC 6238: 6 digits, 30 s, SHA-1, which every authenticator
// app reads from an otpauth:// QR code) through `otplib`, and ten one-time recovery codes for a
// lost phone. A code is good once: the time step it matched is stored and a later code must be
// from a later step (so a code seen over a shoulder cannot be replayed within its 90 s window).
// A brand's platform admin can require it of every staff member of the brand (docs/backoffice.md).
import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { toString as qrSvg } from 'qrcode';
import { inTransaction, type Db } from '../db.js';
import { AppError } from '../errors.js';
import { sha256 } from '../fingerprint.js';

export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Partner Rewards';
/** One step either side: a phone's clock a little off still signs in. */
const TOLERANCE_SECONDS = 30;

/** Whether the staff member's brand requires a second factor (platform admins: never). */
export const REQUIRED_BY_BRAND = {
  brand: { select: { staffTwoFactorRequired: true } },
  subBrand: { select: { brand: { select: { staffTwoFactorRequired: true } } } },
} as const;

export type BrandRequirement = {
  brand: { staffTwoFactorRequired: boolean } | null;
  subBrand: { brand: { staffTwoFactorRequired: boolean } } | null;
};

export const brandRequires = (u: BrandRequirement): boolean =>
  Boolean(u.brand?.staffTwoFactorRequired || u.subBrand?.brand.staffTwoFactorRequired);

/**
 * Starts (or restarts) a setup: a new secret, not in use until `enableTwoFactor` confirms a code
 * from it. Refused while two-factor is on: turning it off first takes a code.
 */
export async function beginTwoFactorSetup(db: Db, userId: string) {
  const user = await db.staffUser.findUniqueOrThrow({ where: { id: userId } });
  if (user.totpEnabledAt)
    throw new AppError('conflict', 'Two-factor sign-in is already on. Turn it off first.');
  const secret = generateSecret();
  await db.staffUser.update({ where: { id: userId }, data: { totpSecret: secret } });
  const uri = generateURI({ issuer: ISSUER, label: user.email, secret });
  return { secret, uri, qrSvg: await qrSvg(uri, { type: 'svg', margin: 1 }) };
}

/** Confirms the setup with a code from the app; answers the recovery codes, shown this once. */
export async function enableTwoFactor(db: Db, userId: string, code: string): Promise<string[]> {
  const user = await db.staffUser.findUniqueOrThrow({ where: { id: userId } });
  if (user.totpEnabledAt) throw new AppError('conflict', 'Two-factor sign-in is already on.');
  if (!user.totpSecret)
    throw new AppError('conflict', 'Start the setup first: there is no code to check yet.');
  if (!(await acceptTotp(db, user, code)))
    throw new AppError(
      'invalid_request',
      'The code is wrong. Enter the 6 digits the app shows now.',
    );
  return inTransaction(db, async (tx) => {
    await tx.staffUser.update({ where: { id: userId }, data: { totpEnabledAt: new Date() } });
    return replaceRecoveryCodes(tx, userId);
  });
}

/** New recovery codes (the old ones stop working), after a code from the app. */
export async function regenerateRecoveryCodes(db: Db, userId: string, code: string) {
  const user = await db.staffUser.findUniqueOrThrow({ where: { id: userId } });
  if (!user.totpEnabledAt) throw new AppError('conflict', 'Two-factor sign-in is off.');
  if (!(await acceptTotp(db, user, code)))
    throw new AppError('invalid_request', 'The code is wrong or was already used.');
  return inTransaction(db, (tx) => replaceRecoveryCodes(tx, userId));
}

/**
 * Turns two-factor off for oneself, with a current code (or a recovery code). Refused where the
 * brand requires it: an admin's reset is the way out of a lost phone there.
 */
export async function disableOwnTwoFactor(db: Db, userId: string, code: string) {
  const user = await db.staffUser.findUniqueOrThrow({
    where: { id: userId },
    include: REQUIRED_BY_BRAND,
  });
  if (!user.totpEnabledAt) throw new AppError('conflict', 'Two-factor sign-in is off.');
  if (brandRequires(user))
    throw new AppError('forbidden', 'Your brand requires two-factor sign-in: it stays on.');
  if (!(await acceptSecondFactor(db, user, code)))
    throw new AppError('invalid_request', 'The code is wrong or was already used.');
  await clearTwoFactor(db, userId);
}

/** Removes the second factor and its recovery codes (an admin's reset, or turning it off). */
export async function clearTwoFactor(db: Db, userId: string): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.staffRecoveryCode.deleteMany({ where: { staffUserId: userId } });
    await tx.staffUser.update({
      where: { id: userId },
      data: { totpSecret: null, totpEnabledAt: null, totpLastStep: null },
    });
  });
}

type TotpUser = { id: string; totpSecret: string | null; totpLastStep: bigint | null };

/** A code from the authenticator app, or else one unused recovery code (used up by this call). */
export async function acceptSecondFactor(db: Db, user: TotpUser, code: string): Promise<boolean> {
  const digits = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) return acceptTotp(db, user, digits);
  const normalised = code.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (normalised.length !== 10) return false;
  // One statement marks it used: two sign-ins racing with one code, one wins.
  const { count } = await db.staffRecoveryCode.updateMany({
    where: { staffUserId: user.id, codeHash: sha256(normalised), usedAt: null },
    data: { usedAt: new Date() },
  });
  return count === 1;
}

/** The code matches a step after the last one accepted; that step becomes the last, atomically. */
async function acceptTotp(db: Db, user: TotpUser, code: string): Promise<boolean> {
  const token = code.replace(/\s/g, '');
  if (!user.totpSecret || !/^\d{6}$/.test(token)) return false;
  const result = await verify({
    secret: user.totpSecret,
    token,
    epochTolerance: TOLERANCE_SECONDS,
    ...(user.totpLastStep !== null ? { afterTimeStep: Number(user.totpLastStep) } : {}),
  }).catch(() => ({ valid: false as const }));
  // The functional API's result also types HOTP's, which has no time step.
  if (!result.valid || !('timeStep' in result)) return false;
  const step = BigInt(result.timeStep);
  const { count } = await db.staffUser.updateMany({
    where: { id: user.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  return count === 1;
}

/** Ten codes like `k7m2q-x9d4w` (50 random bits each); only their SHA-256 is kept. */
async function replaceRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  // 32 letters and digits without i, l, o and u (Crockford's base32): 5 bits a byte, no bias.
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  await tx.staffRecoveryCode.deleteMany({ where: { staffUserId: userId } });
  await tx.staffRecoveryCode.createMany({
    data: codes.map((c) => ({ staffUserId: userId, codeHash: sha256(c.replace('-', '')) })),
  });
  return codes;
}

/** How many recovery codes are left unused (the account page says so). */
export const recoveryCodesLeft = (db: Db, userId: string) =>
  db.staffRecoveryCode.count({ where: { staffUserId: userId, usedAt: null } });

/** What the account page shows of one's second factor (GET /admin/api/two-factor). */
export async function twoFactorStatus(db: Db, userId: string) {
  const user = await db.staffUser.findUniqueOrThrow({
    where: { id: userId },
    include: REQUIRED_BY_BRAND,
  });
  return {
    enabled: Boolean(user.totpEnabledAt),
    enabledAt: user.totpEnabledAt,
    requiredByBrand: brandRequires(user),
    recoveryCodesLeft: user.totpEnabledAt ? await recoveryCodesLeft(db, user.id) : 0,
  };
}

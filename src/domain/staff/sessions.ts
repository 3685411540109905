// Server-side sessions: the browser holds a random token in an httpOnly cookie; the database
// holds its SHA-256, the CSRF token and the expiry. Signing out deletes the row; signing out
// everywhere deletes every row of the account; disabling an account does the same.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db.js';
import { AppError } from '../errors.js';
import { sha256 } from '../fingerprint.js';
import { newId } from '../ids.js';
import { verifyPassword } from './password.js';
import type { StaffIdentity, StaffRole } from './roles.js';
import {
  acceptSecondFactor,
  brandRequires,
  REQUIRED_BY_BRAND,
  type BrandRequirement,
} from './two-factor.js';

/** A session ends 12 hours after its last use, and 7 days after sign-in at the latest. */
export const IDLE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
export const ABSOLUTE_TIMEOUT_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often: not one write per request. */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

const token = () => randomBytes(32).toString('base64url');

export type StaffSession = {
  sessionId: string;
  csrfToken: string;
  staff: StaffIdentity;
};

const WRONG = 'The e-mail or the password is wrong.';

export type OpenedSession = StaffSession & { token: string };

/**
 * Checks the password, then the second factor where the account has one, and opens a session.
 * The same answer for an unknown e-mail and a wrong password. With a right password and no code
 * for an account that has two-factor on, answers `{ twoFactorRequired: true }` and opens nothing.
 */
export async function signIn(
  db: Db,
  input: {
    email: string;
    password: string;
    code?: string | undefined;
    userAgent?: string | undefined;
  },
  now: Date = new Date(),
): Promise<OpenedSession | { twoFactorRequired: true }> {
  const email = input.email.trim().toLowerCase();
  const user = email
    ? await db.staffUser.findUnique({ where: { email }, include: REQUIRED_BY_BRAND })
    : null;
  const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !ok) throw new AppError('unauthorized', WRONG);
  if (user.disabledAt) throw new AppError('unauthorized', 'This staff account is disabled.');
  if (user.totpEnabledAt) {
    if (!input.code) return { twoFactorRequired: true };
    if (!(await acceptSecondFactor(db, user, input.code)))
      throw new AppError('unauthorized', 'The code is wrong or was already used.');
  }
  return openSession(db, user, input.userAgent, now);
}

/** A new session for an account whose credentials were just checked (sign-in, an invitation). */
export async function openSession(
  db: Db,
  user: IdentitySource,
  userAgent: string | undefined,
  now: Date = new Date(),
): Promise<OpenedSession> {
  const secret = token();
  const [session] = await db.$transaction([
    db.staffSession.create({
      data: {
        id: newId(),
        staffUserId: user.id,
        tokenHash: sha256(secret),
        csrfToken: token(),
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + ABSOLUTE_TIMEOUT_MS),
        userAgent: userAgent?.slice(0, 300) ?? null,
      },
    }),
    db.staffUser.update({ where: { id: user.id }, data: { lastSignInAt: now } }),
  ]);
  return {
    token: secret,
    sessionId: session.id,
    csrfToken: session.csrfToken,
    staff: identityOf(user),
  };
}

/** The session a cookie token names, or null when it is unknown, expired or its account disabled. */
export async function findSession(
  db: Db,
  secret: string,
  now: Date = new Date(),
): Promise<StaffSession | null> {
  const session = await db.staffSession.findUnique({
    where: { tokenHash: sha256(secret) },
    include: { staffUser: { include: REQUIRED_BY_BRAND } },
  });
  if (!session || session.staffUser.disabledAt) return null;
  const idleSince = now.getTime() - session.lastSeenAt.getTime();
  if (session.expiresAt <= now || idleSince > IDLE_TIMEOUT_MS) {
    await db.staffSession.deleteMany({ where: { id: session.id } });
    return null;
  }
  if (idleSince > TOUCH_EVERY_MS) {
    await db.staffSession.updateMany({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  return {
    sessionId: session.id,
    csrfToken: session.csrfToken,
    staff: identityOf(session.staffUser),
  };
}

export async function signOut(db: Db, sessionId: string): Promise<void> {
  await db.staffSession.deleteMany({ where: { id: sessionId } });
}

/** Ends every session of the account, this browser's included; answers how many. */
export async function signOutEverywhere(db: Db, staffUserId: string): Promise<number> {
  return (await db.staffSession.deleteMany({ where: { staffUserId } })).count;
}

/** Same length, same time: comparing a CSRF token must not leak how much of it matched. */
export function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  return timingSafeEqual(Buffer.from(sha256(expected)), Buffer.from(sha256(given)));
}

type IdentitySource = BrandRequirement & {
  id: string;
  email: string;
  role: StaffRole;
  brandId: string | null;
  subBrandId: string | null;
  totpEnabledAt: Date | null;
};

function identityOf(user: IdentitySource): StaffIdentity {
  return {
    userId: user.id,
    email: user.email,
    role: user.role,
    brandId: user.brandId,
    subBrandId: user.subBrandId,
    twoFactor: user.totpEnabledAt ? 'on' : brandRequires(user) ? 'setup_required' : 'off',
  };
}

// Staff administration from the backoffice (docs/backoffice.md, "Staff and roles"): invite by
// e-mail, change a role, disable and enable, reset a password or a second factor.
//
// Who manages whom ("reach"): a platform admin manages everyone; a brand admin manages the staff
// of their own brand (brand admins of it, operators and support of its sub-brands, support of the
// brand) and gives only those roles; other roles manage no one. Nobody changes, disables or resets
// their own account here (a slip would lock them out; the account page is for oneself). An
// account out of reach is "not found", as another tenant's record is.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { inTransaction, type Db } from '../db.js';
import { AppError, invalidRequest, notFound } from '../errors.js';
import { sha256 } from '../fingerprint.js';
import { newId } from '../ids.js';
import { parseInput } from '../validation.js';
import { hashPassword, passwordProblem } from './password.js';
import { ROLE_NAMES, type StaffIdentity, type StaffRole } from './roles.js';
import { openSession, type OpenedSession } from './sessions.js';
import { enqueueStaffEmail, type StaffMailKind } from './staff-mail.js';
import { checkAssignment, staffAssignment, staffEmail } from './staff-users.js';
import { clearTwoFactor, REQUIRED_BY_BRAND } from './two-factor.js';

/** How long an invitation or a reset link works. */
export const LINK_DAYS = { invitation: 7, password_reset: 1 } as const;

type Assignment = { role: string; brandId: string | null; subBrandId: string | null };

const assignmentInput = staffAssignment.superRefine(checkAssignment);
const inviteInput = staffAssignment.extend({ email: staffEmail }).superRefine(checkAssignment);

/** Managers only: everyone else is refused before anything is read. */
function mustManage(manager: StaffIdentity): void {
  if (manager.role !== 'platform_admin' && manager.role !== 'brand_admin')
    throw new AppError('forbidden', 'Only platform admins and brand admins manage staff.');
}

/** The brand an assignment belongs to (null: the platform's, for admins and global support). */
async function brandOf(db: Db, a: Assignment): Promise<string | null> {
  if (a.brandId) return a.brandId;
  if (!a.subBrandId) return null;
  const subBrand = await db.subBrand.findUnique({
    where: { id: a.subBrandId },
    select: { brandId: true },
  });
  if (!subBrand) throw notFound('Sub-brand');
  return subBrand.brandId;
}

async function withinReach(db: Db, manager: StaffIdentity, a: Assignment): Promise<boolean> {
  if (manager.role === 'platform_admin') return true;
  if (manager.role !== 'brand_admin' || a.role === 'platform_admin') return false;
  return (await brandOf(db, a)) === manager.brandId;
}

/** The Prisma `where` of the accounts a manager sees. */
export function staffInReach(manager: StaffIdentity) {
  mustManage(manager);
  if (manager.role === 'platform_admin') return {};
  const brandId = manager.brandId ?? '00000000-0000-0000-0000-000000000000';
  return {
    role: { not: 'platform_admin' as const },
    OR: [{ brandId }, { subBrand: { brandId } }],
  };
}

/** Someone else's account within reach, or not found. */
async function targetOf(db: Db, manager: StaffIdentity, id: string) {
  mustManage(manager);
  if (id === manager.userId)
    throw new AppError(
      'forbidden',
      'You cannot change your own account here: ask another admin, or use your account page.',
    );
  const user = /^[0-9a-f-]{36}$/i.test(id)
    ? await db.staffUser.findUnique({ where: { id } })
    : null;
  if (!user || !(await withinReach(db, manager, user))) throw notFound('Staff account');
  return user;
}

/** The role and place asked for, its brand existing and within the manager's reach. */
async function assignable(
  db: Db,
  manager: StaffIdentity,
  v: { role: StaffRole; brandId?: string | null; subBrandId?: string | null },
): Promise<Assignment & { role: StaffRole }> {
  const a = { role: v.role, brandId: v.brandId ?? null, subBrandId: v.subBrandId ?? null };
  if (a.brandId && !(await db.brand.findUnique({ where: { id: a.brandId } })))
    throw notFound('Brand');
  if (!(await withinReach(db, manager, a)))
    throw new AppError(
      'forbidden',
      'A brand admin gives roles within their own brand only: brand admin, establishment ' +
        'operator or support of it.',
    );
  return a;
}

/** A one-time link for `userId`: every earlier link of the account stops working. */
async function issueLink(
  tx: Db,
  user: { id: string; email: string; role: string },
  kind: StaffMailKind,
  by: StaffIdentity,
  now: Date,
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await tx.staffToken.updateMany({
    where: { staffUserId: user.id, usedAt: null },
    data: { usedAt: now },
  });
  await tx.staffToken.create({
    data: {
      id: newId(),
      staffUserId: user.id,
      kind,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + LINK_DAYS[kind] * 86_400_000),
      createdAt: now,
    },
  });
  await enqueueStaffEmail(tx, {
    kind,
    recipient: user.email,
    by: by.email,
    role: ROLE_NAMES[user.role as keyof typeof ROLE_NAMES],
    token,
    days: LINK_DAYS[kind],
  });
}

/** Makes the account (no password yet) and e-mails its invitation link through the outbox. */
export async function inviteStaff(
  db: Db,
  manager: StaffIdentity,
  input: unknown,
  now = new Date(),
): Promise<{ id: string }> {
  mustManage(manager);
  const v = parseInput(inviteInput, input);
  const a = await assignable(db, manager, v);
  return inTransaction(db, async (tx) => {
    if (await tx.staffUser.findUnique({ where: { email: v.email } }))
      throw new AppError('conflict', `A staff account for ${v.email} already exists.`);
    const user = await tx.staffUser.create({
      data: { id: newId(), email: v.email, ...a, passwordHash: null, invitedById: manager.userId },
    });
    await issueLink(tx, user, 'invitation', manager, now);
    return { id: user.id };
  });
}

/** Another role, or the same role elsewhere; takes effect on the account's next request. */
export async function changeStaffRole(
  db: Db,
  manager: StaffIdentity,
  id: string,
  input: unknown,
): Promise<{ id: string }> {
  const user = await targetOf(db, manager, id);
  const a = await assignable(db, manager, parseInput(assignmentInput, input));
  await db.staffUser.update({ where: { id: user.id }, data: a });
  return { id: user.id };
}

/** Disabled: cannot sign in, every session ends; the history stays. Enabling undoes it. */
export async function setStaffDisabled(
  db: Db,
  manager: StaffIdentity,
  id: string,
  disabled: boolean,
  now = new Date(),
): Promise<{ id: string }> {
  const user = await targetOf(db, manager, id);
  await inTransaction(db, async (tx) => {
    if (disabled) await tx.staffSession.deleteMany({ where: { staffUserId: user.id } });
    await tx.staffUser.update({
      where: { id: user.id },
      data: { disabledAt: disabled ? (user.disabledAt ?? now) : null },
    });
  });
  return { id: user.id };
}

/**
 * The password stops working and every session ends; a link to choose a new one goes out (a new
 * invitation while the account has never had a password).
 */
export async function resetStaffPassword(
  db: Db,
  manager: StaffIdentity,
  id: string,
  now = new Date(),
): Promise<{ id: string }> {
  const user = await targetOf(db, manager, id);
  if (user.disabledAt) throw new AppError('conflict', 'The account is disabled: enable it first.');
  const kind = user.passwordHash ? 'password_reset' : 'invitation';
  await inTransaction(db, async (tx) => {
    await tx.staffSession.deleteMany({ where: { staffUserId: user.id } });
    await tx.staffUser.update({ where: { id: user.id }, data: { passwordHash: null } });
    await issueLink(tx, user, kind, manager, now);
  });
  return { id: user.id };
}

/** A lost authenticator: the second factor and recovery codes go, every session ends. */
export async function resetStaffTwoFactor(
  db: Db,
  manager: StaffIdentity,
  id: string,
): Promise<{ id: string }> {
  const user = await targetOf(db, manager, id);
  await clearTwoFactor(db, user.id);
  await db.staffSession.deleteMany({ where: { staffUserId: user.id } });
  return { id: user.id };
}

/** A platform admin requires (or stops requiring) a second factor of a brand's staff. */
export async function setBrandTwoFactorRequired(
  db: Db,
  brandId: string,
  required: boolean,
): Promise<void> {
  const { count } = await db.brand.updateMany({
    where: { id: brandId },
    data: { staffTwoFactorRequired: required },
  });
  if (count === 0) throw notFound('Brand');
}

const redeemInput = z.object({ token: z.string().min(20).max(100), password: z.string() });

/** What a link's page shows before the password is chosen; null when it no longer works. */
export async function describeLink(db: Db, token: string, now = new Date()) {
  const row = await usableLink(db, token, now);
  return row ? { email: row.staffUser.email, kind: row.kind } : null;
}

async function usableLink(db: Db, token: string, now: Date) {
  const row = await db.staffToken.findUnique({
    where: { tokenHash: sha256(token) },
    include: { staffUser: true },
  });
  if (!row || row.usedAt || row.expiresAt <= now || row.staffUser.disabledAt) return null;
  return row;
}

/**
 * Sets the password a link was sent for, and signs in, unless the account has a second factor:
 * then it answers `twoFactorRequired`, and the person signs in with the new password and a code
 * (a link from a read mailbox alone must not get past the second factor).
 */
export async function redeemLink(
  db: Db,
  input: unknown,
  userAgent: string | undefined,
  now = new Date(),
): Promise<OpenedSession | { twoFactorRequired: true; email: string }> {
  const v = parseInput(redeemInput, input);
  const row = await usableLink(db, v.token, now);
  if (!row)
    throw new AppError(
      'not_found',
      'This link no longer works: it was used, replaced by a newer one, or has expired. Ask an ' +
        'admin for a new one.',
    );
  const weak = await passwordProblem(v.password);
  if (weak) throw invalidRequest([weak]);
  const passwordHash = await hashPassword(v.password);
  const user = await inTransaction(db, async (tx) => {
    // One statement claims the link: two tabs submitting it, one wins.
    const { count } = await tx.staffToken.updateMany({
      where: { id: row.id, usedAt: null },
      data: { usedAt: now },
    });
    if (count !== 1) throw new AppError('conflict', 'This link was just used.');
    return tx.staffUser.update({
      where: { id: row.staffUserId },
      data: { passwordHash },
      include: REQUIRED_BY_BRAND,
    });
  });
  if (user.totpEnabledAt) return { twoFactorRequired: true, email: user.email };
  return openSession(db, user, userAgent, now);
}

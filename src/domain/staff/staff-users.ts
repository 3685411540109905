// Staff accounts: create, list, disable, reset a second factor. Used by the admin CLI (`npm run admin -- user …`) and the
// first start on the embedded database (the demo operator).
import { z } from 'zod';
import { inTransaction, type Db } from '../db.js';
import { AppError, invalidRequest, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { parseInput } from '../validation.js';
import { hashPassword, passwordProblem } from './password.js';
import { STAFF_ROLES, type StaffRole } from './roles.js';
import { clearTwoFactor } from './two-factor.js';

/** A role and where it applies: a brand admin has a brand, an establishment operator a sub-brand. */
export const staffAssignment = z.object({
  role: z.enum(STAFF_ROLES),
  brandId: z.uuid().nullish(),
  subBrandId: z.uuid().nullish(),
});

export const staffEmail = z
  .email()
  .max(254)
  .transform((e) => e.toLowerCase());

/** The rules tying a role to its brand or sub-brand, for every schema holding an assignment. */
export function checkAssignment(v: z.infer<typeof staffAssignment>, ctx: z.RefinementCtx): void {
  const need = (field: 'brandId' | 'subBrandId', message: string) =>
    ctx.addIssue({
      code: 'custom',
      path: [field],
      message,
      params: { rule: message.startsWith('is required') ? 'required' : 'conflict' },
    });
  if (v.role === 'brand_admin' && !v.brandId) need('brandId', 'is required for a brand admin');
  if (v.role === 'establishment_operator' && !v.subBrandId)
    need('subBrandId', 'is required for an establishment operator');
  if (v.role === 'platform_admin' && (v.brandId || v.subBrandId))
    need(v.brandId ? 'brandId' : 'subBrandId', 'a platform admin has no brand or sub-brand');
  if (v.role === 'brand_admin' && v.subBrandId)
    need('subBrandId', 'a brand admin has a brand, not a sub-brand');
  if (v.role === 'establishment_operator' && v.brandId)
    need('brandId', 'an establishment operator has a sub-brand, not a brand');
  if (v.brandId && v.subBrandId) need('subBrandId', 'give a brand or a sub-brand, not both');
}

const staffUserInput = staffAssignment
  .extend({
    email: staffEmail,
    password: z.string(), // its rules: passwordProblem, below
  })
  .superRefine(checkAssignment);

export type StaffUserSummary = {
  id: string;
  email: string;
  role: StaffRole;
  brandId: string | null;
  subBrandId: string | null;
  disabledAt: Date | null;
  createdAt: Date;
};

const SUMMARY = {
  id: true,
  email: true,
  role: true,
  brandId: true,
  subBrandId: true,
  disabledAt: true,
  createdAt: true,
} as const;

export async function createStaffUser(
  db: Db,
  input: z.input<typeof staffUserInput>,
): Promise<StaffUserSummary> {
  const v = parseInput(staffUserInput, input);
  const weak = await passwordProblem(v.password);
  if (weak) throw invalidRequest([weak]);
  if (v.brandId && !(await db.brand.findUnique({ where: { id: v.brandId } })))
    throw notFound('Brand');
  if (v.subBrandId && !(await db.subBrand.findUnique({ where: { id: v.subBrandId } })))
    throw notFound('Sub-brand');
  if (await db.staffUser.findUnique({ where: { email: v.email } }))
    throw new AppError('conflict', `A staff account for ${v.email} already exists.`);
  return db.staffUser.create({
    data: {
      id: newId(),
      email: v.email,
      passwordHash: await hashPassword(v.password),
      role: v.role,
      brandId: v.brandId ?? null,
      subBrandId: v.subBrandId ?? null,
    },
    select: SUMMARY,
  });
}

export const listStaffUsers = (db: Db): Promise<StaffUserSummary[]> =>
  db.staffUser.findMany({ select: SUMMARY, orderBy: { id: 'asc' } });

async function findAccount(db: Db, emailOrId: string): Promise<StaffUserSummary> {
  const where = /^[0-9a-f-]{36}$/i.test(emailOrId)
    ? { id: emailOrId }
    : { email: emailOrId.toLowerCase() };
  const user = await db.staffUser.findUnique({ where, select: SUMMARY });
  if (!user) throw notFound('Staff account');
  return user;
}

/** Removes the account's second factor and recovery codes and ends its sessions (the CLI's reset). */
export async function resetTwoFactorOf(db: Db, emailOrId: string): Promise<StaffUserSummary> {
  const user = await findAccount(db, emailOrId);
  await clearTwoFactor(db, user.id);
  await db.staffSession.deleteMany({ where: { staffUserId: user.id } });
  return user;
}

/** Disables the account (its history stays) and ends every session it has. */
export async function disableStaffUser(db: Db, emailOrId: string): Promise<StaffUserSummary> {
  const user = await findAccount(db, emailOrId);
  return inTransaction(db, async (tx) => {
    await tx.staffSession.deleteMany({ where: { staffUserId: user.id } });
    return tx.staffUser.update({
      where: { id: user.id },
      data: { disabledAt: user.disabledAt ?? new Date() },
      select: SUMMARY,
    });
  });
}

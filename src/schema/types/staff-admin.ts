// Staff administration (docs/backoffice.md, "Staff and roles"): the accounts within the caller's
// reach, invitations, role changes, disabling, resets, and a brand's two-factor requirement. The
// rules (who manages whom) are the domain's: domain/staff/staff-admin.ts. People only: a key is
// refused, as it is on the other staff fields.
import {
  changeStaffRole,
  inviteStaff,
  resetStaffPassword,
  resetStaffTwoFactor,
  setBrandTwoFactorRequired,
  setStaffDisabled,
  staffInReach,
} from '../../domain/staff/staff-admin.js';
import type { Db } from '../../domain/db.js';
import type { StaffIdentity } from '../../domain/staff/roles.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { countedTotal, ListTotalRef } from '../list-total.js';
import { effect } from '../effects.js';
import { StaffRoleEnum } from './staff.js';

const StaffStatusEnum = builder.enumType('StaffStatus', {
  values: {
    active: { description: 'Signs in.' },
    invited: { description: 'Invited; the password is not chosen yet.' },
    reset: { description: 'The password was reset; the new one is not chosen yet.' },
    disabled: { description: 'Cannot sign in; the history stays.' },
  } as const,
});

builder.prismaObjectFields('StaffUser', (t) => ({
  status: t.field({
    type: StaffStatusEnum,
    select: { disabledAt: true, passwordHash: true, lastSignInAt: true },
    resolve: (u) =>
      u.disabledAt ? 'disabled' : u.passwordHash ? 'active' : u.lastSignInAt ? 'reset' : 'invited',
  }),
  twoFactorEnabled: t.boolean({
    select: { totpEnabledAt: true },
    resolve: (u) => Boolean(u.totpEnabledAt),
  }),
  brand: t.relation('brand', { nullable: true, description: "A brand admin's brand." }),
  subBrand: t.relation('subBrand', {
    nullable: true,
    description: "An establishment operator's (or scoped support's) sub-brand.",
  }),
  lastSignInAt: t.expose('lastSignInAt', { type: 'DateTime', nullable: true }),
  createdAt: t.expose('createdAt', { type: 'DateTime' }),
}));

builder.prismaObjectField('Brand', 'staffTwoFactorRequired', (t) =>
  t.exposeBoolean('staffTwoFactorRequired', {
    description: "Its staff must sign in with a second factor (an authenticator app's code).",
  }),
);

const StaffAssignmentInput = builder.inputType('StaffAssignmentInput', {
  description:
    'A role and where it applies: a brand admin has a brand, an establishment operator a ' +
    'sub-brand, support either or neither (every sub-brand), a platform admin neither.',
  fields: (t) => ({
    role: t.field({ type: StaffRoleEnum, required: true }),
    brandId: t.id(),
    subBrandId: t.id(),
  }),
});

const InviteStaffInput = builder.inputType('InviteStaffInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    role: t.field({ type: StaffRoleEnum, required: true }),
    brandId: t.id(),
    subBrandId: t.id(),
  }),
});

/** The accounts one list shows; `staffMembersTotal` says how many there are in all. */
const STAFF_SHOWN = 500;

/** The accounts listed: those in the caller's reach, by part of the e-mail when asked. */
const staffListWhere = (ctx: GraphQLContext, search: string | null | undefined) => ({
  AND: [
    staffInReach(ctx.principal.staff!),
    search ? { email: { contains: search.trim().toLowerCase() } } : {},
  ],
});

builder.queryFields((t) => ({
  staffMembers: t.prismaField({
    type: ['StaffUser'],
    description:
      'The staff accounts the caller manages (platform admins: all; brand admins: their ' +
      "brand's), by e-mail, at most 500; `search` matches part of the e-mail. Other roles are refused.",
    authScopes: { staff: true },
    args: { search: t.arg.string() },
    resolve: (query, _root, { search }, ctx) =>
      ctx.db.staffUser.findMany({
        ...query,
        where: staffListWhere(ctx, search),
        orderBy: { email: 'asc' },
        take: STAFF_SHOWN,
      }),
  }),
  staffMembersTotal: t.field({
    type: ListTotalRef,
    description:
      'How many accounts `staffMembers` with the same search holds in all (it shows at most 500).',
    authScopes: { staff: true },
    args: { search: t.arg.string() },
    resolve: (_root, { search }, ctx) =>
      countedTotal((take) => ctx.db.staffUser.count({ where: staffListWhere(ctx, search), take })),
  }),
}));

/** A mutation on one account, answered with the account as it is now. */
const onAccount = (
  name: string,
  description: string,
  run: (db: Db, staff: StaffIdentity, id: string) => Promise<unknown>,
  kind: 'changes' | 'creates' = 'changes',
) =>
  builder.mutationField(name, (t) =>
    t.prismaField({
      type: 'StaffUser',
      description,
      extensions: effect(kind),
      authScopes: { staff: true },
      args: { id: t.arg.id({ required: true }) },
      resolve: async (query, _root, { id }, ctx) => {
        await run(ctx.db, ctx.principal.staff!, String(id));
        return ctx.db.staffUser.findUniqueOrThrow({ ...query, where: { id: String(id) } });
      },
    }),
  );

builder.mutationField('inviteStaff', (t) =>
  t.prismaField({
    type: 'StaffUser',
    description:
      'Makes an account without a password and e-mails its invitation: a link that works once, ' +
      'for 7 days, to choose the password (through the outbox, sent by the e-mail dispatcher).',
    extensions: effect('creates'),
    authScopes: { staff: true },
    args: { input: t.arg({ type: InviteStaffInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const { id } = await inviteStaff(ctx.db, ctx.principal.staff!, input, ctx.now());
      return ctx.db.staffUser.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

builder.mutationField('changeStaffRole', (t) =>
  t.prismaField({
    type: 'StaffUser',
    description: "Another role, or the same elsewhere; it applies from the account's next request.",
    extensions: effect('changes'),
    authScopes: { staff: true },
    args: {
      id: t.arg.id({ required: true }),
      input: t.arg({ type: StaffAssignmentInput, required: true }),
    },
    resolve: async (query, _root, { id, input }, ctx) => {
      await changeStaffRole(ctx.db, ctx.principal.staff!, String(id), input);
      return ctx.db.staffUser.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
);

onAccount(
  'disableStaff',
  'The account cannot sign in any more and its sessions end; its history stays.',
  (db, staff, id) => setStaffDisabled(db, staff, id, true),
);
onAccount('enableStaff', 'A disabled account signs in again.', (db, staff, id) =>
  setStaffDisabled(db, staff, id, false),
);
onAccount(
  'resetStaffPassword',
  'The password stops working, sessions end, and a link to choose a new one (valid 1 day) is ' +
    'e-mailed; an account never signed in gets a new invitation instead.',
  (db, staff, id) => resetStaffPassword(db, staff, id),
  'creates',
);
onAccount(
  'resetStaffTwoFactor',
  'For a lost authenticator: the second factor and its recovery codes are removed and sessions ' +
    'end; the person sets it up again (at the next sign-in where the brand requires it).',
  (db, staff, id) => resetStaffTwoFactor(db, staff, id),
);

builder.mutationField('setBrandStaffTwoFactor', (t) =>
  t.prismaField({
    type: 'Brand',
    description:
      "Requires (or stops requiring) a second factor of the brand's staff. Those without one " +
      'can then only set it up, at their next request.',
    extensions: effect('changes'),
    authScopes: { admin: true },
    args: { brandId: t.arg.id({ required: true }), required: t.arg.boolean({ required: true }) },
    resolve: async (query, _root, { brandId, required }, ctx) => {
      await setBrandTwoFactorRequired(ctx.db, String(brandId), required);
      return ctx.db.brand.findUniqueOrThrow({ ...query, where: { id: String(brandId) } });
    },
  }),
);

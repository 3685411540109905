// `npm run admin -- user …`: staff accounts of the backoffice. The password comes from the
// STAFF_PASSWORD environment variable or a prompt, never from an argument (arguments end up in
// shell history and in `ps`).
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { UsageError, type Command } from './command.js';
import { STAFF_ROLES, type StaffRole } from '../domain/staff/roles.js';
import {
  createStaffUser,
  disableStaffUser,
  listStaffUsers,
  resetTwoFactorOf,
  type StaffUserSummary,
} from '../domain/staff/staff-users.js';

/** A staff command: a command with its usage line (usage.ts has them all). */
export type UserCommand = Command & { usage: string };

export const PASSWORD_ENV = 'STAFF_PASSWORD';

/** The roles as typed on the command line: platform-admin, brand-admin, … */
const ROLE_NAMES = STAFF_ROLES.map((r) => r.replace(/_/g, '-'));
const roleOf = (value: unknown): StaffRole => {
  const role = String(value ?? '').replace(/-/g, '_');
  if (!(STAFF_ROLES as readonly string[]).includes(role))
    throw new UsageError(`--role must be one of ${ROLE_NAMES.join(', ')}`);
  return role as StaffRole;
};

const summary = (u: StaffUserSummary) => ({
  id: u.id,
  email: u.email,
  role: u.role,
  brand_id: u.brandId,
  sub_brand_id: u.subBrandId,
  disabled: u.disabledAt !== null,
  created_at: u.createdAt.toISOString(),
});

/** The new account's password: $STAFF_PASSWORD, else asked in the terminal. */
export const readPassword = async (): Promise<string> =>
  process.env[PASSWORD_ENV] || (await promptPassword());

/** Reads a password without echoing it (a terminal), asked twice. */
async function promptPassword(): Promise<string> {
  if (!process.stdin.isTTY)
    throw new UsageError(`Set ${PASSWORD_ENV}, or run in a terminal to be asked for the password.`);
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      let muted = false;
      const output = new Writable({
        write(chunk, _enc, done) {
          if (!muted) process.stderr.write(chunk);
          done();
        },
      });
      const rl = createInterface({ input: process.stdin, output, terminal: true });
      rl.question(question, (answer) => {
        rl.close();
        process.stderr.write('\n');
        resolve(answer);
      });
      muted = true;
    });
  const first = await ask('Password (12 characters or more): ');
  const second = await ask('Again: ');
  if (first !== second) throw new UsageError('The two passwords differ.');
  return first;
}

export const USER_COMMANDS: Record<string, UserCommand> = {
  'user create': {
    usage: `user create --email E --role ${ROLE_NAMES.join('|')} [--brand ID | --sub-brand ID]   (password: $${PASSWORD_ENV} or a prompt)`,
    options: {
      email: { type: 'string' },
      role: { type: 'string' },
      brand: { type: 'string' },
      'sub-brand': { type: 'string' },
      password: { type: 'string' },
    },
    async run(db, v, _positionals, secrets) {
      if (v.password !== undefined)
        throw new UsageError(
          `Never pass a password as an argument: set ${PASSWORD_ENV} or answer the prompt.`,
        );
      if (typeof v.email !== 'string' || !v.email) throw new UsageError('--email is required');
      const role = roleOf(v.role);
      const password = secrets.password ?? (await readPassword());
      const user = await createStaffUser(db, {
        email: v.email,
        password,
        role,
        brandId: typeof v.brand === 'string' ? v.brand : null,
        subBrandId: typeof v['sub-brand'] === 'string' ? v['sub-brand'] : null,
      });
      return {
        json: summary(user),
        text: `Staff account ${user.email} (${user.role.replace(/_/g, ' ')}) created: ${user.id}.`,
      };
    },
  },
  'user list': {
    usage: 'user list',
    options: {},
    async run(db) {
      const users = await listStaffUsers(db);
      return {
        json: { users: users.map(summary) },
        text: users.length
          ? users
              .map(
                (u) =>
                  `${u.id}  ${u.email}  ${u.role}${u.brandId ? `  brand ${u.brandId}` : ''}${u.subBrandId ? `  sub-brand ${u.subBrandId}` : ''}${u.disabledAt ? '  (disabled)' : ''}`,
              )
              .join('\n')
          : 'No staff accounts yet: npm run admin -- user create …',
      };
    },
  },
  'user disable': {
    usage: 'user disable EMAIL|ID   (ends its sessions; its history stays)',
    options: {},
    positionals: 1,
    async run(db, _v, [who]) {
      const user = await disableStaffUser(db, who!);
      return {
        json: summary(user),
        text: `Staff account ${user.email} disabled; signed out everywhere.`,
      };
    },
  },
  'user reset-2fa': {
    usage:
      'user reset-2fa EMAIL|ID   (a lost authenticator: removes its second factor, ends its sessions)',
    options: {},
    positionals: 1,
    async run(db, _v, [who]) {
      // The way back in for the last platform admin with a lost phone: no one is above them.
      const user = await resetTwoFactorOf(db, who!);
      return {
        json: summary(user),
        text: `Two-factor sign-in removed from ${user.email}; signed out everywhere.`,
      };
    },
  },
};

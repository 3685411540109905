// `npm run admin -- user …`: staff accounts from the command line; the password never as an argument.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => {
  delete process.env.STAFF_PASSWORD;
});

const admin = async (...argv: string[]) => {
  const result = await runAdmin([...argv, '--json'], h.db.prisma);
  return { ...result, json: JSON.parse(result.out) };
};
const signIn = (email: string, password: string) =>
  h.call('POST', '/admin/api/sign-in', { body: { email, password } });

describe('npm run admin -- user …', () => {
  it('creates an operator of a sub-brand with the password from STAFF_PASSWORD, who can sign in', async () => {
    const tenant = await createTenant(h.db.prisma);
    process.env.STAFF_PASSWORD = 'a long enough password';
    const created = await admin(
      'user',
      'create',
      '--email',
      'Op@Example.com',
      '--role',
      'establishment-operator',
      '--sub-brand',
      tenant.subBrandId,
    );
    expect(created).toMatchObject({
      code: 0,
      json: {
        email: 'op@example.com',
        role: 'establishment_operator',
        sub_brand_id: tenant.subBrandId,
        brand_id: null,
        disabled: false,
      },
    });
    expect(created.out).not.toContain('a long enough password');
    expect((await signIn('op@example.com', 'a long enough password')).status).toBe(200);

    const listed = await admin('user', 'list');
    expect(listed.json.users).toContainEqual(expect.objectContaining({ email: 'op@example.com' }));

    const disabled = await admin('user', 'disable', 'op@example.com');
    expect(disabled.json).toMatchObject({ email: 'op@example.com', disabled: true });
    expect((await signIn('op@example.com', 'a long enough password')).status).toBe(401);
  });

  it('removes a lost second factor: the password alone signs in again', async () => {
    process.env.STAFF_PASSWORD = 'a long enough password';
    await admin('user', 'create', '--email', 'lost@example.com', '--role', 'platform-admin');
    const user = await h.db.prisma.staffUser.findUniqueOrThrow({
      where: { email: 'lost@example.com' },
    });
    await h.db.prisma.staffUser.update({
      where: { id: user.id },
      data: { totpSecret: 'JBSWY3DPEHPK3PXP', totpEnabledAt: new Date() },
    });
    expect((await signIn('lost@example.com', 'a long enough password')).body).toEqual({
      twoFactorRequired: true,
    });
    const reset = await admin('user', 'reset-2fa', 'LOST@example.com');
    expect(reset).toMatchObject({ code: 0, json: { email: 'lost@example.com' } });
    expect((await signIn('lost@example.com', 'a long enough password')).body.staff).toMatchObject({
      email: 'lost@example.com',
    });
    expect((await admin('user', 'reset-2fa', 'nobody@example.com')).json.error.code).toBe(
      'not_found',
    );
  });

  it('refuses a password given as an argument, and asks for one when none is set', async () => {
    const argument = await admin(
      'user',
      'create',
      '--email',
      'x@example.com',
      '--role',
      'support',
      '--password',
      'secret secret secret',
    );
    expect(argument).toMatchObject({ code: 2, json: { error: { code: 'usage' } } });
    expect(argument.json.error.message).toMatch(/Never pass a password as an argument/);
    // Under the test runner stdin is not a terminal, so there is no prompt to answer.
    const noPassword = await admin(
      'user',
      'create',
      '--email',
      'x@example.com',
      '--role',
      'support',
    );
    expect(noPassword.json.error.message).toMatch(/Set STAFF_PASSWORD/);
  });

  it('explains a role without its tenant, an unknown role, a short password and a duplicate', async () => {
    process.env.STAFF_PASSWORD = 'a long enough password';
    const noBrand = await admin(
      'user',
      'create',
      '--email',
      'b@example.com',
      '--role',
      'brand-admin',
    );
    expect(noBrand.json.error).toEqual({
      code: 'invalid_request',
      message: '--brand: is required for a brand admin',
    });
    const unknownRole = await admin('user', 'create', '--email', 'b@example.com', '--role', 'boss');
    expect(unknownRole.json.error.message).toMatch(
      /--role must be one of platform-admin, brand-admin/,
    );
    process.env.STAFF_PASSWORD = 'short';
    const short = await admin('user', 'create', '--email', 'b@example.com', '--role', 'support');
    expect(short.json.error.message).toBe('$STAFF_PASSWORD: must be at least 12 characters long');
    process.env.STAFF_PASSWORD = 'password1234';
    const common = await admin('user', 'create', '--email', 'b@example.com', '--role', 'support');
    expect(common.json.error.message).toMatch(/^\$STAFF_PASSWORD: is a common password/);
    process.env.STAFF_PASSWORD = 'a long enough password';
    expect(
      (await admin('user', 'create', '--email', 'd@example.com', '--role', 'support')).code,
    ).toBe(0);
    const duplicate = await admin(
      'user',
      'create',
      '--email',
      'D@example.com',
      '--role',
      'support',
    );
    expect(duplicate.json.error.code).toBe('conflict');
  });

  it('says so when disabling an account that does not exist', async () => {
    const missing = await admin('user', 'disable', 'ghost@example.com');
    expect(missing).toMatchObject({ code: 1, json: { error: { code: 'not_found' } } });
  });
});

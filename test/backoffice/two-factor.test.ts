// Two-factor sign-in for staff: setup with an authenticator app's code, sign-in asking for it,
// recovery codes used once, no replay of a code, a brand's requirement holding a session to the
// setup (GraphQL and the CSV exports refuse it), and an admin's reset. Its own file: each file's
// harness has its own sign-in budget per address (30 a minute).
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubBrand } from '../../src/domain/tenancy/create-sub-brand.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, STAFF_PASSWORD, type StaffClient } from '../support/staff.js';

let h: Harness;
let a: Awaited<ReturnType<typeof createTenant>>;
let platform: StaffClient;
beforeAll(async () => {
  h = await startHarness();
  a = await createTenant(h.db.prisma);
  const admin = await createStaff(h.db.prisma, 'platform_admin');
  platform = await signInAs(h.url, admin.email);
});
afterAll(() => h.close());

const onAccount = (name: string) =>
  `mutation($id: ID!) { ${name}(id: $id) { id twoFactorEnabled } }`;

describe('a second factor required by the brand, and reset by an admin', () => {
  it('holds a person without one to its setup, then signs in with codes', async () => {
    const brand = await createTenant(h.db.prisma);
    const sub2 = await createSubBrand(h.db.prisma, {
      brandId: brand.brandId,
      name: 'Second',
      country: 'ES',
    });
    const person = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: sub2.id,
    });
    const require = await platform.gql(
      `mutation($id: ID!) { setBrandStaffTwoFactor(brandId: $id, required: true) { staffTwoFactorRequired } }`,
      { id: brand.brandId },
      { subBrandId: a.subBrandId },
    );
    expect(require.body.data.setBrandStaffTwoFactor.staffTwoFactorRequired).toBe(true);

    const client = await signInAs(h.url, person.email);
    expect(client.signIn.body.twoFactor).toBe('setup_required');
    const held = await client.gql(
      `{ customers(first: 1) { edges { node { id } } } }`,
      {},
      { subBrandId: sub2.id },
    );
    expect(held.body.errors[0].message).toMatch(/requires two-factor/);
    const csv = await h.call('GET', '/admin/api/customers.csv', {
      headers: { cookie: client.cookie, 'x-csrf-token': client.csrf, 'x-sub-brand-id': sub2.id },
    });
    expect(csv.status).toBe(403);

    const post = (path: string, body: unknown) =>
      h.call('POST', path, {
        body,
        headers: { cookie: client.cookie, 'x-csrf-token': client.csrf },
      });
    const setup = await post('/admin/api/two-factor/setup', {});
    expect(setup.body.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(setup.body.qrSvg).toMatch(/^<svg/);
    expect((await post('/admin/api/two-factor/enable', { code: '000000' })).status).toBe(400);
    const enabled = await post('/admin/api/two-factor/enable', {
      code: await generate({ secret: setup.body.secret }),
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect(enabled.body.session.twoFactor).toBe('on');
    expect(
      (
        await client.gql(
          `{ customers(first: 1) { edges { node { id } } } }`,
          {},
          { subBrandId: sub2.id },
        )
      ).body.errors,
    ).toBeUndefined();
    // Off is refused while the brand requires it.
    const off = await post('/admin/api/two-factor/disable', {
      code: enabled.body.recoveryCodes[0],
    });
    expect(off.status).toBe(403);

    // Sign-in now asks for the code; a wrong one is refused; a recovery code works once.
    const signIn = (code?: string) =>
      h.call('POST', '/admin/api/sign-in', {
        body: { email: person.email, password: STAFF_PASSWORD, ...(code ? { code } : {}) },
      });
    const first = await signIn();
    expect(first.body).toEqual({ twoFactorRequired: true });
    expect(first.headers.get('set-cookie')).toBeNull();
    expect((await signIn('123456')).status).toBe(401);
    const recovery = enabled.body.recoveryCodes[1] as string;
    expect((await signIn(recovery.toUpperCase())).status).toBe(200);
    expect((await signIn(recovery)).status).toBe(401);

    // An admin resets it: sessions end and the person is held to setup again.
    const reset = await platform.gql(
      onAccount('resetStaffTwoFactor'),
      { id: person.id },
      {
        subBrandId: a.subBrandId,
      },
    );
    expect(reset.body.data.resetStaffTwoFactor.twoFactorEnabled).toBe(false);
    expect((await client.gql(`{ customers(first: 1) { edges { node { id } } } }`)).status).toBe(
      401,
    );
    const after = await signIn();
    expect(after.body.twoFactor).toBe('setup_required');
  });

  it('a code is good once: the same code a second time is refused (no replay)', async () => {
    const person = await createStaff(h.db.prisma, 'support', { brandId: a.brandId });
    const client = await signInAs(h.url, person.email);
    const post = (path: string, body: unknown) =>
      h.call('POST', path, {
        body,
        headers: { cookie: client.cookie, 'x-csrf-token': client.csrf },
      });
    const setup = await post('/admin/api/two-factor/setup', {});
    await post('/admin/api/two-factor/enable', {
      code: await generate({ secret: setup.body.secret }),
    });
    // The step just used for enabling is spent: the same 6 digits sign in nobody.
    const code = await generate({ secret: setup.body.secret });
    const res = await h.call('POST', '/admin/api/sign-in', {
      body: { email: person.email, password: STAFF_PASSWORD, code },
    });
    expect(res.status).toBe(401);
    // Without CSRF, nothing on the account changes.
    const noCsrf = await h.call('POST', '/admin/api/two-factor/disable', {
      body: { code },
      headers: { cookie: client.cookie },
    });
    expect(noCsrf.status).toBe(403);
  });
});

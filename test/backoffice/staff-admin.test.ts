// Staff administration over GraphQL and the link pages' API: who manages whom (reach), invitations
// through the staff outbox and the SMTP dispatcher, accepting a link once, role changes, disable
// and enable, password and second-factor resets, and the audit rows they leave. Two-factor: two-factor.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/notifications/dispatcher.js';
import { smtpServer } from '../notifications/smtp.js';
import { createTenant } from '../support/factories.js';
import { silentLogger, startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, STAFF_PASSWORD, type StaffClient } from '../support/staff.js';

let h: Harness;
let smtp: Awaited<ReturnType<typeof smtpServer>>;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let platform: StaffClient;
let brandAdminA: StaffClient;
let brandAdminAId: string;
beforeAll(async () => {
  // Its own database: the dispatcher below drains every outbox it finds.
  h = await startHarness({ ownDatabase: true });
  smtp = await smtpServer();
  a = await createTenant(h.db.prisma);
  b = await createTenant(h.db.prisma);
  const admin = await createStaff(h.db.prisma, 'platform_admin');
  platform = await signInAs(h.url, admin.email);
  const brandAdmin = await createStaff(h.db.prisma, 'brand_admin', { brandId: a.brandId });
  brandAdminAId = brandAdmin.id;
  brandAdminA = await signInAs(h.url, brandAdmin.email);
});
afterAll(async () => {
  await smtp.close();
  await h.close();
});

const ACCOUNT = `id email role status twoFactorEnabled brand { id } subBrand { id }`;
const INVITE = `mutation($input: InviteStaffInput!) { inviteStaff(input: $input) { ${ACCOUNT} } }`;
const LIST = `query($search: String) { staffMembers(search: $search) { ${ACCOUNT} } }`;
const CHANGE = `mutation($id: ID!, $input: StaffAssignmentInput!) {
  changeStaffRole(id: $id, input: $input) { ${ACCOUNT} } }`;
const onAccount = (name: string) => `mutation($id: ID!) { ${name}(id: $id) { ${ACCOUNT} } }`;

const gqlAs = (client: StaffClient, query: string, variables: Record<string, unknown>) =>
  client.gql(query, variables, { subBrandId: a.subBrandId });

/** The link of the newest message to `email` still in the outbox (its token, after the #). */
async function linkTo(email: string): Promise<string> {
  const row = await h.db.prisma.staffEmail.findFirstOrThrow({
    where: { recipient: email },
    orderBy: { createdAt: 'desc' },
  });
  return /\/admin\/invitation#([\w-]+)/.exec(row.text)![1]!;
}

const accept = (token: string, password = STAFF_PASSWORD) =>
  h.call('POST', '/admin/api/invitation/accept', { body: { token, password } });

describe('invitations', () => {
  it('a brand admin invites an operator of their brand; the link sets a password and signs in', async () => {
    const email = `Op-${Date.now()}@Example.com`;
    const res = await gqlAs(brandAdminA, INVITE, {
      input: { email, role: 'establishment_operator', subBrandId: a.subBrandId },
    });
    expect(res.body.errors).toBeUndefined();
    const invited = res.body.data.inviteStaff;
    expect(invited).toMatchObject({
      email: email.toLowerCase(),
      role: 'establishment_operator',
      status: 'invited',
      subBrand: { id: a.subBrandId },
    });
    // No password yet: nothing signs in.
    const early = await h.call('POST', '/admin/api/sign-in', {
      body: { email, password: STAFF_PASSWORD },
    });
    expect(early.status).toBe(401);

    // The dispatcher sends it over SMTP, and the sent row keeps no link.
    const token = await linkTo(email.toLowerCase());
    const dispatcher = createDispatcher({
      db: h.db.prisma,
      logger: silentLogger,
      smtpUrl: smtp.url,
      from: 'rewards@example.com',
      baseUrl: 'https://rewards.example.com',
    });
    expect(await dispatcher.runOnce()).toBeGreaterThanOrEqual(1);
    await dispatcher.stop();
    const mail = smtp.received.find((m) => m.to === email.toLowerCase())!;
    expect(mail.subject).toMatch(/invited/i);
    // Quoted-printable: soft line breaks joined.
    expect(mail.raw.replace(/=\r?\n/g, '')).toContain(
      `https://rewards.example.com/admin/invitation#${token}`,
    );
    const sent = await h.db.prisma.staffEmail.findFirstOrThrow({
      where: { recipient: email.toLowerCase() },
    });
    expect(sent).toMatchObject({ status: 'sent', html: '', text: '' });

    const check = await h.call('POST', '/admin/api/invitation/check', { body: { token } });
    expect(check.body).toEqual({ email: email.toLowerCase(), kind: 'invitation' });
    const weak = await accept(token, 'password1234');
    expect(weak.status).toBe(400);
    const ok = await accept(token);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('set-cookie')).toMatch(/^pr_staff=/);
    expect(ok.body.staff).toMatchObject({ role: 'establishment_operator' });
    // Once only.
    const again = await accept(token);
    expect(again.status).toBe(404);
    expect(again.body.error.message).toMatch(/no longer works/);
    const signIn = await signInAs(h.url, email);
    expect(signIn.signIn.status).toBe(200);
    const list = await gqlAs(brandAdminA, LIST, { search: email.slice(0, 8) });
    expect(list.body.data.staffMembers).toEqual([expect.objectContaining({ status: 'active' })]);
  });

  it('refuses roles out of reach, a taken e-mail, bad input, and people without the role', async () => {
    const outOfBrand = await gqlAs(brandAdminA, INVITE, {
      input: {
        email: `x${Date.now()}@example.com`,
        role: 'establishment_operator',
        subBrandId: b.subBrandId,
      },
    });
    expect(outOfBrand.body.errors[0].extensions.code).toBe('forbidden');
    const asPlatform = await gqlAs(brandAdminA, INVITE, {
      input: { email: `y${Date.now()}@example.com`, role: 'platform_admin' },
    });
    expect(asPlatform.body.errors[0].extensions.code).toBe('forbidden');
    const noSubBrand = await gqlAs(brandAdminA, INVITE, {
      input: { email: `z${Date.now()}@example.com`, role: 'establishment_operator' },
    });
    expect(noSubBrand.body.errors[0].extensions.code).toBe('invalid_request');
    const badEmail = await gqlAs(brandAdminA, INVITE, {
      input: { email: 'not-an-email', role: 'support', brandId: a.brandId },
    });
    expect(badEmail.body.errors[0].extensions.code).toBe('invalid_request');
    const existing = await createStaff(h.db.prisma, 'support', { brandId: a.brandId });
    const taken = await gqlAs(brandAdminA, INVITE, {
      input: { email: existing.email, role: 'support', brandId: a.brandId },
    });
    expect(taken.body.errors[0].extensions.code).toBe('conflict');
    const operator = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: a.subBrandId,
    });
    const asOperator = await signInAs(h.url, operator.email);
    const refused = await gqlAs(asOperator, LIST, {});
    expect(refused.body.errors[0].extensions.code).toBe('forbidden');
    expect(refused.body.errors[0].message).toMatch(/platform admins and brand admins/);
  });

  it("a brand admin sees their brand's staff only, and another brand's account is not found", async () => {
    const other = await createStaff(h.db.prisma, 'brand_admin', { brandId: b.brandId });
    const mine = await createStaff(h.db.prisma, 'support', { subBrandId: a.subBrandId });
    const list = await gqlAs(brandAdminA, LIST, {});
    const emails = list.body.data.staffMembers.map((s: { email: string }) => s.email);
    expect(emails).toContain(mine.email);
    expect(emails).not.toContain(other.email);
    expect(
      list.body.data.staffMembers.every((s: { role: string }) => s.role !== 'platform_admin'),
    ).toBe(true);
    for (const name of ['disableStaff', 'resetStaffPassword', 'resetStaffTwoFactor']) {
      const res = await gqlAs(brandAdminA, onAccount(name), { id: other.id });
      expect(res.body.errors[0].extensions.code, name).toBe('not_found');
    }
    const everyone = await gqlAs(platform, LIST, {});
    expect(everyone.body.data.staffMembers.map((s: { email: string }) => s.email)).toContain(
      other.email,
    );
  });
});

describe('changing, disabling, resetting', () => {
  it('a role change applies at the next request, and is audited before and after', async () => {
    const person = await createStaff(h.db.prisma, 'support', { subBrandId: a.subBrandId });
    const client = await signInAs(h.url, person.email);
    const write = `mutation { createCustomer(input: { firstName: "Role", lastName: "Test" }) { id } }`;
    expect((await gqlAs(client, write, {})).body.errors[0].extensions.code).toBe('forbidden');
    const res = await gqlAs(brandAdminA, CHANGE, {
      id: person.id,
      input: { role: 'establishment_operator', subBrandId: a.subBrandId },
    });
    expect(res.body.data.changeStaffRole.role).toBe('establishment_operator');
    expect((await gqlAs(client, write, {})).body.errors).toBeUndefined();
    const audit = await h.db.prisma.staffAuditEntry.findFirstOrThrow({
      where: { action: 'changeStaffRole', targetId: person.id },
    });
    expect(audit.before).toMatchObject({ role: 'support' });
    expect(audit.after).toMatchObject({ role: 'establishment_operator' });
    expect(JSON.stringify(audit)).not.toMatch(/password|totpSecret/i);
    // Moving it to another brand is out of reach.
    const away = await gqlAs(brandAdminA, CHANGE, {
      id: person.id,
      input: { role: 'establishment_operator', subBrandId: b.subBrandId },
    });
    expect(away.body.errors[0].extensions.code).toBe('forbidden');
  });

  it('nobody changes their own account here', async () => {
    const res = await gqlAs(brandAdminA, onAccount('disableStaff'), { id: brandAdminAId });
    expect(res.body.errors[0].extensions.code).toBe('forbidden');
    expect(res.body.errors[0].message).toMatch(/your own account/);
  });

  it('disabling ends the sessions at once; enabling lets the person sign in again', async () => {
    const person = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: a.subBrandId,
    });
    const client = await signInAs(h.url, person.email);
    const res = await gqlAs(brandAdminA, onAccount('disableStaff'), { id: person.id });
    expect(res.body.data.disableStaff.status).toBe('disabled');
    expect((await gqlAs(client, LIST, {})).status).toBe(401);
    await expect(signInAs(h.url, person.email)).rejects.toThrow(/401/);
    await gqlAs(brandAdminA, onAccount('enableStaff'), { id: person.id });
    expect((await signInAs(h.url, person.email)).signIn.status).toBe(200);
  });

  it('a password reset kills the password and the sessions, and e-mails a one-day link', async () => {
    const person = await createStaff(h.db.prisma, 'support', { brandId: a.brandId });
    const client = await signInAs(h.url, person.email);
    const res = await gqlAs(brandAdminA, onAccount('resetStaffPassword'), { id: person.id });
    expect(res.body.data.resetStaffPassword.status).toBe('reset');
    expect((await gqlAs(client, LIST, {})).status).toBe(401);
    await expect(signInAs(h.url, person.email)).rejects.toThrow(/401/);
    const token = await linkTo(person.email);
    const check = await h.call('POST', '/admin/api/invitation/check', { body: { token } });
    expect(check.body.kind).toBe('password_reset');
    // A second reset replaces the first link.
    await gqlAs(brandAdminA, onAccount('resetStaffPassword'), { id: person.id });
    expect((await accept(token)).status).toBe(404);
    const fresh = await linkTo(person.email);
    expect((await accept(fresh, 'a brand new passphrase here')).status).toBe(200);
    expect((await signInAs(h.url, person.email, 'a brand new passphrase here')).signIn.status).toBe(
      200,
    );
  });

  it('an expired or unknown link does not work', async () => {
    const email = `late${Date.now()}@example.com`;
    await gqlAs(brandAdminA, INVITE, { input: { email, role: 'support', brandId: a.brandId } });
    const token = await linkTo(email);
    await h.db.prisma.staffToken.updateMany({
      where: { staffUser: { email } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await accept(token)).status).toBe(404);
    expect((await accept('x'.repeat(43))).status).toBe(404);
    expect((await h.call('POST', '/admin/api/invitation/accept', { body: {} })).status).toBe(400);
  });

  it('two tabs accepting one link: one session, the other refused', async () => {
    const email = `race${Date.now()}@example.com`;
    await gqlAs(brandAdminA, INVITE, { input: { email, role: 'support', brandId: a.brandId } });
    const token = await linkTo(email);
    const results = await Promise.all([accept(token), accept(token), accept(token)]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });
});

// Staff accounts over HTTP: sign-in, the session cookie, CSRF, throttling, sign-out everywhere,
// roles and tenancy on GraphQL, the audit trail and the operator named on coin movements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { disableStaffUser } from '../../src/domain/staff/staff-users.js';
import { shop } from '../orders/support.js';
import { createTenant } from '../support/factories.js';
import { call, startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, STAFF_PASSWORD } from '../support/staff.js';

let h: Harness;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let customerA: string;
let customerB: string;
beforeAll(async () => {
  h = await startHarness();
  a = await createTenant(h.db.prisma);
  b = await createTenant(h.db.prisma);
  const env = 'test' as const;
  customerA = (
    await createCustomer(
      h.db.prisma,
      { subBrandId: a.subBrandId, environment: env },
      {
        firstName: 'Ana',
        lastName: 'Alpha',
      },
    )
  ).id;
  customerB = (
    await createCustomer(
      h.db.prisma,
      { subBrandId: b.subBrandId, environment: env },
      {
        firstName: 'Bea',
        lastName: 'Beta',
      },
    )
  ).id;
});
afterAll(() => h.close());

const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
  h.call('POST', '/admin/api/sign-in', { body: { email, password }, headers });

describe('sign-in', () => {
  it('opens a session in an httpOnly SameSite=Strict cookie and answers who and where', async () => {
    const staff = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: a.subBrandId,
    });
    const res = await signIn(staff.email.toUpperCase(), STAFF_PASSWORD);
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^pr_staff=[\w-]{40,};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(res.body).toMatchObject({
      staff: { email: staff.email, role: 'establishment_operator', subBrandId: a.subBrandId },
      csrfToken: expect.any(String),
      subBrands: [{ id: a.subBrandId, isPlatform: false }],
    });
    const session = await h.call('GET', '/admin/api/session', {
      headers: { cookie: cookie.split(';')[0]! },
    });
    expect(session.body.staff.email).toBe(staff.email);
  });

  it('answers a wrong password and an unknown e-mail alike, and stores no session', async () => {
    const staff = await createStaff(h.db.prisma, 'support');
    const wrong = await signIn(staff.email, 'not the password at all');
    const unknown = await signIn('nobody@example.com', STAFF_PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({
        code: 'unauthorized',
        message: 'The e-mail or the password is wrong.',
        request_id: expect.stringMatching(/^req_/),
      });
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('locks an e-mail after 5 wrong passwords, even against the right one', async () => {
    const staff = await createStaff(h.db.prisma, 'support');
    for (let i = 0; i < 5; i++)
      expect((await signIn(staff.email, `wrong password ${i}`)).status).toBe(401);
    const locked = await signIn(staff.email, STAFF_PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.body.error.message).toMatch(/Too many sign-in attempts/);
  });

  it('refuses a sign-in posted from another site (login CSRF)', async () => {
    const staff = await createStaff(h.db.prisma, 'support');
    const res = await signIn(staff.email, STAFF_PASSWORD, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('refuses a disabled account, and disabling ends its sessions', async () => {
    const staff = await createStaff(h.db.prisma, 'support');
    const client = await signInAs(h.url, staff.email);
    await disableStaffUser(h.db.prisma, staff.email);
    expect((await client.gql('{ customers { edges { cursor } } }')).status).toBe(401);
    const again = await signIn(staff.email, STAFF_PASSWORD);
    expect(again.status).toBe(401);
    expect(again.body.error.message).toMatch(/disabled/);
  });
});

describe('the session on GraphQL', () => {
  it('needs the CSRF token besides the cookie', async () => {
    const staff = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: a.subBrandId,
    });
    const client = await signInAs(h.url, staff.email);
    const without = await client.gql('{ customers { edges { node { id } } } }', {}, { csrf: null });
    expect(without.status).toBe(403);
    expect(without.body.errors[0].message).toMatch(/X-CSRF-Token/); // GraphQL's error shape
    const forged = await client.gql('{ customers { edges { node { id } } } }', {}, { csrf: 'x' });
    expect(forged.status).toBe(403);
    const ok = await client.gql('{ customers { edges { node { id } } } }');
    expect(ok.body.data.customers.edges.map((e: any) => e.node.id)).toEqual([customerA]);
  });

  it('signs out this browser, or every browser of the account', async () => {
    const staff = await createStaff(h.db.prisma, 'support');
    const one = await signInAs(h.url, staff.email);
    const two = await signInAs(h.url, staff.email);
    const three = await signInAs(h.url, staff.email);
    expect((await one.post('/admin/api/sign-out', { csrf: null })).status).toBe(403);
    // Without the CSRF token the session was not ended (a cross-site post cannot sign you out).
    expect(
      (await call(h.url, 'GET', '/admin/api/session', { headers: { cookie: one.cookie } })).status,
    ).toBe(200);
    expect((await one.post('/admin/api/sign-out')).status).toBe(204);
    expect(
      (await call(h.url, 'GET', '/admin/api/session', { headers: { cookie: one.cookie } })).status,
    ).toBe(401);
    expect(
      (await call(h.url, 'GET', '/admin/api/session', { headers: { cookie: two.cookie } })).status,
    ).toBe(200);
    const everywhere = await two.post('/admin/api/sign-out-everywhere');
    expect(everywhere.body).toEqual({ ended: 2 });
    for (const c of [two, three])
      expect(
        (await call(h.url, 'GET', '/admin/api/session', { headers: { cookie: c.cookie } })).status,
      ).toBe(401);
  });

  it('lets an API key win over a cookie sent with it', async () => {
    const staff = await createStaff(h.db.prisma, 'platform_admin');
    const client = await signInAs(h.url, staff.email);
    // A partner key is judged as a key (GraphQL refuses partner keys) even with a session beside it.
    const key = await b.key({ scopes: ['customers:read'] });
    const res = await h.call('POST', '/graphql', {
      key: key.key,
      body: { query: '{ customers { edges { node { id } } } }' },
      headers: { cookie: client.cookie, 'x-sub-brand-id': a.subBrandId },
    });
    expect(res.status).toBe(403);
    expect(res.text).not.toContain(customerA);
  });
});

describe('roles and tenants', () => {
  const CUSTOMER = 'query($id: ID!) { customer(id: $id) { id lastName } }';

  it("confines an establishment operator to its sub-brand: another's customer is not found", async () => {
    const staff = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: a.subBrandId,
    });
    const client = await signInAs(h.url, staff.email);
    expect((await client.gql(CUSTOMER, { id: customerA })).body.data.customer.lastName).toBe(
      'Alpha',
    );
    const other = await client.gql(CUSTOMER, { id: customerB });
    expect(other.body.errors[0].extensions.code).toBe('not_found');
    const switched = await client.gql(CUSTOMER, { id: customerB }, { subBrandId: b.subBrandId });
    expect(switched.status).toBe(404);
    expect(switched.body.errors[0].message).toBe('Sub-brand not found.');
    const admin = await client.gql('mutation { createBrand(input: { name: "Nope" }) { id } }');
    expect(admin.body.errors[0].extensions.code).toBe('forbidden');
  });

  it('lets a brand admin act on its sub-brands only', async () => {
    const staff = await createStaff(h.db.prisma, 'brand_admin', { brandId: b.brandId });
    const client = await signInAs(h.url, staff.email);
    expect(client.signIn.body.subBrands.map((s: any) => s.id)).toEqual([b.subBrandId]);
    const own = await client.gql(CUSTOMER, { id: customerB }, { subBrandId: b.subBrandId });
    expect(own.body.data.customer.lastName).toBe('Beta');
    expect(
      (await client.gql(CUSTOMER, { id: customerA }, { subBrandId: a.subBrandId })).status,
    ).toBe(404);
  });

  it('lets a platform admin act on any sub-brand, and read-only support change nothing', async () => {
    const admin = await signInAs(h.url, (await createStaff(h.db.prisma, 'platform_admin')).email);
    const seen = await admin.gql(CUSTOMER, { id: customerA }, { subBrandId: a.subBrandId });
    expect(seen.body.data.customer.lastName).toBe('Alpha');
    const support = await signInAs(h.url, (await createStaff(h.db.prisma, 'support')).email);
    const read = await support.gql(CUSTOMER, { id: customerB }, { subBrandId: b.subBrandId });
    expect(read.body.data.customer.lastName).toBe('Beta');
    const write = await support.gql(
      'mutation($id: ID!) { adjustCustomerCoins(customerId: $id, delta: 5) { id } }',
      { id: customerB },
      { subBrandId: b.subBrandId },
    );
    expect(write.body.errors[0].extensions.code).toBe('forbidden');
    // A person is told about their role; a key's scopes are a word the backoffice never shows.
    expect(write.body.errors[0].message).toBe(
      'Your role (read-only support) cannot do this. Ask an admin of your brand.',
    );
  });
});

describe('audit and the operator on coin movements', () => {
  it('names the operator on the movement, and records who, what, before and after', async () => {
    const staff = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: a.subBrandId,
    });
    const client = await signInAs(h.url, staff.email);
    const moved = await client.gql(
      'mutation($id: ID!) { adjustCustomerCoins(customerId: $id, delta: 250, reason: "Goodwill") { id delta operator { email role } } }',
      { id: customerA },
    );
    expect(moved.body.data.adjustCustomerCoins).toMatchObject({
      delta: 250,
      operator: { email: staff.email, role: 'establishment_operator' },
    });
    const history = await client.gql(
      'query($id: ID!) { customer(id: $id) { coinMovements(first: 5) { edges { node { delta reason operator { email } } } } } }',
      { id: customerA },
    );
    expect(history.body.data.customer.coinMovements.edges[0].node).toEqual({
      delta: 250,
      reason: 'Goodwill',
      operator: { email: staff.email },
    });
    const audit = await client.gql(
      'query($t: String) { staffAudit(targetId: $t) { edges { node { action args before after requestId createdAt staff { email } } } } }',
      { t: customerA },
    );
    const entry = audit.body.data.staffAudit.edges[0].node;
    expect(entry).toMatchObject({
      action: 'adjustCustomerCoins',
      args: { customerId: customerA, delta: 250, reason: 'Goodwill' },
      staff: { email: staff.email },
      requestId: moved.headers.get('x-request-id'),
    });
    expect(entry.after.balance - entry.before.balance).toBe(250);

    // A partner's key reads the same movement (over REST) without the staff member's e-mail.
    const key = await a.key({ scopes: ['customers:read'] });
    const asKey = await h.call('GET', `/api/v1/customers/${customerA}/coins/movements?limit=1`, {
      key: key.key,
    });
    expect(asKey.body.data[0].delta).toBe(250);
    expect(asKey.text).not.toContain(staff.email);
  });

  it('writes no audit row for a refused change', async () => {
    const staff = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: a.subBrandId,
    });
    const client = await signInAs(h.url, staff.email);
    const refused = await client.gql(
      'mutation($id: ID!) { adjustCustomerCoins(customerId: $id, delta: -999999) { id } }',
      { id: customerA },
    );
    expect(refused.body.errors[0].extensions.code).toBe('insufficient_balance');
    const rows = await h.db.prisma.staffAuditEntry.count({ where: { staffUserId: staff.id } });
    expect(rows).toBe(0);
  });

  it("names the operator on an order's history and audits the move with the status before and after", async () => {
    const s = await shop(h, { kind: 'physical' });
    const buyer = await s.buyer(5000);
    const placed = await s.order({
      customer_id: buyer,
      listing_market_id: s.listing.listing_market_id,
      recipient_name: 'Ana García',
      shipping_address: 'Calle Mayor 1, 28013 Madrid',
    });
    const staff = await createStaff(h.db.prisma, 'platform_admin');
    const client = await signInAs(h.url, staff.email);
    const moved = await client.gql(
      'mutation($id: ID!) { moveOrder(id: $id, to: processing) { status history { toStatus operator { email } } } }',
      { id: placed.body.data.id },
      { subBrandId: s.subBrandId },
    );
    expect(moved.body.data.moveOrder.status).toBe('processing');
    expect(moved.body.data.moveOrder.history.at(-1)).toEqual({
      toStatus: 'processing',
      operator: { email: staff.email },
    });
    const entry = await h.db.prisma.staffAuditEntry.findFirstOrThrow({
      where: { staffUserId: staff.id, action: 'moveOrder' },
    });
    expect(entry).toMatchObject({
      targetId: placed.body.data.id,
      before: expect.objectContaining({ status: 'pending' }),
      after: expect.objectContaining({ status: 'processing' }),
    });
  });
});

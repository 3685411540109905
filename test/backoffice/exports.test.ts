// The backoffice's CSV exports beside the customers one (issue 35): orders as the Orders screen
// filters them, the coin ledger for a window (finance), the audit trail as the Audit screen
// filters it; and B10, an exported customers file re-imported (into another sub-brand, then again
// creating nothing). Over HTTP with signed-in staff, on the run's real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { parseCsv } from '../../src/domain/csv.js';
import { newId } from '../../src/domain/ids.js';
import { moveCoins } from '../../src/domain/ledger/move-coins.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { createTenant } from '../support/factories.js';
import { call, startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

let h: Harness;
let a: Awaited<ReturnType<typeof createTenant>>;
let a2: string; // a second sub-brand of a's brand
let b: Awaited<ReturnType<typeof createTenant>>;
let brandAdmin: StaffClient;
let operator: StaffClient;
let operatorId: string;
let support: StaffClient;
let bOperator: StaffClient;
let tenantA: Tenant;

const customers: Record<string, string> = {};
const orders: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness();
  a = await createTenant(h.db.prisma);
  b = await createTenant(h.db.prisma);
  a2 = (
    await h.db.prisma.subBrand.create({
      data: { id: crypto.randomUUID(), brandId: a.brandId, name: 'A second', country: 'ES' },
    })
  ).id;
  tenantA = { subBrandId: a.subBrandId, environment: 'test' };
  const op = await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: a.subBrandId });
  operatorId = op.id;
  operator = await signInAs(h.url, op.email);
  brandAdmin = await signInAs(
    h.url,
    (await createStaff(h.db.prisma, 'brand_admin', { brandId: a.brandId })).email,
  );
  support = await signInAs(
    h.url,
    (await createStaff(h.db.prisma, 'support', { subBrandId: a.subBrandId })).email,
  );
  bOperator = await signInAs(
    h.url,
    (await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: b.subBrandId })).email,
  );

  const player = async (tenant: Tenant, externalId: string, extra: Record<string, string> = {}) =>
    (customers[`${tenant.subBrandId}:${externalId}`] = (
      await createCustomer(h.db.prisma, tenant, {
        firstName: 'Ana',
        lastName: externalId,
        externalId,
        ...extra,
      })
    ).id);
  await player(tenantA, 'ana-1', { phone: '+34 600 11 22 33', email: 'ana@casino.es' });
  await player(tenantA, 'ana-2');
  await player({ subBrandId: a2, environment: 'test' }, 'a2-1');
  await player({ subBrandId: b.subBrandId, environment: 'test' }, 'b-1');

  const order = async (
    name: string,
    subBrandId: string,
    customerId: string,
    status: 'pending' | 'shipped',
  ) => {
    const now = new Date();
    orders[name] = (
      await h.db.prisma.order.create({
        data: {
          id: newId(),
          subBrandId,
          environment: 'test',
          customerId,
          status,
          billingStatus: 'not_applicable',
          currency: 'EUR',
          totalPrice: 1200,
          totalCoins: 300n,
          recipientName: '=cmd|calc',
          shippingAddress: 'Calle Mayor 1, Madrid',
          statusChangedAt: now,
        },
      })
    ).id;
  };
  await order('pending', a.subBrandId, customers[`${a.subBrandId}:ana-1`]!, 'pending');
  await order('shipped', a.subBrandId, customers[`${a.subBrandId}:ana-2`]!, 'shipped');
  await order('a2', a2, customers[`${a2}:a2-1`]!, 'pending');
  await order('b', b.subBrandId, customers[`${b.subBrandId}:b-1`]!, 'pending');
});
afterAll(() => h.close());

const get = (client: StaffClient | null, path: string) =>
  call(h.url, 'GET', path, { headers: client ? { cookie: client.cookie } : {} });
const rows = (text: string) => parseCsv(text).map((r) => r.fields);
const auditOf = (action: string, staffUserId: string) =>
  h.db.prisma.staffAuditEntry.findFirst({
    where: { action, staffUserId },
    orderBy: { id: 'desc' },
  });

describe('orders.csv', () => {
  const ORDER_COLUMNS =
    'id,reference,created_at,status,status_changed_at,billing_status,customer_id,external_id,total_coins,total_price,currency,items,tracking,recipient_name,shipping_address,contact_email';

  it("streams the chosen tenant's orders, filtered by status, newest first, audited", async () => {
    const all = await get(operator, `/admin/api/orders.csv?subBrandId=${a.subBrandId}`);
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(all.headers.get('content-disposition')).toMatch(/attachment; filename="orders-test-/);
    const [header, ...data] = rows(all.text);
    expect(header!.join(',')).toBe(ORDER_COLUMNS);
    expect(data.map((r) => r[0])).toEqual([orders.shipped, orders.pending]);
    const pending = data[1]!;
    expect(pending.slice(3, 4)).toEqual(['pending']);
    expect(pending[6]).toBe(customers[`${a.subBrandId}:ana-1`]);
    expect(pending[7]).toBe('ana-1');
    expect(pending.slice(8, 11)).toEqual(['300', '1200', 'EUR']);
    expect(pending[13]).toBe("'=cmd|calc"); // a formula defused
    // Another sub-brand's orders, even of the same brand, never appear.
    expect(all.text).not.toContain(orders.a2);
    expect(all.text).not.toContain(orders.b);

    const shipped = await get(operator, `/admin/api/orders.csv?status=shipped`);
    expect(
      rows(shipped.text)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([orders.shipped]);
    const audit = await auditOf('exportOrdersCsv', operatorId);
    expect(audit).toMatchObject({
      subBrandId: a.subBrandId,
      environment: 'test',
      args: { status: 'shipped' },
    });
    expect(audit!.requestId).toEqual(expect.any(String));

    // A brand admin picks its brand's second sub-brand and gets that one's orders only.
    const second = await get(brandAdmin, `/admin/api/orders.csv?subBrandId=${a2}`);
    expect(
      rows(second.text)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([orders.a2]);
    // Read-only support holds orders:read, so it may take the file.
    expect((await get(support, '/admin/api/orders.csv')).status).toBe(200);
  });

  it('refuses another tenant, no session, an unknown status and a bad date in the envelope', async () => {
    const other = await get(bOperator, `/admin/api/orders.csv?subBrandId=${a.subBrandId}`);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
    const otherBrand = await get(brandAdmin, `/admin/api/orders.csv?subBrandId=${b.subBrandId}`);
    expect(otherBrand.status).toBe(404);
    expect((await get(null, '/admin/api/orders.csv')).status).toBe(401);
    for (const query of [
      'status=sleepy',
      'createdAfter=yesterday',
      'customerId=42',
      'environment=prod',
    ]) {
      const bad = await get(operator, `/admin/api/orders.csv?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'invalid_request' });
      expect(bad.body.error.request_id).toEqual(expect.any(String));
    }
    const sleepy = await get(operator, `/admin/api/orders.csv?status=sleepy`);
    expect(sleepy.body.error.message).toMatch(/status/);
  });
});

describe('movements.csv', () => {
  const MOVEMENT_COLUMNS =
    'id,created_at,customer_id,external_id,amount,balance_after,source,reason,request_id,bulk_id,lot_id,api_key_id,staff_user_id,staff_email';

  it('streams the ledger of a window, oldest first, with the staff member who made a movement', async () => {
    const ana = customers[`${a.subBrandId}:ana-1`]!;
    await moveCoins(
      h.db.prisma,
      tenantA,
      { customerId: ana, delta: 500, reason: 'Welcome' },
      { source: 'api', apiKeyId: null, requestId: 'req-welcome' },
    );
    const adjusted = await operator.gql(
      'mutation($id: ID!) { adjustCustomerCoins(customerId: $id, delta: -120, reason: "Goodwill back") { id } }',
      { id: ana },
    );
    expect(adjusted.body.errors).toBeUndefined();
    await moveCoins(
      h.db.prisma,
      { subBrandId: b.subBrandId, environment: 'test' },
      { customerId: customers[`${b.subBrandId}:b-1`]!, delta: 77, reason: 'Other tenant' },
      { source: 'api', apiKeyId: null, requestId: null },
    );

    const res = await get(operator, '/admin/api/movements.csv'); // the last 30 days
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/filename="movements-test-/);
    const [header, ...data] = rows(res.text);
    expect(header!.join(',')).toBe(MOVEMENT_COLUMNS);
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({
      2: ana,
      3: 'ana-1',
      4: '500',
      5: '500',
      6: 'api',
      7: 'Welcome',
      8: 'req-welcome',
      12: '',
      13: '',
    });
    expect(data[1]).toMatchObject({ 4: '-120', 5: '380', 7: 'Goodwill back', 12: operatorId });
    expect(data[1]![13]).toMatch(/@example\.com$/);
    expect(res.text).not.toContain('Other tenant');

    const audit = await auditOf('exportMovementsCsv', operatorId);
    expect(audit?.args).toMatchObject({ from: expect.any(String), to: expect.any(String) });

    // A window of days: `to` takes its whole day in; an old window is empty.
    const today = new Date().toISOString().slice(0, 10);
    const day = await get(operator, `/admin/api/movements.csv?from=${today}&to=${today}`);
    expect(rows(day.text)).toHaveLength(3);
    const old = await get(operator, '/admin/api/movements.csv?from=2020-01-01&to=2020-02-01');
    expect(rows(old.text)).toEqual([header]);
    // One customer's movements (the customer page's link).
    const other = customers[`${a.subBrandId}:ana-2`]!;
    const none = await get(operator, `/admin/api/movements.csv?customerId=${other}`);
    expect(rows(none.text)).toHaveLength(1);
  });

  it('pages by keyset past 500 rows, rows sharing one instant included once each', async () => {
    const tenant = { subBrandId: a2, environment: 'test' as const };
    const customerId = customers[`${a2}:a2-1`]!;
    const at = new Date(Date.now() - 60_000);
    await h.db.prisma.coinMovement.createMany({
      data: Array.from({ length: 1203 }, (_, i) => ({
        id: newId(),
        customerId,
        ...tenant,
        delta: 1n,
        balanceAfter: BigInt(i + 1),
        source: 'api' as const,
        createdAt: at,
      })),
    });
    const res = await get(brandAdmin, `/admin/api/movements.csv?subBrandId=${a2}`);
    const data = rows(res.text).slice(1);
    expect(data).toHaveLength(1203);
    expect(new Set(data.map((r) => r[0])).size).toBe(1203);
  });

  it('refuses bad windows, another tenant and no session in the envelope', async () => {
    for (const query of [
      'from=yesterday',
      'to=2026-13-01',
      'from=2026-11-01T00:00:00',
      'from=2026-11-02&to=2026-11-01',
      'customerId=nope',
    ]) {
      const bad = await get(operator, `/admin/api/movements.csv?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'invalid_request' });
      expect(bad.body.error.request_id).toEqual(expect.any(String));
    }
    expect(
      (await get(bOperator, `/admin/api/movements.csv?subBrandId=${a.subBrandId}`)).status,
    ).toBe(404);
    expect((await get(null, '/admin/api/movements.csv')).status).toBe(401);
  });
});

describe('audit.csv', () => {
  it('streams the trail as the Audit screen filters it, the export itself first', async () => {
    const ana = customers[`${a.subBrandId}:ana-2`]!;
    const moved = await operator.gql(
      'mutation($id: ID!) { adjustCustomerCoins(customerId: $id, delta: 40, reason: "Audit me") { id } }',
      { id: ana },
    );
    expect(moved.body.errors).toBeUndefined();
    const res = await get(support, '/admin/api/audit.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/filename="audit-test-/);
    const [header, ...data] = rows(res.text);
    expect(header!.join(',')).toBe(
      'id,created_at,staff_user_id,staff_email,action,target_id,request_id,args,before,after',
    );
    // Newest first: the read just taken heads its own file.
    expect(data[0]![4]).toBe('exportAuditCsv');
    const adjust = data.find((r) => r[4] === 'adjustCustomerCoins' && r[5] === ana)!;
    expect(adjust[2]).toBe(operatorId);
    expect(JSON.parse(adjust[7]!)).toMatchObject({ customerId: ana, delta: 40 });
    expect(String(JSON.parse(adjust[9]!).balance)).toBe('40');
    // The brand admin's exports of the second sub-brand are that sub-brand's trail, not this one's.
    expect(data.some((r) => r[3] === brandAdmin.signIn.body.staff.email)).toBe(false);

    const filtered = await get(
      operator,
      `/admin/api/audit.csv?action=adjustCustomerCoins&targetId=${ana}`,
    );
    const only = rows(filtered.text).slice(1);
    expect(only.map((r) => r[5])).toEqual([ana]);
    const screen = await operator.gql(
      'query($a: String, $t: String) { staffAudit(action: $a, targetId: $t, first: 50) { edges { node { id } } } }',
      { a: 'adjustCustomerCoins', t: ana },
    );
    expect(
      screen.body.data.staffAudit.edges.map((e: { node: { id: string } }) => e.node.id),
    ).toEqual(only.map((r) => r[0]));
    expect(await auditOf('exportAuditCsv', operatorId)).toMatchObject({
      args: { action: 'adjustCustomerCoins', targetId: ana },
    });
  });

  it('keeps tenants apart and refuses bad filters', async () => {
    const mine = await get(bOperator, '/admin/api/audit.csv');
    const data = rows(mine.text).slice(1);
    expect(data.map((r) => r[4])).toEqual(['exportAuditCsv']);
    expect(mine.text).not.toContain(a.subBrandId);
    expect((await get(bOperator, `/admin/api/audit.csv?subBrandId=${a.subBrandId}`)).status).toBe(
      404,
    );
    const long = await get(operator, `/admin/api/audit.csv?action=${'x'.repeat(81)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('invalid_request');
    expect((await get(null, '/admin/api/audit.csv')).status).toBe(401);
  });
});

describe('B10: an exported customers file re-imports', () => {
  const IMPORT =
    'mutation($csv: String!) { importPlayers(csv: $csv) { createdCount existingCount invalidCount rows { line outcome errors } } }';

  it('into another sub-brand, then again creating nothing; the export-only columns ignored', async () => {
    const exported = await get(operator, '/admin/api/customers.csv');
    expect(exported.status).toBe(200);
    expect(exported.text).toContain("'+34 600 11 22 33");
    const target = { subBrandId: a2, environment: 'test' as const };
    const first = await brandAdmin.gql(IMPORT, { csv: exported.text }, { subBrandId: a2 });
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.importPlayers).toMatchObject({
      createdCount: 2,
      existingCount: 0,
      invalidCount: 0,
    });
    const copied = await h.db.prisma.customer.findFirst({
      where: { ...target, externalId: 'ana-1' },
      include: { wallet: true },
    });
    expect(copied).toMatchObject({
      firstName: 'Ana',
      email: 'ana@casino.es',
      phone: '+34 600 11 22 33', // the defusing apostrophe is not kept
      status: 'active',
      orderCount: 0,
    });
    expect(copied!.id).not.toBe(customers[`${a.subBrandId}:ana-1`]);
    expect(Number(copied!.wallet?.balance ?? 0)).toBe(0);

    const again = await brandAdmin.gql(IMPORT, { csv: exported.text }, { subBrandId: a2 });
    expect(again.body.data.importPlayers).toMatchObject({ createdCount: 0, existingCount: 2 });
    // Into its own sub-brand the file creates nothing either.
    const same = await operator.gql(IMPORT, { csv: exported.text });
    expect(same.body.data.importPlayers).toMatchObject({ createdCount: 0, existingCount: 2 });
    expect(await h.db.prisma.customer.count({ where: target })).toBe(3);
  });
});

describe('rg-decisions.csv', () => {
  it("streams the tenant's refusals of a window, oldest first, with the player's external id", async () => {
    const ana = customers[`${a.subBrandId}:ana-1`]!;
    const decision = (tenant: Tenant, customerId: string, at: string, reference: string) => ({
      id: newId(),
      ...tenant,
      customerId,
      path: 'engine_grant',
      state: 'cool_off' as const,
      until: new Date('2026-03-01T00:00:00.000Z'),
      reference,
      createdAt: new Date(at),
    });
    // Ids are UUIDv7, made when a decision is: the order they are made in is the time order.
    await h.db.prisma.rgDecision.createMany({
      data: [
        decision(tenantA, ana, '2026-02-01T10:00:00.000Z', 'evt-first'),
        decision(tenantA, ana, '2026-02-02T10:00:00.000Z', 'evt-second'),
        decision(tenantA, ana, '2025-12-01T10:00:00.000Z', 'evt-outside'),
        decision(
          { subBrandId: b.subBrandId, environment: 'test' },
          customers[`${b.subBrandId}:b-1`]!,
          '2026-02-01T12:00:00.000Z',
          'evt-other-tenant',
        ),
      ],
    });
    const res = await get(
      operator,
      '/admin/api/rg-decisions.csv?from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z',
    );
    expect(res.status).toBe(200);
    const [header, ...data] = rows(res.text);
    expect(header!.join(',')).toBe(
      'id,created_at,customer_id,external_id,path,state,until,reference',
    );
    expect(data.map((r) => r.slice(1))).toEqual([
      [
        '2026-02-01T10:00:00.000Z',
        ana,
        'ana-1',
        'engine_grant',
        'cool_off',
        '2026-03-01T00:00:00.000Z',
        'evt-first',
      ],
      [
        '2026-02-02T10:00:00.000Z',
        ana,
        'ana-1',
        'engine_grant',
        'cool_off',
        '2026-03-01T00:00:00.000Z',
        'evt-second',
      ],
    ]);
  });
});

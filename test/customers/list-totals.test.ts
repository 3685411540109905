// Issue 35, "totals on every list": the customers and orders connections answer `total`, exact
// under the cap (a count of at most cap + 1 rows), estimated above it by PostgreSQL's planner
// and said so (exact: false); products, engine executions and the staff audit (its own test,
// backoffice/audit-filters) count with their filters and say "more than" past the cap. Never
// another tenant's rows. Above the cap with a small cap given to domain/list-total.ts, rather
// than 10,001 rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { customerConditions, customerWhere } from '../../src/domain/customers/customer-where.js';
import { newId } from '../../src/domain/ids.js';
import { EXACT_TOTAL_CAP, listTotal, plannedRows } from '../../src/domain/list-total.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { countedTotal } from '../../src/schema/list-total.js';
import { listedProduct } from '../support/catalog.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

let h: Harness;
let tenant: Tenant;
let other: Tenant;
let operator: StaffClient;
let admin: StaffClient;

const CUSTOMERS = `query($filter: CustomerFilter, $subBrandId: ID) {
  customers(filter: $filter, subBrandId: $subBrandId, first: 2) {
    total { value exact } edges { node { id } } } }`;
const ORDERS = `query($filter: OrderFilter) {
  orders(filter: $filter, first: 1) { total { value exact } edges { node { id } } } }`;

beforeAll(async () => {
  h = await startHarness({ ownDatabase: true });
  const a = await createTenant(h.db.prisma);
  const b = await createTenant(h.db.prisma);
  tenant = { subBrandId: a.subBrandId, environment: 'test' };
  other = { subBrandId: b.subBrandId, environment: 'test' };
  operator = await signInAs(
    h.url,
    (await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: a.subBrandId })).email,
  );
  admin = await signInAs(h.url, (await createStaff(h.db.prisma, 'platform_admin')).email);
  const ids: string[] = [];
  for (const [i, status] of (['active', 'active', 'active', 'watch', 'banned'] as const).entries())
    ids.push(
      (
        await createCustomer(h.db.prisma, tenant, {
          firstName: i < 2 ? 'Ana' : 'Bruno',
          lastName: `Test${i}`,
          status,
        })
      ).id,
    );
  // Another tenant's players, named alike: never counted.
  for (let i = 0; i < 3; i++)
    await createCustomer(h.db.prisma, other, { firstName: 'Ana', lastName: `Other${i}` });
  const order = (t: Tenant, customerId: string | null, status: 'pending' | 'shipped') =>
    h.db.prisma.order.create({
      data: {
        id: newId(),
        ...t,
        customerId,
        status,
        billingStatus: 'not_applicable',
        currency: 'EUR',
        totalPrice: 1200,
        totalCoins: 300n,
        recipientName: 'Ana',
        shippingAddress: 'Calle Mayor 1, Madrid',
        statusChangedAt: new Date(),
      },
    });
  await order(tenant, ids[0]!, 'pending');
  await order(tenant, ids[0]!, 'shipped');
  await order(tenant, ids[1]!, 'pending');
  await order(other, null, 'pending');
});
afterAll(() => h.close());

const total = async (client: StaffClient, query: string, variables: Record<string, unknown>) => {
  const res = await client.gql(query, variables);
  expect(res.body.errors).toBeUndefined();
  const data = res.body.data as Record<string, { total: unknown }>;
  return Object.values(data)[0]!.total;
};

describe('list totals', () => {
  it('counts the customers exactly under the cap, with and without a filter', async () => {
    expect(await total(operator, CUSTOMERS, {})).toEqual({ value: 5, exact: true });
    expect(await total(operator, CUSTOMERS, { filter: { status: 'active' } })).toEqual({
      value: 3,
      exact: true,
    });
    expect(await total(operator, CUSTOMERS, { filter: { q: 'ana' } })).toEqual({
      value: 2,
      exact: true,
    });
    expect(await total(operator, CUSTOMERS, { filter: { q: 'nobody' } })).toEqual({
      value: 0,
      exact: true,
    });
    // A platform admin browsing a sub-brand counts that one's.
    expect(await total(admin, CUSTOMERS, { subBrandId: other.subBrandId })).toEqual({
      value: 3,
      exact: true,
    });
  });

  it('counts the orders exactly, filtered, never another tenant’s', async () => {
    expect(await total(operator, ORDERS, {})).toEqual({ value: 3, exact: true });
    expect(await total(operator, ORDERS, { filter: { status: 'pending' } })).toEqual({
      value: 2,
      exact: true,
    });
    expect(await total(operator, ORDERS, { filter: { status: 'shipped' } })).toEqual({
      value: 1,
      exact: true,
    });
  });

  it('above the cap, answers the planner’s estimate and says so', async () => {
    expect(EXACT_TOTAL_CAP).toBe(10_000);
    const where = customerWhere(tenant, {});
    const asked: number[] = [];
    const counted = {
      countUpTo: (take: number) => (asked.push(take), h.db.prisma.customer.count({ where, take })),
      estimate: () =>
        plannedRows(h.db.prisma, 'customers', [
          Prisma.sql`sub_brand_id = ${tenant.subBrandId}::uuid`,
          Prisma.sql`environment = ${tenant.environment}::environment`,
        ]),
    };
    // At the cap it is still exact; one past it, estimated (never below what was seen).
    expect(await listTotal({ ...counted, cap: 5 })).toEqual({ value: 5, exact: true });
    const above = await listTotal({ ...counted, cap: 3 });
    expect(above.exact).toBe(false);
    expect(above.value).toBeGreaterThanOrEqual(4);
    expect(asked).toEqual([6, 4]);
    // The planner's estimate itself: a number, from EXPLAIN, on either database.
    await h.db.prisma.$executeRawUnsafe('ANALYZE customers');
    const planned = await counted.estimate();
    expect(Number.isFinite(planned)).toBe(true);
    expect(planned).toBeGreaterThanOrEqual(1);
  });

  it('counts products with their filter (a platform admin sees every one)', async () => {
    const PRODUCTS = `query($filter: ProductFilter) {
      products(filter: $filter, first: 1) { total { value exact } edges { node { id } } } }`;
    await listedProduct(h.db.prisma, tenant.subBrandId, { name: 'Lamp', kind: 'physical' });
    await listedProduct(h.db.prisma, tenant.subBrandId, { name: 'Lantern', kind: 'physical' });
    await listedProduct(h.db.prisma, tenant.subBrandId, { name: 'Voucher' });
    expect(await total(admin, PRODUCTS, {})).toEqual({ value: 3, exact: true });
    expect(await total(admin, PRODUCTS, { filter: { q: 'lan' } })).toEqual({
      value: 1,
      exact: true,
    });
    expect(await total(admin, PRODUCTS, { filter: { kind: 'physical' } })).toEqual({
      value: 2,
      exact: true,
    });
  });

  it('past the cap, a counted total says only "more than"', async () => {
    const count = (take: number) =>
      h.db.prisma.customer.count({ where: customerWhere(tenant, {}), take });
    expect(await countedTotal(count)).toEqual({ value: 5, exact: true });
    expect(await countedTotal(count, 3)).toEqual({ value: 4, exact: false });
  });

  it('estimates with every customer filter and order filter in SQL', async () => {
    const every = customerConditions(tenant, {
      q: '+34 600',
      status: 'active',
      segmentId: 'vip',
      externalId: 'x',
      email: 'a@b.es',
      country: 'ES',
      createdAfter: new Date('2026-01-01T00:00:00Z'),
      createdBefore: new Date('2027-01-01T00:00:00Z'),
      registeredAfter: new Date('2026-01-01T00:00:00Z'),
      registeredBefore: new Date('2027-01-01T00:00:00Z'),
      minCoins: 1,
      maxCoins: 9,
      minOrders: 0,
      maxOrders: 5,
    });
    expect(await plannedRows(h.db.prisma, 'customers', every)).toBeGreaterThanOrEqual(0);
    await expect(plannedRows(h.db.prisma, 'customers; drop', [])).rejects.toThrow(/table name/);
  });
});

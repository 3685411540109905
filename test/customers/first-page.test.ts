// How a customer list's first page is read (domain/customers/first-page.ts): by tenant when the
// tenant's newest customers fill it quickly, as the planner chooses when a filter is selective or
// positioned by an index of its own. Either way the rows are the same: list.test.ts checks them.
// Here, the choice, from the planner's estimates after ANALYZE, on a database of this test's own
// (the estimates read the whole table's statistics).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readsByTenant } from '../../src/domain/customers/first-page.js';
import { newId } from '../../src/domain/ids.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let tenant: Tenant;

beforeAll(async () => {
  h = await startHarness({ ownDatabase: true });
  tenant = { subBrandId: (await createTenant(h.db.prisma)).subBrandId, environment: 'live' };
  // 3,000 customers: all but 3 in Spain, a third of them watched, 3 in Andorra.
  await h.db.prisma.customer.createMany({
    data: Array.from({ length: 3000 }, (_, i) => ({
      id: newId(),
      ...tenant,
      firstName: `F${i}`,
      lastName: 'Plan',
      country: i < 3 ? 'AD' : 'ES',
      status: i % 3 === 0 ? ('watch' as const) : ('active' as const),
      statusChangedAt: new Date(),
    })),
  });
  await h.db.prisma.$executeRawUnsafe('ANALYZE customers');
});
afterAll(() => h.close());

describe('readsByTenant', () => {
  it.each([
    ['no filter', {}, true],
    ['a country most customers have', { country: 'ES' }, true],
    ['a status a third have', { status: 'watch' as const }, true],
    ['a country one in a thousand have', { country: 'AD' }, false],
    ['a country no one has', { country: 'FR' }, false],
    ['a text search', { q: 'F1' }, false],
    ['an external id', { externalId: 'x' }, false],
    ['an e-mail', { email: 'a@b.es' }, false],
    ['a registration window', { registeredAfter: new Date(0) }, false],
  ])('%s', async (_name, filter, expected) => {
    expect(await readsByTenant(h.db.prisma, tenant, filter)).toBe(expected);
  });
});

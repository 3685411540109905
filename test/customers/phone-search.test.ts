// Issue 35, B2: the customer list's search `q` finds players by phone, whatever the spacing and
// punctuation: search_text keeps the phone's digits (migration customer_search_phone, which
// also computes them for existing rows), and a phone-like `q` is looked for as its digits too.
// The trigram index still serves the search. Its own database: the backfill test re-runs the
// migration's SQL.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { customerWhere, phoneDigits } from '../../src/domain/customers/customer-where.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

let h: Harness;
let tenant: Tenant;
let other: Tenant;
let operator: StaffClient;
const ids: Record<string, string> = {};

const LIST =
  'query($q: String) { customers(filter: { q: $q }, first: 50) { edges { node { id phone } } } }';

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
  const make = async (t: Tenant, name: string, phone: string | null, externalId?: string) =>
    (ids[name] = (
      await createCustomer(h.db.prisma, t, { firstName: name, lastName: 'Test', phone, externalId })
    ).id);
  await make(tenant, 'Ana', '+34 600 11 22 33');
  await make(tenant, 'Bruno', '(351) 912-345-678');
  await make(tenant, 'Carla', null, 'ext-2024-01');
  await make(tenant, 'Dario', '+39 06 1234 5678');
  await make(other, 'Elsewhere', '+34 600 11 22 33');
});
afterAll(() => h.close());

const search = async (q: string) => {
  const res = await operator.gql(LIST, { q });
  expect(res.body.errors).toBeUndefined();
  return (res.body.data.customers.edges as { node: { id: string } }[]).map((e) => e.node.id).sort();
};

describe('phone search', () => {
  it('finds a phone by its digits, with or without the country code and spacing', async () => {
    for (const q of ['600112233', '+34600', '+34 600 11 22 33', '600 11 22', '34600112233'])
      expect(await search(q), q).toEqual([ids.Ana]);
    expect(await search('912-345')).toEqual([ids.Bruno]);
    expect(await search('(351) 912')).toEqual([ids.Bruno]);
    expect(await search('0612345678')).toEqual([ids.Dario]);
  });

  it('keeps the other terms working, and never crosses tenants', async () => {
    expect(await search('ana')).toEqual([ids.Ana]);
    // A phone-like search is still looked for as typed (an external id with dashes).
    expect(await search('2024-01')).toEqual([ids.Carla]);
    expect(await search('999999')).toEqual([]);
    expect(await search('600112233')).not.toContain(ids.Elsewhere);
  });

  it('turns only phone-like searches into digits', () => {
    expect(phoneDigits('+34 600')).toBe('34600');
    expect(phoneDigits('(351) 912-345')).toBe('351912345');
    expect(phoneDigits('600112233')).toBeUndefined(); // digits already: the text term finds them
    expect(phoneDigits('+3')).toBeUndefined(); // too short to mean a phone
    expect(phoneDigits('ana 600')).toBeUndefined();
  });

  it('follows a phone change, and the migration fills the column for existing rows', async () => {
    await h.db.prisma.customer.update({
      where: { id: ids.Bruno },
      data: { phone: '+44 7700 900123' },
    });
    expect(await search('7700900')).toEqual([ids.Bruno]);
    expect(await search('912345678')).toEqual([]);

    // The rows above exist before the migration's SQL runs again (dropping and adding the
    // generated column): each gets its digits computed, the index is made again.
    const dir = path.resolve(import.meta.dirname, '../../prisma/migrations');
    const sql = await readFile(
      path.join(dir, '20261126205742_customer_search_phone/migration.sql'),
      'utf8',
    );
    const statements = sql
      .replace(/--.*$/gm, '')
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const statement of statements) await h.db.prisma.$executeRawUnsafe(statement);
    const rows = await h.db.prisma.customer.findMany({
      where: { id: { in: [ids.Ana!, ids.Dario!] } },
      select: { id: true, searchText: true },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => r.searchText)).toEqual([
      'Ana Test |  |  | 34600112233',
      'Dario Test |  |  | 390612345678',
    ]);
    expect(await search('+34600')).toEqual([ids.Ana]);
  });

  it('is served by the trigram index', async () => {
    const where = customerWhere(tenant, { q: '+34 600' });
    expect(JSON.stringify(where)).toContain('34600');
    const plan = await h.db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      return tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
        // The search's two terms alone (with the tenant's columns, a table this small is read
        // through the tenant's b-tree): each is an index condition of the trigram index.
        `EXPLAIN SELECT id FROM customers
          WHERE search_text ILIKE '%+34 600%' OR search_text LIKE '%34600%'`,
      );
    });
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('BitmapOr');
    expect(text.match(/Bitmap Index Scan on customers_search_text_trgm/g)).toHaveLength(2);
  });
});

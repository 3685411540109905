// A text search whose trigrams most customers share, served by its rare part
// (domain/customers/text-match.ts): the trigram index is handed only q's rare spans, every
// candidate is checked against the whole of q, and few matches are then read by id. Whatever it
// chooses, the list, the player search and the global search find exactly the customers whose
// name, e-mail or external id hold q, in any case: checked here against the rows themselves, for
// chosen searches and for random ones. Its own database: which trigrams are common is read off
// the table's statistics (ANALYZE), which the other files' customers would change.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerList } from '../../src/domain/customers/customer-list.js';
import { tenantConditions } from '../../src/domain/customers/customer-where.js';
import { searchPlayers } from '../../src/domain/customers/search-players.js';
import {
  rareFirst,
  rarePart,
  rarePattern,
  textMatches,
  type Sample,
} from '../../src/domain/customers/text-match.js';
import { newId } from '../../src/domain/ids.js';
import { countedRows } from '../../src/domain/list-total.js';
import { searchCustomers } from '../../src/domain/search/customers.js';
import { isEmail } from '../../src/domain/search/email.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

let h: Harness;
let tenant: Tenant;
let other: Tenant;
let operator: StaffClient;
/** The tenant's customers as a search reads them: id and search_text. */
let rows: { id: string; text: string }[];

const COUNT = 1500;

beforeAll(async () => {
  h = await startHarness({ ownDatabase: true });
  const a = await createTenant(h.db.prisma);
  const b = await createTenant(h.db.prisma);
  tenant = { subBrandId: a.subBrandId, environment: 'live' };
  other = { subBrandId: b.subBrandId, environment: 'live' };
  operator = await signInAs(
    h.url,
    (await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: a.subBrandId })).email,
  );
  // Every e-mail starts "user" and ends "@mail<k>.com", as in the ten-million seed: "use",
  // "ser", "mai", "ail" and "com" are in every row. Names repeat every 97 customers.
  const customer = (t: Tenant, i: number) => ({
    id: newId(),
    ...t,
    firstName: `First${i % 97}`,
    lastName: i % 5 === 0 ? 'Garcia_Pena' : `Last${i % 89}`,
    email: `user${i}@mail${i % 7}.com`,
    externalId: `ext-${i}`,
    statusChangedAt: new Date(),
  });
  await h.db.prisma.customer.createMany({
    data: Array.from({ length: COUNT }, (_, i) => customer(tenant, i)),
  });
  // The other tenant holds the same texts: none of them may be found.
  await h.db.prisma.customer.createMany({
    data: Array.from({ length: 300 }, (_, i) => customer(other, i)),
  });
  await h.db.prisma.$executeRawUnsafe('ANALYZE customers');
  rows = (
    await h.db.prisma.customer.findMany({
      where: tenant,
      select: { id: true, searchText: true },
      orderBy: { id: 'desc' },
    })
  ).map((r) => ({ id: r.id, text: r.searchText ?? '' }));
});
afterAll(() => h.close());

/** The tenant's customers holding q in any case, newest first: what a search must find. */
const holding = (q: string) =>
  rows.filter((r) => r.text.toLowerCase().includes(q.toLowerCase())).map((r) => r.id);

/** Every customer the list finds for q, page after page, and its total. */
async function listed(q: string) {
  const list = await customerList(h.db.prisma, tenant, { q });
  const total = await list.countUpTo(h.db.prisma, COUNT + 1);
  const page = await h.db.prisma.customer.findMany({
    ...(await list.page(h.db.prisma, undefined, 30)),
    take: 30,
    select: { id: true },
  });
  const all = await h.db.prisma.customer.findMany({
    where: await list.where(),
    orderBy: { id: 'desc' },
    select: { id: true },
  });
  return { total, page: page.map((r) => r.id), all: all.map((r) => r.id) };
}

describe('rarePattern', () => {
  const sample = (common: string[]): Sample => ({
    common: [],
    // Each common trigram in every bound, the rest in none.
    bounds: Array.from({ length: 100 }, (_, i) => `${common.join(' ')} ${i}`),
    rows: 1_000_000,
  });

  it.each([
    ['the rare run after a common prefix', 'user123456@', ['use', 'ser'], '%er123456%'],
    ['spans of several words, in order', 'user12 maria', ['use', 'ser'], '%er12%maria%'],
    ['a rare span between common ones', 'first99x', ['fir', 'irs', 'rst'], '%st99x%'],
    ['any case', 'USER77', ['use', 'ser'], '%ER77%'],
    ['nothing when no trigram is common', 'maria', ['use'], null],
    ['nothing when every trigram is common', 'user', ['use', 'ser'], null],
    ['nothing in a search shorter than a trigram', 'us', ['use'], null],
  ])('%s', (_, q, common, pattern) => {
    // "er1" is the first rare window of "user…": the span starts there.
    expect(rarePattern(q, sample(common))).toBe(pattern);
  });
});

describe('a search by its rare part', () => {
  it('reads the few matches of a search whose trigrams every customer shares, and only them', async () => {
    // "user1234@" shares "use", "ser" with every customer: narrowed, one customer of this tenant.
    const narrowed = await textMatches(h.db.prisma, tenant, 'user1234@');
    expect(narrowed).toEqual({ ...tenant, id: { in: holding('user1234@') } });
    expect(holding('user1234@')).toHaveLength(1);
    // Its rare part, "r1234", holds three rare trigrams: narrow. "user123"'s, "r123", two.
    expect(await rarePart(h.db.prisma, 'user1234@')).toEqual({
      pattern: '%r1234%',
      narrow: true,
      many: false,
    });
    expect(await rarePart(h.db.prisma, 'user123')).toEqual({
      pattern: '%r123%',
      narrow: false,
      many: false,
    });
    // Nothing to leave out (no common trigram), or too many to read by id: as before.
    expect(await textMatches(h.db.prisma, tenant, 'Garcia')).toBeNull();
    expect(await textMatches(h.db.prisma, tenant, 'user1')).toBeNull(); // every trigram common
    // A phone-like search also looks for its digits: left to customerWhere.
    expect(await textMatches(h.db.prisma, tenant, '+34 600')).toBeNull();
  });

  it.each([
    ['one e-mail', 'user1234@'],
    ['in another case', 'USER1234@MAIL'],
    ['a range of e-mails', 'user123'],
    ['an external id', 'ext-77'],
    ['a domain', '@mail3.com'],
    ['none', 'user99999@'],
    ['wildcards are literal', 'Garcia_Pena'],
    ['a percent sign is literal', 'user1%@'],
  ])('the list finds what holds q: %s', async (_, q) => {
    const expected = holding(q);
    const { total, page, all } = await listed(q);
    expect(all).toEqual(expected);
    expect(total).toBe(expected.length);
    expect(page).toEqual(expected.slice(0, 30));
  });

  it('a first page read by the probed matches still applies the rest of the filter', async () => {
    // "user1234@" has a narrow rare part: its first page is read by the probe's match.
    const [match] = holding('user1234@');
    expect((await rarePart(h.db.prisma, 'user1234@'))?.narrow).toBe(true);
    await h.db.prisma.customer.update({ where: { id: match }, data: { status: 'watch' } });
    const firstPage = async (status: 'watch' | 'banned') => {
      const list = await customerList(h.db.prisma, tenant, { q: 'user1234@', status });
      const page = await h.db.prisma.customer.findMany({
        ...(await list.page(h.db.prisma, undefined, 10)),
        take: 10,
        select: { id: true },
      });
      return page.map((r) => r.id);
    };
    try {
      expect(await firstPage('watch')).toEqual([match]);
      expect(await firstPage('banned')).toEqual([]);
    } finally {
      await h.db.prisma.customer.update({ where: { id: match }, data: { status: 'active' } });
    }
  });

  it('the list, the player search and the global search agree with the rows for random searches', async () => {
    // A random piece of a random customer's text, in a random case: a run of its letters, often
    // starting at the common "user" or "first".
    const search = fc
      .tuple(
        fc.integer({ min: 0, max: COUNT - 1 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 3, max: 14 }),
        fc.boolean(),
      )
      .map(([i, from, length, upper]) => {
        const text = rows[i]!.text;
        const q = text.slice(from % text.length, (from % text.length) + length).trim();
        return upper ? q.toUpperCase() : q;
      })
      .filter((q) => q.length >= 1);
    await fc.assert(
      fc.asyncProperty(search, async (q) => {
        const expected = holding(q);
        const { total, all } = await listed(q);
        expect(all).toEqual(expected);
        expect(total).toBe(expected.length);
        const players = await searchPlayers(h.db.prisma, tenant, { search: q, limit: 100 });
        const found = await h.db.prisma.customer.findMany({
          where: players.where,
          orderBy: { id: 'desc' },
          take: 100,
          select: { id: true },
        });
        expect(found.map((r) => r.id)).toEqual(expected.slice(0, 100));
        expect(players.total).toBe(expected.length);
        // The condition a count of many matches uses (the index given only the rare part, the
        // whole of q checked on each row) finds the same customers.
        const rare = await rarePart(h.db.prisma, q);
        if (rare) {
          const conditions = [...tenantConditions(tenant), rareFirst(q, rare)];
          expect(await countedRows(h.db.prisma, 'customers', conditions, COUNT + 1)).toBe(
            expected.length,
          );
        }
        // (A whole e-mail is looked up exactly there, by design: not a substring.)
        if (isEmail(q)) return;
        const hits = (await searchCustomers(h.db.prisma, tenant, q, 20)).map((hit) => hit.id);
        if (expected.length <= 20) expect(hits.sort()).toEqual([...expected].sort());
        else expect(hits.filter((id) => expected.includes(id))).toHaveLength(20);
      }),
      { numRuns: 40, seed: 36 },
    );
  });

  it('the backoffice list finds one customer by a piece of its e-mail, not the other tenant’s', async () => {
    // Both tenants have a user123@: the narrowed search still names the tenant.
    expect(
      await h.db.prisma.customer.count({ where: { ...other, email: { startsWith: 'user123@' } } }),
    ).toBe(1);
    const res = await operator.gql(
      'query($q: String) { customers(filter: { q: $q }, first: 50) { edges { node { id } } } }',
      { q: 'user123@' },
      { env: 'live' },
    );
    expect(res.body.errors).toBeUndefined();
    const edges = res.body.data.customers.edges as { node: { id: string } }[];
    expect(edges.map((e) => e.node.id)).toEqual(holding('user123@'));
    expect(holding('user123@')).toHaveLength(1);
  });

  it('a player id is still found by the player search', async () => {
    const id = rows[10]!.id;
    const players = await searchPlayers(h.db.prisma, tenant, { search: id });
    expect(players.total).toBe(1);
    expect(
      await h.db.prisma.customer.findMany({ where: players.where, select: { id: true } }),
    ).toEqual([{ id }]);
  });
});

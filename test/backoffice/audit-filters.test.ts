// The audit trail's filters (issue 35, "a readable audit"): by person (staff id or e-mail), date
// range, action and target, one filter (domain/staff/audit-where.ts) behind both the screen's
// `staffAudit` query and GET /admin/api/audit.csv, so the same filters give the same rows. Another
// tenant's rows never appear; bad input is refused in the error envelope. On the run's database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { parseCsv } from '../../src/domain/csv.js';
import { idFloor } from '../../src/domain/ids.js';
import { createTenant } from '../support/factories.js';
import { call, startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

/** A time-ordered id (UUIDv7) of a past instant, as the row would have had when written then. */
const idAt = (at: Date) => `${idFloor(at).slice(0, 14)}7${crypto.randomUUID().slice(15)}`;

let h: Harness;
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let ana: string;
let bea: string;
let adjuster: { id: string; email: string; client: StaffClient };
let blocker: { id: string; email: string; client: StaffClient };
let other: { id: string; email: string; client: StaffClient };
/** The ids of two rows dated in October 2026 (written directly, as history). */
const october: Record<string, string> = {};

const AUDIT = `query($staffId: ID, $staffEmail: String, $from: String, $to: String,
  $action: String, $targetId: String, $after: String) {
  staffAudit(staffId: $staffId, staffEmail: $staffEmail, from: $from, to: $to, action: $action,
    targetId: $targetId, first: 50, after: $after) {
    total { value exact }
    edges { node { id action targetId createdAt staff { id email } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

async function staff(
  role: 'establishment_operator' | 'brand_admin',
  tenant: { subBrandId: string },
) {
  const s = await createStaff(h.db.prisma, role, tenant);
  return { id: s.id, email: s.email, client: await signInAs(h.url, s.email) };
}

beforeAll(async () => {
  h = await startHarness();
  a = await createTenant(h.db.prisma);
  b = await createTenant(h.db.prisma);
  adjuster = await staff('establishment_operator', { subBrandId: a.subBrandId });
  blocker = await staff('establishment_operator', { subBrandId: a.subBrandId });
  other = await staff('establishment_operator', { subBrandId: b.subBrandId });
  const tenantA = { subBrandId: a.subBrandId, environment: 'test' as const };
  ana = (
    await createCustomer(h.db.prisma, tenantA, {
      firstName: 'Ana',
      lastName: 'A',
      externalId: 'ana',
    })
  ).id;
  bea = (
    await createCustomer(
      h.db.prisma,
      { subBrandId: b.subBrandId, environment: 'test' },
      { firstName: 'Bea', lastName: 'B', externalId: 'bea' },
    )
  ).id;
  const ok = (res: { body: { errors?: unknown } }) => expect(res.body.errors).toBeUndefined();
  ok(
    await adjuster.client.gql(
      'mutation($id: ID!) { adjustCustomerCoins(customerId: $id, delta: 250, reason: "Goodwill") { id } }',
      { id: ana },
    ),
  );
  ok(
    await blocker.client.gql(
      'mutation($id: ID!) { updateCustomer(id: $id, input: { status: watch }) { id } }',
      { id: ana },
    ),
  );
  ok(
    await other.client.gql(
      'mutation($id: ID!) { adjustCustomerCoins(customerId: $id, delta: 5, reason: "Elsewhere") { id } }',
      { id: bea },
    ),
  );
  // History: the adjuster's rows of 1 and 31 October 2026 (UTC), and one of b's the same day.
  for (const [name, at, subBrandId, staffUserId] of [
    ['first', '2026-10-01T08:00:00Z', a.subBrandId, adjuster.id],
    ['last', '2026-10-31T23:30:00Z', a.subBrandId, adjuster.id],
    ['b', '2026-10-01T09:00:00Z', b.subBrandId, other.id],
  ] as const) {
    october[name] = (
      await h.db.prisma.staffAuditEntry.create({
        data: {
          id: idAt(new Date(at)),
          staffUserId,
          action: 'updateCustomer',
          subBrandId,
          environment: 'test',
          targetId: ana,
          args: {},
          before: { status: 'active' },
          after: { status: 'banned' },
          createdAt: new Date(at),
        },
      })
    ).id;
  }
});
afterAll(() => h.close());

type Filter = Partial<
  Record<'staffId' | 'staffEmail' | 'from' | 'to' | 'action' | 'targetId', string>
>;

/** Every row the screen lists for a filter, all pages; the list's total says as many. */
async function screenIds(client: StaffClient, filter: Filter, subBrandId = a.subBrandId) {
  const ids: string[] = [];
  let after: string | null = null;
  let total: unknown;
  for (;;) {
    const res = await client.gql(AUDIT, { ...filter, after }, { subBrandId });
    expect(res.body.errors).toBeUndefined();
    const page = res.body.data.staffAudit;
    total ??= page.total;
    ids.push(...page.edges.map((e: { node: { id: string } }) => e.node.id));
    if (!page.pageInfo.hasNextPage) {
      expect(total).toEqual({ value: ids.length, exact: true });
      return ids;
    }
    after = page.pageInfo.endCursor;
  }
}

const csv = (client: StaffClient, filter: Filter, subBrandId = a.subBrandId) =>
  call(h.url, 'GET', `/admin/api/audit.csv?${new URLSearchParams({ subBrandId, ...filter })}`, {
    headers: { cookie: client.cookie },
  });

/** The file's rows, less the export's own audit row when it heads the file. */
async function fileIds(client: StaffClient, filter: Filter, before: string[]) {
  const res = await csv(client, filter);
  expect(res.status).toBe(200);
  const rows = parseCsv(res.text)
    .map((r) => r.fields)
    .slice(1);
  const own = rows[0] && rows[0][4] === 'exportAuditCsv' && !before.includes(rows[0][0]!);
  return { rows, ids: rows.slice(own ? 1 : 0).map((r) => r[0]!) };
}

/** The screen and the file for the same filter: the same rows, in the same order. */
async function both(filter: Filter) {
  const screen = await screenIds(adjuster.client, filter);
  const file = await fileIds(adjuster.client, filter, screen);
  expect(file.ids).toEqual(screen);
  return { screen, rows: file.rows };
}

describe('staffAudit and audit.csv filters', () => {
  it('filters by person, by id or by e-mail, in any case', async () => {
    const { screen, rows } = await both({ staffId: blocker.id });
    expect(screen).toHaveLength(1);
    expect(rows[0]).toEqual(expect.arrayContaining([blocker.id, blocker.email, 'updateCustomer']));
    const byEmail = await both({ staffEmail: blocker.email.toUpperCase() });
    expect(byEmail.screen).toEqual(screen);
    const adjusted = await both({ staffId: adjuster.id });
    expect(adjusted.screen).toContain(october.first);
    expect(adjusted.screen).not.toContain(screen[0]);
    // An e-mail nobody here has matches nothing (it is not probed).
    expect(await screenIds(adjuster.client, { staffEmail: 'nobody@example.com' })).toEqual([]);
  });

  it('filters by date range: days (UTC, `to` taken whole) or instants', async () => {
    const oct = await both({ from: '2026-10-01', to: '2026-10-31' });
    expect(oct.screen).toEqual([october.last, october.first]);
    const first = await both({ from: '2026-10-01T00:00:00Z', to: '2026-10-02T00:00:00Z' });
    expect(first.screen).toEqual([october.first]);
    const since = await both({ from: '2026-11-01' });
    expect(since.screen).not.toContain(october.last);
    expect(since.screen.length).toBeGreaterThanOrEqual(2);
    const until = await both({ to: '2026-10-15' });
    expect(until.screen).toEqual([october.first]);
  });

  it('filters by action (its exact name) and target, with the others', async () => {
    const adjust = await both({ action: 'adjustCustomerCoins' });
    expect(adjust.screen).toHaveLength(1);
    expect(adjust.rows[0]![2]).toBe(adjuster.id);
    const target = await both({ targetId: ana, action: 'updateCustomer' });
    expect(target.screen).toHaveLength(3);
    const all = await both({
      staffId: adjuster.id,
      action: 'updateCustomer',
      targetId: ana,
      from: '2026-10-31',
      to: '2026-10-31',
    });
    expect(all.screen).toEqual([october.last]);
  });

  it("offers the trail's own actions and people to choose from", async () => {
    const res = await adjuster.client.gql(
      '{ staffAudit(first: 1) { actions people { id email } } }',
      {},
      { subBrandId: a.subBrandId },
    );
    const { actions, people } = res.body.data.staffAudit;
    expect(actions).toEqual(expect.arrayContaining(['adjustCustomerCoins', 'updateCustomer']));
    expect(people.map((p: { id: string }) => p.id).sort()).toEqual(
      [adjuster.id, blocker.id].sort(),
    );
  });

  it("never shows another tenant's rows, whatever the filter", async () => {
    // b's operator asking for a's people, a's target and a's October: only b's own rows.
    const mine = await screenIds(other.client, { targetId: ana }, b.subBrandId);
    expect(mine).toEqual([october.b]);
    expect(await screenIds(other.client, { staffId: adjuster.id }, b.subBrandId)).toEqual([]);
    const file = await csv(other.client, { staffId: adjuster.id }, b.subBrandId);
    expect(file.status).toBe(200);
    expect(parseCsv(file.text).slice(1)).toEqual([]);
    const everything = await screenIds(adjuster.client, {});
    expect(everything).not.toContain(october.b);
    const res = await other.client.gql(
      '{ staffAudit(first: 1) { people { id } } }',
      {},
      {
        subBrandId: b.subBrandId,
      },
    );
    expect(res.body.data.staffAudit.people).toEqual([{ id: other.id }]);
    // And a's sub-brand is not b's operator's to choose.
    expect((await csv(other.client, {}, a.subBrandId)).status).toBe(404);
  });

  it('refuses bad input in the error envelope, naming the field, before reading or auditing', async () => {
    const cases: [Filter, string, RegExp][] = [
      [{ from: '2026-13-45' }, 'from', /must be a date/],
      [{ to: 'yesterday' }, 'to', /must be a date/],
      [{ from: '2026-11-02', to: '2026-11-01' }, 'from', /before to/],
      [{ from: '2026-11-01T00:00:00Z', to: '2026-11-01T00:00:00Z' }, 'from', /before to/],
      [{ staffId: 'not-a-uuid' }, 'staffId', /uuid/],
      [{ staffId: crypto.randomUUID() }, 'staffId', /not a staff member/],
      [{ staffEmail: 'not an e-mail' }, 'staffEmail', /e-mail/],
      [{ action: 'x'.repeat(81) }, 'action', /at most 80/],
    ];
    const exportsBefore = await h.db.prisma.staffAuditEntry.count({
      where: { action: 'exportAuditCsv', staffUserId: adjuster.id },
    });
    for (const [filter, field, message] of cases) {
      const res = await csv(adjuster.client, filter);
      expect(res.status, JSON.stringify(filter)).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(message),
        request_id: expect.any(String),
      });
      const gql = await adjuster.client.gql(AUDIT, filter, { subBrandId: a.subBrandId });
      expect(gql.body.data, JSON.stringify(filter)).toBeNull();
      expect(gql.body.errors[0].extensions).toMatchObject({ code: 'invalid_request' });
      expect(gql.body.errors[0].message).toMatch(message);
      expect(JSON.stringify(gql.body.errors[0].extensions)).toContain(field);
    }
    expect(
      await h.db.prisma.staffAuditEntry.count({
        where: { action: 'exportAuditCsv', staffUserId: adjuster.id },
      }),
    ).toBe(exportsBefore);
  });

  it("writes the export's filter, dates resolved, to its own audit row", async () => {
    await fileIds(
      adjuster.client,
      { staffEmail: blocker.email, from: '2026-10-01', to: '2026-10-31' },
      [],
    );
    const row = await h.db.prisma.staffAuditEntry.findFirst({
      where: { action: 'exportAuditCsv', staffUserId: adjuster.id },
      orderBy: { id: 'desc' },
    });
    expect(row?.args).toEqual({
      staffEmail: blocker.email,
      from: '2026-10-01T00:00:00.000Z',
      to: '2026-11-01T00:00:00.000Z',
    });
  });
});

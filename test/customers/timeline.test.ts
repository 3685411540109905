// Issue 35, "Timelines": a customer's timeline reads every source in one page, newest first, in
// words, keyset-paged; tenant-scoped; a cursor it did not issue is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerTimeline } from '../../src/domain/customers/timeline.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { shop } from '../orders/support.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

let h: Harness;
let tenant: Tenant;
let customer: string;
let operator: StaffClient;
let reference: string;
let staffEmail: string;
let keptId: string;
let cancelledId: string;

const TIMELINE = `query($id: ID!, $first: Int, $after: String) {
  customer(id: $id) { timeline(first: $first, after: $after) {
    entries { kind at id title detail linkPath } nextCursor } } }`;

beforeAll(async () => {
  h = await startHarness();
  const s = await shop(h, { kind: 'physical', stock: 10 });
  tenant = { subBrandId: s.subBrandId, environment: 'test' };
  customer = await s.buyer(0, { email: 'ana@example.com' });
  await s.credit(customer, 5_000, 'Goodwill');
  const body = {
    customer_id: customer,
    listing_market_id: s.listing.listing_market_id,
    recipient_name: 'Ana García',
    shipping_address: 'Calle Mayor 1, 28013 Madrid',
  };
  const kept = await s.order(body);
  if (kept.status !== 201) throw new Error(`order: ${kept.status} ${kept.text}`);
  keptId = kept.body.data.id;
  reference = (await h.db.prisma.order.findUniqueOrThrow({ where: { id: keptId } })).reference!;
  const cancelled = await s.order(body);
  if (cancelled.status !== 201) throw new Error(`order: ${cancelled.status} ${cancelled.text}`);
  cancelledId = cancelled.body.data.id;
  const del = await s.delete(`/api/v1/orders/${cancelledId}`);
  if (del.status !== 200) throw new Error(`cancel: ${del.status} ${del.text}`);
  const staff = await createStaff(h.db.prisma, 'brand_admin', { brandId: s.brandId });
  staffEmail = staff.email;
  operator = await signInAs(h.url, staff.email);
  const adjust = await operator.gql(
    'mutation($c: ID!) { adjustCustomerCoins(customerId: $c, delta: 250, reason: "Sorry for the wait") { id } }',
    { c: customer },
    { subBrandId: s.subBrandId },
  );
  if (adjust.body.errors) throw new Error(JSON.stringify(adjust.body.errors));
  const rg = await operator.gql(
    'mutation($c: ID!) { setResponsibleGaming(customerId: $c, input: { state: cool_off, until: "2027-01-01T00:00:00Z" }) { id } }',
    { c: customer },
    { subBrandId: s.subBrandId },
  );
  if (rg.body.errors) throw new Error(JSON.stringify(rg.body.errors));
});
afterAll(() => h.close());

describe('a customer timeline', () => {
  it('shows every source newest first, in words', async () => {
    const { entries, nextCursor } = await customerTimeline(h.db.prisma, tenant, customer, {
      first: 100,
    });
    expect(nextCursor).toBeNull();
    const at = entries.map((e) => e.at.getTime());
    expect([...at].sort((a, b) => b - a)).toEqual(at);
    const titles = entries.map((e) => e.title);
    const expected = [
      'Cooling-off by the operator until 2027-01-01',
      'Credited 250 coins — Sorry for the wait',
      expect.stringMatching(/^Order R-\S+ cancelled$/),
      expect.stringMatching(new RegExp(`^Order ${reference} placed \\([\\d,]+ coins\\)$`)),
      'Credited 5,000 coins — Goodwill',
    ];
    // The expected ones appear in this order (e-mails and debits fall between them).
    let from = 0;
    for (const want of expected) {
      const i = titles.findIndex((t, k) => k >= from && match(t, want));
      expect(i, `${String(want)} in ${JSON.stringify(titles)}`).toBeGreaterThanOrEqual(from);
      from = i + 1;
    }
    const kinds = new Set(entries.map((e) => e.kind));
    for (const k of ['coins', 'order', 'order_status', 'responsible_gaming', 'audit'])
      expect(kinds, k).toContain(k);
    expect(titles).toContain(`Debited 1,000 coins — Order ${reference}`);
    expect(titles.some((t) => /^Credited 1,000 coins — Refund of order R-/.test(t))).toBe(true);
    // An order's lines lead to its page.
    const placed = entries.find((e) => e.kind === 'order' && e.title.includes(reference));
    expect(placed?.linkPath).toBe(`/orders/${keptId}`);
    expect(titles).toContainEqual(
      expect.stringMatching(new RegExp(`^E-mail “.+ is reserved \\(${reference}\\)” queued$`)),
    );
    const audit = entries.filter((e) => e.kind === 'audit').map((e) => e.title);
    expect(audit).toContain(`Adjust customer coins — by ${staffEmail}`);
    expect(audit).toContain(`Set responsible gaming — by ${staffEmail}`);
  });

  it('pages over more than one page, each entry once', async () => {
    const all = await customerTimeline(h.db.prisma, tenant, customer, { first: 100 });
    expect(all.entries.length).toBeGreaterThan(6);
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const res = await operator.gql(
        TIMELINE,
        { id: customer, first: 3, after },
        { subBrandId: tenant.subBrandId },
      );
      expect(res.body.errors).toBeUndefined();
      const page = res.body.data.customer.timeline;
      seen.push(...page.entries.map((e: { id: string }) => e.id));
      after = page.nextCursor;
      pages++;
    } while (after);
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(all.entries.map((e) => e.id));
  });

  it("does not find another tenant's customer", async () => {
    const other = await createTenant(h.db.prisma);
    await expect(
      customerTimeline(
        h.db.prisma,
        { subBrandId: other.subBrandId, environment: 'test' },
        customer,
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      customerTimeline(h.db.prisma, { ...tenant, environment: 'live' }, customer),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses a cursor it did not issue', async () => {
    for (const after of ['garbage', Buffer.from('2026-01-01T00:00:00Z|x').toString('base64url')]) {
      const res = await operator.gql(
        TIMELINE,
        { id: customer, first: 3, after },
        { subBrandId: tenant.subBrandId },
      );
      expect(res.body.errors[0].extensions.code).toBe('invalid_request');
    }
    const res = await operator.gql(
      TIMELINE,
      { id: customer, first: 0 },
      {
        subBrandId: tenant.subBrandId,
      },
    );
    expect(res.body.errors[0].extensions.code).toBe('invalid_request');
  });
});

const ORDER_TIMELINE = `query($id: ID!, $first: Int, $after: String) {
  order(id: $id) { timeline(first: $first, after: $after) {
    entries { kind id title detail linkPath } nextCursor } } }`;

describe('an order timeline', () => {
  it('shows the order placed, its debit, a staff change with who made it, and its e-mails', async () => {
    const fix = await operator.gql(
      'mutation($id: ID!) { updateOrderShipping(id: $id, shippingAddress: "Calle Mayor 2, 28013 Madrid") { id } }',
      { id: keptId },
      { subBrandId: tenant.subBrandId },
    );
    expect(fix.body.errors).toBeUndefined();
    const res = await operator.gql(
      ORDER_TIMELINE,
      { id: keptId, first: 100 },
      {
        subBrandId: tenant.subBrandId,
      },
    );
    expect(res.body.errors).toBeUndefined();
    const entries: {
      kind: string;
      title: string;
      detail: string | null;
      linkPath: string | null;
    }[] = res.body.data.order.timeline.entries;
    const titles = entries.map((e) => e.title);
    expect(titles[0]).toBe(`Update order shipping — by ${staffEmail}`);
    expect(entries[1]).toMatchObject({
      kind: 'order_update',
      title: `Order ${reference}: shipping address changed`,
      detail: `By ${staffEmail}`,
      // On the order's own page, not a link to itself (a player's timeline links it).
      linkPath: null,
    });
    expect(titles).toContain(`Debited 1,000 coins — Order ${reference}`);
    // Placed in the transaction that queued its e-mail: the same instant, so either comes last.
    expect(titles.slice(-2)).toContainEqual(
      expect.stringMatching(new RegExp(`^Order ${reference} placed`)),
    );
    expect(entries.some((e) => e.kind === 'email')).toBe(true);
    // Only this order: the other order's refund is not here.
    expect(titles.some((t) => /Refund/.test(t))).toBe(false);
    expect(titles.some((t) => /Goodwill|Sorry/.test(t))).toBe(false);
  });

  it("a cancelled order shows its refund; another tenant's order is not found", async () => {
    const res = await operator.gql(
      ORDER_TIMELINE,
      { id: cancelledId, first: 2 },
      {
        subBrandId: tenant.subBrandId,
      },
    );
    const page = res.body.data.order.timeline;
    expect(page.entries).toHaveLength(2);
    expect(page.nextCursor).toEqual(expect.any(String));
    const rest = await operator.gql(
      ORDER_TIMELINE,
      { id: cancelledId, first: 100, after: page.nextCursor },
      { subBrandId: tenant.subBrandId },
    );
    const titles = [...page.entries, ...rest.body.data.order.timeline.entries].map(
      (e: { title: string }) => e.title,
    );
    expect(titles).toContainEqual(
      expect.stringMatching(/^Credited 1,000 coins — Refund of order R-/),
    );
    expect(titles).toContainEqual(expect.stringMatching(/^Order R-\S+ cancelled$/));
    const other = await createTenant(h.db.prisma);
    const platform = await createStaff(h.db.prisma, 'platform_admin');
    const elsewhere = await (
      await signInAs(h.url, platform.email)
    ).gql(ORDER_TIMELINE, { id: keptId }, { subBrandId: other.subBrandId });
    expect(elsewhere.body.data?.order ?? null).toBeNull();
  });
});

function match(title: string, want: unknown): boolean {
  if (typeof want === 'string') return title === want;
  return (want as { asymmetricMatch(v: unknown): boolean }).asymmetricMatch(title);
}

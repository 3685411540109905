// Issue 35, "totals on every list", the rest of them: campaigns, the e-mail outbox, events,
// webhook deliveries, brands, catalogs (and the review queue of proposals), the gate's refusals
// and staff. Each counts what its list holds with the list's own filter, beyond the page or the
// cap the list shows, and never another tenant's rows. (Customers, orders, products, executions
// and the audit: customers/list-totals, engine/executions-customer, backoffice/audit-filters.)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { eventWorkers, webhookReceiver } from '../support/events.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

let h: Harness;
let a: Awaited<ReturnType<typeof partner>>;
let b: Awaited<ReturnType<typeof partner>>;
let admin: StaffClient;
let brandAdmin: StaffClient;
let endpointId: string;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

const campaign = (subBrandId: string, status: 'draft' | 'paused', isTemplate = false) =>
  h.db.prisma.campaign.create({
    data: {
      id: newId(),
      subBrandId,
      environment: 'test',
      title: `Totals ${status}`,
      startsAt: new Date(Date.now() + 86_400_000),
      endsAt: new Date(Date.now() + 7 * 86_400_000),
      type: 'tournament',
      status,
      isTemplate,
      termsAccepted: true,
      prizes: [],
    },
  });

const email = (subBrandId: string, status: 'failed' | 'sent', orderId = randomUUID()) =>
  h.db.prisma.notification.create({
    data: {
      id: randomUUID(),
      subBrandId,
      environment: 'test',
      orderId,
      eventId: randomUUID(),
      template: 'reserved',
      recipient: 'ana@example.com',
      subject: 'Your order',
      html: '<p>…</p>',
      text: '…',
      status,
    },
  });

const refusal = (subBrandId: string, customerId: string, createdAt: Date) =>
  h.db.prisma.rgDecision.create({
    data: {
      id: newId(),
      subBrandId,
      environment: 'test',
      customerId,
      path: 'bulk_credit',
      state: 'self_excluded',
      createdAt,
    },
  });

const catalog = (subBrandId: string, status: 'pending' | 'approved') =>
  h.db.prisma.catalog.create({
    data: { id: newId(), subBrandId, name: `Proposal ${status}`, status },
  });

beforeAll(async () => {
  // Brands and staff are counted platform-wide: a database of this file's own.
  h = await startHarness({ ownDatabase: true });
  a = await partner(h);
  b = await partner(h);
  admin = await signInAs(h.url, (await createStaff(h.db.prisma, 'platform_admin')).email);
  brandAdmin = await signInAs(
    h.url,
    (await createStaff(h.db.prisma, 'brand_admin', { brandId: a.brandId })).email,
  );
  // Two operators of each brand, for the staff counts.
  for (const t of [a, a, b, b])
    await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: t.subBrandId });

  // Events and, for A's endpoint, one delivery each: A has 3 players and one credit (4 events);
  // B one player.
  receiver = await webhookReceiver();
  endpointId = newId();
  await h.db.prisma.webhookEndpoint.create({
    data: {
      id: endpointId,
      subBrandId: a.subBrandId,
      environment: 'test',
      url: receiver.url,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    },
  });
  const first = await a.customer();
  await a.customer();
  await a.customer();
  await a.credit(first.id, 100, 'welcome');
  await b.customer();
  await eventWorkers(h).drain();

  await campaign(a.subBrandId, 'draft');
  await campaign(a.subBrandId, 'draft');
  await campaign(a.subBrandId, 'paused');
  await campaign(a.subBrandId, 'draft', true);
  await campaign(b.subBrandId, 'draft');

  const order = randomUUID();
  await email(a.subBrandId, 'failed', order);
  await email(a.subBrandId, 'failed');
  await email(a.subBrandId, 'sent', order);
  await email(b.subBrandId, 'failed');

  const day = (d: number) => new Date(Date.UTC(2026, 10, d, 12));
  await refusal(a.subBrandId, first.id, day(1));
  await refusal(a.subBrandId, first.id, day(2));
  await refusal(a.subBrandId, randomUUID(), day(3));
  await refusal(b.subBrandId, randomUUID(), day(2));

  await catalog(a.subBrandId, 'pending');
  await catalog(a.subBrandId, 'pending');
  await catalog(a.subBrandId, 'approved');
  await catalog(b.subBrandId, 'pending');
});
afterAll(async () => {
  await receiver?.close();
  await h.close();
});

/** The `total` of the query's one root field (a connection's, or a `…Total` field itself). */
async function totalOf(
  client: StaffClient,
  query: string,
  variables: Record<string, unknown> = {},
  subBrandId?: string,
) {
  const res = await client.gql(query, variables, subBrandId ? { subBrandId } : {});
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  const root = Object.values(res.body.data as Record<string, any>)[0];
  return root.total ?? root;
}

describe('list totals, the rest', () => {
  it('campaigns: counted with the status and template filters, this tenant only', async () => {
    const q = `query($status: CampaignStatus, $isTemplate: Boolean) {
      campaignsTotal(status: $status, isTemplate: $isTemplate) { value exact } }`;
    expect(await totalOf(admin, q, {}, a.subBrandId)).toEqual({ value: 4, exact: true });
    expect(await totalOf(admin, q, { status: 'draft' }, a.subBrandId)).toEqual({
      value: 3,
      exact: true,
    });
    expect(await totalOf(admin, q, { isTemplate: true }, a.subBrandId)).toEqual({
      value: 1,
      exact: true,
    });
    expect(await totalOf(admin, q, {}, b.subBrandId)).toEqual({ value: 1, exact: true });
  });

  it('e-mails: the outbox counted past the 100 it shows, by status and order', async () => {
    const q = `query($status: NotificationStatus, $orderId: ID) {
      notificationsTotal(status: $status, orderId: $orderId) { value exact } }`;
    expect(await totalOf(brandAdmin, q, {}, a.subBrandId)).toEqual({ value: 3, exact: true });
    expect(await totalOf(brandAdmin, q, { status: 'failed' }, a.subBrandId)).toEqual({
      value: 2,
      exact: true,
    });
    const order = await h.db.prisma.notification.findFirstOrThrow({
      where: { subBrandId: a.subBrandId, status: 'sent' },
    });
    expect(await totalOf(brandAdmin, q, { orderId: order.orderId }, a.subBrandId)).toEqual({
      value: 2,
      exact: true,
    });
    // Not an id: nothing matches, as the list finds nothing.
    expect(await totalOf(brandAdmin, q, { orderId: 'nope' }, a.subBrandId)).toEqual({
      value: 0,
      exact: true,
    });
  });

  it('events: all of the tenant’s relayed events, by type, whatever the page size', async () => {
    const q = `query($types: [String!]) {
      events(types: $types, first: 1, newestFirst: true) { total { value exact } edges { node { id } } } }`;
    expect(await totalOf(admin, q, {}, a.subBrandId)).toEqual({ value: 4, exact: true });
    expect(await totalOf(admin, q, { types: ['customer.created'] }, a.subBrandId)).toEqual({
      value: 3,
      exact: true,
    });
    expect(await totalOf(admin, q, {}, b.subBrandId)).toEqual({ value: 1, exact: true });
  });

  it('webhook deliveries: an endpoint’s, and another tenant’s endpoint is not found', async () => {
    const q = `query($id: ID!) {
      webhookDeliveries(endpointId: $id, first: 1) { total { value exact } } }`;
    expect(await totalOf(admin, q, { id: endpointId }, a.subBrandId)).toEqual({
      value: 4,
      exact: true,
    });
    const theirs = await admin.gql(q, { id: endpointId }, { subBrandId: b.subBrandId });
    expect(theirs.body.errors?.[0]?.extensions?.code).toBe('not_found');
  });

  it('brands: every brand, for a platform admin', async () => {
    const q = `{ brands(first: 1) { total { value exact } } }`;
    expect(await totalOf(admin, q)).toEqual({
      value: await h.db.prisma.brand.count(),
      exact: true,
    });
    expect(await h.db.prisma.brand.count()).toBeGreaterThanOrEqual(2);
  });

  it('catalogs: the review queue counts the pending proposals', async () => {
    const q = `query($status: String) { catalogs(status: $status, first: 1) { total { value exact } } }`;
    expect(await totalOf(admin, q, { status: 'pending' })).toEqual({ value: 3, exact: true });
    // A bad state is refused for the total as for the list.
    const bad = await admin.gql(q, { status: 'lost' });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('invalid_request');
  });

  it('the gate’s refusals: counted in the window, by player, this tenant only', async () => {
    const q = `query($from: DateTime, $to: DateTime, $customerId: ID) {
      rgDecisions(from: $from, to: $to, customerId: $customerId, first: 1) { total { value exact } } }`;
    expect(await totalOf(admin, q, {}, a.subBrandId)).toEqual({ value: 3, exact: true });
    expect(
      await totalOf(
        admin,
        q,
        { from: '2026-11-02T00:00:00Z', to: '2026-11-04T00:00:00Z' },
        a.subBrandId,
      ),
    ).toEqual({ value: 2, exact: true });
    const [first] = await h.db.prisma.rgDecision.findMany({
      where: { subBrandId: a.subBrandId },
      orderBy: { createdAt: 'asc' },
    });
    expect(await totalOf(admin, q, { customerId: first!.customerId }, a.subBrandId)).toEqual({
      value: 2,
      exact: true,
    });
  });

  it('staff: the accounts in the caller’s reach, by part of the e-mail', async () => {
    const q = `query($search: String) { staffMembersTotal(search: $search) { value exact } }`;
    expect(await totalOf(admin, q)).toEqual({
      value: await h.db.prisma.staffUser.count(),
      exact: true,
    });
    // A's brand admin: the accounts of A's brand in their reach (its operators), not B's.
    const mine = (await brandAdmin.gql(`{ staffMembers { email } }`, {})).body.data.staffMembers;
    expect(await totalOf(brandAdmin, q)).toEqual({ value: mine.length, exact: true });
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(await totalOf(brandAdmin, q, { search: 'nobody-at-all' })).toEqual({
      value: 0,
      exact: true,
    });
  });
});

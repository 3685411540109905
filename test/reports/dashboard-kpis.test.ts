// Issue 35, the daily view: the dashboard's key figures for a window and today's alerts. Each
// figure against what was done to the tenant (credits, orders, a refund, an expiry), the window's
// edges, another tenant's activity never counted, budgets at 80 % and spent, failed e-mails, low
// stock; a bad window refused. (GraphQL is the backoffice's: every staff role reads reports.)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveCoins } from '../../src/domain/ledger/move-coins.js';
import { startHarness, type Harness } from '../support/harness.js';
import { shop } from '../orders/support.js';
import { createStaff, signInAs } from '../support/staff.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const KPIS = `query($from: DateTime!, $to: DateTime!) {
  dashboardKpis(from: $from, to: $to) {
    coinLiability coinsIssued coinsRedeemed coinsExpired redemptionRate activePlayers ordersWaiting
    campaignBudgets { title budget awarded }
    alerts { kind message targetId }
  }
}`;

describe('the dashboard figures', () => {
  let s: Awaited<ReturnType<typeof shop>>;
  let window: { from: string; to: string };
  let price: number;
  let gql: (query: string, variables?: Record<string, unknown>) => Promise<{ body: any }>;
  beforeAll(async () => {
    s = await shop(h, { kind: 'physical', name: 'Desk lamp' });
    price = s.listing.coin_price;
    const order = (customer_id: string) =>
      s.order({
        customer_id,
        listing_market_id: s.listing.listing_market_id,
        recipient_name: 'Ana',
        shipping_address: 'Calle Mayor 1, Madrid',
      });
    const ana = await s.buyer(5000);
    const bea = await s.buyer(3 * price);
    await s.buyer(0); // no movement: not active
    expect((await order(ana)).status).toBe(201);
    const cancelled = await order(bea);
    expect(cancelled.status).toBe(201);
    const del = await h.call('DELETE', `/api/v1/orders/${cancelled.body.data.id}`, {
      key: s.key,
    });
    expect(del.status, del.text).toBe(200);
    // An expiry write-off, and a credit before the window that must not count as issued in it.
    const tenant = { subBrandId: s.subBrandId, environment: 'test' as const };
    await moveCoins(
      h.db.prisma,
      tenant,
      { customerId: ana, delta: -100, reason: null },
      { source: 'expiry', apiKeyId: null, requestId: null },
    );
    await moveCoins(
      h.db.prisma,
      tenant,
      { customerId: bea, delta: 700, reason: null },
      { source: 'api', apiKeyId: null, requestId: null, at: new Date('2025-01-01T00:00:00Z') },
    );
    window = {
      from: new Date(Date.now() - 86_400_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    };
    // Budgets: one at 85 %, one spent, one at 10 % (no alert), one draft (not listed).
    for (const [title, budget, awarded, status] of [
      ['Spring league', 1000, 850, 'in_progress'],
      ['Welcome race', 500, 500, 'paused'],
      ['Slow burner', 1000, 100, 'in_progress'],
      ['Not yet', 1000, 0, 'draft'],
    ] as const)
      await h.db.prisma.campaign.create({
        data: {
          id: randomUUID(),
          subBrandId: s.subBrandId,
          environment: 'test',
          title,
          type: 'tournament',
          status,
          budget,
          totalAwarded: awarded,
          startsAt: new Date(Date.now() - 86_400_000),
          endsAt: new Date(Date.now() + 7 * 86_400_000),
          termsAccepted: true,
          prizes: [],
        },
      });
    // A failed e-mail in the window; the prize nearly out of stock.
    const orderId = (
      await h.db.prisma.order.findFirstOrThrow({ where: { subBrandId: s.subBrandId } })
    ).id;
    await h.db.prisma.notification.create({
      data: {
        id: randomUUID(),
        subBrandId: s.subBrandId,
        environment: 'test',
        orderId,
        eventId: randomUUID(),
        template: 'reserved',
        recipient: 'ana@example.com',
        subject: 'Your order',
        html: '<p>…</p>',
        text: '…',
        status: 'failed',
        lastError: 'mailbox unavailable',
      },
    });
    await h.db.prisma.variantStock.update({
      where: { variantId_environment: { variantId: s.prize.variantId, environment: 'test' } },
      data: { available: 2 },
    });
    // Another tenant's activity in the same window: never counted.
    const other = await shop(h, { kind: 'physical', name: 'Other lamp' });
    await other.buyer(9999);
    const staff = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: s.subBrandId,
    });
    const client = await signInAs(h.url, staff.email);
    gql = (query, variables = {}) => client.gql(query, variables, { subBrandId: s.subBrandId });
  });

  it('answers each figure from what happened in the window, and the alerts of today', async () => {
    const res = await gql(KPIS, window);
    expect(res.body.errors).toBeUndefined();
    const k = res.body.data.dashboardKpis;
    const issued = 5000 + 3 * price;
    expect(k).toMatchObject({
      // Balances now: the old credit counts here, though not as issued in the window.
      coinLiability: 5000 - price - 100 + 3 * price + 700,
      coinsIssued: issued,
      coinsRedeemed: price, // two orders, one refunded
      coinsExpired: 100,
      activePlayers: 2,
      ordersWaiting: 1,
    });
    expect(k.redemptionRate).toBeCloseTo(price / issued, 10);
    expect(k.campaignBudgets.map((c: { title: string }) => c.title)).toEqual([
      'Welcome race',
      'Spring league',
      'Slow burner',
    ]);
    expect(k.alerts.map((a: { kind: string; message: string }) => [a.kind, a.message])).toEqual([
      [
        'budget_spent',
        'Campaign “Welcome race” has awarded its whole budget (500 coins): it awards nothing more.',
      ],
      [
        'budget_nearly_spent',
        'Campaign “Spring league” has awarded 85 % of its budget (850 of 1,000 coins).',
      ],
      ['failed_emails', '1 e-mail to players failed in this period.'],
      ['low_stock', expect.stringMatching(/^Desk lamp .* has 2 units left\.$/)],
    ]);
  });

  it('a window before any of it counts nothing but what is held now', async () => {
    const res = await gql(KPIS, { from: '2024-01-01T00:00:00Z', to: '2024-02-01T00:00:00Z' });
    expect(res.body.errors).toBeUndefined();
    const k = res.body.data.dashboardKpis;
    expect(k).toMatchObject({
      coinsIssued: 0,
      coinsRedeemed: 0,
      redemptionRate: null,
      activePlayers: 0,
      ordersWaiting: 1,
    });
    expect(k.coinLiability).toBeGreaterThan(0);
    expect(k.alerts.map((a: { kind: string }) => a.kind)).not.toContain('failed_emails');
  });

  it('refuses a reversed or too long window', async () => {
    const ask = (variables: Record<string, unknown>) => gql(KPIS, variables);
    const reversed = await ask({ from: window.to, to: window.from });
    expect(reversed.body.errors[0]).toMatchObject({
      message: 'to: must be after from.',
      extensions: { code: 'invalid_request' },
    });
    const long = await ask({ from: '2024-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' });
    expect(long.body.errors[0].message).toBe('to: the window may span at most 366 days.');
  });

  it('the charts take the same window', async () => {
    const res = await gql(
      `query($from: DateTime, $to: DateTime) { dashboard(from: $from, to: $to) { coinsPerDay { day credited spent } topProducts { name units } } }`,
      { from: '2025-01-01T00:00:00Z', to: '2025-01-02T00:00:00Z' },
    );
    expect(res.body.data.dashboard).toEqual({
      coinsPerDay: [{ day: '2025-01-01', credited: 700, spent: 0 }],
      topProducts: [],
    });
    const half = await gql(`{ dashboard(from: "2025-01-01T00:00:00Z") { topProducts { name } } }`);
    expect(half.body.errors[0].message).toBe('from and to go together.');
  });
});

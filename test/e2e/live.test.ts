// The backoffice's live screens in Chromium (docs/backoffice.md, "Live updates"): a tournament's
// leaderboard and the fulfilment queue follow changes made elsewhere without a reload and without
// asking again — the server pushes them over the one stream the page opened (a GraphQL
// subscription over SSE).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { insertActivity } from '../../src/engine/campaigns/insert-activity.js';
import {
  createCampaign,
  updateCampaignStatus,
} from '../../src/engine/campaigns/manage-campaigns.js';
import {
  BROWSER_WALK,
  artefactDir,
  launchChromium,
  screenshot,
  seriousViolations,
  signInToBackoffice,
} from '../support/browser.js';
import { createTenant } from '../support/factories.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { createStaff } from '../support/staff.js';
import { shop } from '../orders/support.js';
import { endLiveStreams } from '../../src/schema/types/live.js';

let h: Harness;
let browser: Browser;
let operator: { email: string };
let admin: { email: string };
let tenant: { subBrandId: string; environment: 'test' };
let tournament: string;
const players: Record<string, string> = {};
const dir = artefactDir(TEST_DB);
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

const points = (player: string, n: number) =>
  insertActivity(
    h.db.prisma,
    tenant,
    { mode: 'tournament', player_id: players[player], campaign_id: tournament, points: n },
    { now: new Date(), idempotencyKey: randomUUID() },
  );

beforeAll(async () => {
  // Its own database: the fulfilment queue is every tenant's (oldest first, 50 a page).
  h = await startHarness({ ownDatabase: true });
  browser = await launchChromium();
  const t = await createTenant(h.db.prisma);
  tenant = { subBrandId: t.subBrandId, environment: 'test' };
  operator = await createStaff(h.db.prisma, 'establishment_operator', {
    subBrandId: t.subBrandId,
  });
  admin = await createStaff(h.db.prisma, 'platform_admin');
  const now = new Date();
  tournament = (
    await createCampaign(
      h.db.prisma,
      tenant,
      {
        title: 'Live slots cup',
        type: 'tournament',
        startDate: day(-1),
        endDate: day(20),
        termsAccepted: true,
        prizes: [
          {
            coinPrize: 1000,
            catalogPrize: '',
            productPrize: '',
            quantity: 0,
            day: 0,
            rank: '1',
          },
        ],
      },
      now,
    )
  ).id;
  await updateCampaignStatus(h.db.prisma, tenant, tournament, { status: 'in_progress' }, now);
  for (const name of ['Ana', 'Ben'])
    players[name] = (
      await createCustomer(h.db.prisma, tenant, {
        firstName: name,
        lastName: 'Live',
        externalId: `live-${name}`,
      })
    ).id;
  await points('Ana', 50);
  await points('Ben', 30);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe('live updates', BROWSER_WALK, () => {
  it('the leaderboard changes without a reload after a score change, and nothing polls', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await signInToBackoffice(page, h.url, operator.email, `/campaigns/${tournament}/leaderboard`);
    const rows = page.getByTestId('leaderboard').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await expect(rows.nth(0).innerText()).resolves.toMatch(/1\s+Ana Live\s+live-Ana\s+50/);
    await expect.poll(() => page.getByTestId('live-state').textContent()).toBe('Live');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, dir, 'leaderboard-live');

    // From here on the page must not ask the server anything: the stream is already open.
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));

    await points('Ben', 40); // Ben: 70, ahead of Ana
    await expect
      .poll(() => rows.nth(0).innerText(), { timeout: 10_000 })
      .toMatch(/1\s+Ben Live\s+live-Ben\s+70/);
    await expect(rows.nth(1).innerText()).resolves.toMatch(/2\s+Ana Live\s+live-Ana\s+50/);
    // The same document (no reload), and a while longer than the old 5 s polling: no request.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    await page.waitForTimeout(6_000);
    expect(requests).toEqual([]);
    await expect(page.getByTestId('live-state').textContent()).resolves.toBe('Live');

    // The server ends the stream (as it does when it stops): the page opens the next one at once
    // and goes on following the tournament.
    endLiveStreams();
    await expect.poll(() => requests.filter((r) => r.startsWith('POST ')).length).toBe(1);
    await expect.poll(() => page.getByTestId('live-state').textContent()).toBe('Live');
    await points('Ana', 40); // Ana: 90
    await expect
      .poll(() => rows.nth(0).innerText(), { timeout: 10_000 })
      .toMatch(/1\s+Ana Live\s+live-Ana\s+90/);
    expect(requests.filter((r) => r.includes('/graphql'))).toHaveLength(1);
    await context.close();
  });

  it('the fulfilment queue shows a new order and loses a moved one without a reload', async () => {
    const store = await shop(h, { kind: 'physical' });
    const buyer = await store.buyer(1_000_000);
    const place = async () => {
      const res = await store.order({
        customer_id: buyer,
        listing_market_id: store.listing.listing_market_id,
        recipient_name: 'Ana Live',
        shipping_address: 'Calle 1, Madrid',
      });
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as string;
    };
    const first = await place();
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await signInToBackoffice(page, h.url, admin.email, '/orders?status=pending');
    const row = (id: string) => page.locator(`tr[data-order-id="${id}"]`);
    await row(first).waitFor();
    await expect.poll(() => page.getByTestId('live-state').textContent()).toBe('Live');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));

    const second = await place(); // another client's order
    await row(second).waitFor();
    await h.db.prisma.order.update({ where: { id: first }, data: { status: 'processing' } });
    await row(first).waitFor({ state: 'detached' });
    expect(requests).toEqual([]);
    await context.close();
  });
});

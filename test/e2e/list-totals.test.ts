// Issue 35, "totals on every list", in Debian's Chromium: a platform admin reads above each list
// how many it holds (campaigns, e-mails, events, an endpoint's deliveries, brands, catalogs, the
// review queue, RG refusals, staff), and, where a list shows only its newest (the outbox: 100),
// how many of them are on the screen. The counts themselves: backoffice/list-totals-more.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import {
  BROWSER_WALK,
  launchChromium,
  seriousViolations,
  signInToBackoffice,
} from '../support/browser.js';
import { eventWorkers, webhookReceiver } from '../support/events.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { createStaff } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let a: Awaited<ReturnType<typeof partner>>;
let admin: { email: string };
let endpointId: string;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;

beforeAll(async () => {
  // The relay reads every tenant's events, and brands and staff are counted platform-wide.
  h = await startHarness({ ownDatabase: true });
  browser = await launchChromium();
  a = await partner(h);
  admin = await createStaff(h.db.prisma, 'platform_admin');
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
  const players = [await a.customer(), await a.customer(), await a.customer()];
  await eventWorkers(h).drain();
  for (let i = 0; i < 3; i++)
    await h.db.prisma.campaign.create({
      data: {
        id: newId(),
        subBrandId: a.subBrandId,
        environment: 'test',
        title: `Totals ${i}`,
        startsAt: new Date(Date.now() + 86_400_000),
        endsAt: new Date(Date.now() + 7 * 86_400_000),
        type: 'tournament',
        termsAccepted: true,
        prizes: [],
      },
    });
  // 101 failed e-mails: the outbox shows the newest 100.
  await h.db.prisma.notification.createMany({
    data: Array.from({ length: 101 }, () => ({
      id: randomUUID(),
      subBrandId: a.subBrandId,
      environment: 'test' as const,
      orderId: randomUUID(),
      eventId: randomUUID(),
      template: 'reserved',
      recipient: 'ana@example.com',
      subject: 'Your order',
      html: '<p>…</p>',
      text: '…',
      status: 'failed' as const,
      lastError: 'mailbox unavailable',
    })),
  });
  for (const p of players)
    await h.db.prisma.rgDecision.create({
      data: {
        id: newId(),
        subBrandId: a.subBrandId,
        environment: 'test',
        customerId: p.id,
        path: 'bulk_credit',
        state: 'self_excluded',
      },
    });
  for (const name of ['Summer prizes', 'Winter prizes'])
    await h.db.prisma.catalog.create({
      data: { id: newId(), subBrandId: a.subBrandId, name, status: 'pending' },
    });
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await browser?.close();
  await h?.close();
});

const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The line above the list, once the list has loaded. */
async function totalLine(page: Page, path: string, testId: string) {
  await page.goto(`${h.url}/admin${path}`);
  const line = page.getByTestId(testId);
  await line.waitFor();
  return (await line.textContent())?.trim();
}

describe(`list totals in Chromium (${TEST_DB})`, BROWSER_WALK, () => {
  it('says above every list how many it holds, and how many are shown', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    context.setDefaultTimeout(10_000);
    await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), a.subBrandId);
    const page = await context.newPage();
    await signInToBackoffice(page, h.url, admin.email, '/campaigns');
    await page.getByTestId('campaigns-total').waitFor();
    expect(await page.getByTestId('campaigns-total').textContent()).toBe('3 campaigns');
    expect(await totalLine(page, '/notifications', 'notifications-total')).toBe(
      '100 shown of 101 e-mails',
    );
    expect(await page.locator('[data-notification-id]').count()).toBe(100);
    expect(await totalLine(page, '/events', 'events-total')).toBe('3 events');
    expect(await totalLine(page, `/webhooks/${endpointId}`, 'deliveries-total')).toBe(
      '3 deliveries',
    );
    const brands = await h.db.prisma.brand.count();
    expect(await totalLine(page, '/brands', 'brands-total')).toBe(counted(brands, 'brand'));
    const catalogs = await h.db.prisma.catalog.count();
    expect(await totalLine(page, '/catalog/catalogs', 'catalogs-total')).toBe(
      counted(catalogs, 'catalog'),
    );
    expect(await totalLine(page, '/catalog/proposals', 'proposals-total')).toBe('2 proposals');
    expect(await totalLine(page, '/compliance', 'rg-decisions-total')).toBe('3 refusals');
    const staff = await h.db.prisma.staffUser.count();
    expect(await totalLine(page, '/staff', 'staff-total')).toBe(counted(staff, 'staff account'));
    expect(await seriousViolations(page), 'axe on the staff screen').toEqual([]);
    await context.close();
  });
});

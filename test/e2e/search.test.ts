// The ⌘K search and the Orders screen's search, in Debian's Chromium: an operator presses
// Control+K, finds a player by phone and opens it with the arrow keys and Enter, finds an order by
// its tracking code, and searches the Orders screen (in the URL). axe runs with the palette open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { newId } from '../../src/domain/ids.js';
import { backoffice, shop } from '../orders/support.js';
import {
  BROWSER_WALK,
  artefactDir,
  launchChromium,
  screenshot,
  seriousViolations,
  signInToBackoffice,
} from '../support/browser.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { createStaff } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let s: Awaited<ReturnType<typeof shop>>;
let other: Awaited<ReturnType<typeof shop>>;
let player: string;
let orderId: string;
let operator: { email: string };
const tag = newId().slice(-6).toUpperCase();
const tracking = `TRK${tag}ES`;
const dir = artefactDir(TEST_DB);

async function placeOrder(shopOf: typeof s, customer: string) {
  const res = await shopOf.order({
    customer_id: customer,
    listing_market_id: shopOf.listing.listing_market_id,
    recipient_name: 'Nora Finder',
    shipping_address: 'Calle Mayor 1, 28013 Madrid',
  });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
  return res.body.data as { id: string; items: { id: string }[] };
}

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  const bo = await backoffice(h);
  s = await shop(h, { kind: 'physical', stock: 10, name: `Finder Mug ${tag}` });
  other = await shop(h, { kind: 'physical', stock: 10, name: `Finder Mug ${tag} B` });
  player = await s.buyer(5000, {
    first_name: 'Nora',
    last_name: `Finder${tag}`,
    external_id: `NF-${tag}`,
    email: `nora${tag.toLowerCase()}@casino.example`,
    phone: '+34 622 45 67 89',
  });
  // Another sub-brand's player with the same phone: never offered.
  await other.buyer(5000, {
    first_name: 'Nora',
    last_name: `Elsewhere${tag}`,
    phone: '+34 622 45 67 89',
  });
  const order = await placeOrder(s, player);
  orderId = order.id;
  const res = await bo.track(order.items[0]!.id, 'Correos', tracking);
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  operator = await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: s.subBrandId });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  context.setDefaultTimeout(10_000);
  await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), s.subBrandId);
  return context.newPage();
}

describe(`search in Chromium (${TEST_DB})`, BROWSER_WALK, () => {
  it('Control+K, a phone, arrow and Enter open the player; Escape closes', async () => {
    const page = await newPage();
    await signInToBackoffice(page, h.url, operator.email, '/customers');
    await page.getByRole('heading', { name: 'Customers' }).first().waitFor();
    await page.keyboard.press('Control+K');
    const box = page.getByRole('combobox', { name: /Search players, orders/ });
    await box.waitFor();
    await box.fill('622 45 67');
    const options = page.getByRole('option');
    await expect.poll(() => options.count()).toBe(1); // the other sub-brand's Nora is not offered
    await expect(options.first().textContent()).resolves.toContain(`Nora Finder${tag}`);
    await screenshot(page, dir, 'search-palette');
    expect(await seriousViolations(page), 'axe with the palette open').toEqual([]);
    await page.keyboard.press('ArrowDown'); // one hit: wraps round to it
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/admin/customers/${player}`);
    await expect.poll(() => box.count()).toBe(0);
    // The header's button opens it too; Escape closes it.
    await page.getByTestId('search-button').click();
    await box.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => box.count()).toBe(0);
    await page.context().close();
  });

  it("finds an order by its tracking code and opens the order's page", async () => {
    const page = await newPage();
    await signInToBackoffice(page, h.url, operator.email, '/customers');
    await page.getByRole('heading', { name: 'Customers' }).first().waitFor();
    await page.keyboard.press('Control+K');
    await page
      .getByRole('combobox', { name: /Search players, orders/ })
      .fill(tracking.toLowerCase());
    const option = page.locator('[role="option"][data-kind="order"]');
    await option.first().waitFor();
    await expect(option.first().textContent()).resolves.toContain(tracking);
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/admin/orders/${orderId}$`));
    await page.getByRole('heading', { name: /^Order / }).waitFor();
    await expect(page.getByText(tracking).first().textContent()).resolves.toContain(tracking);
    await page
      .getByTestId('timeline')
      .getByText(/placed/)
      .first()
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, dir, 'order-page');
    await page.context().close();
  });

  it('at 390 px the palette fits the screen and passes axe', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(10_000);
    await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), s.subBrandId);
    const page = await context.newPage();
    await signInToBackoffice(page, h.url, operator.email, '/customers');
    await page.getByRole('heading', { name: 'Customers' }).first().waitFor();
    await page.getByTestId('search-button').click();
    await page.getByRole('combobox', { name: /Search players, orders/ }).fill(`NF-${tag}`);
    await page.getByRole('option').first().waitFor();
    await screenshot(page, dir, 'search-palette-390');
    expect(await seriousViolations(page), 'axe with the palette open at 390 px').toEqual([]);
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    expect(sideways).toBe(false);
    await context.close();
  });

  it('the Orders screen searches by e-mail and by dates, in the URL', async () => {
    const page = await newPage();
    await signInToBackoffice(page, h.url, operator.email, '/orders?status=all');
    const box = page.getByRole('textbox', { name: 'Search orders' });
    await box.fill(`NORA${tag}@casino.example`);
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await page.waitForURL(/q=NORA/);
    await page.locator(`[data-order-id="${orderId}"]`).waitFor();
    await screenshot(page, dir, 'orders-search');
    expect(await seriousViolations(page), 'axe on the searched orders').toEqual([]);
    // A window that ends before today finds nothing; the URL keeps it.
    await page.getByLabel('Placed to').fill('2020-01-01');
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await page.waitForURL(/to=2020-01-01/);
    await page.getByText('No orders match this search.').waitFor();
    const csv = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csv).toContain('createdBefore=2020-01-02T00%3A00%3A00.000Z');
    expect(csv).toContain(`q=NORA${tag}`);
    await page.context().close();
  });
});

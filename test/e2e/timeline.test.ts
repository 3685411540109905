// Issue 35, "Timelines", in Debian's Chromium: an operator opens a player's page and reads what
// happened to the player, newest first (a credit, an order placed, its e-mail), loads the older
// entries with "Load more", and axe finds nothing serious.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { newId } from '../../src/domain/ids.js';
import { shop } from '../orders/support.js';
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
let player: string;
let operator: { email: string };
const tag = newId().slice(-6).toUpperCase();
const dir = artefactDir(TEST_DB);

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  s = await shop(h, { kind: 'physical', stock: 10 });
  player = await s.buyer(0, {
    first_name: 'Tina',
    last_name: `Line${tag}`,
    email: `tina${tag.toLowerCase()}@casino.example`,
  });
  await s.credit(player, 5000, 'Welcome bonus');
  const res = await s.order({
    customer_id: player,
    listing_market_id: s.listing.listing_market_id,
    recipient_name: 'Tina Line',
    shipping_address: 'Calle Mayor 1, 28013 Madrid',
  });
  if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
  // More than a page (25): the oldest need "Load more".
  for (let i = 1; i <= 25; i++) await s.credit(player, 1, `Daily visit ${i}`);
  operator = await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: s.subBrandId });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe(`a player's timeline in Chromium (${TEST_DB})`, BROWSER_WALK, () => {
  it('shows the entries newest first, loads more, and passes axe', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    context.setDefaultTimeout(10_000);
    await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), s.subBrandId);
    const page = await context.newPage();
    await signInToBackoffice(page, h.url, operator.email, `/customers/${player}`);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    const timeline = page.getByTestId('timeline');
    await timeline.getByText('Credited 1 coin — Daily visit 25').waitFor();
    const rows = timeline.locator('tbody tr[data-kind]');
    await expect.poll(() => rows.count()).toBe(25);
    await expect(rows.first().textContent()).resolves.toContain('Daily visit 25');
    expect(await timeline.getByText('Welcome bonus').count()).toBe(0); // on the next page
    await page.getByRole('button', { name: 'Load more' }).click();
    await timeline.getByText('Credited 5,000 coins — Welcome bonus').waitFor();
    await expect(timeline.getByText(/^Order R-\S+ placed \(1,000 coins\)$/).count()).resolves.toBe(
      1,
    );
    await expect(timeline.getByText(/^E-mail “.+” queued$/).count()).resolves.toBeGreaterThan(0);
    await expect.poll(() => page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    const ids = await rows.evaluateAll((r) => r.map((e) => e.textContent));
    expect(new Set(ids).size).toBe(ids.length);
    await screenshot(page, dir, 'customer-timeline');
    expect(await seriousViolations(page), 'axe on the customer page').toEqual([]);
    await context.close();
  });
});

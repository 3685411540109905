// Backoffice fixes of issue 35 in Debian's Chromium: the favicon (B11), a throttled sign-in's
// wording (B13), dialogs' close button and first focus (B4), and Enter in the API keys' scope
// search (B1). Each dialog is checked with axe while open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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

let h: Harness;
let browser: Browser;
let subBrandId: string;
let admin: { email: string };
const dir = artefactDir(TEST_DB);

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  subBrandId = (await createTenant(h.db.prisma)).subBrandId;
  admin = await createStaff(h.db.prisma, 'platform_admin');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  context.setDefaultTimeout(10_000);
  await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), subBrandId);
  return { context, page: await context.newPage() };
}

/** The accessible name (or text) of the element that has focus. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute('aria-label') ?? el?.innerText.trim() ?? '';
  });

const keyRows = (page: Page) => page.getByTestId('keys-table').locator('tbody tr').count();

describe(`backoffice fixes in Chromium (${TEST_DB})`, BROWSER_WALK, () => {
  it('names a favicon that answers 200, and nothing the sign-in page asks for is a 404 (B11)', async () => {
    const { context, page } = await newPage();
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${h.url}/admin/sign-in`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBe('/admin/favicon.svg');
    const icon = await page.request.get(`${h.url}${href}`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    expect(failed).toEqual([]);
    await context.close();
  });

  it('says a throttled sign-in can try again in 15 minutes (B13)', async () => {
    const staff = await createStaff(h.db.prisma, 'support');
    const { context, page } = await newPage();
    await page.goto(`${h.url}/admin/sign-in`);
    for (let i = 0; i < 6; i++) {
      await page.getByRole('textbox', { name: 'E-mail' }).fill(staff.email);
      await page.getByRole('textbox', { name: 'Password' }).fill(`wrong password ${i}`);
      const answered = page.waitForResponse((r) => r.url().endsWith('/admin/api/sign-in'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await answered;
    }
    await page.getByText('Too many sign-in attempts. Try again in 15 minutes.').waitFor();
    await expect(page.getByText(/\d+ s\b/).count()).resolves.toBe(0);
    await screenshot(page, dir, 'sign-in-throttled');
    await context.close();
  });

  it('keeps Enter in the scopes search from minting a key; the button mints it (B1)', async () => {
    const { context, page } = await newPage();
    await signInToBackoffice(page, h.url, admin.email, '/keys');
    await page.getByRole('button', { name: 'Mint key' }).waitFor();
    await page.getByTestId('keys-table').waitFor();
    const before = await keyRows(page);
    const search = page.getByRole('combobox', { name: 'Scopes' });
    await search.click();
    await search.pressSequentially('orders:re');
    await search.press('Enter');
    // Enter picked the highlighted scope, and nothing was sent.
    await page.locator('input[type="hidden"][value*="ORDERS_READ"]').waitFor({ state: 'attached' });
    await search.press('Enter');
    await page.waitForTimeout(500);
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    await page.reload();
    await page.getByRole('button', { name: 'Mint key' }).waitFor();
    await expect.poll(() => keyRows(page)).toBe(before);

    // The button mints the key; the dialog showing it puts focus on Copy, not on its close button.
    const scopes = page.getByRole('combobox', { name: 'Scopes' });
    await scopes.click();
    await scopes.pressSequentially('orders:re');
    await scopes.press('Enter');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Mint key' }).click();
    const minted = page.getByRole('dialog', { name: 'Your new key' });
    await minted.waitFor();
    await expect.poll(() => focused(page)).toBe('Copy');
    await expect(minted.getByRole('button', { name: 'Close' }).count()).resolves.toBe(1);
    await screenshot(page, dir, 'api-key-minted-dialog');
    expect(await seriousViolations(page), 'axe with the minted key open').toEqual([]);
    await minted.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => keyRows(page)).toBe(before + 1);
    await expect(page.getByTestId('keys-table').innerText()).resolves.toContain('orders:read');
    await context.close();
  });

  it('opens a confirmation with a named close button and focus on its safe answer (B4)', async () => {
    const tenant = await createTenant(h.db.prisma);
    await tenant.key();
    const { context, page } = await newPage();
    await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), tenant.subBrandId);
    await signInToBackoffice(page, h.url, admin.email, '/keys');
    await page.getByTestId('keys-table').getByRole('button', { name: 'Revoke' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Revoke the key' });
    await dialog.waitFor();
    await expect.poll(() => focused(page)).toBe('Keep as is');
    await expect(dialog.getByRole('button', { name: 'Close' }).count()).resolves.toBe(1);
    await screenshot(page, dir, 'confirm-dialog');
    expect(await seriousViolations(page), 'axe with a confirmation open').toEqual([]);
    // Enter on the focused button keeps things as they are.
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await expect(page.getByTestId('keys-table').innerText()).resolves.not.toMatch(/revoked/);
    await context.close();
  });
});

// Every backoffice screen at a phone's width, 390 px (issue 35, B6): the page never scrolls
// sideways (wide tables scroll inside themselves), and the tenant switch and the account menu
// are on the screen (with the menu opened by the burger). axe on each screen at that width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SCREENS } from '../../web/src/app/screens.js';
import {
  BROWSER_WALK,
  artefactDir,
  launchChromium,
  screenshot,
  seriousViolations,
} from '../support/browser.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { shop } from '../orders/support.js';
import { createStaff, STAFF_PASSWORD } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let page: Page;
let customerId: string;
let subBrandId: string;
const dir = artefactDir(TEST_DB);

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  const s = await shop(h, { kind: 'physical', name: 'Travel mug' });
  subBrandId = s.subBrandId;
  customerId = await s.buyer(500, {
    external_id: 'narrow-1',
    first_name: 'Nora',
    last_name: 'Narrow',
  });
  const admin = await createStaff(h.db.prisma, 'platform_admin');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  context.setDefaultTimeout(10_000);
  await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), subBrandId);
  page = await context.newPage();
  await page.goto(`${h.url}/admin/sign-in`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(admin.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1 }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** How far the page scrolls sideways, in CSS pixels (0 when it fits). */
const sideways = (p: Page) =>
  p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe(`the backoffice at 390 px (${TEST_DB})`, BROWSER_WALK, () => {
  it('the tenant switch and the account menu are reachable', async () => {
    const account = page.getByRole('button', { name: 'Account' });
    await account.waitFor();
    const box = await account.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Menu' }).click();
    const environment = page.getByRole('radiogroup', { name: 'Environment' });
    await expect
      .poll(async () => {
        const b = await environment.boundingBox();
        return b !== null && b.x >= 0 && b.x + b.width <= 390;
      })
      .toBe(true);
    await page.getByRole('button', { name: 'Menu' }).click();
    await account.click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).waitFor();
    await page.keyboard.press('Escape');
  });

  it("the dashboard's period switch shows each option whole within the screen", async () => {
    await page.goto(`${h.url}/admin/`);
    const period = page.getByRole('radiogroup', { name: 'Period' });
    await period.waitFor();
    const labels = period.locator('label');
    await expect(labels.count()).resolves.toBe(5);
    // The switch clips what does not fit it (it once cut "Custom" at its edge): each option lies
    // whole inside it, and it inside the screen.
    const switchBox = (await period.boundingBox())!;
    expect(switchBox.x).toBeGreaterThanOrEqual(0);
    expect(switchBox.x + switchBox.width).toBeLessThanOrEqual(390);
    for (const label of await labels.all()) {
      const name = await label.innerText();
      const box = (await label.boundingBox())!;
      expect(box.x, name).toBeGreaterThanOrEqual(switchBox.x);
      expect(box.x + box.width, name).toBeLessThanOrEqual(switchBox.x + switchBox.width);
      expect(box.y + box.height, name).toBeLessThanOrEqual(switchBox.y + switchBox.height);
      // Whole, not cut to an ellipsis.
      await expect(
        label.evaluate((e) => e.scrollWidth <= e.clientWidth),
        name,
      ).resolves.toBe(true);
    }
    expect(await sideways(page)).toBe(0);
    // Each option still picks its period.
    await period.getByText('90 days').click();
    await expect.poll(() => page.url()).toContain('range=90d');
  });

  it('no screen scrolls sideways', async () => {
    const paths = [
      ...SCREENS.filter((s) => !s.href.includes('sub-brands')).map((s) => s.href),
      `/customers/${customerId}`,
      `/brands/sub-brands/${subBrandId}`,
    ];
    const wide: string[] = [];
    const axe: string[] = [];
    for (const path of paths) {
      await page.goto(`${h.url}/admin${path}`);
      await page
        .getByRole('heading', { level: 1 })
        .waitFor()
        .catch(() => expect.fail(`${path} shows no heading`));
      // A live screen's stream stays open (never network-idle): it has loaded once it is live.
      const live = page.getByTestId('live-state');
      if (await live.count()) await expect.poll(() => live.textContent()).toBe('Live');
      else await page.waitForLoadState('networkidle');
      const over = await sideways(page);
      if (over > 0)
        wide.push(
          `${path} (+${over} px): ${await page.evaluate(() =>
            [...document.querySelectorAll('main *')]
              .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth)
              .slice(-3)
              .map((e) => `${e.tagName}.${String(e.className).slice(0, 60)}`)
              .join(' | '),
          )}`,
        );
      // Stable names (ids become `id`), so the docs can show them (docs/backoffice.md).
      const name = path.replace(/[0-9a-f-]{36}/g, 'id').replaceAll('/', '-');
      await screenshot(page, dir, `narrow${name === '-' ? '-dashboard' : name}`);
      for (const v of await seriousViolations(page)) axe.push(`${path}: ${v}`);
    }
    expect(wide).toEqual([]);
    expect(axe).toEqual([]);
  });
});

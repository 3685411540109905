// Responsible gaming in the backoffice, in Chromium (issue 34): an operator self-excludes a
// player from the customer page; a refused incentive shows on the refusals screen and in its CSV;
// a brand admin lifts the state with a reason, which the history keeps. axe on both screens.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  BROWSER_WALK,
  artefactDir,
  launchChromium,
  pickOption,
  screenshot,
  seriousViolations,
  signInToBackoffice,
} from '../support/browser.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { marketplaceShop } from '../marketplace/support.js';
import { createStaff } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let api: Awaited<ReturnType<typeof marketplaceShop>>;
const dir = artefactDir(TEST_DB);

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  api = await marketplaceShop(h);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function checkScreen(page: Page, name: string) {
  await screenshot(page, dir, name);
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

async function pick(
  page: Page,
  scope: ReturnType<Page['getByTestId']>,
  label: string,
  option: string,
) {
  await pickOption(page, label, option, { scope, exact: true });
}

describe(`responsible gaming in the backoffice (${TEST_DB})`, BROWSER_WALK, () => {
  it('an operator self-excludes a player; the refusal is listed and exported; a brand admin lifts it with a reason', async () => {
    // Her store session was opened before the state began: the marketplace must say so.
    const externalId = `p-${randomUUID().slice(0, 6)}`;
    const player = await api.player(0, {
      first_name: 'Rita',
      last_name: 'Stone',
      external_id: externalId,
    });
    const c = { id: player.id, external_id: externalId };
    const operator = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: api.subBrandId,
    });
    const page = await browser.newPage();
    await signInToBackoffice(page, h.url, operator.email, `/customers/${c.id}`);
    const card = page.getByTestId('responsible-gaming');
    await expect.poll(() => card.getByTestId('rg-state').textContent()).toBe('None');
    await pick(page, card, 'New state', 'Self-excluded');
    await pick(page, card, 'Asked by', 'player');
    await card.getByRole('button', { name: 'Set state…' }).click();
    const dialog = page.getByRole('dialog');
    await expect
      .poll(() => dialog.innerText())
      .toContain("Set Rita's state to Self-excluded indefinitely?");
    await dialog.getByRole('button', { name: 'Set state' }).click();
    await expect.poll(() => card.getByTestId('rg-state').textContent()).toBe('Self-excluded');
    await expect.poll(() => card.innerText()).toContain('Every incentive is refused');
    await expect
      .poll(() => page.getByTestId('rg-history').innerText())
      .toContain('None → Self-excluded');
    await checkScreen(page, 'customer-responsible-gaming');

    const store = await browser.newPage();
    await store.goto(player.url);
    await store.getByRole('link', { name: 'Rewards', exact: true }).click();
    await expect
      .poll(() => store.getByTestId('rewards-paused').innerText())
      .toBe('Your rewards are paused. Your coins and orders are still here.');
    expect(await seriousViolations(store), 'axe on the paused rewards page').toEqual([]);
    await store.close();

    // A store session for the player is refused, and listed.
    expect((await api.post('/api/v1/store-sessions', { customer_id: c.id })).status).toBe(409);
    await page.goto(`${h.url}/admin/compliance`);
    const table = page.getByTestId('rg-decisions');
    await expect.poll(() => table.innerText()).toContain('store session');
    await expect.poll(() => table.innerText()).toContain(`Rita Stone (${c.external_id})`);
    await checkScreen(page, 'rg-refusals');
    const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    const csv = await page.evaluate(async (url) => (await fetch(url)).text(), href!);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('id,created_at,customer_id,external_id,path,state,until,reference');
    expect(lines.filter((l) => l.includes(c.id))).toHaveLength(1);
    expect(lines[1]).toContain(',store_session,self_excluded,');
    await page.close();

    // An operator cannot lift it: the server refuses, and says who can.
    const again = await browser.newPage();
    await signInToBackoffice(again, h.url, operator.email, `/customers/${c.id}`);
    const operatorCard = again.getByTestId('responsible-gaming');
    await pick(again, operatorCard, 'New state', 'None');
    await operatorCard.getByLabel(/Reason for shortening or lifting/).fill('Asked to come back');
    await operatorCard.getByRole('button', { name: 'Set state…' }).click();
    await again.getByRole('dialog').getByRole('button', { name: 'Set state' }).click();
    await expect
      .poll(() => operatorCard.innerText())
      .toContain('Only a brand admin may shorten or lift');
    await again.close();

    const admin = await createStaff(h.db.prisma, 'brand_admin', { brandId: api.brandId });
    const adminPage = await browser.newPage();
    await signInToBackoffice(adminPage, h.url, admin.email, `/customers/${c.id}`);
    const adminCard = adminPage.getByTestId('responsible-gaming');
    await pick(adminPage, adminCard, 'New state', 'None');
    await adminCard
      .getByLabel(/Reason for shortening or lifting/)
      .fill('Exclusion period confirmed over');
    await adminCard.getByRole('button', { name: 'Set state…' }).click();
    await expect
      .poll(() => adminPage.getByRole('dialog').innerText())
      .toContain('This shortens or lifts the state in force.');
    await adminPage.getByRole('dialog').getByRole('button', { name: 'Set state' }).click();
    await expect.poll(() => adminCard.getByTestId('rg-state').textContent()).toBe('None');
    await expect
      .poll(() => adminPage.getByTestId('rg-history').innerText())
      .toContain('Exclusion period confirmed over');
    await adminPage.close();
  });
});

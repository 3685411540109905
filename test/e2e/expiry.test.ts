// Coin expiry and holds in the backoffice, in Chromium (issue 33): a brand admin sets the
// sub-brand's expiry policy from its page (confirmation stating that coins already credited keep
// theirs); an operator sees a customer's available coins, holds, next expiry and lots in the
// order they are spent. axe on both screens. On the same page (issue 34), the jurisdiction: a
// platform admin sets UKGC, a brand admin only reads it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { setCoinExpiry } from '../../src/domain/wallet/expiry-policy.js';
import {
  BROWSER_WALK,
  artefactDir,
  launchChromium,
  screenshot,
  seriousViolations,
  signInToBackoffice,
} from '../support/browser.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { createStaff } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let api: Awaited<ReturnType<typeof partner>>;
const dir = artefactDir(TEST_DB);

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  api = await partner(h);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function checkScreen(page: Page, name: string) {
  await screenshot(page, dir, name);
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

describe(`coin expiry and holds in the backoffice (${TEST_DB})`, BROWSER_WALK, () => {
  it('a brand admin sets rolling 30-day expiry on its sub-brand', async () => {
    const admin = await createStaff(h.db.prisma, 'brand_admin', { brandId: api.brandId });
    const page = await browser.newPage();
    await signInToBackoffice(page, h.url, admin.email, `/brands/sub-brands/${api.subBrandId}`);
    const card = page.getByTestId('coin-expiry');
    await expect.poll(() => card.innerText()).toContain('Now: coins never expire.');
    await card
      .getByRole('textbox', { name: 'Policy', exact: true })
      .or(card.getByRole('combobox', { name: 'Policy', exact: true }))
      .first()
      .click();
    await page.getByRole('option', { name: 'Each credit, N days after it' }).click();
    await card.getByRole('textbox', { name: 'Days' }).fill('30');
    await card.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog');
    await expect
      .poll(() => dialog.innerText())
      .toContain('each credit expires 30 days after it was earned? Coins already credited keep');
    await dialog.getByRole('button', { name: 'Save expiry' }).click();
    await expect
      .poll(() => card.innerText())
      .toContain('Now: each credit expires 30 days after it was earned.');
    const row = await h.db.prisma.subBrand.findUniqueOrThrow({ where: { id: api.subBrandId } });
    expect(row).toMatchObject({ expiryPolicy: 'rolling_days', expiryDays: 30 });
    await checkScreen(page, 'coin-expiry');
    await page.close();
  });

  it('a platform admin sets UKGC on the sub-brand page; a brand admin only reads it', async () => {
    const other = await partner(h);
    const platform = await createStaff(h.db.prisma, 'platform_admin');
    const page = await browser.newPage();
    await signInToBackoffice(page, h.url, platform.email, `/brands/sub-brands/${other.subBrandId}`);
    const card = page.getByTestId('jurisdiction');
    await expect.poll(() => card.innerText()).toContain('Now: None');
    await card
      .getByRole('textbox', { name: 'Regulator', exact: true })
      .or(card.getByRole('combobox', { name: 'Regulator', exact: true }))
      .first()
      .click();
    await page.getByRole('option', { name: 'UK Gambling Commission (UKGC)' }).click();
    await card.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText()).toContain('no mixed-product incentives');
    await dialog.getByRole('button', { name: 'Save jurisdiction' }).click();
    await expect.poll(() => card.innerText()).toContain('Now: UK Gambling Commission (UKGC)');
    const row = await h.db.prisma.subBrand.findUniqueOrThrow({ where: { id: other.subBrandId } });
    expect(row.jurisdiction).toBe('UKGC');
    await checkScreen(page, 'jurisdiction');
    await page.close();

    const brandAdmin = await createStaff(h.db.prisma, 'brand_admin', { brandId: other.brandId });
    const readOnly = await browser.newPage();
    await signInToBackoffice(
      readOnly,
      h.url,
      brandAdmin.email,
      `/brands/sub-brands/${other.subBrandId}`,
    );
    const shown = readOnly.getByTestId('jurisdiction');
    await expect.poll(() => shown.innerText()).toContain('Now: UK Gambling Commission (UKGC)');
    expect(await shown.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await readOnly.close();
  });

  it('an operator sees available, held, the next expiry, the holds and the lots', async () => {
    const operator = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: api.subBrandId,
    });
    await setCoinExpiry(h.db.prisma, api.subBrandId, { policy: 'rolling_days', days: 30 });
    const c = await api.customer({ first_name: 'Lotte' });
    await api.credit(c.id, 120);
    await api.credit(c.id, 30);
    const held = await api.post(`/api/v1/customers/${c.id}/coins/holds`, {
      amount: 50,
      expires_in_seconds: 3600,
      reason: 'tournament buy-in',
    });
    expect(held.status).toBe(201);
    const page = await browser.newPage();
    await signInToBackoffice(page, h.url, operator.email, `/customers/${c.id}`);
    await expect.poll(() => page.getByTestId('available').innerText()).toBe('100 coins');
    expect(await page.getByTestId('held').innerText()).toBe('50 coins');
    expect(await page.getByTestId('next-expiry').innerText()).toMatch(/^120 coins on /);
    expect(await page.getByTestId('holds').innerText()).toContain('tournament buy-in');
    const lots = await page.getByTestId('lots').locator('tbody tr').allInnerTexts();
    expect(lots.map((l) => l.replace(/\s+/g, ' '))).toEqual([
      expect.stringContaining('120 coins of 120 coins'),
      expect.stringContaining('30 coins of 30 coins'),
    ]);
    await checkScreen(page, 'customer-lots');
    await page.close();
  });
});

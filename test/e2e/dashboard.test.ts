// The daily view in Chromium (issue 35): the dashboard's key figures, today's alerts with a way to
// the record, and a date range (presets and custom) kept in the URL. axe on the screen.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  BROWSER_WALK,
  artefactDir,
  launchChromium,
  screenshot,
  seriousViolations,
  signInToBackoffice,
} from '../support/browser.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { shop } from '../orders/support.js';
import { createStaff } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let s: Awaited<ReturnType<typeof shop>>;
let campaignId: string;
const dir = artefactDir(TEST_DB);

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  s = await shop(h, { kind: 'physical', name: 'Picnic set' });
  await s.buyer(1234);
  campaignId = randomUUID();
  await h.db.prisma.campaign.create({
    data: {
      id: campaignId,
      subBrandId: s.subBrandId,
      environment: 'test',
      title: 'Summer sprint',
      type: 'tournament',
      status: 'in_progress',
      budget: 200,
      totalAwarded: 200,
      startsAt: new Date(Date.now() - 86_400_000),
      endsAt: new Date(Date.now() + 86_400_000),
      termsAccepted: true,
      prizes: [],
    },
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

describe(`the dashboard (${TEST_DB})`, BROWSER_WALK, () => {
  it('shows the figures and alerts of a period the operator picks, kept in the URL', async () => {
    const operator = await createStaff(h.db.prisma, 'establishment_operator', {
      subBrandId: s.subBrandId,
    });
    const page = await browser.newPage();
    await signInToBackoffice(page, h.url, operator.email, '/');
    await expect
      .poll(() => page.getByTestId('kpi-coin-liability').innerText())
      .toContain('1,234 coins');
    await expect(page.getByTestId('kpi-coins-issued').innerText()).resolves.toContain(
      '1,234 coins',
    );
    await expect(page.getByTestId('kpi-active-players').innerText()).resolves.toContain('1');
    const alert = page.getByTestId('alerts').getByText(/Summer sprint.*whole budget/);
    await alert.waitFor();
    expect(await seriousViolations(page), 'axe on the dashboard').toEqual([]);
    await screenshot(page, dir, 'dashboard');

    // A preset, then a custom range: the URL says which, and the figures follow it.
    await page.getByRole('radiogroup', { name: 'Period' }).getByText('7 days').click();
    await expect.poll(() => new URL(page.url()).search).toBe('?range=7d');
    await page.getByLabel('From', { exact: true }).fill('2024-01-01');
    await page.getByLabel('To', { exact: true }).fill('2024-01-31');
    await expect
      .poll(() => new URL(page.url()).search)
      .toBe('?range=custom&from=2024-01-01&to=2024-01-31');
    await expect.poll(() => page.getByTestId('kpi-coins-issued').innerText()).toContain('0 coins');
    // Held now whatever the period.
    await expect(page.getByTestId('kpi-coin-liability').innerText()).resolves.toContain(
      '1,234 coins',
    );
    await page.reload();
    await expect
      .poll(() => page.getByLabel('From', { exact: true }).inputValue())
      .toBe('2024-01-01');

    // The alert opens its campaign.
    await page.getByTestId('alerts').getByRole('link', { name: 'Open' }).first().click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/admin/campaigns/${campaignId}`);
    await page.close();
  });
});

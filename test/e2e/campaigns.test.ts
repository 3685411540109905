// The backoffice's campaign screens end to end in Chromium on the run's database, as an
// establishment operator: the list filtered by status, a campaign created from scratch (the
// engine's refusals shown at their fields), from a preset, from a template and as a copy; its
// moves (start, pause, resume, end), each asked first and one done by keyboard; the budget; and a
// tournament's leaderboard refreshing by itself, with a player's position. axe on every screen.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
  pickOption,
  screenshot,
  seriousViolations,
} from '../support/browser.js';
import { createTenant } from '../support/factories.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { createStaff, STAFF_PASSWORD } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let operator: { email: string };
let tenant: { subBrandId: string; environment: 'test' };
let tournament: string;
let foreign: string;
const players: Record<string, string> = {};
const dir = artefactDir(TEST_DB);
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const prize = (over: Record<string, unknown>) => ({
  coinPrize: 0,
  catalogPrize: '',
  productPrize: '',
  quantity: 0,
  day: 0,
  rank: '',
  ...over,
});
const body = (over: Record<string, unknown>) => ({
  title: 'Seeded',
  type: 'daily_reward_simple',
  startDate: day(-1),
  endDate: day(20),
  termsAccepted: true,
  prizes: [prize({ coinPrize: 25 })],
  ...over,
});

async function points(player: string, n: number) {
  await insertActivity(
    h.db.prisma,
    tenant,
    { mode: 'tournament', player_id: players[player], campaign_id: tournament, points: n },
    { now: new Date(), idempotencyKey: randomUUID() },
  );
}

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  const t = await createTenant(h.db.prisma);
  tenant = { subBrandId: t.subBrandId, environment: 'test' };
  operator = await createStaff(h.db.prisma, 'establishment_operator', {
    subBrandId: t.subBrandId,
  });
  const now = new Date();
  tournament = (
    await createCampaign(
      h.db.prisma,
      tenant,
      body({
        title: 'Autumn slots tournament',
        type: 'tournament',
        budget: 5000,
        prizes: [prize({ rank: '1', coinPrize: 1000 }), prize({ rank: '2-3', coinPrize: 200 })],
      }),
      now,
    )
  ).id;
  await updateCampaignStatus(h.db.prisma, tenant, tournament, { status: 'in_progress' }, now);
  await createCampaign(
    h.db.prisma,
    tenant,
    body({
      title: 'Login template',
      isTemplate: true,
      duration: 'next_week',
      startDate: undefined,
      endDate: undefined,
    }),
    now,
  );
  for (const name of ['Ana', 'Ben', 'Cai'])
    players[name] = (
      await createCustomer(h.db.prisma, tenant, {
        firstName: name,
        lastName: 'Racer',
        externalId: `ext-${name}`,
      })
    ).id;
  await points('Ana', 50);
  await points('Ben', 80);
  await points('Cai', 20);
  const other = await createTenant(h.db.prisma);
  foreign = (
    await createCampaign(
      h.db.prisma,
      { subBrandId: other.subBrandId, environment: 'test' },
      body({ title: 'Not yours' }),
      now,
    )
  ).id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function signedIn(next: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(`${h.url}/admin/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(operator.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return { context, page };
}

async function checkScreen(page: Page, name: string) {
  await screenshot(page, dir, name);
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

const campaignRow = (title: string) =>
  h.db.prisma.campaign.findFirstOrThrow({ where: { title, ...tenant } });

describe(`the campaign screens in Chromium (${TEST_DB})`, BROWSER_WALK, () => {
  it('lists campaigns by status, creates one from scratch with the refusals at their fields, and moves it (asked first)', async () => {
    const { context, page } = await signedIn('/campaigns');
    const table = page.getByTestId('campaigns-table');
    await table.getByRole('link', { name: 'Autumn slots tournament', exact: true }).waitFor();
    await table.getByText('Login template').waitFor();
    await expect(table.getByTestId('budget').first().innerText()).resolves.toMatch(
      /0 of 5,000 coins/,
    );
    await checkScreen(page, 'campaigns');
    await page
      .getByRole('radiogroup', { name: 'Status' })
      .getByText('draft', { exact: true })
      .click();
    await expect.poll(() => page.url()).toContain('status=draft');
    await page.getByText('No campaigns match.').waitFor(); // the template is not a draft here
    await expect(table.getByText('Autumn slots tournament').count()).resolves.toBe(0);

    // From scratch: an end before the start and unaccepted terms, refused at their fields.
    await page.goto(`${h.url}/admin/campaigns/new`);
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Black Friday login');
    await pickOption(page, 'When', 'Custom dates');
    const start = page.getByRole('textbox', { name: 'Start (UTC)' });
    const end = page.getByRole('textbox', { name: 'End (UTC, that day included)' });
    await start.fill(day(10));
    await end.fill(day(5));
    await page.getByRole('textbox', { name: 'Budget (coins)' }).fill('3000');
    // The engine checks each field before the rules across fields: the terms first, then the dates.
    const terms = page.getByRole('checkbox', { name: 'The legal terms are accepted' });
    await page.getByRole('button', { name: 'Create as draft' }).click();
    await page.getByText('must be true: a campaign needs its terms accepted').first().waitFor();
    await expect(terms.getAttribute('aria-invalid')).resolves.toBe('true');
    await terms.check();
    await page.getByRole('button', { name: 'Create as draft' }).click();
    await page.getByText('must be after startDate').first().waitFor();
    await expect(end.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(terms.getAttribute('aria-invalid')).resolves.not.toBe('true');
    await checkScreen(page, 'campaign-new-refused');
    await expect(
      h.db.prisma.campaign.count({ where: { title: 'Black Friday login' } }),
    ).resolves.toBe(0);
    await end.fill(day(30));
    await page.getByRole('button', { name: 'Create as draft' }).click();
    await page.getByRole('heading', { name: 'Black Friday login' }).waitFor();
    const status = page.getByTestId('campaign-status');
    await expect(status.innerText()).resolves.toBe('DRAFT');
    await expect(page.getByTestId('budget').innerText()).resolves.toMatch(/0 of 3,000 coins/);
    await checkScreen(page, 'campaign');

    // Start, asked first: closing the question changes nothing.
    await page.getByRole('button', { name: 'Start…' }).click();
    await page
      .getByRole('dialog')
      .getByText(/Start "Black Friday login"\?/)
      .waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect((await campaignRow('Black Friday login')).status).toBe('draft');
    await page.getByRole('button', { name: 'Start…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => status.innerText()).toBe('IN PROGRESS');
    // Pause by keyboard alone: focus, Enter, the confirm button, Enter.
    await page.getByRole('button', { name: 'Pause…' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByRole('button', { name: 'Pause' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => status.innerText()).toBe('PAUSED');
    await page.getByRole('button', { name: 'Resume…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => status.innerText()).toBe('IN PROGRESS');
    await page.getByRole('button', { name: 'End…' }).click();
    await page
      .getByRole('dialog')
      .getByText(/cancelled for good/)
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'End campaign' }).click();
    await expect.poll(() => status.innerText()).toBe('CANCELLED');
    expect(await campaignRow('Black Friday login')).toMatchObject({
      status: 'cancelled',
      budget: 3000n,
      duration: 'custom',
    });
    // Another establishment's campaign, even by its URL, is not found.
    await page.goto(`${h.url}/admin/campaigns/${foreign}`);
    await page.getByText('Campaign not found.').waitFor();
    await expect(page.getByText('Not yours').count()).resolves.toBe(0);
    await context.close();
  });

  it('creates from a preset, from a template and as a copy; edits a running campaign within what it allows', async () => {
    const { context, page } = await signedIn('/campaigns/new');
    await pickOption(page, 'A preset', /Weekend tournament/);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Title', exact: true }).inputValue())
      .toBe('Weekend tournament');
    await expect(page.getByTestId('prize-row').count()).resolves.toBe(3);
    await page.getByRole('textbox', { name: 'Rank of prize 3' }).fill('3-10'); // overlaps 2-3
    await page.getByRole('checkbox', { name: 'The legal terms are accepted' }).check();
    await page.getByRole('button', { name: 'Create as draft' }).click();
    await page.getByText('overlaps the rank of prizes.1').first().waitFor();
    await expect(
      page.getByRole('textbox', { name: 'Rank of prize 3' }).getAttribute('aria-invalid'),
    ).resolves.toBe('true');
    await page.getByRole('textbox', { name: 'Rank of prize 3' }).fill('4-10');
    await page.getByRole('button', { name: 'Create as draft' }).click();
    await page.getByRole('heading', { name: 'Weekend tournament' }).waitFor();
    expect(await campaignRow('Weekend tournament')).toMatchObject({
      type: 'tournament',
      duration: 'next_weekend',
      status: 'draft',
      budget: 3000n,
    });

    // From a template: the server clones it into a draft.
    await page.goto(`${h.url}/admin/campaigns/new`);
    // B14: the title names the template's copy, so it waits for a template to be chosen.
    const copyTitle = page.getByRole('textbox', { name: 'Title of the new campaign' });
    await expect(copyTitle.isDisabled()).resolves.toBe(true);
    await pickOption(page, 'Or one of your templates', 'Login template');
    await expect(copyTitle.isDisabled()).resolves.toBe(false);
    await page.getByRole('textbox', { name: 'Title of the new campaign' }).fill('December login');
    await page.getByRole('button', { name: 'Create from template' }).click();
    await page.getByRole('heading', { name: 'December login' }).waitFor();
    const template = await campaignRow('Login template');
    expect(await campaignRow('December login')).toMatchObject({
      clonedFromId: template.id,
      isTemplate: false,
      status: 'draft',
    });
    await checkScreen(page, 'campaign-from-template');

    // A copy of the running tournament: the form filled from it.
    await page.goto(`${h.url}/admin/campaigns/${tournament}`);
    await page.getByRole('link', { name: 'Copy as a new draft' }).click();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Title', exact: true }).inputValue())
      .toBe('Copy of Autumn slots tournament');
    await page.getByRole('button', { name: 'Create as draft' }).click();
    await page.getByRole('heading', { name: 'Copy of Autumn slots tournament' }).waitFor();
    expect(await campaignRow('Copy of Autumn slots tournament')).toMatchObject({
      type: 'tournament',
      budget: 5000n,
      status: 'draft',
    });

    // The running tournament: its budget may grow; its prizes are locked.
    await page.goto(`${h.url}/admin/campaigns/${tournament}`);
    await page.getByText('only its texts, its budget and a later end can change').waitFor();
    await expect(
      page.getByRole('textbox', { name: 'Coins of prize 1' }).isDisabled(),
    ).resolves.toBe(true);
    await page.getByRole('textbox', { name: 'Budget (coins)' }).fill('8000');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved Autumn slots tournament.').waitFor();
    expect((await campaignRow('Autumn slots tournament')).budget).toBe(8000n);
    await context.close();
  });

  it("shows a tournament's leaderboard refreshing by itself, and a player's position", async () => {
    const { context, page } = await signedIn(`/campaigns/${tournament}/leaderboard`);
    const rows = page.getByTestId('leaderboard').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    await expect(rows.nth(0).innerText()).resolves.toMatch(/1\s+Ben Racer\s+ext-Ben\s+80/);
    await expect(rows.nth(0).innerText()).resolves.toContain('1,000 coins');
    await page.getByRole('textbox', { name: 'Player id or external id' }).fill('ext-Cai');
    await page.getByRole('button', { name: 'Find position' }).click();
    await expect
      .poll(() => page.getByTestId('standing').innerText())
      .toMatch(/Cai Racer is #3 of 3 with 20 points — would win 200 coins/);
    await checkScreen(page, 'leaderboard');

    // Points arrive elsewhere (the partner's activity); the page follows without a reload.
    const requests: string[] = [];
    page.on('request', (r) => r.url().includes('/graphql') && requests.push(r.url()));
    await points('Cai', 100);
    await expect
      .poll(() => rows.nth(0).innerText(), { timeout: 15_000 })
      .toMatch(/1\s+Cai Racer\s+ext-Cai\s+120/);
    await expect
      .poll(() => page.getByTestId('standing').innerText(), { timeout: 15_000 })
      .toMatch(/Cai Racer is #1 of 3 with 120 points/);
    expect(requests.length).toBeGreaterThan(0);
    await context.close();
  });
});

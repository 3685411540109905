// The Audit screen in Chromium (issue 35, "a readable audit"): two staff members change a player
// (a coin adjustment, a status change) through GraphQL; an operator finds who changed what by
// person and by date range, reads the changes field by field, opens the raw JSON, and the Download
// CSV link carries the filters. axe runs with the raw disclosure open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { idFloor } from '../../src/domain/ids.js';
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
import { createStaff, signInAs } from '../support/staff.js';

/** A time-ordered id (UUIDv7) of a past instant, as the row would have had when written then. */
const idAt = (at: Date) => `${idFloor(at).slice(0, 14)}7${crypto.randomUUID().slice(15)}`;

let h: Harness;
let browser: Browser;
let subBrandId: string;
let ana: string;
let adjuster: { id: string; email: string };
let blocker: { id: string; email: string };
let octoberId: string;
const dir = artefactDir(TEST_DB);

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  const a = await createTenant(h.db.prisma);
  subBrandId = a.subBrandId;
  ana = (
    await createCustomer(
      h.db.prisma,
      { subBrandId, environment: 'test' },
      { firstName: 'Ana', lastName: 'Audited', externalId: 'ana-audit' },
    )
  ).id;
  adjuster = await createStaff(h.db.prisma, 'establishment_operator', { subBrandId });
  blocker = await createStaff(h.db.prisma, 'establishment_operator', { subBrandId });
  const adjusting = await signInAs(h.url, adjuster.email);
  const blocking = await signInAs(h.url, blocker.email);
  const adjust = (delta: number) =>
    adjusting.gql(
      `mutation($id: ID!) { adjustCustomerCoins(customerId: $id, delta: ${delta}, reason: "Goodwill") { id } }`,
      { id: ana },
    );
  expect((await adjust(1200)).body.errors).toBeUndefined();
  expect((await adjust(250)).body.errors).toBeUndefined();
  const status = await blocking.gql(
    'mutation($id: ID!) { updateCustomer(id: $id, input: { status: watch }) { id } }',
    { id: ana },
  );
  expect(status.body.errors).toBeUndefined();
  // An older change, in the middle of October 2026, for the date range.
  octoberId = (
    await h.db.prisma.staffAuditEntry.create({
      data: {
        id: idAt(new Date('2026-10-15T12:00:00Z')),
        staffUserId: adjuster.id,
        action: 'updateCustomer',
        subBrandId,
        environment: 'test',
        targetId: ana,
        args: { id: ana, input: { nickname: 'Annie' } },
        before: { nickname: null, status: 'active' },
        after: { nickname: 'Annie', status: 'active' },
        createdAt: new Date('2026-10-15T12:00:00Z'),
      },
    })
  ).id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const rows = (page: Page) => page.getByTestId('audit-entry');
const rowTexts = (page: Page) => rows(page).allInnerTexts();

async function pick(page: Page, label: string, option: string) {
  await page
    .getByRole('textbox', { name: label, exact: true })
    .or(page.getByRole('combobox', { name: label, exact: true }))
    .first()
    .click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe(`the audit trail in Chromium (${TEST_DB})`, BROWSER_WALK, () => {
  it('finds who changed what by person and date, reads the changes, and opens the raw JSON', async () => {
    const context = await browser.newContext({
      viewport: { width: 1360, height: 900 },
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    context.setDefaultTimeout(10_000);
    await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), subBrandId);
    const page = await context.newPage();
    await signInToBackoffice(page, h.url, adjuster.email, '/audit');
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();

    // Everything, newest first: the readable lines, the actions in words, who did it.
    await expect.poll(() => rows(page).count()).toBe(4);
    const all = await rowTexts(page);
    expect(all[0]).toContain(blocker.email);
    expect(all[0]).toContain('Customer changed');
    expect(all[0]).toContain('Status: active → watch');
    expect(all[1]).toContain(adjuster.email);
    expect(all[1]).toContain('Coin adjustment');
    expect(all[1]).toContain('Balance: 1,200 → 1,450 (+250)');
    expect(all[1]).toContain('Reason: Goodwill');
    expect(all[3]).toContain('Nickname: — → Annie');
    // When, in the operator's locale (en-GB, UTC here): "15 Oct 2026, 12:00:00 UTC".
    expect(all[3]).toMatch(/15 Oct 2026, 12:00:00/);

    // By person: the blocker's one change; the URL holds the filter, the CSV link carries it.
    await pick(page, 'Person', blocker.email);
    await expect.poll(() => page.url()).toContain(`staff=${blocker.id}`);
    await expect.poll(() => rows(page).count()).toBe(1);
    expect((await rowTexts(page))[0]).toContain('Status: active → watch');
    const csv = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csv).toContain(`staffId=${blocker.id}`);
    expect(csv).toContain(`subBrandId=${subBrandId}`);

    // By date range: the adjuster's October, custom dates; then today's only.
    await page.goto(`${h.url}/admin/audit?staff=${adjuster.id}`);
    await expect.poll(() => rows(page).count()).toBe(3);
    await pick(page, 'When', 'Custom dates');
    await page.getByLabel('From', { exact: true }).fill('2026-10-01');
    await page.getByLabel('To', { exact: true }).fill('2026-10-31');
    await expect.poll(() => page.url()).toContain('from=2026-10-01');
    await expect.poll(() => page.url()).toContain('to=2026-10-31');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect((await rowTexts(page))[0]).toContain('Nickname: — → Annie');
    const october = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(october).toContain('from=2026-10-01T00%3A00%3A00.000Z');
    expect(october).toContain('to=2026-11-01T00%3A00%3A00.000Z');
    const file = await page.evaluate(async (href) => (await fetch(href!)).text(), october);
    expect(file).toContain(octoberId);
    expect(file.trim().split('\n')).toHaveLength(2); // the header and October's one row

    // Today's: the two adjustments and the download just taken (itself audited), not October's.
    await pick(page, 'When', 'Today');
    await expect.poll(() => rows(page).count()).toBe(3);
    const today = await rowTexts(page);
    expect(today[0]).toContain('Audit trail exported (CSV)');
    expect(today).not.toContainEqual(expect.stringContaining('Annie'));

    // A shared link with a bad range says why, in words.
    await page.goto(`${h.url}/admin/audit?from=2026-11-02&to=2026-11-01`);
    await page
      .getByRole('alert')
      .getByText(/from: must be before to/)
      .waitFor();

    // The raw JSON, behind its disclosure; axe with it open.
    await page.goto(`${h.url}/admin/audit?action=adjustCustomerCoins`);
    await expect.poll(() => rows(page).count()).toBe(2);
    await rows(page).first().getByText('Show raw').click();
    await rows(page).first().getByText('"balance": 1450').waitFor();
    await screenshot(page, dir, 'audit-readable');
    expect(await seriousViolations(page), 'axe on the audit trail, raw open').toEqual([]);

    // Paged by keyset: 50 first, "Load more" adds the rest, once each.
    const start = new Date('2026-09-01T00:00:00Z').getTime();
    await h.db.prisma.staffAuditEntry.createMany({
      data: Array.from({ length: 55 }, (_, i) => ({
        id: idAt(new Date(start + i * 60_000)),
        staffUserId: blocker.id,
        action: 'moveOrder',
        subBrandId,
        environment: 'test' as const,
        targetId: `order-${i}`,
        args: {},
        before: { status: 'pending' },
        after: { status: 'shipped' },
        createdAt: new Date(start + i * 60_000),
      })),
    });
    await page.goto(`${h.url}/admin/audit?action=moveOrder`);
    await expect.poll(() => rows(page).count()).toBe(50);
    expect((await rowTexts(page))[0]).toContain('Order moved');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows(page).count()).toBe(55);
    const targets = await rows(page).locator('td:nth-child(4)').allInnerTexts();
    expect(new Set(targets).size).toBe(55);
    expect(targets.at(-1)).toBe('order-0');
    await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
    await context.close();
  });
});

// The backoffice end to end: Debian's Chromium, driven by Playwright, against the real app on the
// run's database, signing in as staff and doing what an operator does. Every screen visited is
// checked with axe-core (no serious or critical violation) and photographed into test-results/.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createCatalog } from '../../src/domain/catalog/author-catalog.js';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { shop } from '../orders/support.js';
import {
  artefactDir,
  launchChromium,
  screenshot,
  seriousViolations,
  writeFigure,
} from '../support/browser.js';
import { createTenant } from '../support/factories.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { createStaff, STAFF_PASSWORD } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let s: Awaited<ReturnType<typeof shop>>;
let other: { subBrandId: string; customerId: string };
let operator: { id: string; email: string };
let admin: { email: string };
let orderId: string;
let proposal: string;
const dir = artefactDir(TEST_DB);
const env = 'test' as const;

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  s = await shop(h, { kind: 'physical', name: 'Wireless headphones' });
  const buyer = await s.buyer(5000, {
    external_id: 'P-100',
    first_name: 'Olga',
    last_name: 'Buyer',
  });
  const order = await s.order({
    customer_id: buyer,
    listing_market_id: s.listing.listing_market_id,
    recipient_name: 'Olga Buyer',
    shipping_address: 'Calle Mayor 1, 28013 Madrid',
  });
  orderId = order.body.data.id;
  const tenant = { subBrandId: s.subBrandId, environment: env };
  // A page of 100 customers to render, and a small cohort for the bulk adjustment.
  for (let i = 0; i < 100; i++)
    await createCustomer(h.db.prisma, tenant, { firstName: `Guest${i}`, lastName: 'Listed' });
  for (let i = 0; i < 3; i++)
    await createCustomer(h.db.prisma, tenant, { firstName: `Member${i}`, lastName: 'Cohort' });
  proposal = (
    await createCatalog(h.db.prisma, {
      subBrandId: s.subBrandId,
      name: 'Summer picks',
      description: 'Prizes for the summer league',
      productIds: [s.prize.productId],
    })
  ).id;
  await createDefinition(h.db.prisma, {
    subBrandId: s.subBrandId,
    code: 'login.daily',
    points: 10,
    constraints: { max_daily_per_player: 1 },
  });
  const b = await createTenant(h.db.prisma);
  const bea = await createCustomer(
    h.db.prisma,
    { subBrandId: b.subBrandId, environment: env },
    { firstName: 'Bea', lastName: 'Elsewhere' },
  );
  other = { subBrandId: b.subBrandId, customerId: bea.id };
  operator = await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: s.subBrandId });
  admin = await createStaff(h.db.prisma, 'platform_admin');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** A fresh browser profile, acting on `subBrandId` in test mode (as the switcher would store). */
async function newPage(subBrandId?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  context.setDefaultTimeout(10_000); // a step that hangs fails with its locator, not the test's time-out
  if (subBrandId)
    await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), subBrandId);
  return { context, page: await context.newPage() };
}

async function signIn(page: Page, email: string, next = '/') {
  await page.goto(`${h.url}/admin/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function checkScreen(page: Page, name: string) {
  await screenshot(page, dir, name);
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

describe(`the backoffice in Chromium (${TEST_DB})`, () => {
  it('refuses a wrong password with the API message, then signs in to the dashboard', async () => {
    const { context, page } = await newPage();
    await page.goto(`${h.url}/admin/customers`);
    await expect.poll(() => page.url()).toContain('/admin/sign-in?next=%2Fcustomers');
    await checkScreen(page, 'sign-in');
    await page.getByRole('textbox', { name: 'E-mail' }).fill(operator.email);
    await page.getByRole('textbox', { name: 'Password' }).fill('not my password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The e-mail or the password is wrong.').waitFor();
    await expect(page.getByText(/request id req_/).count()).resolves.toBe(1);
    await signIn(page, operator.email, '/');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('heading', { name: 'Orders by status' }).waitFor();
    await page.locator('.recharts-surface').first().waitFor(); // the coins credited for the order
    await checkScreen(page, 'dashboard');
    await context.close();
  });

  it("shows an operator its 100 customers, and another sub-brand's customer as not found", async () => {
    const { context, page } = await newPage();
    await page.goto(`${h.url}/admin/sign-in?next=${encodeURIComponent('/customers?size=100')}`);
    await page.getByRole('textbox', { name: 'E-mail' }).fill(operator.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(STAFF_PASSWORD);
    const graphqlRequests: string[] = [];
    page.on('request', (r) => r.url().includes('/graphql') && graphqlRequests.push(r.url()));
    const started = Date.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    const rows = page.getByTestId('customers-table').locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(100);
    const renderMs = Date.now() - started; // measured and reported, not asserted
    writeFigure(dir, 'signInTo100CustomersMs', renderMs);
    console.log(`[${TEST_DB}] sign-in → 100 customers rendered: ${renderMs} ms`);
    expect(graphqlRequests).toHaveLength(1); // the screen's data in one request
    await expect(page.getByText('Bea Elsewhere').count()).resolves.toBe(0);
    await checkScreen(page, 'customers');

    await page.goto(`${h.url}/admin/customers/${other.customerId}`);
    await page.getByText('Customer not found.').waitFor();
    await expect(page.getByText('Bea').count()).resolves.toBe(0);
    await context.close();
  });

  it('adjusts a customer’s coins and shows the movement with the operator’s name', async () => {
    const { context, page } = await newPage();
    await signIn(page, operator.email, '/customers?q=Olga');
    await page.getByRole('link', { name: 'Olga Buyer' }).click();
    await page.getByRole('heading', { name: 'Olga Buyer' }).waitFor();
    const before = Number((await page.getByTestId('balance').innerText()).replace(/\D/g, ''));
    await page.getByRole('textbox', { name: 'Coins (negative to debit)' }).fill('250');
    await page.getByRole('textbox', { name: 'Reason' }).fill('Goodwill for a late delivery');
    await page.getByRole('button', { name: 'Adjust…' }).click();
    await page
      .getByRole('dialog')
      .getByText(/Credit 250 coins to Olga Buyer/)
      .waitFor();
    await page.getByRole('button', { name: 'Adjust', exact: true }).click();
    const row = page
      .getByTestId('movements')
      .locator('tbody tr', { hasText: 'Goodwill for a late delivery' });
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain(operator.email);
    await expect(row.innerText()).resolves.toContain('+250');
    await expect
      .poll(async () => Number((await page.getByTestId('balance').innerText()).replace(/\D/g, '')))
      .toBe(before + 250);
    await checkScreen(page, 'customer');
    await context.close();
  });

  it('previews a bulk adjustment, then applies exactly the preview', async () => {
    const { context, page } = await newPage();
    await signIn(page, operator.email, '/customers/bulk');
    await page.getByRole('heading', { name: 'Bulk adjust' }).waitFor();
    await page.getByRole('textbox', { name: 'Search' }).fill('Cohort');
    await page.getByRole('textbox', { name: 'Coins per customer' }).fill('40');
    await page.getByRole('textbox', { name: 'Reason' }).fill('Summer bonus');
    await expect(page.getByRole('button', { name: 'Apply…' }).isDisabled()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Preview' }).click();
    const summary = page.getByTestId('bulk-summary');
    await summary.getByText('Preview (nothing moved yet)').waitFor();
    await expect(summary.innerText()).resolves.toMatch(/Matched\s+3/);
    const cohort = { lastName: 'Cohort', subBrandId: s.subBrandId };
    const balances = async () =>
      (await h.db.prisma.wallet.findMany({ where: { customer: cohort } })).map((w) =>
        Number(w.balance),
      );
    expect(await balances()).toEqual([0, 0, 0]); // the preview moved nothing
    await checkScreen(page, 'bulk-preview');
    await page.getByRole('button', { name: 'Apply…' }).click();
    await page
      .getByRole('dialog')
      .getByText(/for 3 customers/)
      .waitFor();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByText('Applied', { exact: true }).waitFor();
    expect(await balances()).toEqual([40, 40, 40]);
    const moves = await h.db.prisma.coinMovement.findMany({ where: { customer: cohort } });
    expect(new Set(moves.map((m) => m.staffUserId))).toEqual(new Set([operator.id]));
    await context.close();
  });

  it('lets a platform admin approve a catalog proposal', async () => {
    const { context, page } = await newPage(s.subBrandId);
    await signIn(page, admin.email, '/catalog/proposals');
    const card = page.getByTestId('proposal').filter({ hasText: 'Summer picks' });
    await card.waitFor();
    await checkScreen(page, 'catalog-proposals');
    await card.getByRole('textbox', { name: 'Note to the sub-brand' }).fill('Welcome aboard');
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Proposal approved.').waitFor();
    const row = await h.db.prisma.catalog.findUniqueOrThrow({ where: { id: proposal } });
    expect(row).toMatchObject({ status: 'approved', reviewNote: 'Welcome aboard' });
    await context.close();
  });

  it('moves an order through the fulfilment queue to delivered, with tracking', async () => {
    const { context, page } = await newPage(s.subBrandId);
    await signIn(page, admin.email, '/orders?status=pending');
    const row = () => page.locator(`tr[data-order-id="${orderId}"]`);
    const step = async (label: string, tab: string) => {
      await row().getByRole('button', { name: label }).click();
      await page.getByRole('dialog').getByRole('button', { name: label }).click();
      await page.getByText(`Order marked ${tab}.`).waitFor();
      await page.getByRole('tab', { name: tab }).click();
      await row().waitFor();
    };
    await row().waitFor();
    await checkScreen(page, 'orders');
    await step('Mark processing', 'processing');
    await row().getByRole('button', { name: 'Add tracking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tracking' });
    await dialog.getByRole('textbox', { name: 'Carrier' }).fill('Correos');
    await dialog.getByRole('textbox', { name: 'Tracking code' }).fill('PK123456789ES');
    await dialog.getByRole('button', { name: 'Save tracking' }).click();
    await row().getByTestId('tracking').getByText('Correos: PK123456789ES').waitFor();
    await step('Mark shipped', 'shipped');
    await step('Mark delivered', 'delivered');
    await row().getByText('delivered').waitFor();
    const order = await h.db.prisma.order.findUniqueOrThrow({
      where: { id: orderId },
      include: { items: true },
    });
    expect(order.status).toBe('delivered');
    expect(order.items[0]).toMatchObject({ carrier: 'Correos', trackingCode: 'PK123456789ES' });
    await context.close();
  });

  it('simulates an engine event without moving coins', async () => {
    const { context, page } = await newPage(s.subBrandId);
    await signIn(page, admin.email, '/engine');
    await page.getByRole('cell', { name: /login\.daily/ }).waitFor();
    await page
      .getByRole('textbox', { name: 'Event', exact: false })
      .or(page.getByRole('combobox', { name: 'Event' }))
      .first()
      .click();
    await page.getByRole('option', { name: 'login.daily' }).click();
    await page.getByRole('textbox', { name: 'Payload' }).fill('{ "externalUserId": "P-100" }');
    await page.getByRole('button', { name: 'Simulate' }).click();
    const result = page.getByTestId('simulation');
    await result.waitFor();
    await expect(result.innerText()).resolves.toMatch(/completed/i);
    await expect(result.innerText()).resolves.toContain('10 points requested');
    await checkScreen(page, 'engine');
    await context.close();
  });

  it('mints a key and shows it once', async () => {
    const { context, page } = await newPage(s.subBrandId);
    await signIn(page, admin.email, '/keys');
    await page.getByRole('button', { name: 'Mint key' }).waitFor();
    await checkScreen(page, 'api-keys');
    await page.getByRole('button', { name: 'Mint key' }).click();
    const key = await page.getByTestId('minted-key').innerText();
    expect(key).toMatch(/^svc_test_[0-9a-f]{32}$/);
    await screenshot(page, dir, 'api-key-minted');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page
      .getByTestId('keys-table')
      .getByText(`${key.slice(0, 13)}…`)
      .waitFor();
    await expect(page.content()).resolves.not.toContain(key);
    await page.reload();
    await page
      .getByTestId('keys-table')
      .getByText(`${key.slice(0, 13)}…`)
      .waitFor();
    await expect(page.content()).resolves.not.toContain(key);
    // The minted key works on the partner API.
    expect((await h.call('GET', '/api/v1/health', { key })).status).toBe(200);
    await context.close();
  });

  it('shows the audit trail of what staff changed', async () => {
    const { context, page } = await newPage(s.subBrandId);
    await signIn(page, admin.email, `/audit?action=adjustCustomerCoins&_=${randomUUID()}`);
    const row = page.getByTestId('audit-table').locator('tbody tr').first();
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain(operator.email);
    await checkScreen(page, 'audit');
    await context.close();
  });
});

// Every dialog of the backoffice open, one at a time, with axe-core finding no serious or critical
// violation (issue 35), in Debian's Chromium as a platform admin. Each is opened, checked and
// closed (Escape, or "Keep as is" for a question) without confirming anything.
// Covered:
// - ConfirmButton questions (components/Confirm.tsx): a brand's margin, the platform margin and a
//   top-up (brands/BrandsPage.tsx); coin expiry (brands/CoinExpiryEditor.tsx); jurisdiction
//   (brands/JurisdictionEditor.tsx); a campaign's start, end, delete, pause, resume and create
//   from template (campaigns/CampaignPage.tsx); an image's removal
//   (catalog/ProductAdditions.tsx); a listing switched off, codes added and stock set
//   (catalog/ProductPage.tsx); a proposal's rejection (catalog/ProposalsPage.tsx); a catalog's
//   products replaced (catalog/setup/CatalogsCard.tsx); a bulk adjustment applied
//   (customers/BulkAdjustPage.tsx); a coin adjustment (customers/CustomerPage.tsx); an import
//   (customers/ImportPage.tsx); a responsible-gaming state (customers/ResponsibleGaming.tsx); a
//   definition switched off (engine/DefinitionEditor.tsx); a key's revocation (keys/KeysPage.tsx);
//   an e-mail sent again (notifications/NotificationsPage.tsx); an endpoint turned off, a new
//   secret, an endpoint deleted (webhooks/EndpointActions.tsx); an event sent again
//   (webhooks/EventsPage.tsx); a period replayed and a delivery redelivered
//   (webhooks/WebhookEndpointPage.tsx); an order cancelled and moved on (orders/OrdersPage.tsx,
//   read-only here).
// - Modals: the definition editor (engine/DefinitionEditor.tsx); a minted key
//   (keys/KeysPage.tsx); the endpoint's add and edit forms and the signing secret
//   (webhooks/EndpointActions.tsx); the staff invitation, role and the account questions behind
//   the actions menu (staff/StaffPage.tsx); an order's tracking (orders/OrdersPage.tsx); the ⌘K
//   search palette (app/SearchPalette.tsx).
// - Menus: a staff member's actions (staff/StaffPage.tsx) and the account menu (app/Shell.tsx).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { createCatalog } from '../../src/domain/catalog/author-catalog.js';
import { createEndpoint } from '../../src/domain/events/endpoints.js';
import {
  createCampaign,
  updateCampaignStatus,
} from '../../src/engine/campaigns/manage-campaigns.js';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { shop } from '../orders/support.js';
import {
  BROWSER_WALK,
  artefactDir,
  launchChromium,
  screenshot,
  seriousViolations,
  signInToBackoffice,
  writeFigure,
} from '../support/browser.js';
import { listedProduct } from '../support/catalog.js';
import { eventWorkers, webhookReceiver } from '../support/events.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { createStaff } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let s: Awaited<ReturnType<typeof shop>>;
let admin: { email: string };
let colleague: { email: string };
let customerId: string;
let codesProductId: string;
let endpointId: string;
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
const campaigns: Record<'draft' | 'running' | 'paused' | 'template', string> = {
  draft: '',
  running: '',
  paused: '',
  template: '',
};
const dir = artefactDir(TEST_DB);
/** What was opened and checked, for the record (figures.json). */
const covered: string[] = [];
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  // Its own database: lists (brands, catalogs, staff) are newest first, a page at a time.
  h = await startHarness({ ownDatabase: true });
  browser = await launchChromium();
  receiver = await webhookReceiver();
  s = await shop(h, { kind: 'physical', name: 'Dialog mug' });
  const tenant = { subBrandId: s.subBrandId, environment: 'test' as const };
  customerId = await s.buyer(5000, { external_id: 'D-1', first_name: 'Dana', last_name: 'Dialog' });
  const order = await s.order({
    customer_id: customerId,
    listing_market_id: s.listing.listing_market_id,
    recipient_name: 'Dana Dialog',
    shipping_address: 'Calle Mayor 1, 28013 Madrid',
  });
  await h.db.prisma.product.update({
    where: { id: s.prize.productId },
    data: { images: ['https://images.example.com/mug.png'] },
  });
  codesProductId = (
    await listedProduct(h.db.prisma, s.subBrandId, { kind: 'digital', name: 'Dialog card' })
  ).productId;
  await createCatalog(h.db.prisma, {
    subBrandId: s.subBrandId,
    name: 'Proposed picks',
    description: 'A proposal to review',
    productIds: [s.prize.productId],
  });
  await createCatalog(h.db.prisma, {
    name: 'Platform picks',
    description: 'A platform catalog',
    productIds: [s.prize.productId],
  });
  await createDefinition(h.db.prisma, {
    subBrandId: s.subBrandId,
    code: 'login.daily',
    points: 10,
    constraints: {},
  });
  const now = new Date();
  const campaign = async (title: string, over: Record<string, unknown> = {}) =>
    (
      await createCampaign(
        h.db.prisma,
        tenant,
        {
          title,
          type: 'daily_reward_simple',
          startDate: day(-1),
          endDate: day(20),
          termsAccepted: true,
          prizes: [
            { coinPrize: 25, catalogPrize: '', productPrize: '', quantity: 0, day: 0, rank: '' },
          ],
          ...over,
        },
        now,
      )
    ).id;
  campaigns.draft = await campaign('Draft bonus');
  campaigns.running = await campaign('Running bonus');
  await updateCampaignStatus(
    h.db.prisma,
    tenant,
    campaigns.running,
    { status: 'in_progress' },
    now,
  );
  campaigns.paused = await campaign('Paused bonus');
  await updateCampaignStatus(h.db.prisma, tenant, campaigns.paused, { status: 'in_progress' }, now);
  await updateCampaignStatus(h.db.prisma, tenant, campaigns.paused, { status: 'paused' }, now);
  campaigns.template = await campaign('Bonus template', {
    isTemplate: true,
    duration: 'next_week',
    startDate: undefined,
    endDate: undefined,
  });
  // An endpoint on loopback, and the customer's coin movement sent to it: an event in the log
  // and a delivery on the endpoint's page.
  endpointId = (await createEndpoint(h.db.prisma, tenant, { url: receiver.url })).id;
  await s.buyer(10, { external_id: 'D-2', first_name: 'Eve', last_name: 'Event' });
  await eventWorkers(h).drain();
  await h.db.prisma.notification.create({
    data: {
      id: randomUUID(),
      ...tenant,
      orderId: order.body.data.id as string,
      eventId: randomUUID(),
      template: 'shipped',
      recipient: 'dana@example.com',
      subject: 'Your mug is on its way',
      html: '<p>On its way</p>',
      text: 'On its way',
      status: 'failed',
      attempts: 8,
      lastError: '550 mailbox unavailable',
    },
  });
  admin = await createStaff(h.db.prisma, 'platform_admin');
  colleague = await createStaff(h.db.prisma, 'establishment_operator', {
    subBrandId: s.subBrandId,
  });
}, 120_000);

afterAll(async () => {
  writeFigure(dir, 'dialogsCheckedWithAxe', covered);
  await receiver?.close();
  await browser?.close();
  await h?.close();
});

async function signedIn(next: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  context.setDefaultTimeout(10_000);
  await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), s.subBrandId);
  const page = await context.newPage();
  await signInToBackoffice(page, h.url, admin.email, next);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { context, page };
}

/** Mantine fades a dialog in: axe measures colours once it (and what holds it) is opaque. */
const opaque = (opened: Locator) =>
  expect
    .poll(() =>
      opened.evaluate((e) => {
        for (let n: Element | null = e; n; n = n.parentElement)
          if (getComputedStyle(n).opacity !== '1') return false;
        return true;
      }),
    )
    .toBe(true);

/** Opens a dialog (or menu) with `open`, runs axe on the page, closes it without confirming. */
async function inspect(
  page: Page,
  found: string[],
  what: string,
  open: () => Promise<unknown>,
  opened: Locator = page.getByRole('dialog'),
): Promise<void> {
  try {
    await open();
    await opened.waitFor();
  } catch (e) {
    await screenshot(page, dir, `dialogs-failed-${what.replace(/\W+/g, '-')}`);
    throw e;
  }
  await opaque(opened);
  for (const v of await seriousViolations(page)) found.push(`${what}: ${v}`);
  covered.push(what);
  const keep = opened.getByRole('button', { name: 'Keep as is' });
  if (await keep.count()) await keep.click();
  else await page.keyboard.press('Escape');
  await opened.waitFor({ state: 'hidden' });
}

/** A Mantine Select's input, by its label. */
const select = (scope: Page | Locator, label: string) =>
  scope
    .getByRole('textbox', { name: label, exact: true })
    .or(scope.getByRole('combobox', { name: label, exact: true }))
    .first();

/** A ConfirmButton's question, opened by the button named `label` (within `scope`). */
const question = (
  page: Page,
  found: string[],
  label: string,
  scope: Page | Locator = page,
  what = label,
) => inspect(page, found, what, () => scope.getByRole('button', { name: label }).first().click());

describe(`every dialog open passes axe (${TEST_DB})`, BROWSER_WALK, () => {
  it('brands, an establishment: margins, top-up, coin expiry, jurisdiction', async () => {
    const found: string[] = [];
    const { context, page } = await signedIn('/brands');
    const card = page.locator(`[data-brand-id="${s.brandId}"]`);
    await card.waitFor();
    await page.getByRole('textbox', { name: 'Platform margin (basis points)' }).fill('1234');
    await question(page, found, 'Save', page.locator('main'), 'platform margin');
    await card.getByRole('textbox', { name: /^Margin of .* \(basis points\)$/ }).fill('321');
    await question(page, found, 'Save', card, "a brand's margin");
    await card.getByRole('textbox', { name: 'Top-up amount' }).fill('10');
    await question(page, found, 'Top up', card);
    await screenshot(page, dir, 'dialogs-brands');

    await page.goto(`${h.url}/admin/brands/sub-brands/${s.subBrandId}`);
    await page.getByRole('heading', { name: 'Coin expiry' }).waitFor();
    const expiry = page.locator('.mantine-Card-root').filter({
      has: page.getByRole('heading', { name: 'Coin expiry' }),
    });
    await select(expiry, 'Policy').click();
    await page.getByRole('option').last().click();
    const days = expiry.getByRole('textbox', { name: 'Days' });
    if (await days.count()) await days.fill('30');
    await question(page, found, 'Save', expiry, 'coin expiry');
    const jurisdiction = page
      .locator('.mantine-Card-root')
      .filter({ has: select(page, 'Regulator') });
    await select(jurisdiction, 'Regulator').click();
    await page.getByRole('option', { selected: false }).first().click();
    await question(page, found, 'Save', jurisdiction, 'jurisdiction');
    expect(found).toEqual([]);
    await context.close();
  });

  it('campaigns: start, pause, resume, end, delete, create from a template', async () => {
    const found: string[] = [];
    const { context, page } = await signedIn(`/campaigns/${campaigns.draft}`);
    for (const label of ['Start…', 'End…', 'Delete…']) await question(page, found, label);
    await page.goto(`${h.url}/admin/campaigns/${campaigns.running}`);
    await question(page, found, 'Pause…');
    await page.goto(`${h.url}/admin/campaigns/${campaigns.paused}`);
    await question(page, found, 'Resume…');
    await page.goto(`${h.url}/admin/campaigns/${campaigns.template}`);
    await question(page, found, 'Create from template…');
    expect(found).toEqual([]);
    await context.close();
  });

  it('catalog: a product, its codes and image, a proposal, a catalog', async () => {
    const found: string[] = [];
    const { context, page } = await signedIn(`/catalog/products/${s.prize.productId}`);
    await question(page, found, 'Active — switch off');
    await page.getByRole('textbox', { name: 'Units in test' }).fill('42');
    await question(page, found, 'Set test stock');
    await question(page, found, 'Remove image 1…');
    await page.goto(`${h.url}/admin/catalog/products/${codesProductId}`);
    await page.getByRole('textbox', { name: 'Codes or https links, one per line' }).fill('CODE-1');
    await question(page, found, 'Add codes');
    await page.goto(`${h.url}/admin/catalog/proposals`);
    await question(page, found, 'Reject…');
    await page.goto(`${h.url}/admin/catalog/catalogs`);
    await select(page, 'Catalog to change').click();
    await page.getByRole('option', { name: 'Platform picks' }).click();
    await question(page, found, 'Replace products…');
    expect(found).toEqual([]);
    await context.close();
  });

  it('customers: adjust coins, responsible gaming, bulk adjust, import', async () => {
    const found: string[] = [];
    const { context, page } = await signedIn(`/customers/${customerId}`);
    await page.getByRole('textbox', { name: 'Coins (negative to debit)' }).fill('5');
    await page.getByRole('textbox', { name: 'Reason' }).fill('Checking a dialog');
    await question(page, found, 'Adjust…');
    await select(page, 'New state').click();
    await page.getByRole('option', { name: 'Cool-off' }).click();
    await page.getByRole('textbox', { name: 'Until (UTC)' }).fill(`${day(5)}T12:00`);
    await question(page, found, 'Set state…');
    await page.goto(`${h.url}/admin/customers/bulk`);
    await page.getByRole('textbox', { name: 'Search' }).fill('Dana');
    await page.getByRole('textbox', { name: 'Coins per customer' }).fill('1');
    await page.getByRole('textbox', { name: 'Reason' }).fill('Checking a dialog');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Apply…' }).isEnabled()).toBe(true);
    await question(page, found, 'Apply…');
    await page.goto(`${h.url}/admin/customers/import`);
    await page.locator('input[type=file]').setInputFiles({
      name: 'players.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'external_id,first_name,last_name,email\nI-1,Ida,Import,ida@example.com\n',
      ),
    });
    await page.getByRole('button', { name: 'Preview' }).click();
    const importButton = page.getByRole('button', { name: 'Import', exact: true });
    await expect.poll(() => importButton.isEnabled()).toBe(true);
    await question(page, found, 'Import');
    expect(found).toEqual([]);
    await context.close();
  });

  it('engine, keys, notifications, orders', async () => {
    const found: string[] = [];
    const { context, page } = await signedIn('/engine');
    await inspect(page, found, 'definition editor', () =>
      page.getByRole('button', { name: 'Edit login.daily' }).click(),
    );
    await page.getByRole('button', { name: 'Edit login.daily' }).click();
    const editor = page.getByRole('dialog', { name: /Edit login\.daily/ });
    await editor.getByRole('switch', { name: 'Active' }).click();
    await editor.getByRole('button', { name: /^Save/ }).click();
    const ask = page.getByRole('dialog', { name: 'Switch login.daily off' });
    await ask.waitFor();
    await opaque(ask);
    for (const v of await seriousViolations(page)) found.push(`switch off: ${v}`);
    covered.push('definition switched off');
    await ask.getByRole('button', { name: 'Keep as is' }).click();
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'hidden' });

    await page.goto(`${h.url}/admin/keys`);
    await page.getByTestId('keys-table').waitFor();
    await question(page, found, 'Revoke', page.getByTestId('keys-table'));
    await page.getByRole('button', { name: 'Mint key' }).click();
    const minted = page.getByRole('dialog', { name: 'Your new key' });
    await minted.waitFor();
    await opaque(minted);
    for (const v of await seriousViolations(page)) found.push(`minted key: ${v}`);
    covered.push('minted key');
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.goto(`${h.url}/admin/notifications`);
    await question(page, found, 'Send again');

    await page.goto(`${h.url}/admin/orders`);
    const row = page.locator('tbody tr').filter({ hasText: 'Dana Dialog' }).first();
    await row.waitFor();
    for (const b of await row.getByRole('button').all()) {
      const name = (await b.innerText()).trim();
      if (!name || /^(Actions|Open)/.test(name)) continue;
      await inspect(page, found, `orders: ${name}`, () => b.click());
    }
    expect(covered.filter((c) => c.startsWith('orders:')).length).toBeGreaterThan(0);
    expect(found).toEqual([]);
    await context.close();
  });

  it('webhooks and events: add, edit, turn off, new secret, delete, replay, send again', async () => {
    const found: string[] = [];
    const { context, page } = await signedIn('/webhooks');
    await inspect(page, found, 'add endpoint', () =>
      page.getByRole('button', { name: 'Add endpoint' }).click(),
    );
    for (const label of ['Edit', 'Turn off', 'New secret', 'Delete'])
      await inspect(page, found, `list: ${label}`, () =>
        page.locator('main').getByRole('button', { name: label }).first().click(),
      );
    // The signing secret, shown once an endpoint is added (adding one destroys nothing).
    await inspect(
      page,
      found,
      'signing secret',
      async () => {
        await page.getByRole('button', { name: 'Add endpoint' }).click();
        const form = page.getByRole('dialog', { name: 'Add an endpoint' });
        await form.getByRole('textbox', { name: 'Endpoint URL' }).fill(`${receiver.url}/second`);
        await form.getByRole('button', { name: 'Add endpoint' }).click();
      },
      page.getByRole('dialog', { name: 'Signing secret' }),
    );
    await page.goto(`${h.url}/admin/webhooks/${endpointId}`);
    await page.getByRole('textbox', { name: 'From (UTC)' }).fill('2026-01-01');
    await page.getByRole('textbox', { name: 'To (UTC, not included)' }).fill('2026-01-02');
    await question(page, found, 'Replay…');
    await question(page, found, 'Redeliver');
    for (const label of ['Edit', 'Turn off', 'New secret', 'Delete'])
      await inspect(page, found, `endpoint: ${label}`, () =>
        page.locator('main').getByRole('button', { name: label }).first().click(),
      );
    await page.goto(`${h.url}/admin/events`);
    await page.locator('main').getByRole('button', { name: /^Show/ }).first().click();
    await inspect(page, found, 'send again', () =>
      page
        .getByRole('button', { name: /^Send to endpoints again/ })
        .first()
        .click(),
    );
    expect(found).toEqual([]);
    await context.close();
  });

  it('staff: the actions menu and its questions, invite, change role; account menu, ⌘K', async () => {
    const found: string[] = [];
    const { context, page } = await signedIn(`/staff?q=${encodeURIComponent(colleague.email)}`);
    const actions = page.getByRole('button', { name: `Actions for ${colleague.email}` });
    await inspect(page, found, 'staff actions menu', () => actions.click(), page.getByRole('menu'));
    for (const item of ['Change role…', 'Reset password…', 'Disable…'])
      await inspect(page, found, `staff: ${item}`, async () => {
        await actions.click();
        await page.getByRole('menuitem', { name: item }).click();
      });
    await inspect(page, found, 'invite', () =>
      page.getByRole('button', { name: 'Invite' }).click(),
    );
    await inspect(
      page,
      found,
      'account menu',
      () => page.getByRole('button', { name: admin.email }).click(),
      page.getByRole('menu'),
    );
    await inspect(page, found, 'search palette', async () => {
      await page.keyboard.press('Control+k');
      await page
        .getByRole('combobox', { name: 'Search players, orders, products and campaigns' })
        .fill('Dana');
      await page.getByRole('option').first().waitFor();
    });
    expect(found).toEqual([]);
    await context.close();
  });
});

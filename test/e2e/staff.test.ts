// Staff and roles in Debian's Chromium: a brand admin invites an operator from the Staff screen,
// the operator opens the e-mailed link, chooses a password and lands signed in; sets up two-factor
// sign-in on their account page (the code computed from the key the page shows, as an
// authenticator app would) and keeps the recovery codes; signs in again with a code. A platform
// admin then requires a second factor of a brand, and its support member is held to the setup.
// axe runs on each screen and each dialog open; screenshots at 1440 and 390 px.
import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { createStaff, STAFF_PASSWORD } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let tenant: Awaited<ReturnType<typeof createTenant>>;
let brandAdmin: { email: string };
const dir = artefactDir(TEST_DB);

beforeAll(async () => {
  // Its own database: the brands screen lists the newest brands first, a page at a time.
  h = await startHarness({ ownDatabase: true });
  browser = await launchChromium();
  tenant = await createTenant(h.db.prisma);
  brandAdmin = await createStaff(h.db.prisma, 'brand_admin', { brandId: tenant.brandId });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function newPage(width = 1440): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  context.setDefaultTimeout(10_000);
  return { context, page: await context.newPage() };
}

/** The token of the newest e-mail to `email` in the staff outbox. */
async function linkFor(email: string): Promise<string> {
  const row = await h.db.prisma.staffEmail.findFirstOrThrow({
    where: { recipient: email },
    orderBy: { createdAt: 'desc' },
  });
  return /\/admin\/invitation#([\w-]+)/.exec(row.text)![1]!;
}

describe(`staff and roles in Chromium (${TEST_DB})`, BROWSER_WALK, () => {
  it('invite → link → password → two-factor → sign-in with a code', async () => {
    const { context, page } = await newPage();
    await signInToBackoffice(page, h.url, brandAdmin.email, '/staff');
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Invite' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a staff member' });
    await dialog.waitFor();
    // A brand admin is offered the roles of their brand only.
    await dialog
      .getByRole('textbox', { name: 'Role', exact: true })
      .or(dialog.getByRole('combobox', { name: 'Role', exact: true }))
      .first()
      .click();
    const roles = await page.getByRole('option').allInnerTexts();
    expect(roles).toEqual(['Brand admin', 'Establishment operator', 'Support (read-only)']);
    await page.getByRole('option', { name: 'Establishment operator' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, dir, 'staff-invite-1440');
    const email = `new-operator-${Date.now()}@example.com`;
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation on its way to ${email}.`).waitFor();
    const row = page.getByTestId('staff-row').filter({ hasText: email });
    await expect.poll(() => row.innerText()).toMatch(/invited/i);
    await screenshot(page, dir, 'staff-1440');
    await context.close();

    // The invited person opens the link from the e-mail.
    const invited = await newPage();
    await invited.page.goto(`${h.url}/admin/invitation#${await linkFor(email)}`);
    await invited.page.getByText(`For ${email}.`).waitFor();
    expect(await seriousViolations(invited.page)).toEqual([]);
    await invited.page.getByLabel('New password').fill('a long and quiet river bend');
    await invited.page.getByLabel('The same again').fill('a long and quiet river bend');
    await invited.page.getByRole('button', { name: 'Set the password and sign in' }).click();
    await invited.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(invited.page.url()).not.toContain('#');

    // Two-factor on the account page, from the account menu.
    await invited.page.getByRole('button', { name: email }).click();
    await invited.page.getByRole('menuitem', { name: 'My account and two-factor sign-in' }).click();
    await invited.page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = await invited.page.getByTestId('totp-secret').innerText();
    await invited.page.getByRole('img', { name: /QR code/ }).waitFor();
    expect(await seriousViolations(invited.page)).toEqual([]);
    await invited.page.getByRole('textbox', { name: 'Code' }).fill(await generate({ secret }));
    await invited.page.getByRole('button', { name: 'Turn on' }).click();
    const codes = (await invited.page.getByTestId('recovery-codes').innerText()).split(/\s+/);
    expect(codes).toHaveLength(10);
    await screenshot(invited.page, dir, 'account-recovery-codes-1440');
    await invited.page.getByRole('button', { name: 'I have kept them' }).click();
    await invited.page.getByText(/Recovery codes left: 10 of 10/).waitFor();
    await invited.context.close();

    // Signing in now asks for a code; a recovery code works.
    const again = await newPage(390);
    await signInToBackoffice(again.page, h.url, email, '/', 'a long and quiet river bend');
    await again.page.getByRole('textbox', { name: 'Code' }).fill(codes[0]!);
    expect(await seriousViolations(again.page)).toEqual([]);
    await screenshot(again.page, dir, 'sign-in-code-390');
    await again.page.getByRole('button', { name: 'Verify' }).click();
    await again.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await again.context.close();

    // Back on the Staff screen, the brand admin sees the account active with two-factor on.
    const admin = await newPage(390);
    await signInToBackoffice(admin.page, h.url, brandAdmin.email, '/staff');
    const active = admin.page.getByTestId('staff-row').filter({ hasText: email });
    await expect.poll(() => active.innerText()).toMatch(/active[\s\S]*on/i);
    // 390 px: the table scrolls inside itself, the page does not.
    const sideways = await admin.page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(sideways).toBe(false);
    await screenshot(admin.page, dir, 'staff-390');
    // Disable it, after the question.
    await active.getByRole('button', { name: `Actions for ${email}` }).click();
    await admin.page.getByRole('menuitem', { name: 'Disable…' }).click();
    const ask = admin.page.getByRole('dialog', { name: 'Disable account' });
    await ask.waitFor();
    expect(await seriousViolations(admin.page)).toEqual([]);
    await ask.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => active.innerText()).toMatch(/disabled/i);
    await admin.context.close();
  });

  it("holds a brand's staff member without a second factor to its setup once the brand requires it", async () => {
    const platform = await createStaff(h.db.prisma, 'platform_admin');
    const support = await createStaff(h.db.prisma, 'support', { subBrandId: tenant.subBrandId });
    const { context, page } = await newPage();
    await signInToBackoffice(page, h.url, platform.email, '/brands');
    const brandRow = page.locator(`[data-brand-id="${tenant.brandId}"]`);
    await brandRow.getByRole('switch', { name: /Require two-factor/ }).click();
    await page.getByText(/now requires two-factor sign-in/).waitFor();
    await context.close();

    const held = await newPage(390);
    await signInToBackoffice(held.page, h.url, support.email, '/customers', STAFF_PASSWORD);
    await held.page.getByRole('heading', { name: 'One more step' }).waitFor();
    expect(await seriousViolations(held.page)).toEqual([]);
    await screenshot(held.page, dir, 'two-factor-required-390');
    await held.page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = await held.page.getByTestId('totp-secret').innerText();
    await held.page.getByRole('textbox', { name: 'Code' }).fill(await generate({ secret }));
    await held.page.getByRole('button', { name: 'Turn on' }).click();
    await held.page.getByRole('button', { name: 'I have kept them' }).click();
    await held.page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    await held.context.close();
  });
});

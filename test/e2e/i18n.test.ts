// The backoffice in Spanish (issue 35, "Languages"; docs/backoffice.md): an operator switches
// from the account menu, and the shell, the navigation and the screens speak Spanish; numbers and
// dates follow es-ES (12.345, "nov"); the choice survives a reload and sets <html lang>. A browser
// whose first language is Spanish starts in Spanish; English stays the default otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { shop } from '../orders/support.js';
import {
  BROWSER_WALK,
  artefactDir,
  launchChromium,
  screenshot,
  seriousViolations,
} from '../support/browser.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { createStaff, STAFF_PASSWORD } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let admin: { email: string };
let customerId: string;
let subBrandId: string;
const dir = artefactDir(TEST_DB);

/** A Spanish short month, as es-ES writes it in a medium date ("27 nov 2026"). */
const SPANISH_DATE = /\b\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic) \d{4}\b/;

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  const s = await shop(h, { kind: 'physical', name: 'Travel mug' });
  subBrandId = s.subBrandId;
  customerId = await s.buyer(12345, {
    external_id: 'i18n-1',
    first_name: 'Lucía',
    last_name: 'Idiomas',
  });
  admin = await createStaff(h.db.prisma, 'platform_admin');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function newPage(locale = 'en-GB'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, locale });
  context.setDefaultTimeout(10_000);
  await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), subBrandId);
  return { context, page: await context.newPage() };
}

/** Signs in from the sign-in page, which speaks the browser's language too. */
async function signIn(page: Page) {
  await page.goto(`${h.url}/admin/sign-in`);
  await page.getByRole('textbox', { name: /^(E-mail|Correo electrónico)$/ }).fill(admin.email);
  await page.getByRole('textbox', { name: /^(Password|Contraseña)$/ }).fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: /^(Sign in|Iniciar sesión)$/ }).click();
  await page.getByRole('heading', { level: 1 }).waitFor();
}

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe(`the backoffice in Spanish (${TEST_DB})`, BROWSER_WALK, () => {
  it('switches to Spanish from the account menu, screen by screen, and keeps it on reload', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    // English by default (an English browser, nothing chosen yet).
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await htmlLang(page)).toBe('en');

    await page.getByRole('button', { name: admin.email }).click();
    await page.getByRole('menuitem', { name: 'Español' }).click();
    await page.getByRole('heading', { name: 'Panel' }).waitFor();
    expect(await htmlLang(page)).toBe('es');
    const nav = page.getByRole('navigation', { name: 'Pantallas' });
    await nav.getByRole('link', { name: 'Clientes' }).waitFor();
    await nav.getByRole('link', { name: 'Registro de auditoría' }).waitFor();
    await page.getByText('Pasivo en monedas').waitFor();
    await page.getByRole('button', { name: 'Buscar' }).waitFor();
    expect(await seriousViolations(page), 'axe on the Spanish dashboard').toEqual([]);
    await screenshot(page, dir, 'i18n-dashboard-es');

    // The customers list: Spanish headings, and the creation date with a Spanish month.
    await nav.getByRole('link', { name: 'Clientes' }).click();
    await page.getByRole('heading', { name: 'Clientes' }).waitFor();
    await page.getByRole('columnheader', { name: 'Correo electrónico' }).waitFor();
    await page
      .getByRole('button', { name: 'Exportar CSV' })
      .or(page.getByText('Exportar CSV'))
      .first()
      .waitFor();
    await expect.poll(() => page.locator('table').first().innerText()).toMatch(SPANISH_DATE);

    // A customer: 12.345 monedas (the dot groups thousands in es-ES), a Spanish date.
    await page.goto(`${h.url}/admin/customers/${customerId}`);
    await page.getByRole('heading', { name: 'Lucía Idiomas' }).waitFor();
    await expect.poll(() => page.getByTestId('balance').innerText()).toBe('12.345 monedas');
    await page.getByRole('heading', { name: 'Historial del monedero' }).waitFor();
    await page.getByText('Ajustar monedas').first().waitFor();
    expect(await page.locator('main').innerText()).toMatch(SPANISH_DATE);

    // The choice survives a reload, before the first paint (no English flash to wait out).
    await page.reload();
    await page.getByRole('heading', { name: 'Lucía Idiomas' }).waitFor();
    await page.getByRole('heading', { name: 'Historial del monedero' }).waitFor();
    expect(await htmlLang(page)).toBe('es');
    expect(await page.evaluate(() => localStorage.getItem('pr.language'))).toBe('es');

    // More screens.
    await page.goto(`${h.url}/admin/campaigns`);
    await page.getByRole('heading', { name: 'Campañas' }).waitFor();
    await page.goto(`${h.url}/admin/audit`);
    await page.getByRole('heading', { name: 'Registro de auditoría' }).waitFor();
    await page
      .getByRole('button', { name: 'Descargar CSV' })
      .or(page.getByText('Descargar CSV'))
      .first()
      .waitFor();
    await page.goto(`${h.url}/admin/webhooks`);
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'Añadir endpoint' }).waitFor();
    expect(await page.title()).toBe('Webhooks · Backoffice de Partner Rewards');

    // And back to English.
    await page.getByRole('button', { name: admin.email }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).waitFor();
    expect(await htmlLang(page)).toBe('en');
    await context.close();
  });

  it('starts in Spanish when the browser’s first language is Spanish', async () => {
    const { context, page } = await newPage('es-ES');
    await signIn(page);
    await page.getByRole('heading', { name: 'Panel' }).waitFor();
    expect(await htmlLang(page)).toBe('es');
    // Not remembered as a choice: the browser's language decides until the operator picks one.
    expect(await page.evaluate(() => localStorage.getItem('pr.language'))).toBeNull();
    await context.close();
  });
});

// Catalog authoring end to end in Chromium on the run's database, as a platform admin: a
// category, a platform catalog with a product found by name, its products replaced (asked first),
// a store showing it (a bad slug refused at its field), and on a product's page a new variant and
// an image added, then the image removed (asked first). axe on every screen.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createProduct } from '../../src/domain/catalog/author-catalog.js';
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
let admin: { email: string };
let subBrand: { id: string; name: string };
let product: { id: string; name: string; sku: string };
const dir = artefactDir(TEST_DB);
const tag = randomUUID().slice(0, 8);

beforeAll(async () => {
  h = await startHarness();
  browser = await launchChromium();
  const t = await createTenant(h.db.prisma);
  // Names of their own: other files share a PostgreSQL database and name their tenants alike.
  subBrand = { id: t.subBrandId, name: `Shop ${tag}` };
  await h.db.prisma.subBrand.update({ where: { id: t.subBrandId }, data: { name: subBrand.name } });
  product = { id: '', name: `Espresso maker ${tag}`, sku: `ESP-${tag}` };
  product.id = (
    await createProduct(h.db.prisma, {
      kind: 'physical',
      translations: { en: { name: product.name } },
      variants: [{ sku: product.sku, stock: 3 }],
    })
  ).id;
  admin = await createStaff(h.db.prisma, 'platform_admin');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function signedIn(next: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  context.setDefaultTimeout(10_000);
  await context.addInitScript((id) => localStorage.setItem('pr.subBrand', id), subBrand.id);
  const page = await context.newPage();
  await page.goto(`${h.url}/admin/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(admin.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  return { context, page };
}

async function checkScreen(page: Page, name: string) {
  await screenshot(page, dir, name);
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

/** A Select or MultiSelect's option, typed to narrow; its list closed after. */
async function pick(page: Page, label: string, option: string, type?: string) {
  await pickOption(page, label, option, { type });
  await page.keyboard.press('Escape');
}

describe(`catalog authoring in Chromium (${TEST_DB})`, BROWSER_WALK, () => {
  it('creates a category, a platform catalog with a product, and a store showing it', async () => {
    const { context, page } = await signedIn('/catalog/catalogs');
    await page.getByRole('heading', { name: 'Catalogs and stores' }).waitFor();
    await page.getByTestId('catalogs-table').waitFor();
    await checkScreen(page, 'catalog-setup');

    // A category: a bad slug is refused at its field, then it is made.
    const slug = page.getByRole('textbox', { name: 'Slug', exact: true });
    await slug.fill('Kitchen Gear');
    await page.getByRole('textbox', { name: 'Name (en)' }).fill('Kitchen');
    await page.getByRole('textbox', { name: 'Name (es)' }).fill('Cocina');
    await page.getByRole('button', { name: 'Create category' }).click();
    await page.getByText('must be 1-64 lower-case letters, digits, -').first().waitFor();
    await expect(slug.getAttribute('aria-invalid')).resolves.toBe('true');
    await slug.fill(`kitchen-${tag}`);
    await page.getByRole('button', { name: 'Create category' }).click();
    // (The table lists categories in display order; other files' may come first on PostgreSQL.)
    await page.getByText(`Category kitchen-${tag} created.`).waitFor();
    expect(
      await h.db.prisma.category.findUniqueOrThrow({ where: { slug: `kitchen-${tag}` } }),
    ).toMatchObject({ names: { en: 'Kitchen', es: 'Cocina' } });

    // A platform catalog with the product, found by typing its name.
    const catalogName = `Coffee corner ${tag}`;
    await page.getByRole('textbox', { name: 'Catalog name' }).fill(catalogName);
    await pick(page, 'Products in the new catalog', product.name, 'Espresso');
    await page.getByRole('button', { name: 'Create catalog' }).click();
    const catalogRow = page.getByTestId('catalogs-table').locator('tr', { hasText: catalogName });
    await catalogRow.waitFor();
    await expect(catalogRow.innerText()).resolves.toMatch(/Platform\s+approved\s+1/i);
    const catalog = await h.db.prisma.catalog.findFirstOrThrow({
      where: { name: catalogName },
      include: { products: true },
    });
    expect(catalog.products.map((p) => p.productId)).toEqual([product.id]);

    // Its products replaced by none: asked first.
    await pick(page, 'Catalog to change', catalogName, catalogName);
    await page.getByRole('button', { name: 'Replace products…' }).click();
    await page
      .getByRole('dialog')
      .getByText(/exactly these 0 product\(s\)\? It holds 1 now/)
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Replace products' }).click();
    await expect.poll(() => catalogRow.innerText()).toMatch(/approved\s+0/i);
    // Gone, with the focus it gives back on closing, before the next field is typed in.
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // A store of the sub-brand showing the catalog: a bad slug first.
    await page.getByRole('textbox', { name: 'Store name' }).fill('Coffee store');
    const storeSlug = page.getByRole('textbox', { name: 'Store slug' });
    await storeSlug.fill('coffee store');
    await pick(page, 'Catalogs it shows', catalogName, catalogName);
    await page.getByRole('button', { name: 'Create store' }).click();
    await expect.poll(() => storeSlug.getAttribute('aria-invalid')).toBe('true');
    await storeSlug.fill(`coffee-${tag}`);
    await page.getByRole('button', { name: 'Create store' }).click();
    const storeRow = page.getByTestId('stores-table').locator('tr', { hasText: `coffee-${tag}` });
    await storeRow.waitFor();
    await expect(storeRow.innerText()).resolves.toContain(catalogName);
    await expect(storeRow.innerText()).resolves.toContain(subBrand.name);
    expect(
      await h.db.prisma.store.findFirstOrThrow({ where: { slug: `coffee-${tag}` } }),
    ).toMatchObject({ subBrandId: subBrand.id, catalogIds: [catalog.id] });
    await checkScreen(page, 'catalog-setup-done');
    await context.close();
  });

  it('adds a variant and an image to an existing product, and removes the image after asking', async () => {
    const { context, page } = await signedIn(`/catalog/products/${product.id}`);
    await page.getByRole('heading', { name: 'Add a variant' }).waitFor();

    const sku = page.getByRole('textbox', { name: 'New variant SKU' });
    await sku.fill(product.sku); // taken
    await page.getByRole('button', { name: 'Add variant' }).click();
    await page.getByText(/A variant with SKU .* already exists/).waitFor();
    await sku.fill('bad sku');
    await page.getByRole('button', { name: 'Add variant' }).click();
    await expect.poll(() => sku.getAttribute('aria-invalid')).toBe('true');
    await sku.fill(`${product.sku}-XL`);
    await page.getByRole('textbox', { name: 'Attributes' }).fill('size=XL, colour');
    await page.getByRole('button', { name: 'Add variant' }).click();
    await page.getByText('must be name=value pairs separated by commas').waitFor();
    await page.getByRole('textbox', { name: 'Attributes' }).fill('size=XL, colour=black');
    await page.getByRole('textbox', { name: 'Units (test and live)' }).fill('12');
    await page.getByRole('button', { name: 'Add variant' }).click();
    await page.getByTestId(`variant-${product.sku}-XL`).waitFor();
    const variant = await h.db.prisma.productVariant.findUniqueOrThrow({
      where: { sku: `${product.sku}-XL` },
      include: { stock: true },
    });
    expect(variant).toMatchObject({ attributes: { size: 'XL', colour: 'black' }, position: 1 });
    expect(variant.stock.map((s) => s.available)).toEqual([12, 12]);

    // B5: re-picking the sub-brand the listing form starts with keeps it, so "Add listing" works.
    const target = page
      .getByRole('textbox', { name: 'List for sub-brand' })
      .or(page.getByRole('combobox', { name: 'List for sub-brand' }))
      .first();
    const label = await target.inputValue();
    expect(label).toContain(subBrand.name);
    await target.click();
    await page.getByRole('option', { name: label, exact: true }).click();
    await expect.poll(() => target.inputValue()).toBe(label);
    await page.getByRole('textbox', { name: 'Base cost' }).first().fill('12.50');
    await page.getByRole('button', { name: 'Add listing' }).first().click();
    const first = await h.db.prisma.productVariant.findUniqueOrThrow({
      where: { sku: product.sku },
    });
    await expect
      .poll(() =>
        h.db.prisma.listingMarket.count({
          where: { subBrandId: subBrand.id, variantId: first.id, baseCost: 1250 },
        }),
      )
      .toBe(1);

    const url = page.getByRole('textbox', { name: 'Image URL' });
    await url.fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Add image' }).click();
    await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
    await url.fill('https://cdn.example.com/espresso.jpg');
    await page.getByRole('button', { name: 'Add image' }).click();
    await page.getByTestId('images').getByText('https://cdn.example.com/espresso.jpg').waitFor();
    await checkScreen(page, 'product-additions');
    await page.getByRole('button', { name: 'Remove image 1…' }).click();
    await page
      .getByRole('dialog')
      .getByText(/Remove image 1/)
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No images yet.').waitFor();
    expect(
      (await h.db.prisma.product.findUniqueOrThrow({ where: { id: product.id } })).images,
    ).toEqual([]);
    await context.close();
  });
});

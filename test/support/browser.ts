// Debian's Chromium driven by playwright-core, kept off the network (node-svc.md lists the flags),
// plus the axe-core check every screen must pass, and screenshots kept as test artefacts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';
import { WEB_DIST } from '../../src/backoffice/router.js';
import { ROOT } from './server-process.js';
import { STAFF_PASSWORD } from './staff.js';

// A browser walk signs in, renders and runs axe on several pages; on CI's two cores beside the
// other suites one such walk took over the global 30 s on the embedded database (a timeout, not a
// fault), so the e2e describes take this budget. A walk that hangs still fails, at two minutes.
export const BROWSER_WALK = { timeout: 120_000 };

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`,
    );
  if (!existsSync(path.join(WEB_DIST, 'index.html')))
    throw new Error('The backoffice is not built: npm run web:build.');
  // Playwright gives every launch a fresh, empty profile (--user-data-dir in a new temp folder).
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export type AxeViolation = {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[] }[];
};

/** Serious and critical axe-core violations of the page as it is now, one line each. */
export async function seriousViolations(page: Page | Frame): Promise<string[]> {
  return violations(page, ['serious', 'critical']);
}

/** axe-core's violations of the page (or frame) as it is now, of these impacts, one line each. */
export async function violations(
  page: Page | Frame,
  impacts = ['minor', 'moderate', 'serious', 'critical'],
): Promise<string[]> {
  // A colour transition in flight (a button's just after a click; a dialog fading in) was measured
  // half-way by the contrast rule under the whole suite's load. Mantine starts a dialog's
  // transition a frame after the dialog is in the page, so one look at getAnimations() can find
  // nothing yet: wait two frames, let every finite animation end, and look again until none runs.
  await page.evaluate(async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(() => done(undefined)));
    for (let round = 0; round < 10; round++) {
      await frame();
      await frame();
      const running = document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
  // Evaluated over the DevTools protocol, so the page's Content-Security-Policy does not block it.
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (ctx: Document, o: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return found
    .filter((v) => impacts.includes(v.impact))
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

/** test-results/<area>/<db>/: screenshots and measured figures, kept by CI as artefacts. */
export function artefactDir(db: string, area: 'backoffice' | 'marketplace' = 'backoffice'): string {
  const dir = path.join(ROOT, 'test-results', area, db);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export async function screenshot(page: Page, dir: string, name: string): Promise<void> {
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

export function writeFigure(dir: string, name: string, value: unknown): void {
  const file = path.join(dir, 'figures.json');
  const figures = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as object) : {};
  writeFileSync(file, JSON.stringify({ ...figures, [name]: value }, null, 2));
}

/** Signs a staff member in to the backoffice at `base`, landing on `next` (a backoffice path). */
export async function signInToBackoffice(
  page: Page,
  base: string,
  email: string,
  next: string,
  password = STAFF_PASSWORD,
): Promise<void> {
  await page.goto(`${base}/admin/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * A Mantine Select or MultiSelect: open it by its label (within `scope`), type to narrow when
 * `type` is given, choose the option. Opened again, up to three times, when its list closed
 * before the option could be clicked: on CI's two loaded cores a list once closed while its
 * options were still settling (the option "not stable", then hidden), which a person, slower than
 * a script, would open again too. What was chosen is for the caller to check.
 */
export async function pickOption(
  page: Page,
  label: string,
  option: string | RegExp,
  {
    type,
    scope = page,
    exact = false,
  }: { type?: string; scope?: Page | Locator; exact?: boolean } = {},
): Promise<void> {
  const input = scope
    .getByRole('textbox', { name: label, exact })
    .or(scope.getByRole('combobox', { name: label, exact }))
    .first();
  const choice = page.getByRole('option', { name: option, exact });
  for (let attempt = 1; ; attempt++) {
    await input.click();
    if (type) await input.fill(type);
    try {
      await choice.click({ timeout: 4_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

// The backoffice's Webhooks screens end to end in Chromium (issue 31), as an establishment
// operator: an endpoint added for a receiver on loopback (its event types picked from the list,
// by a word of a type's description and by keyboard; a plain-http URL on a public host refused at
// its field first), its signing secret shown once and verified by the `standardwebhooks` package
// on what arrives after a coin adjustment; on the endpoint's page the delivery with its attempt,
// an event redelivered (the receiver answers 500 this time: the attempt's error is shown), a new
// secret, a replay of a period, the endpoint turned off; the event log newest first, filtered by
// a type picked from the list, with an event's data; the screens at 390 px. Then read-only
// support pages back through the log. axe on every screen. The relay and the sender are drained
// by hand, on a database of the file's own.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  BROWSER_WALK,
  artefactDir,
  launchChromium,
  screenshot,
  seriousViolations,
} from '../support/browser.js';
import { eventWorkers, webhookReceiver } from '../support/events.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { createStaff, STAFF_PASSWORD } from '../support/staff.js';

let h: Harness;
let browser: Browser;
let api: Awaited<ReturnType<typeof partner>>;
let operator: { email: string };
let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
let workers: ReturnType<typeof eventWorkers>;
/** The first test's customer and its coin movement's event id. */
let customerId: string;
let creditEventId: string;
const dir = artefactDir(TEST_DB);

beforeAll(async () => {
  // The relay and the sender read every tenant's rows: a database of this file's own.
  h = await startHarness({ ownDatabase: true });
  browser = await launchChromium();
  api = await partner(h);
  operator = await createStaff(h.db.prisma, 'establishment_operator', {
    subBrandId: api.subBrandId,
  });
  // The second request (the redelivery) is answered 500.
  receiver = await webhookReceiver((_r, n) => (n === 2 ? 500 : 200));
  workers = eventWorkers(h);
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await browser?.close();
  await h?.close();
});

async function checkScreen(page: Page, name: string) {
  await screenshot(page, dir, name);
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

/** The input of a Mantine MultiSelect, by its label. */
const multiSelect = (scope: Page | Locator, label: string) =>
  scope
    .getByRole('textbox', { name: label, exact: true })
    .or(scope.getByRole('combobox', { name: label, exact: true }))
    .first();

/** The types a MultiSelect holds, as its hidden input submits them. */
const picked = (scope: Page | Locator) =>
  scope.locator('input[type="hidden"]').first().inputValue();

describe(`the Webhooks screens in Chromium (${TEST_DB})`, BROWSER_WALK, () => {
  it('adds an endpoint, shows its secret once, and shows the delivery and the event', async () => {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`${h.url}/admin/sign-in?next=${encodeURIComponent('/webhooks')}`);
    await page.getByRole('textbox', { name: 'E-mail' }).fill(operator.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(STAFF_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Screens' });
    await nav.getByRole('link', { name: 'Webhooks' }).waitFor();
    await page.getByText('No endpoints yet').waitFor();
    await checkScreen(page, 'webhooks-empty');

    // Added: the types picked from the list (none picked means all, the field says); a plain-http
    // URL on a public host is refused at its field; then the secret is shown once.
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add an endpoint' });
    const url = form.getByRole('textbox', { name: 'Endpoint URL' });
    await url.fill('http://crm.example.com/hooks');
    await form.getByText('Leave empty for all event types, including ones added later').waitFor();
    const types = multiSelect(form, 'Event types');
    // By a word of its description, then clicked…
    await types.click();
    await types.fill('credited');
    const option = page.getByRole('option', { name: /^coin_movement\.created/ });
    await expect(option.innerText()).resolves.toMatch(/Coins were credited or debited/);
    await expect(page.getByRole('option').count()).resolves.toBe(1);
    await checkScreen(page, 'webhooks-form-types');
    await option.click();
    // …and by keyboard alone: typed, the first match chosen with the arrow and Enter.
    await types.fill('order.sh');
    await expect(page.getByRole('option').count()).resolves.toBe(1);
    await types.press('ArrowDown');
    await types.press('Enter');
    await expect.poll(() => picked(form)).toBe('coin_movement.created,order.shipped');
    await types.press('Escape');
    await form.getByRole('textbox', { name: 'Description' }).fill('Loyalty CRM');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await form
      .getByText('must be https (plain http only on loopback, for a local receiver)', {
        exact: true,
      })
      .waitFor();
    await expect(url.getAttribute('aria-invalid')).resolves.toBe('true');
    // The refusal keeps what was picked; Backspace drops the last type.
    await expect(picked(form)).resolves.toBe('coin_movement.created,order.shipped');
    await types.click();
    await types.press('Backspace');
    await expect.poll(() => picked(form)).toBe('coin_movement.created');
    await types.press('Escape');
    await url.fill(receiver.url);
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    await shown.getByText('You will not see it again').waitFor();
    await shown.getByRole('button', { name: 'Copy secret' }).waitFor();
    const secret = (await shown.getByTestId('webhook-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await checkScreen(page, 'webhooks-secret');
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    await shown.waitFor({ state: 'detached' });
    const row = page.getByTestId('webhook-endpoints').locator('tbody tr', {
      hasText: receiver.url,
    });
    await expect(row.innerText()).resolves.toMatch(
      /\bon\b[\s\S]*coin_movement\.created[\s\S]*CRM/i,
    );
    await expect(row.innerText()).resolves.not.toContain('order.shipped');
    await expect(page.getByText(secret).count()).resolves.toBe(0);

    // An event: coins credited through the partner API, relayed and sent.
    const customer = await api.customer({ first_name: 'Hook', last_name: 'Tester' });
    customerId = customer.id;
    await api.credit(customer.id, 250, 'Welcome bonus');
    await workers.drain();
    expect(receiver.received.map((r) => r.json.type)).toEqual(['coin_movement.created']);
    const [sent] = receiver.received;
    creditEventId = sent!.id;
    expect(
      new Webhook(secret).verify(sent!.body, {
        'webhook-id': sent!.id,
        'webhook-timestamp': sent!.timestamp,
        'webhook-signature': sent!.signature,
      }),
    ).toEqual(sent!.json);

    // The endpoint's page: the delivery and its attempt; a redelivery, answered 500 this time.
    await row.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor();
    const delivery = page.getByTestId('webhook-deliveries').locator('tbody tr').first();
    await expect(delivery.innerText()).resolves.toMatch(
      new RegExp(
        `coin_movement\\.created[\\s\\S]*${sent!.id}[\\s\\S]*succeeded[\\s\\S]*answered 200`,
        'i',
      ),
    );
    await checkScreen(page, 'webhook-endpoint');
    await delivery.getByRole('button', { name: /^Redeliver/ }).click();
    await page
      .getByRole('dialog', { name: 'Redeliver this event?' })
      .getByText(receiver.url)
      .waitFor();
    await page.getByRole('button', { name: 'Redeliver', exact: true }).click();
    await page.getByText('Event queued to be sent again.').waitFor();
    await workers.drain();
    expect(receiver.received.map((r) => r.id)).toEqual([sent!.id, sent!.id]);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const again = page.getByTestId('webhook-deliveries').locator('tbody tr').first();
    await expect
      .poll(() => again.innerText())
      .toMatch(/pending[\s\S]*sent again on request[\s\S]*next try[\s\S]*answered 500/i);
    await expect(page.getByTestId('webhook-deliveries').locator('tbody tr').count()).resolves.toBe(
      2,
    );

    await checkScreen(page, 'webhook-endpoint-retrying');

    // The edit form starts from the endpoint's types.
    await page.getByRole('button', { name: /^Edit/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the endpoint' });
    await expect.poll(() => picked(edit)).toBe('coin_movement.created');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'detached' });

    // A new secret: the old one keeps signing for 24 h, the new one is shown once.
    await page.getByRole('button', { name: /^New secret/ }).click();
    await page
      .getByRole('dialog', { name: 'Make a new signing secret?' })
      .getByText(/keeps signing events too for 24 hours/)
      .waitFor();
    await page.getByRole('button', { name: 'Make a new secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'Signing secret' });
    await rotated.getByText(/old secret keeps signing too until/).waitFor();
    const fresh = (await rotated.getByTestId('webhook-secret').innerText()).trim();
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    await rotated.getByRole('button', { name: 'I have stored it' }).click();
    await rotated.waitFor({ state: 'detached' });

    // A replay of a period (dates as an operator types them, in UTC), asked first.
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    await page.getByRole('textbox', { name: 'From (UTC)' }).fill(day(-1));
    await page.getByRole('textbox', { name: 'To (UTC, not included)' }).fill(day(1));
    await page.getByRole('button', { name: 'Replay…' }).click();
    await page
      .getByRole('dialog', { name: 'Replay this period?' })
      .getByText(`from ${day(-1)}T00:00:00Z up to ${day(1)}T00:00:00Z`)
      .waitFor();
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await page.getByText('1 event queued to be sent again.').waitFor();

    // Turned off, asked first: its state says why.
    await page.getByRole('button', { name: /^Turn off/ }).click();
    await page.getByRole('dialog', { name: 'Turn the endpoint off?' }).waitFor();
    await page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await page.getByText('Disabled by its owner.').waitFor();
    await page.getByRole('button', { name: /^Turn on/ }).waitFor();

    // The event log, newest first, filtered by a type picked from the list, with the event's data.
    await nav.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    const log = page.getByTestId('events-table');
    await log.locator('tbody tr', { hasText: 'customer.created' }).waitFor();
    await expect(log.locator('tbody tr').allInnerTexts()).resolves.toEqual([
      expect.stringContaining('coin_movement.created'),
      expect.stringContaining('customer.created'),
    ]);
    await expect(page.getByRole('button', { name: 'Older events' }).isDisabled()).resolves.toBe(
      true,
    );
    const filter = multiSelect(page, 'Event types');
    await filter.click();
    await filter.fill('coin_movement');
    await page.getByRole('option', { name: /^coin_movement\.created/ }).click();
    await filter.press('Escape');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.url()).toContain('types=coin_movement.created');
    await expect.poll(() => log.locator('tbody tr').count()).toBe(1);
    await log.getByRole('button', { name: `Show data of event ${sent!.id}` }).click();
    const data = await log.getByTestId('event-data').innerText();
    expect(JSON.parse(data)).toMatchObject({ customer_id: customer.id, delta: 250 });
    await checkScreen(page, 'events');

    // At 390 px: the screens reflow, still accessible.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [
      ['/webhooks', 'webhooks'],
      ['/events', 'events'],
    ] as const) {
      await page.goto(`${h.url}/admin${path}`);
      await page
        .getByRole('heading', { name: name === 'events' ? 'Events' : 'Webhooks' })
        .waitFor();
      await page.locator('tbody tr').first().waitFor();
      await checkScreen(page, `${name}-390`);
      // The screen's own content: its tables scroll sideways in their frames, the page does not.
      const main = await page.evaluate(() => {
        const m = document.querySelector('main')!;
        return { scroll: m.scrollWidth, client: m.clientWidth };
      });
      expect(main.scroll, path).toBeLessThanOrEqual(main.client);
    }
    await context.close();
    // A long walk: under the whole suite on 2 cores it takes more than the default 30 s.
  }, 90_000);

  it('read-only support pages back through the event log; the endpoints are not offered', async () => {
    // 50 more events (a page's worth): the first test's two are then on the older page.
    for (let i = 0; i < 5; i++)
      await Promise.all(Array.from({ length: 10 }, () => api.credit(customerId, 1)));
    await workers.drain();
    const support = await createStaff(h.db.prisma, 'support', { subBrandId: api.subBrandId });
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`${h.url}/admin/sign-in?next=${encodeURIComponent('/events')}`);
    await page.getByRole('textbox', { name: 'E-mail' }).fill(support.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(STAFF_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    const log = page.getByTestId('events-table');
    const rows = log.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    const newest = await rows.first().getAttribute('data-event-id');
    await expect(rows.first().innerText()).resolves.toContain('coin_movement.created');
    await expect(page.getByRole('button', { name: 'Newest' }).count()).resolves.toBe(0);
    // Older: the first test's two events, the credit then (oldest, last) the customer.
    await page.getByRole('button', { name: 'Older events' }).click();
    await expect.poll(() => page.url()).toContain('after=');
    await expect.poll(() => rows.count()).toBe(2);
    await expect(rows.allInnerTexts()).resolves.toEqual([
      expect.stringContaining('coin_movement.created'),
      expect.stringContaining('customer.created'),
    ]);
    await expect(rows.first().getAttribute('data-event-id')).resolves.toBe(creditEventId);
    await expect(page.getByRole('button', { name: 'Older events' }).isDisabled()).resolves.toBe(
      true,
    );
    const row = log.locator(`tbody tr[data-event-id="${creditEventId}"]`);
    await row.getByRole('button', { name: /^Show data/ }).click();
    const data = await log.getByTestId('event-data').innerText();
    expect(JSON.parse(data)).toMatchObject({ customer_id: customerId, delta: 250 });
    await page.getByRole('button', { name: 'Newest' }).click();
    await expect.poll(() => page.url()).not.toContain('after=');
    await expect.poll(() => rows.first().getAttribute('data-event-id')).toBe(newest);
    await expect.poll(() => rows.count()).toBe(50);
    const nav = page.getByRole('navigation', { name: 'Screens' });
    await expect(nav.getByRole('link', { name: 'Events' }).count()).resolves.toBe(1);
    await expect(nav.getByRole('link', { name: 'Webhooks' }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Webhook endpoints' }).count()).resolves.toBe(0);
    await expect(
      page.getByRole('button', { name: /Send to endpoints again/ }).count(),
    ).resolves.toBe(0);
    await context.close();
  });
});

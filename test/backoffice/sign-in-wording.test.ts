// Small backoffice fixes seen over HTTP (issue 35): a throttled sign-in says how long to wait as
// a person would (B13), and the page's favicon exists (B11).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inHumanTerms, WEB_DIST } from '../../src/backoffice/router.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createStaff, STAFF_PASSWORD } from '../support/staff.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('a throttled sign-in', () => {
  it('says the wait in seconds under a minute, else in minutes rounded up', () => {
    expect(inHumanTerms(0)).toBe('1 second');
    expect(inHumanTerms(1)).toBe('1 second');
    expect(inHumanTerms(40)).toBe('40 seconds');
    expect(inHumanTerms(59)).toBe('59 seconds');
    expect(inHumanTerms(60)).toBe('1 minute');
    expect(inHumanTerms(61)).toBe('2 minutes');
    expect(inHumanTerms(894)).toBe('15 minutes');
    expect(inHumanTerms(900)).toBe('15 minutes');
  });

  it('tells a locked e-mail to try again in 15 minutes, not in 894 s', async () => {
    const staff = await createStaff(h.db.prisma, 'support');
    const signIn = (password: string) =>
      h.call('POST', '/admin/api/sign-in', { body: { email: staff.email, password } });
    for (let i = 0; i < 5; i++) expect((await signIn(`wrong password ${i}`)).status).toBe(401);
    const locked = await signIn(STAFF_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.error.message).toBe('Too many sign-in attempts. Try again in 15 minutes.');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
  });
});

describe('the favicon', () => {
  it('is named by the page and answers 200 with an SVG', async () => {
    const page = await h.call('GET', '/admin/');
    const href = /<link rel="icon"[^>]*href="([^"]+)"/.exec(page.text)?.[1];
    expect(href).toBe('/admin/favicon.svg');
    const icon = await fetch(h.url + href);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await icon.text()).toBe(readFileSync(path.join(WEB_DIST, 'favicon.svg'), 'utf8'));
  });
});

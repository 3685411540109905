// The public tracking page behind a reservation's trackUrl: status and history, nothing about
// the person, every value escaped; a forged or altered token opens nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { ADDRESS, establishmentShop } from '../establishment/orders-support.js';
import { bootOf } from '../marketplace/support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('the tracking page', () => {
  it('shows status and history, escapes what was typed, and shows no personal data', async () => {
    const s = await establishmentShop(h, { kind: 'physical' });
    const player = await s.player(s.listing.coin_price, { email: 'secret.person@example.com' });
    const r = await s.reserved(player);
    await s.send(player, r.transactionId, { ...ADDRESS, firstName: 'Zelda<i>' });
    await s.post(
      s.at('track', player, r.transactionId),
      { trackingNumber: '<img src=x onerror=alert(1)>' },
      null,
    );
    const path = new URL(r.trackUrl).pathname;
    expect(path).toBe(`/track/${r.trackToken}`);
    const page = await h.call('GET', path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/html/);
    // The marketplace app renders it, in the establishment's look, from its JSON block.
    const boot = bootOf(page.text);
    expect(boot).toMatchObject({
      page: 'track',
      tracking: {
        reference: r.reference,
        status: 'pending',
        tracking: ['<img src=x onerror=alert(1)>'],
      },
    });
    expect(page.text).not.toContain('<img');
    for (const personal of [
      'secret.person',
      'Zelda',
      'Calle Mayor',
      '28013',
      String(s.listing.coin_price),
    ])
      expect(page.text).not.toContain(personal);

    await s.acquire(player, r.transactionId);
    const later = bootOf((await h.call('GET', path)).text).tracking;
    expect(later.status).toBe('delivered');
    expect(later.history.map((step: { what: string }) => step.what)).toEqual(
      expect.arrayContaining(['processing', 'shipped', 'delivered', 'tracking number registered']),
    );
  });

  it('a forged or altered token is 404', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const other = await s.reserved(await s.player(s.listing.coin_price));
    const [payload] = (r.trackToken as string).split('.');
    const [, signature] = (other.trackToken as string).split('.');
    for (const token of [`${payload}.${signature}`, 'ot_nope.nope', `${r.trackToken}x`]) {
      const res = await h.call('GET', `/track/${token}`);
      expect(res.status, token).toBe(404);
      expect(res.text).not.toContain(r.reference);
    }
  });
});

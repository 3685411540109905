// The integration guide, run as written: every curl line of /api/v1/guide is parsed and sent
// against a server holding the demo tenant (create customer, credit, list products, reserve,
// read shipping), with the values a reader would copy from one answer into the next.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemo } from '../../src/domain/tenancy/ensure-demo.js';
import { call, startHarness, type Harness } from '../support/harness.js';
import { backoffice } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const unescape = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

type Curl = { url: string; headers: Record<string, string>; body: string | undefined };

/** Just enough of a shell to read the guide's curl lines: quotes, -H, -d and $VARIABLES. */
function parseCurl(line: string, vars: Record<string, string>): Curl {
  const text = line
    .replace(/\\\n\s*/g, ' ')
    .replace(/'\$(\w+)'/g, (_m, name: string) => vars[name]!) // '...'$VAR'...' splices a value
    .replace(/\$(\w+)/g, (_m, name: string) => vars[name] ?? `$${name}`);
  const tokens = [...text.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  const curl: Curl = { url: '', headers: {}, body: undefined };
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '-s') continue;
    if (t === '-H') {
      const [name, ...value] = tokens[++i]!.split(':');
      curl.headers[name!.toLowerCase()] = value.join(':').trim();
    } else if (t === '-d') curl.body = tokens[++i];
    else curl.url = t;
  }
  return curl;
}

describe('the integration guide', () => {
  it('runs end to end against the demo tenant, as written', async () => {
    const demo = await ensureDemo(h.db.prisma);
    const page = await h.call('GET', '/api/v1/guide');
    const lines = [...page.text.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
      unescape(m[1]!),
    );
    expect(lines).toHaveLength(6);
    const vars: Record<string, string> = { KEY: demo.apiKey.key };
    const send = async (line: string) => {
      const c = parseCurl(line, vars);
      expect(c.url.startsWith(h.url)).toBe(true);
      const res = await call(h.url, c.body ? 'POST' : 'GET', c.url.slice(h.url.length), {
        headers: c.headers,
        body: c.body === undefined ? undefined : JSON.parse(c.body),
      });
      expect(res.status, `${line}\n${res.text}`).toBeLessThan(300);
      return res.body;
    };
    const [health, createCustomer, credit, products, reserve, shipping] = lines as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];

    expect((await send(health)).data.sub_brand_id).toBe(demo.subBrandId);
    const customer = (await send(createCustomer)).data;
    expect(customer).toMatchObject({ external_id: 'player-42', coin_balance: 0 });
    vars.CUSTOMER_ID = customer.id;
    const movement = (await send(credit)).data;
    expect(movement.balance_after).toBeGreaterThan(0);

    const found = (await send(products)).data;
    expect(found.length).toBeGreaterThan(0);
    const listing = found[0].variants[0].listings[0];
    expect(listing.coin_price).toBeLessThanOrEqual(movement.balance_after);
    vars.LISTING_ID = listing.listing_market_id;

    const order = (await send(reserve)).data;
    expect(order).toMatchObject({
      customer_id: customer.id,
      status: 'pending',
      total_coins: listing.coin_price,
    });
    vars.ORDER_ID = order.id;
    expect((await send(shipping)).data).toMatchObject({
      order_id: order.id,
      status: 'pending',
      recipient_name: 'Ana García',
      items: [expect.objectContaining({ carrier: null, tracking_code: null })],
    });
    const balance = await h.call('GET', `/api/v1/customers/${customer.id}/coins`, {
      key: vars.KEY,
    });
    expect(balance.body.data.balance).toBe(movement.balance_after - listing.coin_price);

    // Fulfilment ships it; the same shipping call then shows the tracking.
    const bo = await backoffice(h);
    await bo.move(order.id, 'processing');
    await bo.track(order.items[0].id, 'Correos', 'PK0001ES');
    await bo.move(order.id, 'shipped');
    expect((await send(shipping)).data).toMatchObject({
      status: 'shipped',
      items: [expect.objectContaining({ carrier: 'Correos', tracking_code: 'PK0001ES' })],
    });
  });
});

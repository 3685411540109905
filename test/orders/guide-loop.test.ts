// The integration guide, run as written: every line of /api/v1/guide is parsed as the shell would
// (curl, and `VAR=$(curl … | jq -r PATH)` captures) and sent against a server holding the demo
// tenant: create customer, credit, engine event, list products, reserve, ship in test mode, read
// shipping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemo } from '../../src/domain/tenancy/ensure-demo.js';
import { call, startHarness, type Harness } from '../support/harness.js';

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

type Curl = {
  method: string | undefined;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
};
/** A guide line: a curl call, maybe captured as `VAR=$(curl … | jq -r PATH)`. */
type Line = { curl: Curl; capture?: { name: string; path: string } };

/** Just enough of a shell to read the guide's lines: quotes, -X, -H, -d, $VARIABLES, `| jq -r`. */
function parseLine(line: string, vars: Record<string, string>): Line {
  let text = line
    .replace(/\\\n\s*/g, ' ')
    .replace(/'\$(\w+)'/g, (_m, name: string) => vars[name]!) // '...'$VAR'...' splices a value
    .replace(/\$(\w+)/g, (_m, name: string) => vars[name] ?? `$${name}`)
    .trim();
  let capture: Line['capture'];
  const assignment = /^(\w+)=\$\((.*)\)$/s.exec(text);
  if (assignment) {
    const [, name, inner] = assignment;
    const piped = /^(.*)\|\s*jq -r\s+('[^']*'|\S+)\s*$/s.exec(inner!);
    if (!piped) throw new Error(`a capture without | jq -r: ${line}`);
    capture = { name: name!, path: piped[2]!.replace(/^'|'$/g, '') };
    text = piped[1]!.trim();
  }
  const tokens = [...text.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  if (tokens[0] !== 'curl') throw new Error(`not a curl line: ${line}`);
  const curl: Curl = { method: undefined, url: '', headers: {}, body: undefined };
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '-s') continue;
    if (t === '-X') curl.method = tokens[++i];
    else if (t === '-H') {
      const [name, ...value] = tokens[++i]!.split(':');
      curl.headers[name!.toLowerCase()] = value.join(':').trim();
    } else if (t === '-d') curl.body = tokens[++i];
    else curl.url = t;
  }
  return capture ? { curl, capture } : { curl };
}

/** What `jq -r` prints for the guide's paths (`.a.b[0].c`). */
function jqPath(value: unknown, path: string): string {
  let current: any = value;
  for (const [, key, index] of path.matchAll(/\.(\w+)|\[(\d+)\]/g)) {
    current = key !== undefined ? current?.[key] : current?.[Number(index)];
  }
  return current === null || current === undefined ? 'null' : String(current);
}

describe('the integration guide', () => {
  it('runs end to end against the demo tenant, as written', async () => {
    const demo = await ensureDemo(h.db.prisma);
    const page = await h.call('GET', '/api/v1/guide');
    const lines = [...page.text.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) =>
      unescape(m[1]!),
    );
    expect(lines).toHaveLength(9);
    const vars: Record<string, string> = { KEY: demo.apiKey.key };
    /** Runs a line as a shell would; a captured id lands in `vars`. */
    const send = async (line: string) => {
      const { curl: c, capture } = parseLine(line, vars);
      expect(c.url.startsWith(h.url)).toBe(true);
      const method = c.method ?? (c.body ? 'POST' : 'GET');
      const res = await call(h.url, method, c.url.slice(h.url.length), {
        headers: c.headers,
        body: c.body === undefined ? undefined : JSON.parse(c.body),
      });
      expect(res.status, `${line}\n${res.text}`).toBeLessThan(300);
      if (capture) {
        vars[capture.name] = jqPath(res.body, capture.path);
        expect(vars[capture.name], line).toMatch(/^[0-9a-f-]{36}$/);
      }
      return res.body;
    };
    const [health, createCustomer, credit, event, products, reserve, advance, shipping, hooks] =
      lines as [string, string, string, string, string, string, string, string, string];

    expect((await send(health)).data.sub_brand_id).toBe(demo.subBrandId);
    const customer = (await send(createCustomer)).data;
    expect(customer).toMatchObject({
      id: vars.CUSTOMER_ID,
      external_id: 'player-42',
      coin_balance: 0,
    });
    const movement = (await send(credit)).data;
    expect(movement.balance_after).toBe(5000);
    const granted = (await send(event)).data;
    expect(granted).toMatchObject({
      status: 'completed',
      customer_id: customer.id,
      points_applied: 10,
      balance_after: 5010,
    });

    await send(products);
    const listing = (await h.call('GET', `/api/v1/products?q=voucher&limit=10`, { key: vars.KEY }))
      .body.data[0].variants[0].listings[0];
    expect(vars.LISTING_ID).toBe(listing.listing_market_id);
    expect(listing.coin_price).toBeLessThanOrEqual(granted.balance_after);

    const order = (await send(reserve)).data;
    expect(order).toMatchObject({
      id: vars.ORDER_ID,
      customer_id: customer.id,
      status: 'pending',
      total_coins: listing.coin_price,
    });
    expect((await send(shipping)).data).toMatchObject({
      order_id: order.id,
      status: 'pending',
      recipient_name: 'Ana García',
      items: [expect.objectContaining({ carrier: null, tracking_code: null })],
    });
    const balance = await h.call('GET', `/api/v1/customers/${customer.id}/coins`, {
      key: vars.KEY,
    });
    expect(balance.body.data.balance).toBe(granted.balance_after - listing.coin_price);

    // "Run it twice to ship": the test key plays fulfilment; shipping then shows the tracking.
    expect((await send(advance)).data.status).toBe('processing');
    expect((await send(advance)).data.status).toBe('shipped');
    expect((await send(shipping)).data).toMatchObject({
      status: 'shipped',
      items: [
        expect.objectContaining({ carrier: 'Test Carrier', tracking_code: expect.any(String) }),
      ],
    });

    // Then be told instead of polling: an endpoint for shipments, its secret shown once.
    expect((await send(hooks)).data).toMatchObject({
      url: 'https://hooks.example.com/rewards',
      event_types: ['order.shipped'],
      status: 'active',
      secret: expect.stringMatching(/^whsec_/),
    });
  });
});

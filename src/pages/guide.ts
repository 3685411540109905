// GET /api/v1/guide: the integration guide, from a key to a shipped order, with curl lines that
// work against this server.
import type { Request } from 'express';
import { baseUrlOf } from '../http/base-url.js';
import { escapeHtml } from './html.js';

type Step = { title: string; text: string; curl?: string };

const steps = (base: string): Step[] => [
  {
    title: '1. Get a key',
    text:
      'Keys are minted per sub-brand in the backoffice (or `npm run admin -- key create …`) and shown once. ' +
      '`svc_test_…` keys work on test data only; `svc_live_…` keys on live data. Keep the key on your server.',
  },
  {
    title: '2. Check it',
    text: 'The health call confirms the key and tells its environment and sub-brand.',
    curl: `curl -s ${base}/api/v1/health -H "Authorization: Bearer $KEY"`,
  },
  {
    title: '3. Mirror a player as a customer',
    text:
      'Send your own player id as `external_id` (unique per sub-brand). Creating needs an `Idempotency-Key`: ' +
      'retry with the same key and body after a timeout and you get the first answer, never a duplicate. ' +
      'The lines below keep the ids they need in shell variables with `jq -r`.',
    curl:
      `CUSTOMER_ID=$(curl -s ${base}/api/v1/customers -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\\n` +
      `  -H "Idempotency-Key: create-player-42" \\\n` +
      `  -d '{"external_id":"player-42","first_name":"Ana","last_name":"García","country":"ES"}' | jq -r .data.id)`,
  },
  {
    title: '4. Credit coins',
    text:
      'A signed integer `delta` credits (positive) or debits (negative). The balance never goes below zero: ' +
      'a debit that would is refused with 409 `insufficient_balance`.',
    curl:
      `curl -s ${base}/api/v1/customers/$CUSTOMER_ID/coins -H "Authorization: Bearer $KEY" \\\n` +
      `  -H "Content-Type: application/json" -H "Idempotency-Key: welcome-bonus-42" -d '{"delta":5000,"reason":"welcome bonus"}'`,
  },
  {
    title: '5. Turn gameplay into coins: engine events',
    text:
      'Send what happens on your platform as events; the rules of the event definition (points, daily cap, ' +
      'cooldown, active window) decide the grant, exactly once per `Idempotency-Key`. `data` names the player by ' +
      'the definition\u2019s player-id field (`externalUserId` unless configured), matched to the customer\u2019s ' +
      '`external_id`. The answer is always 200 for a delivery that passed validation: check `status` (`completed`, ' +
      '`skipped` with a reason, or `failed`). Your operator authors the definitions; the demo tenant has ' +
      '`login.daily` (10 coins, once a day), `deposit.first` and `spin`.',
    curl:
      `curl -s ${base}/api/v1/engine/events -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\\n` +
      `  -H "Idempotency-Key: login-player-42-day-1" \\\n` +
      `  -d '{"event_code":"login.daily","data":{"externalUserId":"player-42"}}'`,
  },
  {
    title: '6. Browse prizes',
    text:
      'Products your sub-brand can order in its market. Each variant lists its `listings`: the ' +
      '`listing_market_id` to order with, the sell price (minor units) and the coin price. Filter with `q`, ' +
      '`category_id` or `catalog_id`. Here the first voucher\u2019s listing is kept.',
    curl:
      `LISTING_ID=$(curl -s "${base}/api/v1/products?q=voucher&limit=10" -H "Authorization: Bearer $KEY" \\\n` +
      `  | jq -r '.data[0].variants[0].listings[0].listing_market_id')`,
  },
  {
    title: '7. Reserve an order',
    text:
      "Spends the customer's coins for the chosen listings and takes the stock, all or nothing: short coins are " +
      '409 `insufficient_balance`, short stock 409 `out_of_stock`. Physical prizes need `recipient_name` and ' +
      '`shipping_address`. Until it ships, `DELETE /api/v1/orders/$ORDER_ID` cancels it and refunds the coins.',
    curl:
      `ORDER_ID=$(curl -s ${base}/api/v1/orders -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\\n` +
      `  -H "Idempotency-Key: order-42-1" \\\n` +
      `  -d '{"customer_id":"'$CUSTOMER_ID'","listing_market_ids":["'$LISTING_ID'"],"recipient_name":"Ana García","shipping_address":"Calle Mayor 1, Madrid"}' \\\n` +
      `  | jq -r .data.id)`,
  },
  {
    title: '8. Test mode: ship it yourself',
    text:
      'Live orders are fulfilled by the operator. With a test key you play that part: each call moves your test ' +
      'order one step (pending → processing → shipped → delivered) and shipping sets a test carrier and tracking ' +
      'code. Run it twice to ship. (A live key gets 403.)',
    curl: `curl -s -X POST ${base}/api/v1/test-helpers/orders/$ORDER_ID/advance -H "Authorization: Bearer $KEY"`,
  },
  {
    title: '9. Follow the shipment',
    text: "Poll the order's shipping: carrier and tracking code per line item once it ships.",
    curl: `curl -s ${base}/api/v1/orders/$ORDER_ID/shipping -H "Authorization: Bearer $KEY"`,
  },
  {
    title: '10. Be told instead of polling: events and webhooks',
    text:
      'Every effect (a coin movement, an order step, an engine grant, a prize) is an event. Read them oldest first ' +
      'with `GET /api/v1/events?type=order.shipped` and its cursor, or register an endpoint and receive each one signed, per Standard ' +
      'Webhooks: verify with the `standardwebhooks` library, e.g. `new Webhook(secret).verify(rawBody, headers)` with ' +
      'the `whsec_` secret shown once, and deduplicate on `webhook-id`. Answer 2xx within 10 s; anything else is ' +
      'retried for 3 days. Every type and its body: the `webhooks` section of /openapi.json.',
    curl:
      `curl -s ${base}/api/v1/webhook-endpoints -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\\n` +
      `  -H "Idempotency-Key: hooks-1" -d '{"url":"https://hooks.example.com/rewards","event_types":["order.shipped"]}'`,
  },
];

export function guidePage(req: Request, publicBaseUrl: string | undefined): string {
  const base = baseUrlOf(req, publicBaseUrl);
  const body = steps(base)
    .map(
      (s) =>
        `<section><h2>${escapeHtml(s.title)}</h2><p>${escapeHtml(s.text).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>${
          s.curl ? `<pre><code>${escapeHtml(s.curl)}</code></pre>` : ''
        }</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Partner Rewards: integration guide</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1b1f}
pre{background:#f4f4f6;padding:1rem;overflow-x:auto;border-radius:6px}code{font-family:ui-monospace,monospace;font-size:.9em}</style>
</head>
<body>
<h1>Integration guide</h1>
<p>The loop every integration follows: create a customer, credit the wallet, turn events into coins, list products,
reserve an order, read shipping. Set <code>KEY</code> to your API key (a test key on the demo: <code>npm run admin -- demo</code>);
the lines use <code>curl</code> and <code>jq</code>. Every answer is <code>{ "data": … }</code>; every error is
<code>{ "error": { "code", "message", "request_id" } }</code>. The full reference is at <a href="/docs">/docs</a>
(machine-readable: <a href="/openapi.json">/openapi.json</a>).</p>
${body}
<section><h2>Good to know</h2><ul>
<li>Lists are cursor-paginated: repeat with <code>cursor=page.next_cursor</code> until <code>page.has_more</code> is false.</li>
<li>Rate limits are per key: 120 reads and 30 writes a minute unless agreed otherwise; watch <code>x-ratelimit-remaining</code> and honour <code>Retry-After</code> on 429.</li>
<li>Only <code>internal_error</code> (500) is worth retrying unchanged; send the same <code>Idempotency-Key</code> when you do.</li>
<li>AI agents get the same operations as MCP tools at <code>POST /api/mcp</code> (same key, scopes and limits); the tool manifest is at <a href="/api/mcp/tools">/api/mcp/tools</a>.</li>
</ul></section>
</body></html>`;
}

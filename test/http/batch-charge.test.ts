// Issue 13 item 2: a JSON-RPC batch on /api/mcp spends one unit per message, so a batch cannot
// escape the write budget; batches are capped.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MCP_BATCH } from '../../src/http/request-charge.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const toolCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const batch = (key: string, messages: unknown[]) =>
  h.call('POST', '/api/mcp', {
    key,
    body: messages,
    headers: { accept: 'application/json, text/event-stream' },
  });

describe('MCP JSON-RPC batches', () => {
  it('a batch of read tool calls spends one read unit per call', async () => {
    const p = await partner(h);
    const key = await p.otherKey({ readLimit: 120 });
    const res = await batch(
      key,
      [1, 2, 3, 4, 5].map((i) => toolCall(i, 'get_health')),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('120');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('115');
  });

  it('a batch of writes larger than the write budget is refused whole: no coins move', async () => {
    const p = await partner(h);
    const customer = await p.customer();
    const key = await p.otherKey({ writeLimit: 10 });
    const calls = Array.from({ length: 12 }, (_, i) =>
      toolCall(i, 'adjust_customer_coins', {
        id: customer.id,
        delta: 1,
        idempotency_key: randomUUID(),
      }),
    );
    const res = await batch(key, calls);
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('rate_limited');
    expect(res.body.error.message).toMatch(/costs 12 units/);
    expect((await p.get(`/api/v1/customers/${customer.id}/coins`)).body.data.balance).toBe(0);
  });

  it(`refuses a batch of more than ${MAX_MCP_BATCH} messages before running any`, async () => {
    const p = await partner(h);
    const customer = await p.customer();
    const calls = Array.from({ length: MAX_MCP_BATCH + 1 }, (_, i) =>
      toolCall(i, 'adjust_customer_coins', {
        id: customer.id,
        delta: 1,
        idempotency_key: `k-${i}`,
      }),
    );
    const res = await batch(p.key, calls);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toMatch(/at most 20 messages/);
    expect((await p.get(`/api/v1/customers/${customer.id}/coins`)).body.data.balance).toBe(0);
  });
});

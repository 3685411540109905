import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimitStore, MemoryCounters } from '../../src/http/rate-limit.js';
import { adminKey, createTenant } from '../support/factories.js';
import { silentLogger, startHarness, type Harness } from '../support/harness.js';
import { TEST_ROUTES } from '../support/test-routes.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ routes: TEST_ROUTES });
});
afterAll(() => h.close());

const health = (key?: string, server = h) =>
  server.call('GET', '/api/v1/health', key ? { key } : {});

describe('rate limits', () => {
  it('default buckets: 120 reads a minute, counted down per request', async () => {
    const { key } = await (await createTenant(h.db.prisma)).key();
    const first = await health(key);
    const second = await health(key);
    expect(first.headers.get('x-ratelimit-limit')).toBe('120');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('119');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('118');
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    const now = Date.now() / 1000;
    expect(reset).toBeGreaterThan(now);
    expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 60);
  });

  it('a burst over the key’s limit gets 429 in the envelope with Retry-After', async () => {
    const { key } = await (await createTenant(h.db.prisma)).key({ readLimit: 5 });
    const replies = await Promise.all(Array.from({ length: 8 }, () => health(key)));
    const ok = replies.filter((r) => r.status === 200);
    const limited = replies.filter((r) => r.status === 429);
    expect(ok).toHaveLength(5);
    expect(limited).toHaveLength(3);
    for (const r of limited) {
      expect(r.body.error.code).toBe('rate_limited');
      expect(r.body.error.request_id).toBe(r.headers.get('x-request-id'));
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
  });

  it('reads and writes spend separate budgets; writes default to 30', async () => {
    const admin = (await adminKey(h.db.prisma)).key;
    const write = await h.call('POST', '/api/v1/test/brands', {
      key: admin,
      body: { name: 'rl' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(write.headers.get('x-ratelimit-limit')).toBe('30');
    expect(write.headers.get('x-ratelimit-remaining')).toBe('29');
    const read = await h.call('POST', '/graphql', {
      key: admin,
      body: { query: '{ brands(first: 1) { edges { cursor } } }' },
    });
    expect(read.headers.get('x-ratelimit-limit')).toBe('120');
    const mutation = await h.call('POST', '/graphql', {
      key: admin,
      body: { query: 'mutation { createBrand(input: { name: "rl2" }) { id } }' },
    });
    expect(mutation.headers.get('x-ratelimit-limit')).toBe('30');
    expect(mutation.headers.get('x-ratelimit-remaining')).toBe('28');
  });

  it('limits are per key: one key exhausted leaves another untouched', async () => {
    const tenant = await createTenant(h.db.prisma);
    const a = (await tenant.key({ readLimit: 2 })).key;
    const b = (await tenant.key({ readLimit: 2 })).key;
    await health(a);
    await health(a);
    expect((await health(a)).status).toBe(429);
    expect((await health(b)).status).toBe(200);
  });

  it('requests without a valid key are counted per address', async () => {
    const res = await health(`svc_live_${'f'.repeat(32)}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-ratelimit-limit')).toBe('120');
  });
});

describe("a process's own counters", () => {
  it('open a window with its first unit, refuse past the limit until it closes, then start again', () => {
    let now = 1_000_000;
    const counters = new MemoryCounters(() => now);
    const spend = (units = 1) => counters.consume('key:a:write', 3, units);
    expect(spend()).toMatchObject({ allowed: true, remaining: 2, retryAfter: 60 });
    now += 30_000;
    expect(spend(2)).toMatchObject({ allowed: true, remaining: 0, retryAfter: 30 });
    const refused = spend();
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 30 });
    expect(refused.resetAt).toBe(Math.ceil((Date.now() + 30_000) / 1000));
    expect(counters.consume('key:b:write', 3, 1).allowed).toBe(true); // another key, its own
    now += 30_000; // the window closed
    expect(spend()).toMatchObject({ allowed: true, remaining: 2, retryAfter: 60 });
    now += 60_000; // both windows closed: the next spend drops them
    counters.consume('key:c:write', 3, 1);
    expect(counters.size).toBe(1);
  });
});

describe('rate limits shared through Redis', () => {
  it('two servers sharing Redis enforce one budget', async () => {
    const prefix = `rl-test-${randomUUID()}`;
    const storeA = createRateLimitStore({ redisUrl: REDIS_URL, prefix, logger: silentLogger });
    const storeB = createRateLimitStore({ redisUrl: REDIS_URL, prefix, logger: silentLogger });
    expect(await storeA.ready()).toBe(true);
    expect(await storeB.ready()).toBe(true);
    const a = await startHarness({ rateLimits: storeA });
    const b = await startHarness({ rateLimits: storeB });
    try {
      const { key } = await (await createTenant(h.db.prisma)).key({ readLimit: 4 });
      const statuses = [];
      for (const server of [a, b, a, b, a, b]) statuses.push((await health(key, server)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      const last = await health(key, b);
      expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    } finally {
      await a.close();
      await b.close();
      await storeA.close();
      await storeB.close();
    }
  });
});
